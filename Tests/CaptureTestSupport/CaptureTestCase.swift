import XCTest
import AVFoundation
import CaptureDevices
import TestSupport

/// A test case that starts each test from a clean virtual world and stops what it started.
open class CaptureTestCase: XCTestCase {
    public var sessions: [AVCaptureSession] = []

    open override func setUp() {
        super.setUp()
        for device in DeviceDirectory.all { device.resetToDefaults() }
    }

    open override func tearDown() {
        for session in sessions where session.isRunning { session.stopRunning() }
        sessions.removeAll()
        outputsCaughtUp = { true }
        for device in DeviceDirectory.all { device.resetToDefaults() }
        super.tearDown()
    }

    public var backCamera: AVCaptureDevice { AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back)! }
    public var frontCamera: AVCaptureDevice { AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .front)! }
    public var microphone: AVCaptureDevice { AVCaptureDevice.default(for: .audio)! }

    /// A session with a camera input and a video data output feeding `collector`.
    public func makeVideoSession(
        camera: AVCaptureDevice? = nil, preset: AVCaptureSession.Preset = .vga640x480, pixelFormat: OSType? = nil,
        collector: FrameCollector, queue: DispatchQueue? = nil
    ) throws -> (AVCaptureSession, AVCaptureVideoDataOutput) {
        let session = AVCaptureSession()
        sessions.append(session)
        session.beginConfiguration()
        session.sessionPreset = preset
        session.addInput(try AVCaptureDeviceInput(device: camera ?? backCamera))
        let output = AVCaptureVideoDataOutput()
        if let pixelFormat { output.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: pixelFormat] }
        output.setSampleBufferDelegate(collector, queue: queue ?? collector.queue)
        session.addOutput(output)
        session.commitConfiguration()
        return (session, output)
    }

    /// A session with `camera` in `format`, at `framesPerSecond` when the format allows it, and a video data output feeding `collector`.
    public func makeVideoSession(
        camera: AVCaptureDevice, format: AVCaptureDevice.Format, framesPerSecond: Int32? = nil, pixelFormat: OSType? = nil,
        collector: FrameCollector
    ) throws -> (AVCaptureSession, AVCaptureVideoDataOutput) {
        let session = AVCaptureSession()
        sessions.append(session)
        session.beginConfiguration()
        session.addInput(try AVCaptureDeviceInput(device: camera))
        let output = AVCaptureVideoDataOutput()
        if let pixelFormat { output.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: pixelFormat] }
        output.setSampleBufferDelegate(collector, queue: collector.queue)
        session.addOutput(output)
        // Choosing the format once the camera is in the session takes the session out of presets.
        try camera.lockForConfiguration()
        camera.activeFormat = format
        if let framesPerSecond {
            let duration = CMTime(value: 1, timescale: framesPerSecond)
            if format.videoSupportedFrameRateRanges.contains(where: { $0.minFrameDuration <= duration && duration <= $0.maxFrameDuration }) {
                camera.activeVideoMinFrameDuration = duration
                camera.activeVideoMaxFrameDuration = duration
            }
        }
        camera.unlockForConfiguration()
        session.commitConfiguration()
        return (session, output)
    }

    /// A multi-camera session with each camera joined by an explicit connection to a video data
    /// output of its own feeding its collector (delivering `pixelFormat` when given), set up as
    /// Apple's multi-camera picture in picture sample does; the connections in the cameras' order.
    public func makeMultiCamSession(
        cameras: [AVCaptureDevice], collectors: [FrameCollector], pixelFormat: OSType? = nil
    ) throws -> (AVCaptureMultiCamSession, [AVCaptureConnection]) {
        XCTAssertTrue(AVCaptureMultiCamSession.isMultiCamSupported)
        let session = AVCaptureMultiCamSession()
        sessions.append(session)
        session.beginConfiguration()
        var connections: [AVCaptureConnection] = []
        for (camera, collector) in zip(cameras, collectors) {
            let input = try AVCaptureDeviceInput(device: camera)
            XCTAssertTrue(session.canAddInput(input))
            session.addInputWithNoConnections(input)
            let port = try XCTUnwrap(
                input.ports(for: .video, sourceDeviceType: camera.deviceType, sourceDevicePosition: camera.position).first, "the camera's video port")
            let output = AVCaptureVideoDataOutput()
            if let pixelFormat { output.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: pixelFormat] }
            output.setSampleBufferDelegate(collector, queue: collector.queue)
            XCTAssertTrue(session.canAddOutput(output))
            session.addOutputWithNoConnections(output)
            let connection = AVCaptureConnection(inputPorts: [port], output: output)
            XCTAssertTrue(session.canAddConnection(connection))
            session.addConnection(connection)
            connections.append(connection)
        }
        session.commitConfiguration()
        return (session, connections)
    }

    /// The rate of `frames` from the one presented at `first` on, in frames per second.
    public func frameRate(of frames: [FrameCollector.Frame], since first: CMTime) -> Double {
        let measured = frames.filter { $0.presentationTime >= first }
        return Double(measured.count - 1) / (measured.last!.presentationTime - first).seconds
    }

    /// A session with a microphone input and an audio data output feeding `collector`.
    public func makeAudioSession(microphone: AVCaptureDevice, collector: FrameCollector) throws -> (AVCaptureSession, AVCaptureAudioDataOutput) {
        let session = AVCaptureSession()
        sessions.append(session)
        session.addInput(try AVCaptureDeviceInput(device: microphone))
        let output = AVCaptureAudioDataOutput()
        output.setSampleBufferDelegate(collector, queue: collector.queue)
        session.addOutput(output)
        return (session, output)
    }

    /// Moves a manual clock on by `frames` frames of `duration`, one at a time, waiting for each
    /// frame to reach `collector`; then lets the main queue deliver what the frames posted.
    public func step(
        _ clock: VirtualClock, frames: Int, of duration: CMTime = CMTime(value: 1, timescale: 30), collector: FrameCollector,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        for _ in 0..<frames {
            let before = collector.frames.count
            clock.advance(by: duration)
            XCTAssertTrue(waitUntil { collector.frames.count > before }, "a frame for each frame's time", file: file, line: line)
        }
        drainMainQueue()
    }

    /// The clock the virtual cameras and microphone follow once `useManualClock()` is called.
    public let manualClock = VirtualClock.manual()

    /// Puts the virtual cameras and microphone on `manualClock`, so that the test moves their time
    /// instead of sleeping; the tear-down returns them to the host clock.
    public func useManualClock() {
        for device in [backCamera, frontCamera, microphone] { device.virtualScene!.clock = manualClock }
    }

    /// Whether the outputs under test have done with the frames they were handed; `pass` waits for
    /// it after each frame. A real-time output drops what arrives while it is behind, as it should
    /// on a camera; a test that counts frames sets this so that its time waits for the output.
    public var outputsCaughtUp: @Sendable () -> Bool = { true }

    /// Moves `manualClock` on by `seconds`, a frame of `camera` (the back camera by default) at a
    /// time. After each frame it waits, as a test clock's owner does, until every device on the
    /// clock is parked on it again (the camera has handed the frame to every output) and the
    /// outputs have caught up (`outputsCaughtUp`): time passes for the capture graph as it would on
    /// a camera, never faster than the machine handles it.
    public func pass(
        _ seconds: Double, frame: CMTime = CMTime(value: 1, timescale: 30), camera: AVCaptureDevice? = nil,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        guard let virtual = (camera ?? backCamera).backend as? VirtualCamera else {
            return XCTFail("only a virtual camera follows the manual clock", file: file, line: line)
        }
        for _ in 0..<Int((seconds / frame.seconds).rounded()) {
            let before = virtual.framesHandedOver
            manualClock.advance(by: frame)
            XCTAssertTrue(manualClock.waitUntilSettled(), "the devices park on the clock again", file: file, line: line)
            XCTAssertTrue(waitUntil { virtual.framesHandedOver > before }, "the camera hands over each frame", file: file, line: line)
            XCTAssertTrue(waitUntil(outputsCaughtUp), "the outputs catch up with each frame", file: file, line: line)
        }
    }

    /// Moves `manualClock` on by `seconds` in steps of `step`, waiting after each until every
    /// device on the clock is parked on it again and the outputs have caught up
    /// (`outputsCaughtUp`): time for sessions without a camera, such as a microphone's.
    public func passTime(
        _ seconds: Double, step: CMTime = CMTime(value: 1, timescale: 30), file: StaticString = #filePath, line: UInt = #line
    ) {
        for _ in 0..<Int((seconds / step.seconds).rounded()) {
            manualClock.advance(by: step)
            XCTAssertTrue(manualClock.waitUntilSettled(), "the devices park on the clock again", file: file, line: line)
            XCTAssertTrue(waitUntil(outputsCaughtUp), "the outputs catch up with each step", file: file, line: line)
        }
    }

    /// Waits until `condition` holds, passing `manualClock`'s time a frame of `camera` at a time
    /// (by default a frame of the camera's active rate) while it does not (see `pass`). After each
    /// frame it waits for what the frame started, without a fixed sleep: until the sessions'
    /// outputs have no work in flight (deliveries, searches, photos being made), then for what
    /// they posted to the main queue; false when
    /// `frames` frames did not make it hold.
    @discardableResult
    public func advanceUntil(
        frames: Int = 300, frame: CMTime? = nil, camera: AVCaptureDevice? = nil,
        file: StaticString = #filePath, line: UInt = #line, _ condition: () -> Bool
    ) -> Bool {
        for _ in 0..<frames {
            if condition() { return true }
            let device = camera ?? backCamera
            if camera != nil || device.backend.imaging.current.isStreaming {
                // A frame of the camera's own rate unless told otherwise.
                let frame = frame ?? device.activeVideoMinFrameDuration
                pass(frame.seconds, frame: frame, camera: camera, file: file, line: line)
            } else {
                // A session without a camera (a microphone's) moves by time alone.
                let step = frame ?? CMTime(value: 1, timescale: 30)
                passTime(step.seconds, step: step, file: file, line: line)
            }
            let sessions = self.sessions
            XCTAssertTrue(
                waitUntil(timeout: 60) { !sessions.contains(where: \.outputsHaveWorkInFlight) }, "the outputs finish what the frame started", file: file,
                line: line)
            drainMainQueue()
        }
        return condition()
    }

    /// Spins the main run loop for `seconds`.
    public func spin(_ seconds: TimeInterval) {
        RunLoop.main.run(until: Date().addingTimeInterval(seconds))
    }
}

