/// A kind of media, such as video or audio.
public struct AVMediaType: RawRepresentable, Hashable, Sendable {
    /// The media type's identifier.
    public let rawValue: String
    /// Creates a media type from its identifier.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Creates a media type from its identifier.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// Video.
    public static let video = AVMediaType(rawValue: "vide")
    /// Audio.
    public static let audio = AVMediaType(rawValue: "soun")
    /// Muxed audio and video.
    public static let muxed = AVMediaType(rawValue: "muxx")
    /// Text.
    public static let text = AVMediaType(rawValue: "text")
    /// Closed captions.
    public static let closedCaption = AVMediaType(rawValue: "clcp")
    /// Subtitles.
    public static let subtitle = AVMediaType(rawValue: "sbtl")
    /// Timecode.
    public static let timecode = AVMediaType(rawValue: "tmcd")
    /// Timed metadata.
    public static let metadata = AVMediaType(rawValue: "meta")
    /// Depth data.
    public static let depthData = AVMediaType(rawValue: "dpth")
    /// Metadata objects, such as faces and codes.
    public static let metadataObject = AVMediaType(rawValue: "mobj")
}

/// The identifier of video, as Objective-C code spells it.
public let AVMediaTypeVideo = AVMediaType.video.rawValue
/// The identifier of audio, as Objective-C code spells it.
public let AVMediaTypeAudio = AVMediaType.audio.rawValue
