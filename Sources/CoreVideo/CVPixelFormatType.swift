/// 32-bit BGRA, with alpha in the last byte.
public let kCVPixelFormatType_32BGRA: OSType = 0x4247_5241  // 'BGRA'
/// 32-bit ARGB, with alpha in the first byte.
public let kCVPixelFormatType_32ARGB: OSType = 0x0000_0020
/// 32-bit RGBA, with alpha in the last byte.
public let kCVPixelFormatType_32RGBA: OSType = 0x5247_4241  // 'RGBA'
/// 24-bit RGB.
public let kCVPixelFormatType_24RGB: OSType = 0x0000_0018
/// Bi-planar 4:2:0 Y'CbCr, 8 bits, video range (luma 16...235, chroma 16...240): '420v'.
public let kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange: OSType = 0x3432_3076
/// Bi-planar 4:2:0 Y'CbCr, 8 bits, full range (0...255): '420f'.
public let kCVPixelFormatType_420YpCbCr8BiPlanarFullRange: OSType = 0x3432_3066
/// Planar 4:2:0 Y'CbCr, 8 bits, three planes: 'y420'.
public let kCVPixelFormatType_420YpCbCr8Planar: OSType = 0x7934_3230
/// Planar 4:2:0 Y'CbCr, 8 bits, three planes, full range (0...255), as JPEG stores it: 'f420'.
public let kCVPixelFormatType_420YpCbCr8PlanarFullRange: OSType = 0x6634_3230
/// Packed 4:2:2 Y'CbCr in Cb Y'0 Cr Y'1 order (UYVY): '2vuy'.
public let kCVPixelFormatType_422YpCbCr8: OSType = 0x3276_7579
/// Packed 4:2:2 Y'CbCr in Y'0 Cb Y'1 Cr order (YUYV): 'yuvs'.
public let kCVPixelFormatType_422YpCbCr8_yuvs: OSType = 0x7975_7673
/// One 8-bit component, such as luminance: 'L008'.
public let kCVPixelFormatType_OneComponent8: OSType = 0x4C30_3038
/// Depth in meters, one 32-bit float a pixel: 'fdep'.
public let kCVPixelFormatType_DepthFloat32: OSType = 0x6664_6570
/// Depth in meters, one 16-bit float a pixel: 'hdep'.
public let kCVPixelFormatType_DepthFloat16: OSType = 0x6864_6570
/// Disparity (1 / meters), one 32-bit float a pixel: 'fdis'.
public let kCVPixelFormatType_DisparityFloat32: OSType = 0x6664_6973
/// Disparity (1 / meters), one 16-bit float a pixel: 'hdis'.
public let kCVPixelFormatType_DisparityFloat16: OSType = 0x6864_6973
/// Bi-planar 4:2:0 Y'CbCr, 10 bits a component in the high bits of 16, video range: 'x420' (P010).
public let kCVPixelFormatType_420YpCbCr10BiPlanarVideoRange: OSType = 0x7834_3230
/// Bi-planar 4:2:0 Y'CbCr, 10 bits a component in the high bits of 16, full range: 'xf20'.
public let kCVPixelFormatType_420YpCbCr10BiPlanarFullRange: OSType = 0x7866_3230

/// The layout of one plane of a pixel format.
package struct PixelFormatPlaneLayout: Sendable {
    /// Bytes per pixel group in this plane.
    package var bytesPerGroup: Int
    /// Pixels in one group horizontally (2 for packed 4:2:2 and interleaved chroma).
    package var pixelsPerGroup: Int
    /// Horizontal subsampling of this plane relative to the image.
    package var horizontalSubsampling: Int
    /// Vertical subsampling of this plane relative to the image.
    package var verticalSubsampling: Int
}

