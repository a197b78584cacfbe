// The parts of Apple's Image I/O that LinuxAVFoundation does not offer yet.
//
// Each item below is Apple's; when one is implemented, it moves out of this file. Implemented:
// image sources over JPEG, PNG, HEIC, TIFF and GIF data or files (type, count, pixel size, the
// orientation and the TIFF, EXIF and GPS dictionaries of JPEG and HEIC files for the tags the
// photo output writes, images decoded over their own memory, thumbnails made from the image,
// scaled and turned upright), and destinations to data or files writing JPEG (with
// kCGImageDestinationLossyCompressionQuality), PNG, HEIC, TIFF and GIF (TIFF and GIF through
// libvips), the orientation and the TIFF, EXIF and GPS dictionaries written into JPEG, PNG and
// HEIC files as EXIF. Animated GIFs read frame by frame (a TIFF's pages too) with each frame's
// kCGImagePropertyGIFDelayTime (never under a tenth of a second) and UnclampedDelayTime and the
// file's LoopCount and canvas size, and written from several images with their delays and
// CGImageDestinationSetProperties' loop count (for ever when none is given); CGAnimateImageAtURLWithBlock
// and CGAnimateImageDataWithBlock hand a GIF's frames to a block on the main queue, each when due.
// WebP pictures, still and animated, read through libvips (libwebp) with their frames, delays, loop
// count and canvas under kCGImagePropertyWebPDictionary (Apple's Image I/O writes no WebP either);
// an animation's kCGImagePropertyGIFFrameInfoArray (or WebP's) with each frame's delays. Animated
// PNGs (APNG) read and written through FFmpeg: frames composed on the canvas, each frame's
// kCGImagePropertyAPNGDelayTime (never under 50 milliseconds) and UnclampedDelayTime, the file's
// LoopCount, canvas and FrameInfo array under kCGImagePropertyPNGDictionary; several images given
// to a PNG destination become an APNG, as on Apple's platforms. A PNG's chunks under
// kCGImagePropertyPNGDictionary (interlacing, pixels per metre and DPIWidth/DPIHeight, gamma, sRGB
// intent, chromaticities, tEXt and uncompressed iTXt text), a JPEG's JFIF segment under
// kCGImagePropertyJFIFDictionary (version, densities and their unit, whether progressive), and a
// GIF's kCGImagePropertyGIFHasGlobalColorMap. A JPEG's IPTC-IIM record under
// kCGImagePropertyIPTCDictionary (record 2's datasets Apple names, repeatable ones as arrays), read
// and, from a destination's IPTC dictionary, written in UTF-8.
// Incremental sources (CGImageSourceCreateIncremental, CGImageSourceUpdateData and
// UpdateDataProvider, CGImageSourceGetStatus and GetStatusAtIndex): a JPEG's image is drawn as far as its
// data has arrived (the rest grey; a progressive JPEG's scans so far), and whole once its end-of-image marker
// has come; a still PNG's rows (an interlaced one's passes) as they arrive, the rest transparent (libpng's
// progressive reader); a GIF frame's rows as they arrive, the rest transparent (libvips's GIF reader, told
// not to fail on the cut); other kinds' once their data is whole; a truncated TIFF, or a GIF not incremental,
// is an error.
// A HEIC's depth or disparity image (CGImageSourceCopyAuxiliaryDataInfoAtIndex with kCGImageAuxiliaryDataTypeDepth and
// kCGImageAuxiliaryDataTypeDisparity): 32-bit floats in metres or 1 / metres from the file's range, their description;
// AVDepthData(fromDictionaryRepresentation:) takes it.
// Float TIFFs (kCGImageSourceShouldAllowFloat): 32-bit float R, G, B, A in extended linear sRGB, values beyond 0-1
// kept, or 8-bit sRGB without the option; kCGImagePropertyDepth 32 and kCGImagePropertyIsFloat; drawn into a bitmap
// context (encoded as sRGB unless the context is linear), and kept beyond 1 by CIImage(cgImage:) and
// CIContext.createCGImage(_:from:format:colorSpace:) with RGBAf; a float image written to a TIFF destination in floats.
// HEIF image sequences (public.heics, where libheif 1.21 or newer is found: scripts/install-libheif-sequences.sh): read
// frame by frame with each frame's kCGImagePropertyHEICSDelayTime (never under a tenth of a second) and
// UnclampedDelayTime, the file's LoopCount (0 for ever), canvas and FrameInfo array, and written from several images
// with their delays and CGImageDestinationSetProperties' loop count, the first frame the file's still picture too.

