/// The types the system declares, in Apple's identifiers, hierarchy and tags.
extension Declaration {
    private static func type(_ identifier: String, _ parents: [String], extensions: [String] = [], mime: [String] = []) -> Declaration {
        var tags: [UTTagClass: [String]] = [:]
        if !extensions.isEmpty { tags[.filenameExtension] = extensions }
        if !mime.isEmpty { tags[.mimeType] = mime }
        return Declaration(identifier: identifier, parents: parents, tags: tags)
    }

    /// Every declared type. Where two share a tag, the first is the one the tag names.
    static let all: [Declaration] = [
        type("public.item", []),
        type("public.content", []),
        type("public.data", ["public.item"]),
        type("public.image", ["public.data", "public.content"]),
        type("public.jpeg", ["public.image"], extensions: ["jpeg", "jpg", "jpe"], mime: ["image/jpeg", "image/jpg"]),
        type("public.png", ["public.image"], extensions: ["png"], mime: ["image/png"]),
        type("public.tiff", ["public.image"], extensions: ["tiff", "tif"], mime: ["image/tiff"]),
        type("com.compuserve.gif", ["public.image"], extensions: ["gif"], mime: ["image/gif"]),
        type("org.webmproject.webp", ["public.image"], extensions: ["webp"], mime: ["image/webp"]),
        type("public.heif-standard", ["public.image"], extensions: ["heif", "hif"], mime: ["image/heif"]),
        type("public.heic", ["public.heif-standard"], extensions: ["heic"], mime: ["image/heic"]),
        type("public.audiovisual-content", ["public.data", "public.content"]),
        type("public.movie", ["public.audiovisual-content"]),
        type("public.video", ["public.movie"]),
        type("public.audio", ["public.audiovisual-content"]),
        type("com.apple.quicktime-movie", ["public.movie"], extensions: ["mov", "qt"], mime: ["video/quicktime"]),
        type("public.mpeg-4", ["public.movie"], extensions: ["mp4", "mpg4"], mime: ["video/mp4", "video/mp4v"]),
        type("com.apple.m4v-video", ["public.movie"], extensions: ["m4v"], mime: ["video/x-m4v"]),
        type("com.apple.m4a-audio", ["public.mpeg-4-audio"], extensions: ["m4a"], mime: ["audio/x-m4a"]),
        type("public.mpeg-4-audio", ["public.mpeg-4", "public.audio"], extensions: ["m4a", "m4b"], mime: ["audio/mp4", "audio/mpeg4"]),
        type("com.microsoft.waveform-audio", ["public.audio"], extensions: ["wav", "wave"], mime: ["audio/vnd.wave", "audio/wav", "audio/x-wav"]),
        type("public.mp3", ["public.audio"], extensions: ["mp3"], mime: ["audio/mpeg", "audio/mp3"]),
        type("public.aiff-audio", ["public.audio"], extensions: ["aiff", "aif"], mime: ["audio/aiff", "audio/x-aiff"]),
        type("com.apple.coreaudio-format", ["public.audio"], extensions: ["caf"], mime: ["audio/x-caf"]),
        type("public.avi", ["public.movie"], extensions: ["avi"], mime: ["video/avi", "video/x-msvideo"]),
        type("public.text", ["public.data", "public.content"]),
        type("public.plain-text", ["public.text"], extensions: ["txt", "text"], mime: ["text/plain"]),
        type("public.json", ["public.text"], extensions: ["json"], mime: ["application/json"]),
    ]
}

extension UTType {
    private static func declared(_ identifier: String) -> UTType { UTType(identifier)! }

    /// A generic base type for most things, such as files or directories.
    public static let item = declared("public.item")
    /// A base type for all document content.
    public static let content = declared("public.content")
    /// A base type for any sort of simple byte stream, including files and in-memory data.
    public static let data = declared("public.data")
    /// A base type for images.
    public static let image = declared("public.image")
    /// A type that represents a JPEG image.
    public static let jpeg = declared("public.jpeg")
    /// A type that represents a PNG image.
    public static let png = declared("public.png")
    /// A type that represents a TIFF image.
    public static let tiff = declared("public.tiff")
    /// A type that represents a GIF image.
    public static let gif = declared("com.compuserve.gif")
    /// A type that represents a WebP image.
    public static let webP = declared("org.webmproject.webp")
    /// A type that represents High Efficiency Image File Format images.
    public static let heif = declared("public.heif-standard")
    /// A type that represents High Efficiency Image Coding images.
    public static let heic = declared("public.heic")
    /// A base type for data that contains video content that may or may not also include audio.
    public static let audiovisualContent = declared("public.audiovisual-content")
    /// A base type representing media formats that may contain both video and audio.
    public static let movie = declared("public.movie")
    /// A base type for video content that doesn't contain audio.
    public static let video = declared("public.video")
    /// A base type for audio content that doesn't contain video.
    public static let audio = declared("public.audio")
    /// A type that represents a QuickTime movie.
    public static let quickTimeMovie = declared("com.apple.quicktime-movie")
    /// A type that represents an MPEG-4 movie.
    public static let mpeg4Movie = declared("public.mpeg-4")
    /// A type that represents MPEG-4 audio that doesn't contain video.
    public static let mpeg4Audio = declared("public.mpeg-4-audio")
    /// A type that represents waveform audio.
    public static let wav = declared("com.microsoft.waveform-audio")
    /// A type that represents MP3 audio.
    public static let mp3 = declared("public.mp3")
    /// A type that represents audio in the Audio Interchange File Format.
    public static let aiff = declared("public.aiff-audio")
    /// A type that represents AVI movies.
    public static let avi = declared("public.avi")
    /// A base type for all text, including text with markup information.
    public static let text = declared("public.text")
    /// A type that represents text with no markup and an unspecified encoding.
    public static let plainText = declared("public.plain-text")
    /// A type that represents JavaScript Object Notation data.
    public static let json = declared("public.json")
}