/// What the frame path knows of each pixel format it can hold.
package struct PixelFormatDescription: Sendable {
    /// The format's code.
    package var type: OSType
    /// Its planes, one for packed formats.
    package var planes: [PixelFormatPlaneLayout]
    /// Whether the format is Y'CbCr.
    package var isYCbCr: Bool
    /// Whether Y'CbCr values use the full 0...255 range.
    package var isFullRange: Bool

    /// The description of `type`, or `nil` if the frame path cannot hold it.
    package static func of(_ type: OSType) -> PixelFormatDescription? {
        switch type {
        case kCVPixelFormatType_32BGRA, kCVPixelFormatType_32ARGB, kCVPixelFormatType_32RGBA:
            return .init(
                type: type, planes: [.init(bytesPerGroup: 4, pixelsPerGroup: 1, horizontalSubsampling: 1, verticalSubsampling: 1)], isYCbCr: false,
                isFullRange: true)
        case kCVPixelFormatType_24RGB:
            return .init(
                type: type, planes: [.init(bytesPerGroup: 3, pixelsPerGroup: 1, horizontalSubsampling: 1, verticalSubsampling: 1)], isYCbCr: false,
                isFullRange: true)
        case kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange:
            return .init(
                type: type,
                planes: [
                    .init(bytesPerGroup: 1, pixelsPerGroup: 1, horizontalSubsampling: 1, verticalSubsampling: 1),
                    .init(bytesPerGroup: 2, pixelsPerGroup: 1, horizontalSubsampling: 2, verticalSubsampling: 2),
                ], isYCbCr: true, isFullRange: type == kCVPixelFormatType_420YpCbCr8BiPlanarFullRange)
        case kCVPixelFormatType_420YpCbCr10BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr10BiPlanarFullRange:
            return .init(
                type: type,
                planes: [
                    .init(bytesPerGroup: 2, pixelsPerGroup: 1, horizontalSubsampling: 1, verticalSubsampling: 1),
                    .init(bytesPerGroup: 4, pixelsPerGroup: 1, horizontalSubsampling: 2, verticalSubsampling: 2),
                ], isYCbCr: true, isFullRange: type == kCVPixelFormatType_420YpCbCr10BiPlanarFullRange)
        case kCVPixelFormatType_420YpCbCr8Planar, kCVPixelFormatType_420YpCbCr8PlanarFullRange:
            return .init(
                type: type,
                planes: [
                    .init(bytesPerGroup: 1, pixelsPerGroup: 1, horizontalSubsampling: 1, verticalSubsampling: 1),
                    .init(bytesPerGroup: 1, pixelsPerGroup: 1, horizontalSubsampling: 2, verticalSubsampling: 2),
                    .init(bytesPerGroup: 1, pixelsPerGroup: 1, horizontalSubsampling: 2, verticalSubsampling: 2),
                ], isYCbCr: true, isFullRange: type == kCVPixelFormatType_420YpCbCr8PlanarFullRange)
        case kCVPixelFormatType_422YpCbCr8, kCVPixelFormatType_422YpCbCr8_yuvs:
            return .init(
                type: type, planes: [.init(bytesPerGroup: 4, pixelsPerGroup: 2, horizontalSubsampling: 1, verticalSubsampling: 1)], isYCbCr: true,
                isFullRange: false)
        case kCVPixelFormatType_DepthFloat32, kCVPixelFormatType_DisparityFloat32:
            return .init(
                type: type, planes: [.init(bytesPerGroup: 4, pixelsPerGroup: 1, horizontalSubsampling: 1, verticalSubsampling: 1)], isYCbCr: false,
                isFullRange: true)
        case kCVPixelFormatType_DepthFloat16, kCVPixelFormatType_DisparityFloat16:
            return .init(
                type: type, planes: [.init(bytesPerGroup: 2, pixelsPerGroup: 1, horizontalSubsampling: 1, verticalSubsampling: 1)], isYCbCr: false,
                isFullRange: true)
        case kCVPixelFormatType_OneComponent8:
            return .init(
                type: type, planes: [.init(bytesPerGroup: 1, pixelsPerGroup: 1, horizontalSubsampling: 1, verticalSubsampling: 1)], isYCbCr: false,
                isFullRange: true)
        default:
            return nil
        }
    }
}
