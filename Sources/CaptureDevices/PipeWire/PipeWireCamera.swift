import CPipeWire
import CoreMedia
import CoreVideo
import Foundation
import FrameProcessing

/// A camera a PipeWire server offers: a `Video/Source` node, such as a libcamera camera, a
/// portal's camera, or a virtual one.
///
/// Thread ownership: frames arrive on the stream's real-time thread, where they are converted
/// (or, in the client's own format, copied) into pool frames and delivered. The stream's buffers
/// are memory the stream owns and frees when it ends, so a frame a client holds cannot stay in
/// one: the buffer goes back in the same callback, and the server always has buffers to fill.
/// A camera that goes away is a disconnect and a server that goes away a runtime error,
/// never a stream that waits forever. Zoom is digital: the centre of the frame, scaled up.
package final class PipeWireCamera: HardwareDeviceBase, CaptureDeviceBackend, @unchecked Sendable {
    /// The node's name, stable across restarts of the server.
    package let nodeName: String
    package let videoFormats: [CaptureVideoFormat]
    package let capabilities: ImagingCapabilities
    package let imaging: ImagingModel
    /// How long a stream may take to agree a format and start.
    static let startTimeoutMilliseconds: Int32 = 3000
    private let current = LockedValue<(stream: OpaquePointer, context: PipeWireStreamContext)?>(nil)

    init(camera: cpw_camera) {
        nodeName = V4L2Node.string(camera.name)
        let description = V4L2Node.string(camera.description)
        videoFormats = Self.formats(of: camera)
        var capabilities = ImagingCapabilities()
        capabilities.focusModes = [.locked]
        self.capabilities = capabilities
        var initial = ImagingState()
        initial.focusMode = .locked
        initial.exposureMode = .locked
        initial.whiteBalanceMode = .locked
        imaging = ImagingModel(initial)
        super.init(
            descriptor: CaptureDeviceDescriptor(
                uniqueID: "pipewire:\(nodeName)", modelID: "PipeWire \(nodeName)", localizedName: description.isEmpty ? nodeName : description,
                manufacturer: "PipeWire", mediaKind: .video, position: .unspecified, kind: .external))
    }

    // MARK: Formats

    /// The first `count` elements of a fixed-size C array, which Swift imports as a tuple.
    private static func values<Tuple, Element>(_ tuple: Tuple, _ count: Int32, as: Element.Type) -> [Element] {
        withUnsafeBytes(of: tuple) { Array($0.bindMemory(to: Element.self).prefix(Int(count))) }
    }

    /// Sizes offered where a camera accepts any size in a range.
    static let standardSizes = [(320, 240), (640, 480), (1280, 720), (1920, 1080)]

    /// The formats a camera's port offers, one per pixel format, size and rate range.
    static func formats(of camera: cpw_camera) -> [CaptureVideoFormat] {
        var result: [CaptureVideoFormat] = []
        for format in values(camera.formats, camera.n_formats, as: cpw_format.self) {
            let codes = values(format.pixel_formats, format.n_pixel_formats, as: UInt32.self)
            let widths = values(format.widths, format.n_sizes, as: UInt32.self), heights = values(format.heights, format.n_sizes, as: UInt32.self)
            let nums = values(format.rate_nums, format.n_rates, as: UInt32.self), denoms = values(format.rate_denoms, format.n_rates, as: UInt32.self)
            let rates = zip(nums, denoms).map { $1 == 0 ? 0 : Double($0) / Double($1) }
            var sizes: [(Int, Int)] = []
            if format.size_choice == CPW_CHOICE_RANGE {
                let (minW, minH, maxW, maxH) = (Int(widths[1]), Int(heights[1]), Int(widths[2]), Int(heights[2]))
                sizes = standardSizes.filter { $0.0 >= minW && $0.0 <= maxW && $0.1 >= minH && $0.1 <= maxH }
                if sizes.isEmpty { sizes = [(Int(widths[0]), Int(heights[0]))] }
            } else {
                for (w, h) in zip(widths, heights) where !sizes.contains(where: { $0 == (Int(w), Int(h)) }) { sizes.append((Int(w), Int(h))) }
            }
            var rateRanges: [ClosedRange<Double>]
            if format.rate_choice == CPW_CHOICE_RANGE, rates.count >= 3 {
                // A source that takes any rate (a virtual camera) is offered up to 60 frames per second.
                let upper = rates[2] > 240 ? 60 : rates[2]
                rateRanges = [max(1, rates[1])...max(1, upper)]
            } else {
                rateRanges = Array(Set(rates.filter { $0 > 0 })).sorted().map { $0...$0 }
            }
            if rateRanges.isEmpty { rateRanges = [30...30] }
            for code in codes {
                let compressed = code == 0x646D_6231  // 'dmb1'
                for (width, height) in sizes where width > 0 && height > 0 {
                    let candidate = CaptureVideoFormat(
                        width: width, height: height, pixelFormat: compressed ? kCVPixelFormatType_420YpCbCr8BiPlanarFullRange : code,
                        frameRateRanges: rateRanges, fieldOfView: 60, isBinned: false, supportsStabilization: false, maxZoomFactor: DigitalZoom.maxFactor,
                        zoomUpscaleThreshold: 1, minISO: 100, maxISO: 1600,
                        exposureDurationRange: (1.0 / 10000)...(1.0 / max(1, rateRanges.map(\.lowerBound).min() ?? 1)),
                        sourceCode: code, mediaSubType: code)
                    if !result.contains(candidate) { result.append(candidate) }
                }
            }
        }
        return result.sorted { ($0.width * $0.height, $0.maxFrameRate) < ($1.width * $1.height, $1.maxFrameRate) }
    }

    // MARK: Streaming

    package func start(_ configuration: VideoStreamConfiguration?, sink: CaptureSampleSink) throws(CaptureBackendError) -> Int {
        guard isConnected else { throw .notConnected }
        guard let configuration else { throw .unsupportedConfiguration("a camera needs a video configuration") }
        let candidates = videoFormats.filter { $0.width == configuration.width && $0.height == configuration.height }
        guard
            let chosen = candidates.first(where: { $0.sourceCode == configuration.sourceCode })
                ?? candidates.first(where: { $0.pixelFormat == configuration.pixelFormat }) ?? candidates.first
        else {
            throw .unsupportedConfiguration("\(descriptor.localizedName) offers no \(configuration.width)x\(configuration.height) format")
        }
        // A node's format is one at a time: the running stream ends before the new one asks for its format.
        closeStream()
        let rate: (UInt32, UInt32)
        if let (value, timescale) = configuration.frameDurationFraction, value > 0, timescale > 0 {
            rate = (UInt32(timescale), UInt32(value))
        } else {
            rate = (UInt32((1_000_000_000_000 / max(1, configuration.frameDurationNanoseconds)).clamped(to: 1...Int64(UInt32.max))), 1000)
        }
        let context = PipeWireStreamContext(camera: self, configuration: configuration, native: chosen)
        let opaque = Unmanaged.passRetained(context).toOpaque()
        var negotiated = cpw_negotiated()
        var error: Int32 = 0
        let opened = nodeName.withCString {
            cpw_stream_open(
                $0, chosen.sourceCode, UInt32(chosen.width), UInt32(chosen.height), rate.0, rate.1,
                pipeWireFrameCallback, pipeWireEventCallback, opaque, Self.startTimeoutMilliseconds, &negotiated, &error)
        }
        guard let opened else {
            Unmanaged<PipeWireStreamContext>.fromOpaque(opaque).release()
            switch -error {
            case EPIPE: throw .serverUnavailable
            case ENOENT where !PipeWireDiscovery.isPresent(nodeName): throw .notConnected
            case ENOENT, ETIMEDOUT:
                throw .unsupportedConfiguration("\(descriptor.localizedName) did not agree to stream \(chosen.width)x\(chosen.height) in this format")
            default: throw .unsupportedConfiguration("PipeWire error \(-error) opening \(nodeName)")
            }
        }
        context.agree(negotiated)
        let (generation, _) = beginStream(sink: sink)
        current.withLock { $0 = (opened, context) }
        context.begin(generation: generation)
        imaging.update { $0.isStreaming = true }
        return generation
    }

    override func didStop() {
        closeStream()
        imaging.update { $0.isStreaming = false }
    }

    private func closeStream() {
        guard
            let (stream, context) = current.withLock({ value -> (OpaquePointer, PipeWireStreamContext)? in
                defer { value = nil }; return value
            })
        else { return }
        context.end()
        // Closed from one of its own callbacks, the stream is freed later and keeps its context.
        if cpw_stream_close(stream) == 0 { Unmanaged.passUnretained(context).release() }
    }

    /// What the stream reported, on a thread other than the stream's.
    fileprivate func streamEnded(_ event: cpw_event, generation: Int) {
        guard current.withLock({ $0?.context.generation == generation }) else { return }
        switch event {
        case CPW_EVENT_DISCONNECTED:
            setConnected(false)
        case CPW_EVENT_SERVER_GONE:
            serverWentAway()
        default:
            stop()
            report(.runtimeError(code: -11800))
        }
    }

    /// The server went away: a running stream ends with `mediaServicesWereReset`, then the camera is gone.
    ///
    /// The stream's thread and the discovery's both find out; only the one that marks the camera
    /// disconnected reports, so the stream's end always comes before the camera's disconnection.
    func serverWentAway() { setConnected(false, serverLost: true) }
}

