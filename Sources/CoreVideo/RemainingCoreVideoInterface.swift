// The parts of Apple's Core Video that LinuxAVFoundation does not offer yet, and why.
//
// Pixel buffers and pools live in ordinary memory, in the formats the cameras, codecs and
// converters here produce; attachments carry colour, pixel aspect ratio and clean aperture. A
// name followed by a star stands for every name that starts so. `scripts/parity.py` counts them
// against Apple's headers (Parity/CoreVideo.md).

// Pixel format descriptions, not built: CVPixelFormatDescription*, kCVPixelFormatBitsPerBlock, kCVPixelFormatBitsPerComponent,
//     kCVPixelFormatBlackBlock, kCVPixelFormatBlock*, kCVPixelFormatCG*, kCVPixelFormatCodecType, kCVPixelFormatComponentRange*,
//     kCVPixelFormatConstant, kCVPixelFormatContains*, kCVPixelFormatFillExtendedPixelsCallback, kCVPixelFormatFourCC,
//     kCVPixelFormatHorizontalSubsampling, kCVPixelFormatName, kCVPixelFormatPlanes, kCVPixelFormatQDCompatibility,
//     kCVPixelFormatVerticalSubsampling, CVPixelFormatTypeCopyFourCharCodeString, CVIsCompressedPixelFormatAvailable
// Image buffer attachments not yet set or read: kCVImageBuffer* (those not in CVImageBufferGeometry.swift and
//     VideoColorimetry.swift: chroma location and subsampling, fields, display dimensions, mastering display and content
//     light level, ICC profiles, alpha channel mode, Apple Log, scene illumination, regions of interest, display masks),
//     CVImageBufferCreateColorSpaceFromAttachments, CVImageBufferGetColorSpace, CVImageBufferIsFlipped,
//     CVColorPrimaries*, CVTransferFunction*, CVYCbCrMatrix* (the integer code points of H.273)
// Pixel buffer functions and attributes not built yet: CVPixelBufferCreateWithPlanarBytes, CVPixelBufferReleasePlanarBytesCallback,
//     CVPlanarPixelBufferInfo*, CVPlanarComponentInfo, CVPixelBufferFillExtendedPixels, CVPixelBufferGetExtendedPixels,
//     CVFillExtendedPixelsCallBack*, kCVPixelBufferExtendedPixels*, CVPixelBufferCopyCreationAttributes,
//     CVPixelBufferCreateResolvedAttributesDictionary, CVPixelBufferIsCompatibleWithAttributes, kCVPixelBufferPlaneAlignmentKey,
//     kCVPixelBufferMemoryAllocatorKey, CVPixelBufferPoolFlush, CVPixelBufferPoolFlushFlags, CVPixelBufferPoolGetAttributes,
//     kCVPixelBufferPoolFreeBufferNotification, CVPixelBufferGetTypeID, CVPixelBufferPoolGetTypeID, kCVBufferMovieTimeKey,
//     CVOptionFlags, kCVReturnRetry, kCVReturnFirst, kCVReturnLast
// What Linux cannot have: IOSurface, OpenGL, OpenGL ES, Metal and Core Animation behind buffers (no GPU path here):
//     CVPixelBufferCreateWithIOSurface, CVPixelBufferGetIOSurface, kCVPixelBufferIOSurface*, kCVPixelBufferOpenGL*,
//     kCVPixelFormatOpenGL*, CVOpenGL*, kCVOpenGL*, CVMetal*, kCVMetal*, kCVReturnPixelBufferNotMetalCompatible;
//     display links and their times (macOS's screen refresh): CVDisplayLink*, kCVReturnDisplayLink*, kCVReturnInvalidDisplay,
//     CVTime, CVTimeFlags, CVTimeStamp*, CVSMPTETime*, kCVZeroTime, kCVIndefiniteTime, CVGetCurrentHostTime,
//     CVGetHostClockFrequency, CVGetHostClockMinimumTimeDelta (the host clock is CMClock's); ProRes RAW and Bayer
//     sensel buffers (Apple's RAW pipeline): kCVPixelBufferProResRAWKey*, kCVPixelBufferVersatileBayerKey*, kCVVersatileBayer*
