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
}