/// The state one PipeWire stream's frame callback works with.
///
/// Thread ownership: `receive` runs on the stream's thread only; the generation is set once,
/// from the thread that opened the stream.
final class PipeWireStreamContext: @unchecked Sendable {
    unowned let camera: PipeWireCamera
    let configuration: VideoStreamConfiguration
    private(set) var native: CaptureVideoFormat
    private var width: Int, height: Int
    private var frameDuration: CMTime
    private let state = LockedValue<Int?>(nil)
    private var pool: VideoFramePool?
    private let decoder = MJPEGDecoder()
    private let digitalZoom = DigitalZoom()
    private var lastTick: Int64?
    private var meter = SceneLightMeter()
    /// Pixel buffers over the server's buffers, one per buffer address: made once, reused for every frame.
    private var wrappers: [UnsafeRawPointer: CVPixelBuffer] = [:]

    init(camera: PipeWireCamera, configuration: VideoStreamConfiguration, native: CaptureVideoFormat) {
        self.camera = camera
        self.configuration = configuration
        self.native = native
        width = native.width
        height = native.height
        frameDuration = CMTime(value: configuration.frameDurationNanoseconds, timescale: 1_000_000_000)
    }

    var generation: Int? { state.withLock { $0 } }

    /// Takes the format the camera agreed to.
    func agree(_ negotiated: cpw_negotiated) {
        if negotiated.width > 0, negotiated.height > 0 { (width, height) = (Int(negotiated.width), Int(negotiated.height)) }
        if negotiated.rate_num > 0, negotiated.rate_denom > 0 {
            frameDuration = CMTime(value: CMTimeValue(negotiated.rate_denom), timescale: Int32(clamping: negotiated.rate_num))
        }
        pool = VideoFramePool(width: width, height: height, pixelFormat: configuration.pixelFormat, capacity: configuration.bufferCount)
    }

