import CoreMedia
import CoreVideo
import Foundation
import MovieEngine

/// An object that reads composite video frames from one or more tracks of an asset, composed as
/// its video composition's instructions say.
open class AVAssetReaderVideoCompositionOutput: AVAssetReaderOutput, @unchecked Sendable {
    /// The tracks whose frames are composed.
    public let videoTracks: [AVAssetTrack]
    /// The pixel format of the frames given (`kCVPixelBufferPixelFormatTypeKey`); nil gives 32-bit BGRA.
    public let videoSettings: [String: Any]?
    private let composition = LockedValue<AVVideoComposition?>(nil)
    /// Guarded by `compositingLock`: the compositing under way.
    private var compositing: VideoCompositing?
    private let compositingLock = NSLock()

    /// Creates an output that composes the frames of video tracks, with pixel buffer settings.
    public init(videoTracks: [AVAssetTrack], videoSettings: [String: Any]?) {
        guard !videoTracks.isEmpty, videoTracks.allSatisfy({ $0.mediaType == .video }) else {
            ProgrammingError.invalidArgument(
                "-[AVAssetReaderVideoCompositionOutput initWithVideoTracks:videoSettings:] the tracks must be video tracks, and there must be at least one")
        }
        self.videoTracks = videoTracks
        self.videoSettings = videoSettings
        super.init()
    }

    /// The video composition that says how the frames are composed; it must be set before reading starts.
    open var videoComposition: AVVideoComposition? {
        get { composition.withLock { $0 } }
        set { composition.withLock { $0 = newValue?.copy() as? AVVideoComposition } }
    }

    /// The custom compositor the video composition named, once reading has made it; nil for Apple's instructions.
    open var customVideoCompositor: (any AVVideoCompositing)? { compositor.withLock { $0 } }
    private let compositor = LockedValue<(any AVVideoCompositing)?>(nil)
    /// The compositing under way, for cancelling it without its lock.
    private let running = LockedValue<VideoCompositing?>(nil)

    override func belongs(to asset: AVAsset) -> Bool { videoTracks.allSatisfy { $0.asset === asset } }

    override func prepare(demuxer: Demuxer?, timeRange: CMTimeRange) throws {
        guard let composition = videoComposition else {
            ProgrammingError.invalidState("-[AVAssetReaderVideoCompositionOutput] a video composition must be set before reading starts")
        }
        let format =
            (videoSettings?[kCVPixelBufferPixelFormatTypeKey as String] as? NSNumber)?.uint32Value
            ?? (videoSettings?[kCVPixelBufferPixelFormatTypeKey as String] as? OSType) ?? kCVPixelFormatType_32BGRA
        let made = try VideoCompositing(tracks: videoTracks, composition: composition, pixelFormat: format, timeRange: timeRange)
        compositor.withLock { $0 = made.customCompositor }
        running.withLock { $0 = made }
        compositingLock.withLock { compositing = made }
    }

    override func nextSampleBuffer() throws -> CMSampleBuffer? {
        compositingLock.lock()
        defer { compositingLock.unlock() }
        return try compositing?.next()
    }

    override func release() {
        // A custom compositor being waited for is asked to cancel first, so that the lock comes free.
        running.withLock { $0 }?.cancel()
        running.withLock { $0 = nil }
        compositingLock.withLock { compositing = nil }
    }
}