// Sources: a GIF's
//     colour maps; a HEIC's other pictures; a PNG's EXIF; embedded thumbnails (kCGImageSourceCreateThumbnailFromImageIfAbsent
//     makes one from the image); auxiliary images other than a HEIC's depth (mattes, and the metadata dictionary of
//     kCGImageAuxiliaryDataInfoMetadata); EXIF tags beyond the photo output's; images of the part of an incremental
//     source's data that has arrived, but for JPEGs, still PNGs and GIFs (a TIFF's directory, which says where its pixels
//     are, often comes after them, as libtiff and libvips write it: half such a file is unreadable; libheif and libvips's
//     WebP reader take whole data); CGImageSourceCopyMetadataAtIndex (CGImageMetadata, XMP)
// Destinations: several images in one file other than animated GIFs and PNGs and HEIF sequences (multi-page TIFFs:
//     the first image is written); properties in TIFF files; CGImageDestinationAddImageFromSource, CGImageDestinationCopyImageSource,
//     CGImageDestinationAddAuxiliaryDataInfo (no libheif here writes a depth image, Debian's 1.15 nor PyPI's 1.23:
//     1.23 could join a grey image to the picture with an auxl reference and a raw auxC property, but the depth's range,
//     the metres its values stand for, goes in a depth representation SEI inside that property, which no library here
//     writes; Apple's files give it in XMP, CGImageMetadata, not built); kCGImageDestinationImageMaxPixelSize;
//     float images are written in 8 bits but to TIFF (32-bit float images: half-float ones go in 8 bits there too)
// Float pictures other than TIFF's: OpenEXR (libvips reads it from files only, not from data) and Radiance HDR

// Names not here, by group (a name followed by a star stands for every name that starts so; `scripts/parity.py`
// counts them, Parity/ImageIO.md):
// Property keys of dictionaries not read or written yet (sources give the photo output's tags): kCGImagePropertyExif*,
//     kCGImagePropertyExifAux*, kCGImagePropertyGPS*, kCGImagePropertyTIFF*, kCGImagePropertyIPTC* (the contact info,
//     extension and rights keys, star rating, image type and orientation; IPTC in TIFF, PNG and HEIC files), kCGImagePropertyDNG*,
//     kCGImagePropertyCIFF*, kCGImagePropertyMaker*, kCGImagePropertyPNG* (compressed text, the compression filter, transparency),
//     kCGImagePropertyGIFImageColorMap,
//     kCGImagePropertyHEIF*, kCGImagePropertyOpenEXR*,
//     kCGImagePropertyTGA*, CGImagePropertyTGACompression, kCGImagePropertyAVIS*, kCGImageProperty8BIM*, kCGImagePropertyRaw*,
//     kCGImagePropertyGroup*, kCGImagePropertyBC*, kCGImagePropertyColorModel*, kCGImagePropertyFile*, kCGImagePropertyImage*,
//     kCGImagePropertyIs*, kCGImagePropertyASTC*, kCGImagePropertyPVR* (GPU texture encodings), kCGImagePropertyBytesPerRow, kCGImagePropertyEncoder, kCGImagePropertyHeight, kCGImagePropertyWidth,
//     kCGImagePropertyNamedColorSpace, kCGImagePropertyPixelFormat, kCGImagePropertyPrimaryImage,
//     kCGImagePropertyThumbnailImages, kCGImagePropertyAuxiliary*, kCGImageAuxiliary*
// XMP metadata, not built yet: CGImageMetadata*, kCGImageMetadata*, CGMutableImageMetadata, kCFErrorDomainCGImageMetadata
// Several images beyond GIFs, incremental reading and the rest of sources and destinations, not built yet:
//     CGImageSource*, kCGImageSource*, CGImageDestination*, kCGImageDestination*,
//     kCGImageProvider*, IMAGEIO_PNG_*, kCGComputeHDRStats
// What Linux cannot have: Apple's camera models and stereo pairs for spatial photos (kIIOCameraExtrinsics*,
//     kIIOCameraModel*, kIIOMetadata_Camera*, kIIOMonoscopicImageLocation*, kIIOStereoAggressors*)
