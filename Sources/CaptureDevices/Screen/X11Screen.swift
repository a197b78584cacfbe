import CScreenCapture
import CoreGraphics
import CoreMedia
import CoreVideo
import Foundation
import FrameProcessing

/// An X11 display's screen as a video device, for screen capture: the root window read through
/// shared memory (MIT-SHM) at the stream's frame rate, cropped to a region, scaled, with the
/// cursor drawn in and a ring where a button is held.
///
/// Thread ownership: the display connection belongs to the producer thread, which opens it when
/// the stream starts and closes it when the stream ends; options are read at each frame.
package final class X11Screen: HardwareDeviceBase, CaptureDeviceBackend, @unchecked Sendable {
    /// What a screen input asks of the pictures, read at each frame.
    package struct Options: Sendable, Equatable {
        /// The region captured, in the screen's pixels from its top left; nil for the whole screen.
        package var region: CGRect?
        /// How much the region is scaled (1 for its own size).
        package var scaleFactor: Double = 1
        /// Whether the cursor is drawn in.
        package var capturesCursor = true
        /// Whether a ring is drawn around the pointer while a button is held.
        package var capturesMouseClicks = false

        package init() {}
    }

    /// The display's name, such as ":99".
    package let displayName: String
    package let width: Int
    package let height: Int
    package let videoFormats: [CaptureVideoFormat]
    package let capabilities = ImagingCapabilities()
    package let imaging = ImagingModel(ImagingState())
    package let options = LockedValue(Options())
    private let configuration = LockedValue<VideoStreamConfiguration?>(nil)

    /// Why a display cannot be opened.
    package struct Unavailable: Error, CustomStringConvertible {
        package let description: String
    }

    /// The screen of `displayName` (nil for $DISPLAY), or why it cannot be captured.
    package init(displayName requested: String?) throws(Unavailable) {
        let name = requested ?? ProcessInfo.processInfo.environment["DISPLAY"] ?? ""
        guard !name.isEmpty else { throw Unavailable(description: "No X11 display is named: $DISPLAY is not set.") }
        var problem = [CChar](repeating: 0, count: 512)
        guard let display = csc_open(name, &problem, problem.count) else {
            throw Unavailable(
                description: "The screen cannot be captured: \(String(decoding: problem.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)).")
        }
        var (w, h): (Int32, Int32) = (0, 0)
        csc_size(display, &w, &h)
        csc_close(display)
        displayName = name
        (width, height) = (Int(w), Int(h))
        videoFormats = [
            CaptureVideoFormat(
                width: Int(w), height: Int(h), pixelFormat: kCVPixelFormatType_32BGRA, frameRateRanges: [1...60], fieldOfView: 0, isBinned: false,
                supportsStabilization: false, maxZoomFactor: 1, zoomUpscaleThreshold: 1, minISO: 0, maxISO: 0, exposureDurationRange: (1.0 / 60)...1)
        ]
        super.init(
            descriptor: CaptureDeviceDescriptor(
                uniqueID: "x11screen:\(name)", modelID: "X11 screen", localizedName: "Screen \(name)", manufacturer: "X.Org", mediaKind: .video,
                position: .unspecified, kind: .external))
    }

    package func start(_ configuration: VideoStreamConfiguration?, sink: CaptureSampleSink) throws(CaptureBackendError) -> Int {
        guard let configuration else { throw .unsupportedConfiguration("a screen needs a video configuration") }
        self.configuration.withLock { $0 = configuration }
        let (generation, token) = beginStream(sink: sink)
        if let token { spawnProducer(token: token, name: "Screen \(displayName)") { [self] in produce(token: $0) } }
        return generation
    }

    /// The region a frame reads, in whole pixels within the screen, and the size it is delivered at.
    private func geometry(_ options: Options) -> (region: (x: Int, y: Int, width: Int, height: Int), output: (width: Int, height: Int))? {
        let screen = CGRect(x: 0, y: 0, width: width, height: height)
        let wanted = (options.region ?? screen).standardized.intersection(screen)
        guard !wanted.isNull, wanted.width >= 1, wanted.height >= 1 else { return nil }
        let (x, y) = (Int(wanted.minX.rounded()), Int(wanted.minY.rounded()))
        let (w, h) = (min(width - x, Int(wanted.width.rounded())), min(height - y, Int(wanted.height.rounded())))
        let scale = options.scaleFactor.isFinite && options.scaleFactor > 0 ? min(options.scaleFactor, 4) : 1
        // Even sizes, as encoders of 4:2:0 need them.
        let outW = max(2, Int((Double(w) * scale).rounded()) & ~1), outH = max(2, Int((Double(h) * scale).rounded()) & ~1)
        guard w > 0, h > 0 else { return nil }
        return ((x, y, w, h), (outW, outH))
    }

    /// Frames over memory the X server writes into, and their segments, for one size.
    private struct SharedFrames {
        var pool: VideoFramePool
        /// Each frame's segment, by the address of its memory.
        var segments: [UInt: UInt32]
    }

    /// `count` BGRA frames of `width` x `height` over shared memory the server can write into;
    /// each frame's memory is given back when the frame is let go of.
    private static func sharedFrames(_ display: OpaquePointer, width: Int, height: Int, count: Int) -> SharedFrames? {
        var buffers: [CVPixelBuffer] = []
        var segments: [UInt: UInt32] = [:]
        var problem = [CChar](repeating: 0, count: 256)
        for _ in 0..<count {
            var segment: UInt32 = 0
            guard let memory = csc_segment_create(display, width * height * 4, &segment, &problem, problem.count) else { break }
            let address = UInt(bitPattern: memory)
            buffers.append(
                CVPixelBuffer(
                    width: width, height: height, pixelFormatType: kCVPixelFormatType_32BGRA,
                    planes: [.init(baseAddress: memory, bytesPerRow: width * 4, width: width, height: height)], dataSize: width * height * 4,
                    release: { csc_segment_unmap(UnsafeMutableRawPointer(bitPattern: address)) }))
            segments[address] = segment
        }
        guard buffers.count == count, let pool = VideoFramePool(frames: buffers) else {
            for segment in segments.values { csc_segment_detach(display, segment) }
            return nil
        }
        for buffer in buffers { VideoColorimetry.standard(width: width, height: height).tag(buffer) }
        return SharedFrames(pool: pool, segments: segments)
    }

    private func produce(token: Int) {
        var problem = [CChar](repeating: 0, count: 512)
        guard let display = csc_open(displayName, &problem, problem.count) else {
            report(.runtimeError(code: -11819))
            return
        }
        defer { csc_close(display) }
        // The region is read into shared frames: delivered as they are at scale 1, scaled into `pool` otherwise.
        var shared: SharedFrames?
        var pool: VideoFramePool?
        let scaler = FrameScaler()
        var deadline = CMClock.hostTimeNanoseconds()
        while let generation = currentGeneration(token: token), let config = configuration.withLock({ $0 }) {
            let frameDuration = max(1_000_000, config.frameDurationNanoseconds)
            deadline += frameDuration
            let now = CMClock.hostTimeNanoseconds()
            if now > deadline + 4 * frameDuration { deadline = now }
            // Sleeps in short steps, so that a stop is heard within 20 ms.
            while CMClock.hostTimeNanoseconds() < deadline, currentGeneration(token: token) != nil {
                usleep(UInt32(min(20_000, max(1, (deadline - CMClock.hostTimeNanoseconds()) / 1000))))
            }
            let options = self.options.withLock { $0 }
            guard let (region, output) = geometry(options) else { continue }
            let scaled = output.width != region.width || output.height != region.height
            // Reconfiguration allocates; steady state does not.
            if shared?.pool.width != region.width || shared?.pool.height != region.height || (shared?.pool.capacity == 1) != scaled {
                for segment in shared?.segments.values ?? [:].values { csc_segment_detach(display, segment) }
                shared = Self.sharedFrames(display, width: region.width, height: region.height, count: scaled ? 1 : max(3, config.bufferCount))
                guard shared != nil else {
                    report(.runtimeError(code: -11819))
                    return
                }
            }
            if scaled, pool?.width != output.width || pool?.height != output.height {
                pool = VideoFramePool(width: output.width, height: output.height, pixelFormat: kCVPixelFormatType_32BGRA, capacity: max(3, config.bufferCount))
            }
            let captureTime = CMClock.hostTime(nanoseconds: deadline)
            let duration = CMTime(value: frameDuration, timescale: 1_000_000_000)
            guard let shared, let (grabbed, grabbedSample) = shared.pool.dequeue() else {
                drop(at: captureTime, duration: duration, reason: .outOfBuffers, generation: generation)
                continue
            }
            guard let plane = grabbed.planes.first,
                let segment = shared.segments[UInt(bitPattern: plane.baseAddress)],
                csc_grab_into_segment(display, segment, plane.baseAddress, Int32(region.x), Int32(region.y), Int32(region.width), Int32(region.height))
                    == 0
            else {
                // The display went away.
                report(.runtimeError(code: -11819))
                return
            }
            if options.capturesCursor || options.capturesMouseClicks { drawPointer(display, options, into: plane, region: region) }
            if scaled {
                guard let pool, let (pixelBuffer, sampleBuffer) = pool.dequeue() else {
                    drop(at: captureTime, duration: duration, reason: .outOfBuffers, generation: generation)
                    continue
                }
                _ = scaler.scale(grabbed, into: pixelBuffer)
                pool.prepare(sampleBuffer, pixelBuffer: pixelBuffer, presentationTime: captureTime, duration: duration)
                deliver(sampleBuffer, generation: generation)
            } else {
                shared.pool.prepare(grabbedSample, pixelBuffer: grabbed, presentationTime: captureTime, duration: duration)
                deliver(grabbedSample, generation: generation)
            }
        }
    }

    /// Draws the cursor (its premultiplied picture, over the screen's) and, while a button is held
    /// and clicks are asked for, a ring around the pointer, into a grabbed region.
    private func drawPointer(_ display: OpaquePointer, _ options: Options, into plane: CVPixelBuffer.Plane, region: (x: Int, y: Int, width: Int, height: Int)) {
        func blend(_ x: Int, _ y: Int, _ argb: UInt32) {
            guard x >= 0, y >= 0, x < region.width, y < region.height else { return }
            let pixel = (plane.baseAddress + y * plane.bytesPerRow).assumingMemoryBound(to: UInt32.self) + x
            let alpha = argb >> 24
            guard alpha > 0 else { return }
            let under = pixel.pointee
            func channel(_ shift: UInt32) -> UInt32 {
                let over = (argb >> shift) & 0xFF, below = (under >> shift) & 0xFF
                return min(255, over + below * (255 - alpha) / 255) << shift
            }
            pixel.pointee = 0xFF00_0000 | channel(16) | channel(8) | channel(0)
        }
        if options.capturesCursor {
            var (w, h, cx, cy): (Int32, Int32, Int32, Int32) = (0, 0, 0, 0)
            if let cursor = csc_cursor(display, &w, &h, &cx, &cy) {
                for row in 0..<Int(h) {
                    for column in 0..<Int(w) {
                        blend(Int(cx) - region.x + column, Int(cy) - region.y + row, cursor[row * Int(w) + column])
                    }
                }
            }
        }
        if options.capturesMouseClicks {
            var (px, py, pressed): (Int32, Int32, Int32) = (0, 0, 0)
            guard csc_pointer(display, &px, &py, &pressed) == 0, pressed != 0 else { return }
            // A dark ring 24 pixels across, 3 wide, half opaque.
            let (centreX, centreY) = (Int(px) - region.x, Int(py) - region.y)
            for dy in -12...12 {
                for dx in -12...12 {
                    let distance = (Double(dx * dx + dy * dy)).squareRoot()
                    if distance >= 9, distance <= 12 { blend(centreX + dx, centreY + dy, 0x8000_0000) }
                }
            }
        }
    }

    override func didStop() { configuration.withLock { $0 = nil } }
}
