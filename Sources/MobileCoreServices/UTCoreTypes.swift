import Foundation

// The uniform type identifiers of the media types, as Core Services names them (`UTType`'s
// static properties are the current spelling).

/// The type identifier of the base type of every item: "public.item".
nonisolated(unsafe) public let kUTTypeItem: CFString = "public.item"
/// The type identifier of content of any kind: "public.content".
nonisolated(unsafe) public let kUTTypeContent: CFString = "public.content"
/// The type identifier of any data as bytes: "public.data".
nonisolated(unsafe) public let kUTTypeData: CFString = "public.data"
/// The type identifier of an image: "public.image".
nonisolated(unsafe) public let kUTTypeImage: CFString = "public.image"
/// The type identifier of a JPEG image: "public.jpeg".
nonisolated(unsafe) public let kUTTypeJPEG: CFString = "public.jpeg"
/// The type identifier of a PNG image: "public.png".
nonisolated(unsafe) public let kUTTypePNG: CFString = "public.png"
/// The type identifier of a TIFF image: "public.tiff".
nonisolated(unsafe) public let kUTTypeTIFF: CFString = "public.tiff"
/// The type identifier of a GIF image: "com.compuserve.gif".
nonisolated(unsafe) public let kUTTypeGIF: CFString = "com.compuserve.gif"
/// The type identifier of audio, video or both: "public.audiovisual-content".
nonisolated(unsafe) public let kUTTypeAudiovisualContent: CFString = "public.audiovisual-content"
/// The type identifier of a movie, with or without sound: "public.movie".
nonisolated(unsafe) public let kUTTypeMovie: CFString = "public.movie"
/// The type identifier of video without sound: "public.video".
nonisolated(unsafe) public let kUTTypeVideo: CFString = "public.video"
/// The type identifier of sound without video: "public.audio".
nonisolated(unsafe) public let kUTTypeAudio: CFString = "public.audio"
/// The type identifier of a QuickTime movie: "com.apple.quicktime-movie".
nonisolated(unsafe) public let kUTTypeQuickTimeMovie: CFString = "com.apple.quicktime-movie"
/// The type identifier of an MPEG-4 movie: "public.mpeg-4".
nonisolated(unsafe) public let kUTTypeMPEG4: CFString = "public.mpeg-4"
/// The type identifier of MPEG-4 audio: "public.mpeg-4-audio".
nonisolated(unsafe) public let kUTTypeMPEG4Audio: CFString = "public.mpeg-4-audio"
/// The type identifier of protected MPEG-4 audio: "com.apple.protected-mpeg-4-audio".
nonisolated(unsafe) public let kUTTypeAppleProtectedMPEG4Audio: CFString = "com.apple.protected-mpeg-4-audio"
/// The type identifier of MP3 audio: "public.mp3".
nonisolated(unsafe) public let kUTTypeMP3: CFString = "public.mp3"
/// The type identifier of WAVE audio: "com.microsoft.waveform-audio".
nonisolated(unsafe) public let kUTTypeWaveformAudio: CFString = "com.microsoft.waveform-audio"
/// The type identifier of an AVI movie: "public.avi".
nonisolated(unsafe) public let kUTTypeAVIMovie: CFString = "public.avi"
/// The type identifier of text: "public.text".
nonisolated(unsafe) public let kUTTypeText: CFString = "public.text"
/// The type identifier of plain text: "public.plain-text".
nonisolated(unsafe) public let kUTTypePlainText: CFString = "public.plain-text"
/// The type identifier of JSON: "public.json".
nonisolated(unsafe) public let kUTTypeJSON: CFString = "public.json"
/// The type identifier of a Live Photo: "com.apple.live-photo".
nonisolated(unsafe) public let kUTTypeLivePhoto: CFString = "com.apple.live-photo"
