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
    /// The device's own code for the format, such as a V4L2 fourcc; 0 for virtual devices.
    package var sourceCode: UInt32 = 0
    /// The subtype the device format reports: the pixel format, or a codec such as 'dmb1' for MJPEG.
    package var mediaSubType: FourCharCode = 0

    package init(
        width: Int, height: Int, pixelFormat: OSType, frameRateRanges: [ClosedRange<Double>], fieldOfView: Float, isBinned: Bool,
        supportsStabilization: Bool, maxZoomFactor: Double, zoomUpscaleThreshold: Double, minISO: Float, maxISO: Float,
        exposureDurationRange: ClosedRange<Double>, sourceCode: UInt32 = 0, mediaSubType: FourCharCode = 0
    ) {
        self.width = width
        self.height = height
        self.pixelFormat = pixelFormat
        self.frameRateRanges = frameRateRanges
        self.fieldOfView = fieldOfView
        self.isBinned = isBinned
        self.supportsStabilization = supportsStabilization
        self.maxZoomFactor = maxZoomFactor
        self.zoomUpscaleThreshold = zoomUpscaleThreshold
        self.minISO = minISO
        self.maxISO = maxISO
        self.exposureDurationRange = exposureDurationRange
        self.sourceCode = sourceCode
        self.mediaSubType = mediaSubType == 0 ? pixelFormat : mediaSubType
    }

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
    /// The device's own code for the active format, such as a V4L2 fourcc.
    package var sourceCode: UInt32 = 0
    /// The time between frames as an exact fraction of a second, where one is known: (value, timescale).
    package var frameDurationFraction: (Int64, Int32)?

    package static func == (lhs: VideoStreamConfiguration, rhs: VideoStreamConfiguration) -> Bool {
        lhs.width == rhs.width && lhs.height == rhs.height && lhs.pixelFormat == rhs.pixelFormat
            && lhs.frameDurationNanoseconds == rhs.frameDurationNanoseconds && lhs.bufferCount == rhs.bufferCount
            && lhs.isPaced == rhs.isPaced && lhs.sourceCode == rhs.sourceCode
    }

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
    /// The sound server could not be reached.
    case serverUnavailable
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

    /// The format of a microphone's samples; nil for cameras.
    var audioFormat: AudioStreamBasicDescription? { get }

    /// The time now on the clock the device stamps its samples with.
    var now: CMTime { get }
}

extension CaptureDeviceBackend {
    /// Cameras have no audio format.
    package var audioFormat: AudioStreamBasicDescription? { nil }

    /// Hardware stamps its samples with the host clock.
    package var now: CMTime { CMClock.hostTime(nanoseconds: CMClock.hostTimeNanoseconds()) }
}
