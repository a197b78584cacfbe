/// A kind of media file, as its uniform type identifier.
public struct AVFileType: RawRepresentable, Hashable, Sendable {
    /// The type's identifier.
    public let rawValue: String
    /// Creates a file type from its identifier.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// A QuickTime movie (.mov).
    public static let mov = AVFileType(rawValue: "com.apple.quicktime-movie")
    /// An MPEG-4 file (.mp4).
    public static let mp4 = AVFileType(rawValue: "public.mpeg-4")
    /// An MPEG-4 file with Apple extensions (.m4v).
    public static let m4v = AVFileType(rawValue: "com.apple.m4v-video")
    /// An MPEG-4 audio file (.m4a).
    public static let m4a = AVFileType(rawValue: "com.apple.m4a-audio")
    /// A JPEG image (.jpg).
    public static let jpg = AVFileType(rawValue: "public.jpeg")
    /// A HEIC image (.heic).
    public static let heic = AVFileType(rawValue: "public.heic")
    /// A TIFF image (.tif).
    public static let tif = AVFileType(rawValue: "public.tiff")

    /// The FFmpeg muxer that writes this type.
    var muxerName: String { self == .mov ? "mov" : "mp4" }

    /// The type a file name's extension implies: MPEG-4 for .mp4, .m4v and .m4a, QuickTime otherwise.
    static func forPathExtension(_ pathExtension: String) -> AVFileType {
        switch pathExtension.lowercased() {
        case "mp4": return .mp4
        case "m4v": return .m4v
        case "m4a": return .m4a
        default: return .mov
        }
    }
}
