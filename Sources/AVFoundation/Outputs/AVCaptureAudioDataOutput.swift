import CaptureDevices
import Foundation

/// Methods an audio data output calls with audio samples.
public protocol AVCaptureAudioDataOutputSampleBufferDelegate: NSObjectProtocol {
    /// New audio samples: interleaved 16-bit signed integer PCM.
    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection)
}

extension AVCaptureAudioDataOutputSampleBufferDelegate {
    /// Does nothing with new samples.
    public func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {}
}

/// An output that delivers audio samples to a delegate on a serial queue, in order, never reordered.
///
/// Audio has no affordance for dropping: buffers wait in a bounded queue for a slow delegate.
/// If the queue overflows, the buffers that could not wait are lost, and the next buffer
/// delivered carries a `DroppedFrameReason` attachment of `Discontinuity`.
open class AVCaptureAudioDataOutput: AVCaptureOutput, SampleBufferDeliveryClient, @unchecked Sendable {
    private struct Settings {
        weak var delegate: AVCaptureAudioDataOutputSampleBufferDelegate?
        var queue: DispatchQueue?
    }
    private let settings = LockedValue(Settings())
    private lazy var delivery = SampleBufferDelivery(client: self)
    private let streams = SampleBufferStreams()
    /// How many buffers may wait for the delegate: about a third of a second at 44.1 kHz.
    static let queueCapacity = 16

    /// Creates an audio data output.
    public override init() {
        super.init()
        delivery.setPolicy(discardsLateSamples: false, capacity: Self.queueCapacity)
    }

    /// Sets the delegate and the serial queue its method runs on; `nil` stops delivery.
    open func setSampleBufferDelegate(_ sampleBufferDelegate: AVCaptureAudioDataOutputSampleBufferDelegate?, queue sampleBufferCallbackQueue: DispatchQueue?) {
        if sampleBufferDelegate != nil, sampleBufferCallbackQueue == nil {
            ProgrammingError.invalidArgument("-[AVCaptureAudioDataOutput setSampleBufferDelegate:queue:] a queue is required with a delegate")
        }
        settings.withLock { settings in
            settings.delegate = sampleBufferDelegate
            settings.queue = sampleBufferDelegate == nil ? nil : sampleBufferCallbackQueue
        }
        delivery.setQueue(sampleBufferDelegate == nil ? nil : sampleBufferCallbackQueue)
    }

    /// The delegate that receives samples.
    open var sampleBufferDelegate: AVCaptureAudioDataOutputSampleBufferDelegate? { settings.withLock { $0.delegate } }
    /// The queue the delegate's method runs on.
    open var sampleBufferCallbackQueue: DispatchQueue? { settings.withLock { $0.queue } }

    /// The output's samples as an async sequence that keeps at most `limit` waiting buffers.
    public func linuxSampleBuffers(bufferingNewest limit: Int = 16) -> AsyncStream<CMSampleBuffer> {
        streams.makeStream(bufferingNewest: limit)
    }

    override var demand: OutputDemand { OutputDemand(audio: 1, orientation: .unsupported) }

    override func didDetach() { delivery.flush() }
    package override var hasWorkInFlight: Bool { !delivery.isIdle }

    override func receive(_ sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        guard isAttached else { return }
        if delivery.takeDiscontinuity() {
            CMSetAttachment(
                sampleBuffer, key: kCMSampleBufferAttachmentKey_DroppedFrameReason, value: DropReasonStrings.discontinuity,
                attachmentMode: kCMAttachmentMode_ShouldPropagate)
        }
        delivery.offer(sampleBuffer, from: connection)
        streams.yield(sampleBuffer)
    }

    override func receiveDrop(at presentationTime: CMTime, duration: CMTime, reason: FrameDropReason, from connection: AVCaptureConnection) {
        delivery.recordDrop(at: presentationTime, duration: duration, reason: .discontinuity, from: connection)
    }

    func deliver(_ sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        settings.withLock { $0.delegate }?.captureOutput(self, didOutput: sampleBuffer, from: connection)
    }

    func deliverDrop(_ sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {}

    /// Audio settings recommended for writing this output's samples with an asset writer.
    open func recommendedAudioSettingsForAssetWriter(writingTo outputFileType: AVFileType) -> [String: Any]? {
        let asbd = connection(with: .audio)?.inputPorts.first?.formatDescription?.audioStreamBasicDescription
        let channels = Int(min(2, max(1, asbd?.mChannelsPerFrame ?? 1)))
        return EncodingPlan.aacSettings(sampleRate: asbd?.mSampleRate ?? 44_100, channels: channels)
    }
}
