import CaptureDevices
import Foundation

/// Methods a video data output calls with frames and with reports of dropped frames.
public protocol AVCaptureVideoDataOutputSampleBufferDelegate: NSObjectProtocol {
    /// A new frame; hand it back quickly, or the camera runs out of buffers.
    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection)
    /// A frame was dropped; the sample buffer carries its timing and a `DroppedFrameReason` attachment, no image.
    func captureOutput(_ output: AVCaptureOutput, didDrop sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection)
}

extension AVCaptureVideoDataOutputSampleBufferDelegate {
    /// Does nothing with a new frame.
    public func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {}
    /// Does nothing with a dropped frame.
    public func captureOutput(_ output: AVCaptureOutput, didDrop sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {}
}

/// An output that delivers uncompressed video frames to a delegate on a serial queue.
///
/// Frames arrive in order on the queue given to `setSampleBufferDelegate(_:queue:)`. With
/// `alwaysDiscardsLateVideoFrames` (the default), a frame that arrives while the delegate is
/// still busy is dropped at once and reported through `captureOutput(_:didDrop:from:)` with
/// the reason `FrameWasLate`; a delegate that holds on to frames starves the camera's pool,
/// and further frames are dropped with the reason `OutOfBuffers` until it lets go.
open class AVCaptureVideoDataOutput: AVCaptureOutput, SampleBufferDeliveryClient, @unchecked Sendable {
    private struct Settings {
        weak var delegate: AVCaptureVideoDataOutputSampleBufferDelegate?
        var queue: DispatchQueue?
        var pixelFormat: OSType?
        var alwaysDiscardsLateVideoFrames = true
        var minFrameDuration: CMTime = .invalid
        var lastDelivered: CMTime = .invalid
        var automaticallyConfiguresOutputBufferDimensions = true
        var deliversPreviewSizedOutputBuffers = false
    }
    private let settings = LockedValue(Settings())
    private lazy var delivery = SampleBufferDelivery(client: self)
    private let streams = SampleBufferStreams()

    /// Creates a video data output that delivers frames in the camera's most efficient format.
    public override init() {
        super.init()
        delivery.setPolicy(discardsLateSamples: true, capacity: 1)
    }

    // MARK: Delegate

    /// Sets the delegate and the serial queue its methods run on; `nil` stops delivery.
    open func setSampleBufferDelegate(_ sampleBufferDelegate: AVCaptureVideoDataOutputSampleBufferDelegate?, queue sampleBufferCallbackQueue: DispatchQueue?) {
        if sampleBufferDelegate != nil, sampleBufferCallbackQueue == nil {
            ProgrammingError.invalidArgument("-[AVCaptureVideoDataOutput setSampleBufferDelegate:queue:] a queue is required with a delegate")
        }
        settings.withLock { settings in
            settings.delegate = sampleBufferDelegate
            settings.queue = sampleBufferDelegate == nil ? nil : sampleBufferCallbackQueue
        }
        delivery.setQueue(sampleBufferDelegate == nil ? nil : sampleBufferCallbackQueue)
    }

    /// The delegate that receives frames.
    open var sampleBufferDelegate: AVCaptureVideoDataOutputSampleBufferDelegate? { settings.withLock { $0.delegate } }
    /// The queue the delegate's methods run on.
    open var sampleBufferCallbackQueue: DispatchQueue? { settings.withLock { $0.queue } }

    // MARK: Format

    /// The pixel formats the output can deliver, most efficient first.
    open var availableVideoPixelFormatTypes: [OSType] {
        [
            kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange, kCVPixelFormatType_32BGRA,
            kCVPixelFormatType_422YpCbCr8, kCVPixelFormatType_422YpCbCr8_yuvs,
        ]
    }

    /// The pixel formats the output can deliver, as numbers, by their older name.
    open var availableVideoCVPixelFormatTypes: [Any] { availableVideoPixelFormatTypes.map { NSNumber(value: $0) } }

    /// The codecs the output can deliver; it delivers uncompressed frames only.
    open var availableVideoCodecTypes: [AVVideoCodecType] { [] }

    /// The output's settings: its pixel format under `kCVPixelBufferPixelFormatTypeKey`, and the frame size. `nil` restores the default.
    open var videoSettings: [String: Any]! {
        get {
            let format = settings.withLock { $0.pixelFormat } ?? defaultPixelFormat
            var result: [String: Any] = [kCVPixelBufferPixelFormatTypeKey as String: NSNumber(value: format)]
            if let size = deliveredSize {
                result[kCVPixelBufferWidthKey] = NSNumber(value: size.0)
                result[kCVPixelBufferHeightKey] = NSNumber(value: size.1)
            }
            return result
        }
        set {
            var format: OSType?
            if let newValue {
                for key in newValue.keys
                where ![
                    kCVPixelBufferPixelFormatTypeKey, kCVPixelBufferWidthKey, kCVPixelBufferHeightKey,
                    kCVPixelBufferIOSurfacePropertiesKey, kCVPixelBufferBytesPerRowAlignmentKey,
                ].contains(key as NSString) {
                    ProgrammingError.invalidArgument(
                        "-[AVCaptureVideoDataOutput setVideoSettings:] Unsupported key \(key); the supported key is kCVPixelBufferPixelFormatTypeKey")
                }
                if let value = newValue[kCVPixelBufferPixelFormatTypeKey] {
                    guard let type = attributeOSType(value), availableVideoPixelFormatTypes.contains(type) else {
                        ProgrammingError.invalidArgument(
                            "-[AVCaptureVideoDataOutput setVideoSettings:] Unsupported pixel format type \(value); see availableVideoPixelFormatTypes")
                    }
                    format = type
                }
            }
            settings.withLock { $0.pixelFormat = format }
            session?.outputConfigurationDidChange()
        }
    }

