// The parts of Apple's Image I/O that LinuxAVFoundation does not offer yet.
//
// Each item below is Apple's; when one is implemented, it moves out of this file. Implemented:
// image sources over JPEG, PNG, HEIC, TIFF and GIF data or files (type, count, pixel size, EXIF orientation, TIFF
// make, model and software, EXIF date and lens, images decoded over their own memory, thumbnails
// made from the image, scaled and turned upright), and destinations to data or files writing
// JPEG (with kCGImageDestinationLossyCompressionQuality), PNG, HEIC, TIFF and GIF (TIFF and GIF through libvips).

// Sources: a GIF's other frames (the first is its image) and a TIFF's other pages; a HEIC's EXIF, its other pictures and its depth; embedded thumbnails
//     (kCGImageSourceCreateThumbnailFromImageIfAbsent makes one from the image); auxiliary images
//     (CGImageSourceCopyAuxiliaryDataInfoAtIndex, depth and mattes); GPS and the whole EXIF
//     dictionary; incremental sources (CGImageSourceCreateIncremental, CGImageSourceUpdateData);
//     CGImageSourceGetStatus, CGImageSourceCopyMetadataAtIndex (CGImageMetadata, XMP)
// Destinations: properties written into the file (EXIF, GPS, orientation); several images in one
//     file (animated GIFs, multi-page TIFFs); CGImageDestinationAddImageFromSource, CGImageDestinationCopyImageSource,
//     CGImageDestinationAddAuxiliaryDataInfo; kCGImageDestinationImageMaxPixelSize
