import CoreMedia
import CoreVideo
import Foundation

/// The kind of media a device captures.
package enum CaptureMediaKind: String, Sendable, Hashable {
    case video = "vide"
    case audio = "soun"
}

/// Where a device sits on the machine.
package enum CapturePosition: Int, Sendable {
    case unspecified = 0, back = 1, front = 2
}

/// What kind of device a backend offers, in AVFoundation's terms.
package enum CaptureDeviceKind: String, Sendable {
    case builtInWideAngleCamera = "AVCaptureDeviceTypeBuiltInWideAngleCamera"
    case builtInMicrophone = "AVCaptureDeviceTypeBuiltInMicrophone"
    case external = "AVCaptureDeviceTypeExternal"
}

/// Who a device is, as a backend reports it.
package struct CaptureDeviceDescriptor: Sendable {
    package var uniqueID: String
    package var modelID: String
    package var localizedName: String
    package var manufacturer: String
    package var mediaKind: CaptureMediaKind
    package var position: CapturePosition
    package var kind: CaptureDeviceKind
}

/// One video format a camera can stream.
package struct CaptureVideoFormat: Sendable, Hashable {
    package var width: Int
    package var height: Int
    /// The format the device produces natively.
    package var pixelFormat: OSType
    /// Supported frame-rate ranges, in frames per second.
    package var frameRateRanges: [ClosedRange<Double>]
    package var fieldOfView: Float
    package var isBinned: Bool
    package var supportsStabilization: Bool
    package var maxZoomFactor: Double
    package var zoomUpscaleThreshold: Double
    package var minISO: Float
    package var maxISO: Float
    /// The shortest and longest exposure durations, in seconds.
    package var exposureDurationRange: ClosedRange<Double>

    /// The highest frame rate the format supports.
    package var maxFrameRate: Double { frameRateRanges.map(\.upperBound).max() ?? 30 }
}

/// How a device is asked to stream video.
package struct VideoStreamConfiguration: Sendable, Equatable {
    package var width: Int
    package var height: Int
    package var pixelFormat: OSType
    /// The time between frames, in nanoseconds.
    package var frameDurationNanoseconds: Int64
    /// How many buffers the device's pool holds: the most frames clients may hold at once.
    package var bufferCount: Int
    /// Whether frames are paced in real time; unpaced streams produce as fast as they can.
    package var isPaced: Bool

    package init(width: Int, height: Int, pixelFormat: OSType, frameDurationNanoseconds: Int64, bufferCount: Int = 8, isPaced: Bool = true) {
        self.width = width
        self.height = height
        self.pixelFormat = pixelFormat
        self.frameDurationNanoseconds = frameDurationNanoseconds
        self.bufferCount = bufferCount
        self.isPaced = isPaced
    }
}

/// Why the device could not hand a frame on.
package enum FrameDropReason: Sendable {
    case frameWasLate, outOfBuffers, discontinuity
}

/// Something that happened to a device, for the session to turn into notifications and errors.
package enum CaptureDeviceEvent: Sendable {
    case interrupted(reason: Int)
    case interruptionEnded
    case disconnected
    case reconnected
    case runtimeError(code: Int)
}

/// Receives what a streaming device produces. Called on the device's own thread; must not block.
package protocol CaptureSampleSink: AnyObject, Sendable {
    /// A new sample buffer of stream configuration `generation`, valid for as long as the receiver holds it.
    func deviceDidProduce(_ sampleBuffer: CMSampleBuffer, generation: Int)
    /// A frame of stream configuration `generation` the device could not deliver, captured at `presentationTime`.
    func deviceDidDrop(at presentationTime: CMTime, duration: CMTime, reason: FrameDropReason, generation: Int)
}

/// Receives a device's events. Called on any thread.
package protocol CaptureDeviceEventSink: AnyObject, Sendable {
    func device(_ uniqueID: String, didReport event: CaptureDeviceEvent)
}

/// Errors a backend reports when it cannot start.
package enum CaptureBackendError: Error, Sendable, Equatable {
    case notConnected
    case inUse
    case notAuthorized
    case unsupportedConfiguration(String)
}

/// A device backend: discovery facts, formats, imaging controls and streaming.
///
/// Thread ownership: every method may be called from any thread; a backend streams on a
/// thread of its own and calls its sink there.
package protocol CaptureDeviceBackend: AnyObject, Sendable {
    var descriptor: CaptureDeviceDescriptor { get }
    var videoFormats: [CaptureVideoFormat] { get }
    var capabilities: ImagingCapabilities { get }
    var isConnected: Bool { get }
    var isAuthorized: Bool { get }

    /// The imaging model that holds the device's control state.
    var imaging: ImagingModel { get }

    /// Starts streaming to `sink`, or reconfigures a running stream; returns the generation its samples will carry.
    @discardableResult
    func start(_ configuration: VideoStreamConfiguration?, sink: CaptureSampleSink) throws(CaptureBackendError) -> Int
    /// Stops streaming; no sink call begins after this returns.
    func stop()

    /// Registers the receiver of this device's events.
    func setEventSink(_ sink: CaptureDeviceEventSink?)
}
