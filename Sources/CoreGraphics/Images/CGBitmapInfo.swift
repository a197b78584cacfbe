/// Storage options for the pixels of a bitmap image or context: where alpha is, whether
/// components are floats, and the byte order of each pixel.
public struct CGBitmapInfo: OptionSet, Hashable, Sendable {
    /// The raw value: a `CGImageAlphaInfo` in the low five bits, float and byte-order bits above.
    public var rawValue: UInt32
    /// Creates bitmap information from its raw value.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The bits that hold the alpha information.
    public static let alphaInfoMask = CGBitmapInfo(rawValue: 0x1F)
    /// The bits that hold the float information.
    public static let floatInfoMask = CGBitmapInfo(rawValue: 0xF00)
    /// The components are floating-point values.
    public static let floatComponents = CGBitmapInfo(rawValue: 1 << 8)
    /// The bits that hold the byte order.
    public static let byteOrderMask = CGBitmapInfo(rawValue: 0x7000)
    /// The default byte order: big-endian, the components in the order the format names them.
    public static let byteOrderDefault = CGBitmapInfo([])
    /// 16-bit little-endian pixels.
    public static let byteOrder16Little = CGBitmapInfo(rawValue: 1 << 12)
    /// 32-bit little-endian pixels: ARGB is stored as the bytes B, G, R, A.
    public static let byteOrder32Little = CGBitmapInfo(rawValue: 2 << 12)
    /// 16-bit big-endian pixels.
    public static let byteOrder16Big = CGBitmapInfo(rawValue: 3 << 12)
    /// 32-bit big-endian pixels.
    public static let byteOrder32Big = CGBitmapInfo(rawValue: 4 << 12)
    /// 16-bit pixels in the host's byte order.
    public static let byteOrder16Host = byteOrder16Little
    /// 32-bit pixels in the host's byte order.
    public static let byteOrder32Host = byteOrder32Little

    /// Creates bitmap information that holds an alpha layout.
    public init(alphaInfo: CGImageAlphaInfo) { self.init(rawValue: alphaInfo.rawValue) }
}

/// Where an image's alpha is, and whether its colour components are premultiplied by it.
public enum CGImageAlphaInfo: UInt32, Sendable {
    /// No alpha.
    case none = 0
    /// Alpha is the last component, and the colour components are premultiplied by it (RGBA).
    case premultipliedLast = 1
    /// Alpha is the first component, and the colour components are premultiplied by it (ARGB).
    case premultipliedFirst = 2
    /// Alpha is the last component, not premultiplied.
    case last = 3
    /// Alpha is the first component, not premultiplied.
    case first = 4
    /// No alpha: the last component is padding (RGBX).
    case noneSkipLast = 5
    /// No alpha: the first component is padding (XRGB).
    case noneSkipFirst = 6
    /// Only alpha, no colour.
    case alphaOnly = 7
}

/// The byte order of an image's pixels.
public enum CGImageByteOrderInfo: UInt32, Sendable {
    /// The bits that hold the byte order.
    case orderMask = 0x7000
    /// The default byte order.
    case orderDefault = 0
    /// 16-bit little-endian.
    case order16Little = 0x1000
    /// 32-bit little-endian.
    case order32Little = 0x2000
    /// 16-bit big-endian.
    case order16Big = 0x3000
    /// 32-bit big-endian.
    case order32Big = 0x4000
}

/// How colours outside a destination's gamut are mapped into it.
public enum CGColorRenderingIntent: Int32, Sendable {
    /// The context's default.
    case defaultIntent = 0
    /// Colours inside the gamut are kept, others clipped; white is not adapted.
    case absoluteColorimetric = 1
    /// Colours inside the gamut are kept, others clipped; white is adapted.
    case relativeColorimetric = 2
    /// All colours are compressed into the gamut, keeping their relations.
    case perceptual = 3
    /// Saturation is kept at the cost of hue and lightness.
    case saturation = 4
}

extension CGBitmapInfo {
    /// The alpha layout these options hold.
    var alpha: CGImageAlphaInfo? { CGImageAlphaInfo(rawValue: rawValue & Self.alphaInfoMask.rawValue) }
    /// The byte order these options hold.
    var byteOrder: CGImageByteOrderInfo { CGImageByteOrderInfo(rawValue: rawValue & Self.byteOrderMask.rawValue) ?? .orderDefault }
}
