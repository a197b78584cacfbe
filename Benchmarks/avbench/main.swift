// Measures the frame path and compares it with GStreamer doing the same work in the same run.
//
//     swift run -c release avbench [seconds-per-case]
import AVFoundation
import CaptureDevices
import CMallocCounter
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
let secondsPerCase = arguments.compactMap(Double.init).first ?? 4
let chosen = Set(arguments.filter { Double($0) == nil })
func runs(_ name: String) -> Bool { chosen.isEmpty || chosen.contains(name) }
if chosen.contains("v4l2") { RenderStatistics.measuresProducerCPU.store(false, ordering: .relaxed) }

/// The virtual back camera and microphone, which the frame path and recording cases measure whatever hardware exists.
let virtualCamera = AVCaptureDevice(uniqueID: "virtual:camera:back")!
let virtualMicrophone = AVCaptureDevice(uniqueID: "virtual:microphone")!

/// A delegate that does nothing but count.
final class EmptyDelegate: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var frames = 0, drops = 0
    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        lock.lock(); frames += 1; lock.unlock()
    }
    func captureOutput(_ output: AVCaptureOutput, didDrop sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        lock.lock(); drops += sampleBuffer.numSamples; lock.unlock()
    }
    var counts: (Int, Int) { lock.lock(); defer { lock.unlock() }; return (frames, drops) }
}

func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
}

func now() -> Double { Double(CMClock.hostTimeNanoseconds()) / 1e9 }

/// The renderer alone: seconds per frame.
func renderCost(width: Int, height: Int, format: OSType, frames: Int = 120) -> Double {
    let renderer = SceneRenderer(width: width, height: height, pixelFormat: format)!
    let buffer = CVPixelBuffer(width: width, height: height, pixelFormatType: format)!
    let state = ImagingState()
    let start = now()
    for index in 0..<frames {
        renderer.render(into: buffer, SceneFrameParameters(frameNumber: Int64(index), seconds: Double(index) / 30, zoom: 1, brightness: state.renderedBrightness,
                                                           colourGains: (1, 1, 1), defocus: 0, image: nil))
    }
    return (now() - start) / Double(frames)
}

/// One memcpy of a frame of `bytes`: seconds.
func memcpyCost(bytes: Int, rounds: Int = 200) -> Double {
    let source = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
    let destination = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
    defer { source.deallocate(); destination.deallocate() }
    memset(source, 7, bytes)
    memset(destination, 1, bytes)
    let start = now()
    for _ in 0..<rounds { memcpy(destination, source, bytes) }
    return (now() - start) / Double(rounds)
}

/// The CPU cost of one hand-off to a dispatch queue that sleeps: a dispatch source merge waking a
/// worker thread, as each frame pays when a delegate keeps up. Measured against the same paced loop
/// without the hand-off, so that only the wake-up is counted.
func handoffFloor(iterations: Int = 4000) -> Double {
    final class Counter: @unchecked Sendable { let lock = NSLock(); var value = 0 }
    let counter = Counter()
    let source = DispatchSource.makeUserDataAddSource(queue: DispatchQueue(label: "avbench.floor"))
    source.setEventHandler { counter.lock.lock(); counter.value += 1; counter.lock.unlock() }
    source.activate()
    func run(handingOff: Bool) -> Double {
        let cpu0 = cpuSeconds()
        var deadline = CMClock.hostTimeNanoseconds()
        for _ in 0..<iterations {
            deadline += 250_000
            StreamClock.sleep(untilNanoseconds: deadline)
            if handingOff { source.add(data: 1) }
        }
        Thread.sleep(forTimeInterval: 0.01)
        return (cpuSeconds() - cpu0) / Double(iterations)
    }
    let idle = run(handingOff: false)
    let busy = run(handingOff: true)
    source.cancel()
    return busy - idle
}

struct SessionFigures {
    var deliveredPerSecond: Double
    var producedPerSecond: Double
    var cpuPerFrame: Double
    var renderPerFrame: Double
    var producerPerFrame: Double
    var allocationsPerFrame: Double
}

/// Frames through session -> video data output -> empty delegate, with the virtual camera unpaced.
func sessionThroughput(format: OSType) throws -> SessionFigures {
    let camera = virtualCamera
    let session = AVCaptureSession()
    session.deliversFramesUnpaced = true
    session.beginConfiguration()
    session.sessionPreset = .hd1920x1080
    session.addInput(try AVCaptureDeviceInput(device: camera))
    let output = AVCaptureVideoDataOutput()
    output.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: format]
    let delegate = EmptyDelegate()
    output.setSampleBufferDelegate(delegate, queue: DispatchQueue(label: "bench.delegate"))
    session.addOutput(output)
    session.commitConfiguration()
    session.startRunning()
    // Let focus, exposure and white balance settle, then lock them, so the measured window is steady state.
    while camera.isAdjustingFocus || camera.isAdjustingExposure || camera.isAdjustingWhiteBalance { Thread.sleep(forTimeInterval: 0.05) }
    try camera.lockForConfiguration()
    camera.focusMode = .locked
    camera.exposureMode = .locked
    camera.whiteBalanceMode = .locked
    camera.unlockForConfiguration()
    Thread.sleep(forTimeInterval: 0.5)
    let (frames0, drops0) = delegate.counts
    let statistics = DeviceRegistry.virtualBackCamera.renderStatistics
    let render0 = statistics.totals, producer0 = statistics.producerCPUNanoseconds
    let allocations0 = avbench_allocation_count(), cpu0 = cpuSeconds(), time0 = now()
    Thread.sleep(forTimeInterval: secondsPerCase)
    let (frames1, drops1) = delegate.counts
    let allocations1 = avbench_allocation_count(), cpu1 = cpuSeconds(), time1 = now()
    let render1 = statistics.totals, producer1 = statistics.producerCPUNanoseconds
    session.stopRunning()
    let delivered = Double(frames1 - frames0), produced = Double(frames1 - frames0 + drops1 - drops0)
    let elapsed = time1 - time0
    return SessionFigures(deliveredPerSecond: delivered / elapsed, producedPerSecond: produced / elapsed,
                          cpuPerFrame: (cpu1 - cpu0) / max(1, produced),
                          renderPerFrame: Double(render1.nanoseconds - render0.nanoseconds) / 1e9 / Double(max(1, render1.frames - render0.frames)),
                          producerPerFrame: Double(producer1 - producer0) / 1e9 / Double(max(1, render1.frames - render0.frames)),
                          allocationsPerFrame: Double(allocations1 - allocations0) / max(1, produced))
}