/// Values recorded from any thread, such as an observation's.
public final class Recorder<Value>: @unchecked Sendable {
    /// Creates an empty recorder.
    public init() {}
    private let lock = NSLock()
    private var storage: [Value] = []
    public var values: [Value] { lock.lock(); defer { lock.unlock() }; return storage }
    public func append(_ value: Value) { lock.lock(); storage.append(value); lock.unlock() }
    public func removeAll() { lock.lock(); storage.removeAll(); lock.unlock() }
}

/// Records what a data output delivers: frames, drops, the queue and the order of calls.
public final class FrameCollector: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, AVCaptureAudioDataOutputSampleBufferDelegate, @unchecked Sendable {
    public struct Frame {
        public var presentationTime: CMTime
        public var width: Int
        public var height: Int
        public var pixelFormat: OSType
        public var onQueue: Bool
        public var pixelBufferID: ObjectIdentifier?
        public var output: ObjectIdentifier
        public var meanLuma: Double?
        public var meanBGR: (Double, Double, Double)?
        /// When the callback for this frame returned, on the host clock.
        public var callbackEnd: CMTime = .invalid
    }
    public struct Drop {
        public var presentationTime: CMTime
        public var reason: String?
        public var count: Int
        public var duringCallback: Bool
        public var hasImage: Bool
    }
    public enum Event { case frame(CMTime), drop(CMTime) }

