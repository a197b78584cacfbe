// Capture code written as it is for iOS and macOS: this module imports AVFoundation and nothing
// else, and uses what Apple's AVFoundation brings with it (Foundation, Dispatch, Core Graphics
// geometry, Core Media, Core Video). That it compiles is half the test; AppleStyleCodeTests
// checks what it computes.
import AVFoundation

/// What one frame told the grabber.
public struct GrabbedFrame {
    public var dimensions = CMVideoDimensions()
    public var presentationDimensions = CGSize.zero
    public var timingEntries: CMItemCount = 0
    public var timing = CMSampleTimingInfo()
    public var hostTime = CMTime()
    public var retimedPresentationTime = CMTime()
    public var outputPresentationTime = CMTime()
    public var extensions: [AnyHashable: Any]?
    public var pixelFormat: FourCharCode = 0
    public var receivedAt: TimeInterval = 0
}

/// A frame grabber in the style of open-source iOS capture libraries.
public final class FrameTimingGrabber: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate {
    public let session = AVCaptureSession()
    private let queue = DispatchQueue(label: "grabber.frames")
    private let lock = NSLock()
    private var frames: [GrabbedFrame] = []

    public override init() { super.init() }

    /// Every frame so far.
    public var grabbed: [GrabbedFrame] {
        lock.lock()
        defer { lock.unlock() }
        return frames
    }

    public func start(rotationAngle: CGFloat) throws {
        guard let camera = AVCaptureDevice.default(for: .video) else {
            throw NSError(domain: "FrameTimingGrabber", code: 1, userInfo: [NSLocalizedDescriptionKey: "no camera"])
        }
        session.beginConfiguration()
        session.sessionPreset = .vga640x480
        let input = try AVCaptureDeviceInput(device: camera)
        if session.canAddInput(input) { session.addInput(input) }
        let output = AVCaptureVideoDataOutput()
        output.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: NSNumber(value: kCVPixelFormatType_32BGRA)]
        output.alwaysDiscardsLateVideoFrames = true
        output.setSampleBufferDelegate(self, queue: queue)
        if session.canAddOutput(output) { session.addOutput(output) }
        if let connection = output.connection(with: .video), connection.isVideoRotationAngleSupported(rotationAngle) {
            connection.videoRotationAngle = rotationAngle
        }
        session.commitConfiguration()
        session.startRunning()
    }

    public func stop() { session.stopRunning() }

    public func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        guard let description = CMSampleBufferGetFormatDescription(sampleBuffer) else { return }
        var frame = GrabbedFrame()
        frame.dimensions = CMVideoFormatDescriptionGetDimensions(description)
        frame.presentationDimensions = CMVideoFormatDescriptionGetPresentationDimensions(description, usePixelAspectRatio: true, useCleanAperture: true)
        frame.pixelFormat = CMFormatDescriptionGetMediaSubType(description)
        frame.extensions = CMFormatDescriptionGetExtensions(description) as? [AnyHashable: Any]

        var count: CMItemCount = 0
        CMSampleBufferGetSampleTimingInfoArray(sampleBuffer, entryCount: 0, arrayToFill: nil, entriesNeededOut: &count)
        var timings = [CMSampleTimingInfo](repeating: CMSampleTimingInfo(), count: count)
        CMSampleBufferGetSampleTimingInfoArray(sampleBuffer, entryCount: count, arrayToFill: &timings, entriesNeededOut: &count)
        frame.timingEntries = count
        if let first = timings.first { frame.timing = first }

        // Frame grabbers retime frames onto a clock of their own, starting at zero.
        var retimed = frame.timing
        retimed.presentationTimeStamp = CMTimeSubtract(frame.timing.presentationTimeStamp, CMTime(value: 1, timescale: 1))
        var copy: CMSampleBuffer?
        CMSampleBufferCreateCopyWithNewTiming(
            allocator: kCFAllocatorDefault, sampleBuffer: sampleBuffer, sampleTimingEntryCount: 1,
            sampleTimingArray: &retimed, sampleBufferOut: &copy)
        if let copy {
            frame.retimedPresentationTime = CMSampleBufferGetPresentationTimeStamp(copy)
            CMSampleBufferSetOutputPresentationTimeStamp(copy, newValue: CMTime(value: 42, timescale: 1))
            frame.outputPresentationTime = CMSampleBufferGetOutputPresentationTimeStamp(copy)
        }
        if let clock = session.synchronizationClock {
            frame.hostTime = CMSyncConvertTime(frame.timing.presentationTimeStamp, from: clock, to: CMClockGetHostTimeClock())
        }
        frame.receivedAt = Date().timeIntervalSince1970
        lock.lock()
        frames.append(frame)
        lock.unlock()
    }
}
