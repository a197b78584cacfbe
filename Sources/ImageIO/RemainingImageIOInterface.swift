// The parts of Apple's Image I/O that LinuxAVFoundation does not offer yet.
//
// Each item below is Apple's; when one is implemented, it moves out of this file. Implemented:
// image sources over JPEG, PNG and HEIC data or files (type, count, pixel size, EXIF orientation, TIFF
// make, model and software, EXIF date and lens, images decoded over their own memory, thumbnails
// made from the image, scaled and turned upright), and destinations to data or files writing
// JPEG (with kCGImageDestinationLossyCompressionQuality), PNG and HEIC.

// Sources: TIFF and GIF decoding; a HEIC's EXIF, its other pictures and its depth; embedded thumbnails
//     (kCGImageSourceCreateThumbnailFromImageIfAbsent makes one from the image); auxiliary images
//     (CGImageSourceCopyAuxiliaryDataInfoAtIndex, depth and mattes); GPS and the whole EXIF
//     dictionary; incremental sources (CGImageSourceCreateIncremental, CGImageSourceUpdateData);
//     CGImageSourceGetStatus, CGImageSourceCopyMetadataAtIndex (CGImageMetadata, XMP)
// Destinations: properties written into the file (EXIF, GPS, orientation); several images in one
//     file; TIFF and GIF; CGImageDestinationAddImageFromSource, CGImageDestinationCopyImageSource,
//     CGImageDestinationAddAuxiliaryDataInfo; kCGImageDestinationImageMaxPixelSize