    public let queue: DispatchQueue
    private let key = DispatchSpecificKey<Int>()
    private let lock = NSLock()
    private var _frames: [Frame] = []
    private var _drops: [Drop] = []
    private var _events: [Event] = []
    private var _audio: [CMSampleBuffer] = []
    private var inCallback = false
    private var retained: [CMSampleBuffer] = []

    /// How the collector behaves; a test sets it while frames arrive on the delivery queue, so
    /// it is read and written under the lock.
    private struct Settings {
        var work: TimeInterval = 0
        var framesToRetain = 0
        var measures = false
        var keepsAudio = true
        var audioBuffersToKeep = Int.max
        var onFrame: ((CMSampleBuffer) -> Void)?
    }
    private var settings = Settings()
    private func setting<Value>(_ path: KeyPath<Settings, Value>) -> Value { lock.lock(); defer { lock.unlock() }; return settings[keyPath: path] }
    private func set<Value>(_ path: WritableKeyPath<Settings, Value>, _ value: Value) { lock.lock(); settings[keyPath: path] = value; lock.unlock() }

    /// Time spent in each video callback.
    public var work: TimeInterval {
        get { setting(\.work) }
        set { set(\.work, newValue) }
    }
    /// How many frames to hold on to rather than return.
    public var framesToRetain: Int {
        get { setting(\.framesToRetain) }
        set { set(\.framesToRetain, newValue) }
    }
    /// Whether to measure pixel statistics.
    public var measures: Bool {
        get { setting(\.measures) }
        set { set(\.measures, newValue) }
    }
    /// Whether to keep audio buffers; a client that keeps them all starves the microphone.
    public var keepsAudio: Bool {
        get { setting(\.keepsAudio) }
        set { set(\.keepsAudio, newValue) }
    }
    /// How many audio buffers to keep at most.
    public var audioBuffersToKeep: Int {
        get { setting(\.audioBuffersToKeep) }
        set { set(\.audioBuffersToKeep, newValue) }
    }
    private var _audioCount = 0
    public var audioBufferCount: Int { lock.lock(); defer { lock.unlock() }; return _audioCount }
    /// Called with each frame, on the delivery queue.
    public var onFrame: ((CMSampleBuffer) -> Void)? {
        get { setting(\.onFrame) }
        set { set(\.onFrame, newValue) }
    }