    func begin(generation: Int) { state.withLock { $0 = generation } }
    func end() { state.withLock { $0 = nil } }

    /// Converts one of the server's frames into a pool frame and delivers it.
    func receive(_ frame: cpw_frame) {
        guard let generation = state.withLock({ $0 }) else { return }
        let now = CMClock.hostTimeNanoseconds()
        // The server's capture time when it is one on this clock, else the time the frame arrived.
        let nanoseconds = frame.pts_ns > 0 && now - frame.pts_ns >= 0 && now - frame.pts_ns < 1_000_000_000 ? frame.pts_ns : now
        let time = CMClock.hostTime(nanoseconds: nanoseconds)
        // Zoom ramps (digital zoom) advance with time, like the rest of the imaging model.
        let zoom = camera.imaging.tick(seconds: lastTick.map { Double(now - $0) / 1e9 } ?? 0).videoZoomFactor
        lastTick = now
        for skipped in stride(from: Int(min(frame.skipped, 16)), to: 0, by: -1) {
            camera.drop(
                at: time - CMTimeMultiply(frameDuration, multiplier: Int32(skipped)), duration: frameDuration, reason: .frameWasLate, generation: generation)
        }
        guard frame.corrupted == 0, let data = frame.data else {
            camera.drop(at: time, duration: frameDuration, reason: .discontinuity, generation: generation)
            return
        }
        guard let pool, let (target, sample) = pool.dequeue() else {
            camera.drop(at: time, duration: frameDuration, reason: .outOfBuffers, generation: generation)
            return
        }
        let converted: Bool
        if native.sourceCode == 0x646D_6231 {
            converted = decoder.decode(data, count: Int(frame.size), into: target, zoom: zoom, with: digitalZoom)
        } else if let source = wrapper(data, size: Int(frame.size), stride: Int(frame.stride)) {
            converted = digitalZoom.render(source, zoom: zoom, into: target)
        } else {
            converted = false
        }
        guard converted else {
            camera.drop(at: time, duration: frameDuration, reason: .discontinuity, generation: generation)
            return
        }
        pool.prepare(sample, pixelBuffer: target, presentationTime: time, duration: frameDuration)
        if let luminance = meter.reading(of: sample) { camera.imaging.meter(luminance) }
        camera.deliver(sample, generation: generation)
    }

