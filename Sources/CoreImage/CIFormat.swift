import CoreGraphics

/// Pixel data formats for image input, output and processing.
public struct CIFormat: RawRepresentable, Hashable, Sendable {
    /// The format's code.
    public let rawValue: Int32
    /// Creates a format from its code.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// 8 bits a component: B, G, R, A.
    public static let BGRA8 = CIFormat(rawValue: 266)
    /// 8 bits a component: R, G, B, A.
    public static let RGBA8 = CIFormat(rawValue: 264)
    /// 8 bits a component: A, R, G, B.
    public static let ARGB8 = CIFormat(rawValue: 258)
    /// 16-bit half floats: R, G, B, A.
    public static let RGBAh = CIFormat(rawValue: 2056)
    /// 32-bit floats: R, G, B, A.
    public static let RGBAf = CIFormat(rawValue: 2064)
    /// 8 bits: luminance.
    public static let L8 = CIFormat(rawValue: 1)
    /// 8 bits: alpha.
    public static let A8 = CIFormat(rawValue: 267)

    /// How an 8-bit four-component format lays its bytes out: the band order as a colour matrix
    /// over B, G, R, A, and the bitmap info of an image in it; nil for the formats not rendered into.
    var layout: (order: ColorMatrix, bitmapInfo: CGBitmapInfo)? {
        func order(_ bands: [Int]) -> ColorMatrix { ColorMatrix(rows: bands.map { band in (0..<4).map { $0 == band ? 1 : 0 } }) }
        switch self {
        case .BGRA8: return (.identity, CGBitmapInfo(rawValue: CGBitmapInfo.byteOrder32Little.rawValue | CGImageAlphaInfo.premultipliedFirst.rawValue))
        case .RGBA8: return (order([2, 1, 0, 3]), CGBitmapInfo(rawValue: CGBitmapInfo.byteOrder32Big.rawValue | CGImageAlphaInfo.premultipliedLast.rawValue))
        case .ARGB8: return (order([3, 2, 1, 0]), CGBitmapInfo(rawValue: CGBitmapInfo.byteOrder32Big.rawValue | CGImageAlphaInfo.premultipliedFirst.rawValue))
        default: return nil
        }
    }

    /// The bytes a pixel of a floating-point R, G, B, A format takes (16 for RGBAf, 8 for
    /// RGBAh); nil for the 8-bit ones.
    var floatBytesPerPixel: Int? {
        switch self {
        case .RGBAf: return 16
        case .RGBAh: return 8
        default: return nil
        }
    }
}
