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
    /// A HEIF image (.heif).
    public static let heif = AVFileType(rawValue: "public.heif")
    /// A DNG raw image (.dng).
    public static let dng = AVFileType(rawValue: "com.adobe.raw-image")
    /// An AVC-Intra image (.avci).
    public static let avci = AVFileType(rawValue: "public.avci")
    /// A WAVE audio file (.wav).
    public static let wav = AVFileType(rawValue: "com.microsoft.waveform-audio")
    /// An AIFF audio file (.aif, .aiff).
    public static let aiff = AVFileType(rawValue: "public.aiff-audio")
    /// An AIFC audio file (.aifc).
    public static let aifc = AVFileType(rawValue: "public.aifc-audio")
    /// A Core Audio Format file (.caf).
    public static let caf = AVFileType(rawValue: "com.apple.coreaudio-format")
    /// An MPEG layer 3 audio file (.mp3).
    public static let mp3 = AVFileType(rawValue: "public.mp3")
    /// An adaptive multi-rate audio file (.amr).
    public static let amr = AVFileType(rawValue: "org.3gpp.adaptive-multi-rate-audio")
    /// An AC-3 audio file (.ac3).
    public static let ac3 = AVFileType(rawValue: "public.ac3-audio")
    /// An enhanced AC-3 audio file (.eac3).
    public static let eac3 = AVFileType(rawValue: "public.enhanced-ac3-audio")
    /// A 3GPP file (.3gp).
    public static let mobile3GPP = AVFileType(rawValue: "public.3gpp")
    /// A 3GPP2 file (.3g2).
    public static let mobile3GPP2 = AVFileType(rawValue: "public.3gpp2")
    /// An Apple iTunes Timed Text file (.itt).
    public static let appleiTT = AVFileType(rawValue: "com.apple.itunes-timed-text")
    /// A Scenarist closed caption file (.scc).
    public static let SCC = AVFileType(rawValue: "com.scenarist.closed-caption")

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