    /// A pixel buffer over one of the server's buffers, or nil when the frame is too short for its format.
    private func wrapper(_ data: UnsafePointer<UInt8>, size: Int, stride: Int) -> CVPixelBuffer? {
        let format = native.pixelFormat
        let bytesPerPixel =
            format == kCVPixelFormatType_32BGRA
            ? 4
            : format == kCVPixelFormatType_24RGB
                ? 3
                : format == kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange ? 1 : 2
        let rowBytes = stride > 0 ? stride : width * bytesPerPixel
        let planar = format == kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange
        let needed = rowBytes * height + (planar ? rowBytes * ((height + 1) / 2) : 0)
        guard size >= needed, rowBytes >= width * bytesPerPixel else { return nil }
        let key = UnsafeRawPointer(data)
        if let known = wrappers[key], known.planes[0].bytesPerRow == rowBytes { return known }
        let base = UnsafeMutableRawPointer(mutating: key)
        var planes = [CVPixelBuffer.Plane(baseAddress: base, bytesPerRow: rowBytes, width: width, height: height)]
        if planar {
            planes.append(.init(baseAddress: base + rowBytes * height, bytesPerRow: rowBytes, width: (width + 1) / 2, height: (height + 1) / 2))
        }
        let buffer = CVPixelBuffer(width: width, height: height, pixelFormatType: format, planes: planes, dataSize: needed, release: nil)
        VideoColorimetry.standard(width: width, height: height).tag(buffer)
        wrappers[key] = buffer
        return buffer
    }
}

/// Called by libpipewire on the stream's thread for each frame.
private let pipeWireFrameCallback: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<cpw_frame>?) -> Void = { context, frame in
    guard let context, let frame else { return }
    Unmanaged<PipeWireStreamContext>.fromOpaque(context).takeUnretainedValue().receive(frame.pointee)
}

/// Called by libpipewire on the stream's thread when the stream ends; handled on another thread,
/// because ending a stream waits for that thread.
private let pipeWireEventCallback: @convention(c) (UnsafeMutableRawPointer?, cpw_event) -> Void = { context, event in
    guard let context else { return }
    let stream = Unmanaged<PipeWireStreamContext>.fromOpaque(context).takeUnretainedValue()
    guard let generation = stream.generation else { return }
    let camera = stream.camera
    DispatchQueue.global().async { camera.streamEnded(event, generation: generation) }
}

extension Comparable {
    fileprivate func clamped(to range: ClosedRange<Self>) -> Self { min(max(self, range.lowerBound), range.upperBound) }
}
