// The compressed pixel formats of Apple's cameras and GPUs (lossless and lossy, the memory
// layouts of Apple silicon's frame compression). Linux never produces them: the constants exist so
// that code choosing a format by them compiles, no output offers them, and a pixel buffer of one
// is refused with `kCVReturnInvalidPixelFormat`.

/// Lossless-compressed 32-bit BGRA ('&BGA').
public let kCVPixelFormatType_Lossless_32BGRA: OSType = 0x2642_4741
/// Lossless-compressed 64-bit RGBA of half floats ('&RhA').
public let kCVPixelFormatType_Lossless_64RGBAHalf: OSType = 0x2652_6841
/// Lossless-compressed 4:2:0 bi-planar Y'CbCr, video range ('&8v0').
public let kCVPixelFormatType_Lossless_420YpCbCr8BiPlanarVideoRange: OSType = 0x2638_7630
/// Lossless-compressed 4:2:0 bi-planar Y'CbCr, full range ('&8f0').
public let kCVPixelFormatType_Lossless_420YpCbCr8BiPlanarFullRange: OSType = 0x2638_6630
/// Lossless-compressed 10-bit packed 4:2:0 bi-planar Y'CbCr, video range ('&xv0').
public let kCVPixelFormatType_Lossless_420YpCbCr10PackedBiPlanarVideoRange: OSType = 0x2678_7630
/// Lossless-compressed 10-bit packed 4:2:2 bi-planar Y'CbCr, video range ('&xv2').
public let kCVPixelFormatType_Lossless_422YpCbCr10PackedBiPlanarVideoRange: OSType = 0x2678_7632
/// Lossless-compressed 10-bit packed 4:2:0 bi-planar Y'CbCr, full range ('&xf0').
public let kCVPixelFormatType_Lossless_420YpCbCr10PackedBiPlanarFullRange: OSType = 0x2678_6630
/// Lossless-compressed 30-bit little-endian RGB with an 8-bit alpha plane ('&b38').
public let kCVPixelFormatType_Lossless_30RGBLE_8A_BiPlanar: OSType = 0x2662_3338
/// Lossless-compressed 30-bit little-endian packed wide-gamut RGB ('&w3r').
public let kCVPixelFormatType_Lossless_30RGBLEPackedWideGamut: OSType = 0x2677_3372
/// Lossy-compressed 32-bit BGRA ('-BGA').
public let kCVPixelFormatType_Lossy_32BGRA: OSType = 0x2D42_4741
/// Lossy-compressed 4:2:0 bi-planar Y'CbCr, video range ('-8v0').
public let kCVPixelFormatType_Lossy_420YpCbCr8BiPlanarVideoRange: OSType = 0x2D38_7630
/// Lossy-compressed 4:2:0 bi-planar Y'CbCr, full range ('-8f0').
public let kCVPixelFormatType_Lossy_420YpCbCr8BiPlanarFullRange: OSType = 0x2D38_6630
/// Lossy-compressed 10-bit packed 4:2:0 bi-planar Y'CbCr, video range ('-xv0').
public let kCVPixelFormatType_Lossy_420YpCbCr10PackedBiPlanarVideoRange: OSType = 0x2D78_7630
/// Lossy-compressed 10-bit packed 4:2:2 bi-planar Y'CbCr, video range ('-xv2').
public let kCVPixelFormatType_Lossy_422YpCbCr10PackedBiPlanarVideoRange: OSType = 0x2D78_7632
