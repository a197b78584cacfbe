import CaptureDevices

/// What one output asks of the devices that feed it, in one statement: the media it takes, the
/// pixel format it wants, what it does with orientation, whether it takes full-size stills, and
/// how many frames it holds beyond a sample's delivery. The session plans each device's stream
/// from the demands of the outputs connected to it.
struct OutputDemand: Sendable {
    /// What the output does with a connection's rotation and mirroring.
    enum Orientation: Sendable {
        /// The output takes no orientation (sound, metadata).
        case unsupported
        /// The output describes it (a movie's display matrix, a preview's geometry); a front
        /// camera's video is described mirrored unless the client says otherwise.
        case described
        /// The output rotates and mirrors the pixels it delivers; a front camera's pixels are
        /// mirrored only when the client asks.
        case pixels
    }

    /// The most video connections the output takes.
    var video = 0
    /// The most audio connections the output takes.
    var audio = 0
    /// The most metadata object connections the output takes.
    var metadataObjects = 0
    /// The pixel format the output wants video in, or `nil` for the device's own.
    var pixelFormat: OSType?
    /// What the output does with orientation.
    var orientation = Orientation.described
    /// Whether the output takes stills at the camera's full size (the photo preset's other
    /// outputs then get a preview-sized copy).
    var fullSizeStills = false
    /// Frames the output holds on top of the ones any output may hold: a real-time encoder's queue.
    var heldFrames = 0

    /// Whether the output takes media of a type.
    func accepts(_ mediaType: AVMediaType) -> Bool { maximumConnections(for: mediaType) > 0 }

    /// The most connections of a media type the output takes.
    func maximumConnections(for mediaType: AVMediaType) -> Int {
        switch mediaType {
        case .video: return video
        case .audio: return audio
        case .metadataObject: return metadataObjects
        default: return 0
        }
    }
}
