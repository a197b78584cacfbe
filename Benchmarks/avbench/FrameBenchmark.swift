import AVFoundation
import CaptureDevices
import CBenchmarkSupport
import Foundation
import FrameProcessing

/// Frames through session -> video data output -> empty delegate, 1920x1080, with the virtual
/// camera unpaced, against GStreamer's `videotestsrc ! fakesink` in the same run.
enum FrameBenchmark {
    struct SessionFigures {
        var deliveredPerSecond: Double
        var producedPerSecond: Double
        /// Frames the camera rendered per second of wall-clock time.
        var renderedPerSecond: Double
        var cpuPerFrame: Double
        var renderPerFrame: Double
        var producerPerFrame: Double
        var allocationsPerFrame: Double
    }

    static let width = 1920, height = 1080

    static func run() throws {
        print("LinuxAVFoundation frame path benchmark: \(width)x\(height), virtual camera unpaced, empty delegate, \(secondsPerCase) s per case")
        print("machine: \(ProcessInfo.processInfo.activeProcessorCount) cores")
        print("")
        let render720 = renderCost(width: 1280, height: 720, format: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange)
        print(String(format: "renderer alone, 1280x720 420v: %.2f ms/frame = %.0f fps on one core (needs 60)", render720 * 1000, 1 / render720))
        for (name, format, gstFormat, bytesPerPixel) in [
            ("BGRA", kCVPixelFormatType_32BGRA, "BGRA", 4.0),
            ("420v", kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, "NV12", 1.5),
        ] {
            let warmRender = renderCost(width: width, height: height, format: format)
            let copy = memcpyCost(bytes: Int(Double(width * height) * bytesPerPixel))
            let floor = HandoffFloor.measure(width: width, height: height, format: format)
            let figures = try sessionThroughput(format: format)
            let render = figures.renderPerFrame
            let outside = figures.cpuPerFrame - render
            print("\(name):")
            print(
                String(
                    format: "  session -> video data output -> empty delegate: %.1f frames/s delivered (%.1f produced)",
                    figures.deliveredPerSecond, figures.producedPerSecond))
            print(
                String(
                    format: "  CPU per frame %.3f ms, of which rendering %.3f ms (%.3f ms into one warm buffer), outside rendering %.1f us",
                    figures.cpuPerFrame * 1000, render * 1000, warmRender * 1000, outside * 1e6))
            print(
                String(
                    format: "    on the camera's thread %.1f us of CPU and %.1f us of wall-clock time (frame period less rendering);",
                    (figures.producerPerFrame - render) * 1e6, (1 / figures.renderedPerSecond - render) * 1e6))
            print(
                String(
                    format: "    delivery on the delegate's queue (wake-up, drain, callback, sleep) %.1f us of CPU",
                    (figures.cpuPerFrame - figures.producerPerFrame) * 1e6))
            func describe(_ cost: HandoffFloor.Cost) -> String {
                String(format: "%.1f us (sender %.1f + receiver %.1f)", cost.total * 1e6, cost.sender * 1e6, cost.receiver * 1e6)
            }
            print("  a bare hand-off once a frame under the same rendering load, to a thread that sleeps in between:")
            print("    dispatch queue: \(describe(floor.dispatchQueue))")
            if let otherCore = floor.otherCore, let sameCore = floor.sameCore {
                print("    semaphore, receiver held on the other core: \(describe(otherCore)); on the renderer's own core: \(describe(sameCore))")
            }
            print(
                String(
                    format: "  outside rendering less the dispatch hand-off (the frame path's own work; the noise here is a few us either way): %.1f us",
                    (outside - floor.dispatchQueue.total) * 1e6))
            print(String(format: "  heap allocations per frame in steady state: %.3f", figures.allocationsPerFrame))
            print(String(format: "  one memcpy of the frame (the floor): %.3f ms", copy * 1000))
            let gstFrames = max(60, Int(figures.producedPerSecond * secondsPerCase))
            if let gst = gstreamerThroughput(format: gstFormat, frames: gstFrames) {
                print(
                    String(
                        format: "  gst-launch-1.0 videotestsrc ! %@ %dx%d ! fakesink: %.1f frames/s, CPU %.3f ms/frame",
                        gstFormat, width, height, gst.fps, gst.cpuPerFrame * 1000))
                print(String(format: "  ratio (ours / GStreamer): %.2fx frames/s", figures.deliveredPerSecond / gst.fps))
                // GStreamer's own cost of handing frames to another thread: a cheap picture, so that its rendering varies little.
                let hopFrames = 10000
                if let direct = gstreamerThroughput(format: gstFormat, frames: hopFrames, pattern: "black"),
                    let handedOff = gstreamerThroughput(format: gstFormat, frames: hopFrames, pattern: "black", handingOff: true)
                {
                    let hop = handedOff.cpuPerFrame - direct.cpuPerFrame
                    print(
                        "  GStreamer handing each frame to another thread (videotestsrc pattern=black ! queue leaky=downstream max-size-buffers=1 ! fakesink,")
                    print(
                        String(
                            format: "    less the same without the queue): %.1f us of CPU per frame; ours outside rendering %.1f us: %.2fx GStreamer's",
                            hop * 1e6, outside * 1e6, outside / hop))
                }
            } else {
                print("  gst-launch-1.0 not available: install gstreamer1.0-tools and gstreamer1.0-plugins-base for the comparison")
            }
        }
        runOnOneCoreInChild()
    }

