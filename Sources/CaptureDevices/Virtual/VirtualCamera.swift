import CoreMedia
import CoreVideo
import Foundation
import FrameProcessing
import Synchronization

/// A camera that renders a moving scene in real time at its active frame rate.
///
/// Thread ownership: it renders and delivers on a thread of its own while streaming; its
/// imaging model is ticked once a frame there.
package final class VirtualCamera: VirtualDeviceBase, CaptureDeviceBackend, @unchecked Sendable {
    package let videoFormats: [CaptureVideoFormat]
    package let capabilities: ImagingCapabilities
    /// Time spent rendering, in nanoseconds, and frames rendered, for benchmarks.
    package let renderStatistics = RenderStatistics()
    private let handedOver = Atomic<Int64>(0)
    private let skipped = Atomic<Int64>(0)

    /// The frame times a paced camera has passed over since it was made, having fallen further
    /// behind than it catches up (a machine too busy to render at the rate): with the frames it
    /// delivered and dropped, they account for every frame time of its rate.
    package var frameTimesSkipped: Int64 { skipped.load(ordering: .acquiring) }

    /// How many frames the camera has handed to its session since it was made; a frame counts once
    /// every output has been given it, so a test that moves a manual clock knows the frame is handled.
    package var framesHandedOver: Int64 { handedOver.load(ordering: .acquiring) }
    /// The host time, in nanoseconds, at which the scene's clock started (the stream's start).
    private let sceneEpoch = Atomic<Int64>(0)

    init(descriptor: CaptureDeviceDescriptor, formats: [CaptureVideoFormat], capabilities: ImagingCapabilities) {
        self.videoFormats = formats
        self.capabilities = capabilities
        super.init(descriptor: descriptor, imaging: ImagingModel(Self.initialState(capabilities)))
    }

    private static func initialState(_ capabilities: ImagingCapabilities) -> ImagingState {
        var initial = ImagingState()
        if !capabilities.focusModes.contains(.continuous) { initial.focusMode = .locked }
        let balance = initial.whiteBalanceTarget
        (initial.redGain, initial.greenGain, initial.blueGain) = balance
        initial.exposureGain = initial.exposureTargetGain
        initial.lensPosition = initial.focusTarget
        return initial
    }

    override var initialImaging: ImagingState { Self.initialState(capabilities) }

    package func start(_ configuration: VideoStreamConfiguration?, sink: CaptureSampleSink) throws(CaptureBackendError) -> Int {
        guard let configuration else { throw .unsupportedConfiguration("a camera needs a video configuration") }
        guard SceneRenderer.nativeFormats.contains(configuration.pixelFormat) || PixelFormatConverter.supportedFormats.contains(configuration.pixelFormat)
        else {
            throw .unsupportedConfiguration("pixel format \(configuration.pixelFormat.fourCharacterString)")
        }
        return try startStream(configuration, sink: sink, name: "\(descriptor.localizedName) frames")
    }

    /// The scene's geometry in the frame captured at `captureTime`: distances in meters into a
    /// 'fdep' buffer, for depth data delivered with photos.
    package func renderDepth(into buffer: CVPixelBuffer, capturedAt captureTime: CMTime) {
        let nanoseconds = captureTime.convertScale(1_000_000_000, method: .default).value
        let seconds = Double(nanoseconds - sceneEpoch.load(ordering: .relaxed)) / 1e9
        SceneRenderer.renderDepth(into: buffer, seconds: seconds, zoom: imaging.current.videoZoomFactor)
    }

    override func produce(thread token: Int) {
        var generation = -1
        var pool: VideoFramePool?
        var renderer: SceneRenderer?
        var renderPool: CVPixelBufferPool?
        let converter = PixelFormatConverter()
        var configuration: VideoStreamConfiguration?
        let (clock, start) = streamOrigin
        var deadline = start
        var lastTick = deadline
        var frameNumber: Int64 = 0
        let epoch = deadline
        sceneEpoch.store(epoch, ordering: .relaxed)
        renderStatistics.noteProducerThread()

        while let current = currentGeneration(token: token), let config = self.configuration.withLock({ $0 }) {
            if current != generation {
                generation = current
                if config != configuration {
                    // Reconfiguration allocates; steady state does not.
                    let renderFormat = SceneRenderer.nativeFormats.contains(config.pixelFormat) ? config.pixelFormat : kCVPixelFormatType_32BGRA
                    pool = VideoFramePool(width: config.width, height: config.height, pixelFormat: config.pixelFormat, capacity: config.bufferCount)
                    renderer = SceneRenderer(width: config.width, height: config.height, pixelFormat: renderFormat)
                    renderPool =
                        renderFormat == config.pixelFormat
                        ? nil
                        : CVPixelBufferPool.videoFrames(width: config.width, height: config.height, pixelFormatType: renderFormat, count: 1)
                    configuration = config
                }
            }
            let frameDuration = max(1, config.frameDurationNanoseconds)
            if config.isPaced {
                deadline += frameDuration
                let now = clock.nanoseconds
                // A sensor keeps its pace while the thread that renders is held up, as a driver's
                // queue of buffers holds frames: frames a short stall delayed are rendered at once
                // with their own times; after a long one (more than a fifth of a second, or the
                // frames the pool holds) the camera skips ahead rather than burst.
                let catchUp = Int64(max(2, min(config.bufferCount / 2, Int(200_000_000 / frameDuration))))
                if now > deadline + catchUp * frameDuration {
                    skipped.add((now - deadline) / frameDuration, ordering: .releasing)
                    deadline = now
                }
                guard clock.sleep(untilNanoseconds: deadline, while: { currentGeneration(token: token) != nil }) else { continue }
            } else {
                deadline = clock.nanoseconds
            }
            let captureTime = CMClock.hostTime(nanoseconds: deadline)
            let duration = CMTime(value: frameDuration, timescale: 1_000_000_000)
            let state = imaging.tick(seconds: Double(deadline - lastTick) / 1e9)
            lastTick = deadline
            let content = scene.content.withLock { $0 }
            if content.isInterrupted { continue }
            guard let pool, let renderer else { continue }
            guard let (pixelBuffer, sampleBuffer) = pool.dequeue() else {
                drop(at: captureTime, duration: duration, reason: .outOfBuffers, generation: generation)
                continue
            }
            var parameters = SceneFrameParameters(
                frameNumber: frameNumber, seconds: Double(deadline - epoch) / 1e9, zoom: state.videoZoomFactor,
                brightness: state.renderedBrightness, colourGains: state.renderedColourGains, defocus: state.defocus,
                image: content.image)
            parameters.codes = content.codes
            parameters.pictures = content.pictures
            let renderStart = StreamClock.now
            if let renderPool, let scratch = renderPool.dequeue() {
                renderer.render(into: scratch, parameters)
                converter.convert(scratch, into: pixelBuffer)
            } else {
                renderer.render(into: pixelBuffer, parameters)
            }
            renderStatistics.record(nanoseconds: StreamClock.now - renderStart)
            frameNumber += 1
            pool.prepare(sampleBuffer, pixelBuffer: pixelBuffer, presentationTime: captureTime, duration: duration)
            deliver(sampleBuffer, generation: generation)
            handedOver.add(1, ordering: .releasing)
        }
    }
}