/// GStreamer doing the same job: a test source at the same size and format into a sink that does nothing.
func gstreamerThroughput(format: String, frames: Int) -> (fps: Double, cpuPerFrame: Double)? {
    if ProcessInfo.processInfo.environment["AVBENCH_NO_PEER"] != nil { return nil }
    guard let path = ["/usr/bin/gst-launch-1.0", "/usr/local/bin/gst-launch-1.0"].first(where: FileManager.default.isExecutableFile) else { return nil }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = ["-q", "videotestsrc", "num-buffers=\(frames)", "!", "video/x-raw,format=\(format),width=1920,height=1080,framerate=1000/1",
                         "!", "fakesink", "sync=false"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    var before = rusage()
    getrusage(RUSAGE_CHILDREN.rawValue, &before)
    let start = now()
    do { try process.run() } catch { return nil }
    process.waitUntilExit()
    let elapsed = now() - start
    var after = rusage()
    getrusage(RUSAGE_CHILDREN.rawValue, &after)
    guard process.terminationStatus == 0 else { return nil }
    func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
    let cpu = seconds(after.ru_utime) + seconds(after.ru_stime) - seconds(before.ru_utime) - seconds(before.ru_stime)
    return (Double(frames) / elapsed, cpu / Double(frames))
}

func frameCase() throws {
    RenderStatistics.measuresProducerCPU.store(true, ordering: .relaxed)
    print("LinuxAVFoundation frame path benchmark: 1920x1080, virtual camera unpaced, empty delegate, \(secondsPerCase) s per case")
    print("machine: \(ProcessInfo.processInfo.activeProcessorCount) cores")
    print("")
    let floor = handoffFloor()
    print(String(format: "floor: one wake-up of a sleeping dispatch queue from another thread costs %.1f us of CPU here", floor * 1e6))
    let render720 = renderCost(width: 1280, height: 720, format: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange)
    print(String(format: "renderer alone, 1280x720 420v: %.2f ms/frame = %.0f fps on one core (needs 60)", render720 * 1000, 1 / render720))
    for (name, format, gstFormat, bytesPerPixel) in [("BGRA", kCVPixelFormatType_32BGRA, "BGRA", 4.0), ("420v", kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, "NV12", 1.5)] {
        let warmRender = renderCost(width: 1920, height: 1080, format: format)
        let copy = memcpyCost(bytes: Int(1920 * 1080 * bytesPerPixel))
        let figures = try sessionThroughput(format: format)
        let render = figures.renderPerFrame
        let outside = figures.cpuPerFrame - render
        print("\(name):")
        print(String(format: "  session -> video data output -> empty delegate: %.1f frames/s delivered (%.1f produced)", figures.deliveredPerSecond, figures.producedPerSecond))
        print(String(format: "  CPU per frame %.3f ms, of which rendering %.3f ms (%.3f ms into one warm buffer), outside rendering %.1f us",
                     figures.cpuPerFrame * 1000, render * 1000, warmRender * 1000, outside * 1e6))
        print(String(format: "    producer thread outside rendering %.1f us; delivery to the delegate's queue (wake-up, drain, callback) %.1f us",
                     (figures.producerPerFrame - render) * 1e6, (figures.cpuPerFrame - figures.producerPerFrame) * 1e6))
        print(String(format: "    outside rendering less the wake-up floor: %.1f us", (outside - floor) * 1e6))
        print(String(format: "  heap allocations per frame in steady state: %.3f", figures.allocationsPerFrame))
        print(String(format: "  one memcpy of the frame (the floor): %.3f ms", copy * 1000))
        let gstFrames = max(60, Int(figures.producedPerSecond * secondsPerCase))
        if let gst = gstreamerThroughput(format: gstFormat, frames: gstFrames) {
            print(String(format: "  gst-launch-1.0 videotestsrc ! %@ 1920x1080 ! fakesink: %.1f frames/s, CPU %.3f ms/frame", gstFormat, gst.fps, gst.cpuPerFrame * 1000))
            print(String(format: "  ratio (ours / GStreamer): %.2fx frames/s", figures.deliveredPerSecond / gst.fps))
        } else {
            print("  gst-launch-1.0 not available: install gstreamer1.0-tools and gstreamer1.0-plugins-base for the comparison")
        }
    }
}

if runs("frames") { try frameCase() }
if runs("encode") { try EncodeBenchmark.run() }
if chosen.contains("v4l2") { try V4L2Benchmark.run(seconds: secondsPerCase) }
if runs("pipewire") { try PipeWireBenchmark.run(seconds: secondsPerCase) }
if runs("mjpeg") { try MJPEGBenchmark.run(seconds: secondsPerCase) }
if runs("record") { try RecordBenchmark.run(seconds: chosen.contains("record") && secondsPerCase != 4 ? secondsPerCase : 60) }