    public init(label: String = "collector") {
        queue = DispatchQueue(label: label)
        super.init()
        queue.setSpecific(key: key, value: 1)
    }

    public var frames: [Frame] { lock.lock(); defer { lock.unlock() }; return _frames }
    public var drops: [Drop] { lock.lock(); defer { lock.unlock() }; return _drops }
    public var events: [Event] { lock.lock(); defer { lock.unlock() }; return _events }
    public var audioBuffers: [CMSampleBuffer] { lock.lock(); defer { lock.unlock() }; return _audio }

    public func releaseRetained() { lock.lock(); retained.removeAll(); lock.unlock() }
    public func reset() { lock.lock(); _frames.removeAll(); _drops.removeAll(); _events.removeAll(); _audio.removeAll(); lock.unlock() }

    public func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        let onQueue = DispatchQueue.getSpecific(key: key) == 1
        lock.lock()
        let settings = self.settings
        lock.unlock()
        if output is AVCaptureAudioDataOutput {
            lock.lock(); _audioCount += 1; if settings.keepsAudio, _audio.count < settings.audioBuffersToKeep { _audio.append(sampleBuffer) }; lock.unlock()
            return
        }
        lock.lock(); inCallback = true; lock.unlock()
        let image = sampleBuffer.imageBuffer
        var frame = Frame(
            presentationTime: sampleBuffer.presentationTimeStamp, width: image.map(CVPixelBufferGetWidth) ?? 0,
            height: image.map(CVPixelBufferGetHeight) ?? 0, pixelFormat: image.map(CVPixelBufferGetPixelFormatType) ?? 0,
            onQueue: onQueue, pixelBufferID: image.map(ObjectIdentifier.init), output: ObjectIdentifier(output))
        if settings.measures, let image { (frame.meanLuma, frame.meanBGR) = PixelStatistics.measure(image) }
        settings.onFrame?(sampleBuffer)
        if settings.work > 0 { Thread.sleep(forTimeInterval: settings.work) }
        frame.callbackEnd = CMClockGetTime(CMClockGetHostTimeClock())
        lock.lock()
        _frames.append(frame)
        _events.append(.frame(frame.presentationTime))
        if retained.count < settings.framesToRetain { retained.append(sampleBuffer) }
        inCallback = false
        lock.unlock()
    }

    public func captureOutput(_ output: AVCaptureOutput, didDrop sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        let reason = CMGetAttachment(sampleBuffer, key: kCMSampleBufferAttachmentKey_DroppedFrameReason, attachmentModeOut: nil) as? String
        lock.lock()
        _drops.append(
            Drop(
                presentationTime: sampleBuffer.presentationTimeStamp, reason: reason, count: sampleBuffer.numSamples,
                duringCallback: inCallback, hasImage: sampleBuffer.imageBuffer != nil))
        _events.append(.drop(sampleBuffer.presentationTimeStamp))
        lock.unlock()
    }
}

/// Pixel statistics of frames, for tests of what the camera shows.
public enum PixelStatistics {
    /// How many bars of even colour, at least 24 pixels wide, the row a third of the way down a BGRA frame crosses (the SMPTE bars).
    public static func bars(_ sample: CMSampleBuffer) -> Int {
        guard let image = sample.imageBuffer else { return -1 }
        CVPixelBufferLockBaseAddress(image, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(image, .readOnly) }
        let stride = CVPixelBufferGetBytesPerRow(image), width = CVPixelBufferGetWidth(image)
        let row = CVPixelBufferGetBaseAddress(image)!.advanced(by: CVPixelBufferGetHeight(image) / 3 * stride).assumingMemoryBound(to: UInt8.self)
        var bars = 0, start = 0
        for x in 1...width {
            let differs = x == width || (0..<3).contains { abs(Int(row[x * 4 + $0]) - Int(row[start * 4 + $0])) > 24 }
            guard differs else { continue }
            if x - start >= 24 { bars += 1 }
            start = x
        }
        return bars
    }

