import AVFoundation
import CaptureDevices
import CBenchmarkSupport
import Foundation
import FrameProcessing

/// The Live Photo ring's cost on the camera's thread: each 1920x1080 '420v' frame scaled into
/// its next preallocated 960x540 slot, CPU and heap allocations per frame; next to ffmpeg
/// scaling the same frame to the same size with its area filter, one thread, in the same run.
enum LivePhotoBenchmark {
    static func run(seconds: Double) throws {
        print("")
        let (width, height) = (1920, 1080)
        guard let renderer = SceneRenderer(width: width, height: height, pixelFormat: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange),
            let source = CVPixelBuffer(width: width, height: height, pixelFormatType: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange)
        else { return }
        renderer.render(into: source, SceneFrameParameters(frameNumber: 1, seconds: 1, zoom: 1, brightness: 1, colourGains: (1, 1, 1), defocus: 0, image: nil))
        let frame = CMSampleBuffer()
        frame.imageBufferStorage = source
        let ring = LivePhotoRing(seconds: 4)
        var time = CMTime(value: 0, timescale: 30)
        func keep() {
            frame.timing = CMSampleTimingInfo(duration: CMTime(value: 1, timescale: 30), presentationTimeStamp: time, decodeTimeStamp: .invalid)
            ring.receiveVideo(frame, frameRate: 30)
            time = time + CMTime(value: 1, timescale: 30)
        }
        // The first round of the ring allocates its slots; the steady state is measured after it.
        for _ in 0..<150 { keep() }
        var frames = 0
        let allocations0 = avbench_allocation_count(), start = now(), cpu0 = cpuSeconds()
        while now() - start < seconds {
            keep()
            frames += 1
        }
        let cpu = (cpuSeconds() - cpu0) / Double(frames) * 1000
        let allocations = Double(avbench_allocation_count() - allocations0) / Double(frames)
        let size = ring.frameSize ?? (0, 0)
        print(
            String(
                format: "Live Photo ring, 1920x1080 '420v' frames kept at %dx%d: %.2f ms CPU per frame, %.3f heap allocations per frame",
                size.0, size.1, cpu, allocations))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("avbench-live-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let raw = folder.appendingPathComponent("frame.nv12")
        try writeNV12(source, to: raw)
        let filter = "scale=\(size.0):\(size.1):flags=area"
        guard let reading = ffmpegFilterCPU(raw: raw, width: width, height: height, filter: "null"),
            let scaling = ffmpegFilterCPU(raw: raw, width: width, height: height, filter: filter)
        else { print("  ffmpeg not available"); return }
        let net = max(0.001, scaling - reading)
        print(
            String(
                format: "  ffmpeg -vf %@ (less its %.2f ms for reading a frame): %.2f ms CPU per frame; ours / ffmpeg %.2fx", filter, reading, net, cpu / net))
    }
}