    private var defaultPixelFormat: OSType {
        (connection(with: .video)?.sourceDevice?.activeFormat.backing.pixelFormat) ?? kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange
    }

    private var deliveredSize: (Int, Int)? {
        guard let device = connection(with: .video)?.sourceDevice else { return nil }
        if session?.sessionPreset == .photo { return (StreamPlan.photoPreviewSize.width, StreamPlan.photoPreviewSize.height) }
        return (Int(device.activeFormat.dimensions.width), Int(device.activeFormat.dimensions.height))
    }

    /// Whether the output sizes its buffers from the session's configuration.
    open var automaticallyConfiguresOutputBufferDimensions: Bool {
        get { settings.withLock { $0.automaticallyConfiguresOutputBufferDimensions } }
        set { settings.withLock { $0.automaticallyConfiguresOutputBufferDimensions = newValue } }
    }

    /// Whether the output delivers preview-sized buffers.
    open var deliversPreviewSizedOutputBuffers: Bool {
        get { settings.withLock { $0.deliversPreviewSizedOutputBuffers } }
        set { settings.withLock { $0.deliversPreviewSizedOutputBuffers = newValue } }
    }

    /// Video settings recommended for writing this output's frames with an asset writer: H.264 at the frames' size and rate.
    open func recommendedVideoSettingsForAssetWriter(writingTo outputFileType: AVFileType) -> [String: Any]? {
        recommendedVideoSettings(forVideoCodecType: .h264, assetWriterOutputFileType: outputFileType)
    }

    /// Video settings recommended for writing this output's frames with a codec.
    open func recommendedVideoSettings(forVideoCodecType videoCodecType: AVVideoCodecType, assetWriterOutputFileType outputFileType: AVFileType) -> [String:
        Any]?
    {
        guard let (width, height) = deliveredSize, ValidatedSettings.availableVideoCodecs.contains(videoCodecType),
            let device = connection(with: .video)?.sourceDevice
        else { return nil }
        let rate = 1 / device.activeVideoMinFrameDuration.seconds
        return EncodingPlan.videoSettings(codec: videoCodecType, width: width, height: height, frameRate: rate)
    }

    // MARK: Policy

    /// Whether frames that arrive while the delegate is busy are dropped at once (the default) rather than queued briefly.
    open var alwaysDiscardsLateVideoFrames: Bool {
        get { settings.withLock { $0.alwaysDiscardsLateVideoFrames } }
        set {
            settings.withLock { $0.alwaysDiscardsLateVideoFrames = newValue }
            delivery.setPolicy(discardsLateSamples: newValue, capacity: newValue ? 1 : 4)
        }
    }

    /// The shortest time between delivered frames; frames that come sooner are skipped. `.invalid` means no limit.
    open var minFrameDuration: CMTime {
        get { settings.withLock { $0.minFrameDuration } }
        set { settings.withLock { $0.minFrameDuration = newValue } }
    }

    // MARK: Async sequence

    /// The output's frames as an async sequence that keeps at most `limit` waiting frames, newest first kept.
    ///
    /// The sequence receives the same frames as the delegate, alongside it; it ends when the
    /// task iterating it is cancelled or when another sequence is asked for.
    public func linuxSampleBuffers(bufferingNewest limit: Int = 1) -> AsyncStream<CMSampleBuffer> {
        streams.makeStream(bufferingNewest: limit)
    }

    // MARK: Session hooks

    // Frames are rotated and mirrored in their pixels, as current Apple platforms do; a front
    // camera's frames are mirrored only when the client asks.
    override var demand: OutputDemand {
        OutputDemand(video: 1, pixelFormat: settings.withLock { $0.pixelFormat }, orientation: .pixels)
    }

    override func didDetach() { delivery.flush() }
    package override var hasWorkInFlight: Bool { !delivery.isIdle }

    override func receive(_ sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        guard isAttached else { return }
        let skip = settings.withLock { settings -> Bool in
            let pts = sampleBuffer.presentationTimeStamp
            if settings.minFrameDuration.isNumeric, settings.lastDelivered.isNumeric {
                // Allow a little jitter, so a cap at the camera's own rate keeps every frame.
                let earliest = settings.lastDelivered + settings.minFrameDuration - CMTime(value: 2, timescale: 1000)
                if pts < earliest { return true }
            }
            settings.lastDelivered = pts
            return false
        }
        if skip { return }
        delivery.offer(sampleBuffer, from: connection)
        streams.yield(sampleBuffer)
    }

    override func receiveDrop(at presentationTime: CMTime, duration: CMTime, reason: FrameDropReason, from connection: AVCaptureConnection) {
        delivery.recordDrop(at: presentationTime, duration: duration, reason: reason, from: connection)
    }

    override func sessionRunningDidChange(_ running: Bool) {
        settings.withLock { $0.lastDelivered = .invalid }
    }

    func deliver(_ sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        settings.withLock { $0.delegate }?.captureOutput(self, didOutput: sampleBuffer, from: connection)
    }

    func deliverDrop(_ sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        settings.withLock { $0.delegate }?.captureOutput(self, didDrop: sampleBuffer, from: connection)
    }
}
