import Foundation

// Apple's other pixel formats, named so that code choosing or comparing formats compiles: no camera,
// codec or converter here produces them, and a buffer of one is refused (kCVReturnInvalidPixelFormat).

/// 128RGBAFloat: 'RGfA'.
public let kCVPixelFormatType_128RGBAFloat: OSType = 0x5247_6641
/// 14Bayer BGGR: 'bgg4'.
public let kCVPixelFormatType_14Bayer_BGGR: OSType = 0x6267_6734
/// 14Bayer GBRG: 'gbr4'.
public let kCVPixelFormatType_14Bayer_GBRG: OSType = 0x6762_7234
/// 14Bayer GRBG: 'grb4'.
public let kCVPixelFormatType_14Bayer_GRBG: OSType = 0x6772_6234
/// 14Bayer RGGB: 'rgg4'.
public let kCVPixelFormatType_14Bayer_RGGB: OSType = 0x7267_6734
/// 16BE555: 16.
public let kCVPixelFormatType_16BE555: OSType = 0x0010
/// 16BE565: 'B565'.
public let kCVPixelFormatType_16BE565: OSType = 0x4235_3635
/// 16Gray: 'b16g'.
public let kCVPixelFormatType_16Gray: OSType = 0x6231_3667
/// 16LE555: 'L555'.
public let kCVPixelFormatType_16LE555: OSType = 0x4C35_3535
/// 16LE5551: '5551'.
public let kCVPixelFormatType_16LE5551: OSType = 0x3535_3531
/// 16LE565: 'L565'.
public let kCVPixelFormatType_16LE565: OSType = 0x4C35_3635
/// 16Versatile Bayer: 'bp16'.
public let kCVPixelFormatType_16VersatileBayer: OSType = 0x6270_3136
/// 1Indexed Gray White Is Zero: 33.
public let kCVPixelFormatType_1IndexedGray_WhiteIsZero: OSType = 0x0021
/// 1Monochrome: 1.
public let kCVPixelFormatType_1Monochrome: OSType = 1
/// 24BGR: '24BG'.
public let kCVPixelFormatType_24BGR: OSType = 0x3234_4247
/// 2Indexed: 2.
public let kCVPixelFormatType_2Indexed: OSType = 2
/// 2Indexed Gray White Is Zero: 34.
public let kCVPixelFormatType_2IndexedGray_WhiteIsZero: OSType = 0x0022
/// 30RGB: 'R10k'.
public let kCVPixelFormatType_30RGB: OSType = 0x5231_306B
/// 30RGBLEPacked Wide Gamut: 'w30r'.
public let kCVPixelFormatType_30RGBLEPackedWideGamut: OSType = 0x7733_3072
/// 30RGBLE 8A bi-planar: 'b3a8'.
public let kCVPixelFormatType_30RGBLE_8A_BiPlanar: OSType = 0x6233_6138
/// 30RGB r 210: 'r210'.
public let kCVPixelFormatType_30RGB_r210: OSType = 0x7232_3130
/// 32ABGR: 'ABGR'.
public let kCVPixelFormatType_32ABGR: OSType = 0x4142_4752
/// 32Alpha Gray: 'b32a'.
public let kCVPixelFormatType_32AlphaGray: OSType = 0x6233_3261
/// 40ARGBLEWide Gamut: 'w40a'.
public let kCVPixelFormatType_40ARGBLEWideGamut: OSType = 0x7734_3061
/// 40ARGBLEWide Gamut Premultiplied: 'w40m'.
public let kCVPixelFormatType_40ARGBLEWideGamutPremultiplied: OSType = 0x7734_306D
/// 420Y'CbCr 8video range 8A Tri Planar: 'v0a8'.
public let kCVPixelFormatType_420YpCbCr8VideoRange_8A_TriPlanar: OSType = 0x7630_6138
/// 422Y'CbCr 10: 'v210'.
public let kCVPixelFormatType_422YpCbCr10: OSType = 0x7632_3130
/// 422Y'CbCr 10bi-planar full range: 'xf22'.
public let kCVPixelFormatType_422YpCbCr10BiPlanarFullRange: OSType = 0x7866_3232
/// 422Y'CbCr 10bi-planar video range: 'x422'.
public let kCVPixelFormatType_422YpCbCr10BiPlanarVideoRange: OSType = 0x7834_3232
/// 422Y'CbCr 16: 'v216'.
public let kCVPixelFormatType_422YpCbCr16: OSType = 0x7632_3136
/// 422Y'CbCr 16bi-planar video range: 'sv22'.
public let kCVPixelFormatType_422YpCbCr16BiPlanarVideoRange: OSType = 0x7376_3232
/// 422Y'CbCr 8bi-planar full range: '422f'.
public let kCVPixelFormatType_422YpCbCr8BiPlanarFullRange: OSType = 0x3432_3266
/// 422Y'CbCr 8bi-planar video range: '422v'.
public let kCVPixelFormatType_422YpCbCr8BiPlanarVideoRange: OSType = 0x3432_3276
/// 422Y'CbCr 8full range: 'yuvf'.
public let kCVPixelFormatType_422YpCbCr8FullRange: OSType = 0x7975_7666
/// 422Y'CbCr 4A 8bi-planar: 'a2vy'.
public let kCVPixelFormatType_422YpCbCr_4A_8BiPlanar: OSType = 0x6132_7679
/// 4444AY'CbCr 16: 'y416'.
public let kCVPixelFormatType_4444AYpCbCr16: OSType = 0x7934_3136
/// 4444AY'CbCr 8: 'y408'.
public let kCVPixelFormatType_4444AYpCbCr8: OSType = 0x7934_3038
/// 4444AY'CbCr Float: 'r4fl'.
public let kCVPixelFormatType_4444AYpCbCrFloat: OSType = 0x7234_666C
/// 4444Y'CbCr A8: 'v408'.
public let kCVPixelFormatType_4444YpCbCrA8: OSType = 0x7634_3038
/// 4444Y'CbCr A8R: 'r408'.
public let kCVPixelFormatType_4444YpCbCrA8R: OSType = 0x7234_3038
/// 444Y'CbCr 10: 'v410'.
public let kCVPixelFormatType_444YpCbCr10: OSType = 0x7634_3130
/// 444Y'CbCr 10bi-planar full range: 'xf44'.
public let kCVPixelFormatType_444YpCbCr10BiPlanarFullRange: OSType = 0x7866_3434
/// 444Y'CbCr 10bi-planar video range: 'x444'.
public let kCVPixelFormatType_444YpCbCr10BiPlanarVideoRange: OSType = 0x7834_3434
/// 444Y'CbCr 16bi-planar video range: 'sv44'.
public let kCVPixelFormatType_444YpCbCr16BiPlanarVideoRange: OSType = 0x7376_3434
/// 444Y'CbCr 16video range 16A Tri Planar: 's4as'.
public let kCVPixelFormatType_444YpCbCr16VideoRange_16A_TriPlanar: OSType = 0x7334_6173
/// 444Y'CbCr 8: 'v308'.
public let kCVPixelFormatType_444YpCbCr8: OSType = 0x7633_3038
/// 444Y'CbCr 8bi-planar full range: '444f'.
public let kCVPixelFormatType_444YpCbCr8BiPlanarFullRange: OSType = 0x3434_3466
/// 444Y'CbCr 8bi-planar video range: '444v'.
public let kCVPixelFormatType_444YpCbCr8BiPlanarVideoRange: OSType = 0x3434_3476
/// 48RGB: 'b48r'.
public let kCVPixelFormatType_48RGB: OSType = 0x6234_3872
/// 4Indexed: 4.
public let kCVPixelFormatType_4Indexed: OSType = 4
/// 4Indexed Gray White Is Zero: 36.
public let kCVPixelFormatType_4IndexedGray_WhiteIsZero: OSType = 0x0024
/// 64ARGB: 'b64a'.
public let kCVPixelFormatType_64ARGB: OSType = 0x6236_3461
/// 64RGBAHalf: 'RGhA'.
public let kCVPixelFormatType_64RGBAHalf: OSType = 0x5247_6841
/// 64RGBALE: 'l64r'.
public let kCVPixelFormatType_64RGBALE: OSType = 0x6C36_3472
/// 64RGBA Downscaled Pro Res RAW: 'bp64'.
public let kCVPixelFormatType_64RGBA_DownscaledProResRAW: OSType = 0x6270_3634
/// 8Indexed: 8.
public let kCVPixelFormatType_8Indexed: OSType = 8
/// 8Indexed Gray White Is Zero: 40.
public let kCVPixelFormatType_8IndexedGray_WhiteIsZero: OSType = 0x0028
/// 96Versatile Bayer Packed 12: 'btp2'.
public let kCVPixelFormatType_96VersatileBayerPacked12: OSType = 0x6274_7032
/// ARGB2101010LEPacked: 'l10r'.
public let kCVPixelFormatType_ARGB2101010LEPacked: OSType = 0x6C31_3072
/// One Component 10: 'L010'.
public let kCVPixelFormatType_OneComponent10: OSType = 0x4C30_3130
/// One Component 12: 'L012'.
public let kCVPixelFormatType_OneComponent12: OSType = 0x4C30_3132
/// One Component 16: 'L016'.
public let kCVPixelFormatType_OneComponent16: OSType = 0x4C30_3136
/// One Component 16Half: 'L00h'.
public let kCVPixelFormatType_OneComponent16Half: OSType = 0x4C30_3068
/// One Component 32Float: 'L00f'.
public let kCVPixelFormatType_OneComponent32Float: OSType = 0x4C30_3066
/// Two Component 16: '2C16'.
public let kCVPixelFormatType_TwoComponent16: OSType = 0x3243_3136
/// Two Component 16Half: '2C0h'.
public let kCVPixelFormatType_TwoComponent16Half: OSType = 0x3243_3068
/// Two Component 32Float: '2C0f'.
public let kCVPixelFormatType_TwoComponent32Float: OSType = 0x3243_3066
/// Two Component 8: '2C08'.
public let kCVPixelFormatType_TwoComponent8: OSType = 0x3243_3038