    /// The session figures again in a child process whose threads are all held on one core, so
    /// that waking the delegate's queue never crosses cores.
    static func runOnOneCoreInChild() {
        guard ProcessInfo.processInfo.activeProcessorCount >= 2, let executable = Bundle.main.executablePath else { return }
        print("")
        print("The same session, every thread of the process held on one core (as under `taskset -c 0`):")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["one-core", String(secondsPerCase)]
        fflush(nil)
        do { try process.run() } catch { print("  could not run: \(error)"); return }
        process.waitUntilExit()
    }

    /// Runs in the child that `runOnOneCoreInChild` starts, after holding the process on core 0.
    static func runOnOneCore() throws {
        for (name, format) in [("BGRA", kCVPixelFormatType_32BGRA), ("420v", kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange)] {
            let figures = try sessionThroughput(format: format)
            let outside = figures.cpuPerFrame - figures.renderPerFrame
            print(
                String(
                    format:
                        "  %@: %.1f frames/s delivered; CPU per frame %.3f ms, of which rendering %.3f ms, outside rendering %.1f us (producer %.1f, delivery %.1f)",
                    name, figures.deliveredPerSecond, figures.cpuPerFrame * 1000, figures.renderPerFrame * 1000, outside * 1e6,
                    (figures.producerPerFrame - figures.renderPerFrame) * 1e6, (figures.cpuPerFrame - figures.producerPerFrame) * 1e6))
        }
    }

    /// The renderer alone: seconds per frame.
    static func renderCost(width: Int, height: Int, format: OSType, frames: Int = 120) -> Double {
        let renderer = SceneRenderer(width: width, height: height, pixelFormat: format)!
        let buffer = CVPixelBuffer(width: width, height: height, pixelFormatType: format)!
        let state = ImagingState()
        let start = now()
        for index in 0..<frames {
            renderer.render(
                into: buffer,
                SceneFrameParameters(
                    frameNumber: Int64(index), seconds: Double(index) / 30, zoom: 1,
                    brightness: state.renderedBrightness, colourGains: (1, 1, 1), defocus: 0, image: nil))
        }
        return (now() - start) / Double(frames)
    }

    /// One memcpy of a frame of `bytes`: seconds.
    static func memcpyCost(bytes: Int, rounds: Int = 200) -> Double {
        let source = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
        let destination = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
        defer { source.deallocate(); destination.deallocate() }
        memset(source, 7, bytes)
        memset(destination, 1, bytes)
        let start = now()
        for _ in 0..<rounds { memcpy(destination, source, bytes) }
        return (now() - start) / Double(rounds)
    }

    /// Frames through session -> video data output -> empty delegate, with the virtual camera unpaced.
    static func sessionThroughput(format: OSType) throws -> SessionFigures {
        let camera = virtualCamera
        let session = AVCaptureSession()
        session.deliversFramesUnpaced = true
        session.beginConfiguration()
        session.sessionPreset = .hd1920x1080
        session.addInput(try AVCaptureDeviceInput(device: camera))
        let output = AVCaptureVideoDataOutput()
        output.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: format]
        let delegate = CountingDelegate()
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
        let statistics = DeviceRegistry.virtualBackCamera.renderStatistics
        let (frames0, drops0) = delegate.counts
        let render0 = statistics.totals, producer0 = statistics.producerCPUNanoseconds ?? 0
        let allocations0 = avbench_allocation_count(), cpu0 = cpuSeconds(), time0 = now()
        Thread.sleep(forTimeInterval: secondsPerCase)
        let (frames1, drops1) = delegate.counts
        let allocations1 = avbench_allocation_count(), cpu1 = cpuSeconds(), time1 = now()
        let render1 = statistics.totals, producer1 = statistics.producerCPUNanoseconds ?? 0
        session.stopRunning()
        let delivered = Double(frames1 - frames0), produced = Double(frames1 - frames0 + drops1 - drops0)
        let rendered = Double(max(1, render1.frames - render0.frames))
        return SessionFigures(
            deliveredPerSecond: delivered / (time1 - time0), producedPerSecond: produced / (time1 - time0),
            renderedPerSecond: rendered / (time1 - time0),
            cpuPerFrame: (cpu1 - cpu0) / max(1, produced),
            renderPerFrame: Double(render1.nanoseconds - render0.nanoseconds) / 1e9 / rendered,
            producerPerFrame: Double(producer1 - producer0) / 1e9 / rendered,
            allocationsPerFrame: Double(allocations1 - allocations0) / max(1, produced))
    }

    /// GStreamer doing the same job: a test source at the same size and format into a sink that does nothing.
    /// With `handingOff`, each frame crosses to another thread through a one-frame queue that drops
    /// late frames, as a video data output does; `pattern` is videotestsrc's picture.
    static func gstreamerThroughput(format: String, frames: Int, pattern: String = "smpte", handingOff: Bool = false) -> (fps: Double, cpuPerFrame: Double)? {
        if ProcessInfo.processInfo.environment["AVBENCH_NO_PEER"] != nil { return nil }
        guard let path = ["/usr/bin/gst-launch-1.0", "/usr/local/bin/gst-launch-1.0"].first(where: FileManager.default.isExecutableFile) else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        let queue = handingOff ? ["queue", "leaky=downstream", "max-size-buffers=1", "!"] : []
        process.arguments =
            [
                "-q", "videotestsrc", "pattern=\(pattern)", "num-buffers=\(frames)", "!",
                "video/x-raw,format=\(format),width=\(width),height=\(height),framerate=1000/1", "!",
            ] + queue + ["fakesink", "sync=false"]
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
}
