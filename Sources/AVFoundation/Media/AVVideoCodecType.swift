/// A video codec, as output settings name it.
public struct AVVideoCodecType: RawRepresentable, Hashable, Sendable {
    /// The codec's four-character identifier.
    public let rawValue: String
    /// Creates a codec type from its identifier.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// H.264.
    public static let h264 = AVVideoCodecType(rawValue: "avc1")
    /// HEVC.
    public static let hevc = AVVideoCodecType(rawValue: "hvc1")
    /// JPEG.
    public static let jpeg = AVVideoCodecType(rawValue: "jpeg")
    /// Apple ProRes 422.
    public static let proRes422 = AVVideoCodecType(rawValue: "apcn")
    /// Apple ProRes 422 HQ.
    public static let proRes422HQ = AVVideoCodecType(rawValue: "apch")
    /// Apple ProRes 422 LT.
    public static let proRes422LT = AVVideoCodecType(rawValue: "apcs")
    /// Apple ProRes 422 Proxy.
    public static let proRes422Proxy = AVVideoCodecType(rawValue: "apco")
    /// Apple ProRes 4444.
    public static let proRes4444 = AVVideoCodecType(rawValue: "ap4h")
    /// HEVC with an alpha channel.
    public static let hevcWithAlpha = AVVideoCodecType(rawValue: "muxa")
}