/// Counts of a camera's rendering work, and the clock of the thread that renders. Thread-safe.
package final class RenderStatistics: Sendable {
    private let nanoseconds = Atomic<Int64>(0)
    private let frames = Atomic<Int64>(0)
    private let producerClock = Atomic<Int32>(-1)

    /// Notes the calling thread as the producer, whose CPU time `producerCPUNanoseconds` reads from any thread.
    func noteProducerThread() {
        var clock = clockid_t()
        guard pthread_getcpuclockid(pthread_self(), &clock) == 0 else { return }
        producerClock.store(Int32(clock), ordering: .relaxed)
    }

    /// The CPU time of the thread rendering now, in nanoseconds, or nil when none has run.
    package var producerCPUNanoseconds: Int64? {
        let clock = producerClock.load(ordering: .relaxed)
        guard clock != -1 else { return nil }
        var now = timespec()
        guard clock_gettime(clockid_t(clock), &now) == 0 else { return nil }
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    func record(nanoseconds elapsed: Int64) {
        nanoseconds.add(elapsed, ordering: .relaxed)
        frames.add(1, ordering: .relaxed)
    }

    /// Total rendering time in nanoseconds and frames rendered so far.
    package var totals: (nanoseconds: Int64, frames: Int64) { (nanoseconds.load(ordering: .relaxed), frames.load(ordering: .relaxed)) }
}