    /// The mean luma (0...255) and, for BGRA, the mean blue, green and red of a frame, sampled on a grid.
    public static func measure(_ image: CVPixelBuffer, region: CGRect = CGRect(x: 0, y: 0.25, width: 1, height: 0.75)) -> (Double, (Double, Double, Double)?) {
        CVPixelBufferLockBaseAddress(image, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(image, .readOnly) }
        let width = CVPixelBufferGetWidth(image), height = CVPixelBufferGetHeight(image)
        let x0 = Int(region.minX * CGFloat(width)), x1 = Int(region.maxX * CGFloat(width))
        let y0 = Int(region.minY * CGFloat(height)), y1 = Int(region.maxY * CGFloat(height))
        var sum = 0.0, count = 0.0, b = 0.0, g = 0.0, r = 0.0
        let format = CVPixelBufferGetPixelFormatType(image)
        if format == kCVPixelFormatType_32BGRA {
            let base = CVPixelBufferGetBaseAddress(image)!.assumingMemoryBound(to: UInt8.self)
            let stride = CVPixelBufferGetBytesPerRow(image)
            for y in Swift.stride(from: y0, to: y1, by: 4) {
                for x in Swift.stride(from: x0, to: x1, by: 4) {
                    let p = base + y * stride + x * 4
                    b += Double(p[0]); g += Double(p[1]); r += Double(p[2])
                    sum += 0.114 * Double(p[0]) + 0.587 * Double(p[1]) + 0.299 * Double(p[2])
                    count += 1
                }
            }
            return (sum / count, (b / count, g / count, r / count))
        }
        let base = CVPixelBufferGetBaseAddressOfPlane(image, 0)!.assumingMemoryBound(to: UInt8.self)
        let stride = CVPixelBufferGetBytesPerRowOfPlane(image, 0)
        for y in Swift.stride(from: y0, to: y1, by: 4) {
            for x in Swift.stride(from: x0, to: x1, by: 4) {
                sum += Double(base[y * stride + x])
                count += 1
            }
        }
        return (sum / count, nil)
    }
}

/// What a run of captured audio sounds like: the left channel's frequency, from the time between rising zero crossings.
public enum ToneAnalysis {
    /// The largest sample magnitude, as a fraction of full scale.
    public static func peak(_ buffers: [CMSampleBuffer]) -> Double {
        var peak: Int32 = 0
        for buffer in buffers {
            guard let block = buffer.dataBuffer else { continue }
            let samples = block.bytes.assumingMemoryBound(to: Int16.self)
            for index in 0..<(block.length / 2) { peak = max(peak, abs(Int32(samples[index]))) }
        }
        return Double(peak) / 32767
    }

    /// The tone's frequency in hertz.
    ///
    /// The period is the median time between rising crossings (each placed between its two samples
    /// by interpolation), so a moment of silence, when the player falls behind under emulation,
    /// lengthens one period and leaves the median alone.
    public static func frequency(_ buffers: [CMSampleBuffer]) -> Double {
        var left: [Int16] = []
        var rate = 0.0
        for buffer in buffers {
            guard let block = buffer.dataBuffer, let asbd = buffer.formatDescription?.audioStreamBasicDescription else { continue }
            rate = asbd.mSampleRate
            let channels = Int(asbd.mChannelsPerFrame)
            let samples = block.bytes.assumingMemoryBound(to: Int16.self)
            for frame in 0..<(block.length / (2 * channels)) { left.append(samples[frame * channels]) }
        }
        return frequency(left[...], rate: rate)
    }

    /// The frequency in hertz of one channel's samples at a rate.
    public static func frequency(_ samples: ArraySlice<Int16>, rate: Double) -> Double {
        var crossings: [Double] = []
        var previous: Int16 = 0
        for (position, sample) in samples.enumerated() {
            if previous < 0, sample >= 0 {
                crossings.append(Double(position - 1) + Double(-Int(previous)) / Double(Int(sample) - Int(previous)))
            }
            previous = sample
        }
        guard crossings.count > 2, rate > 0 else { return 0 }
        let periods = zip(crossings.dropFirst(), crossings).map { $0 - $1 }.sorted()
        return rate / periods[periods.count / 2]
    }
}
