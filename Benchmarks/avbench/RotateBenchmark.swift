import AVFoundation
import CaptureDevices
import CBenchmarkSupport
import Foundation
import FrameProcessing

/// Turning frames for a video data output whose connection has a `videoRotationAngle`: a
/// 1920x1080 '420v' frame converted to BGRA, as is and turned a quarter (and turned and
/// mirrored), on one thread; next to `ffmpeg` doing the same conversion with and without its
/// `transpose` filter on the same frame in the same run, one thread, CPU per frame.
enum RotateBenchmark {
    static func run(seconds: Double) throws {
        print("")
        let (width, height) = (1920, 1080)
        guard let renderer = SceneRenderer(width: width, height: height, pixelFormat: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange),
            let source = CVPixelBuffer(width: width, height: height, pixelFormatType: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange),
            let upright = CVPixelBuffer(width: width, height: height, pixelFormatType: kCVPixelFormatType_32BGRA),
            let turned = CVPixelBuffer(width: height, height: width, pixelFormatType: kCVPixelFormatType_32BGRA)
        else { return }
        renderer.render(into: source, SceneFrameParameters(frameNumber: 1, seconds: 1, zoom: 1, brightness: 1, colourGains: (1, 1, 1), defocus: 0, image: nil))
        print("Turning frames: 1920x1080 '420v' -> BGRA, \(seconds) s per case, one thread:")
        let converter = PixelFormatConverter()
        var results: [String: Double] = [:]
        for (name, orientation, target) in [
            ("as is", PixelOrientation.identity, upright),
            ("turned 90", PixelOrientation(rotationDegrees: 90, mirrored: false), turned),
            ("turned 90 and mirrored", PixelOrientation(rotationDegrees: 90, mirrored: true), turned),
        ] {
            _ = converter.convert(source, into: target, orientation: orientation)
            var frames = 0
            let allocations0 = avbench_allocation_count(), start = now(), cpu0 = cpuSeconds()
            while now() - start < seconds {
                _ = converter.convert(source, into: target, orientation: orientation)
                frames += 1
            }
            let cpu = (cpuSeconds() - cpu0) / Double(frames) * 1000
            results[name] = cpu
            print(
                String(
                    format: "  ours, %@: %.2f ms CPU per frame, %.3f heap allocations per frame", name, cpu,
                    Double(avbench_allocation_count() - allocations0) / Double(frames)))
        }
        // The same frame for ffmpeg, repeated, raw.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("avbench-rotate-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let raw = folder.appendingPathComponent("frame.nv12")
        try writeNV12(source, to: raw)
        func ffmpegCPU(_ filter: String) -> Double? { ffmpegFilterCPU(raw: raw, width: width, height: height, filter: filter) }
        // ffmpeg's own cost of reading and passing on a frame, taken off its figures below.
        guard let reading = ffmpegCPU("null"), let plain = ffmpegCPU("format=bgra"), let transposed = ffmpegCPU("transpose=1,format=bgra"),
            let mirrored = ffmpegCPU("transpose=1,hflip,format=bgra")
        else {
            print("  ffmpeg not available"); return
        }
        print(String(format: "  ffmpeg reading and passing on a frame (-vf null): %.2f ms CPU, taken off the rows below", reading))
        for (name, theirs, filter) in [
            ("as is", plain, "format=bgra"), ("turned 90", transposed, "transpose=1,format=bgra"),
            ("turned 90 and mirrored", mirrored, "transpose=1,hflip,format=bgra"),
        ] {
            let ours = results[name] ?? .nan, net = max(0.001, theirs - reading)
            print(String(format: "  ffmpeg -vf %@: %.2f ms CPU per frame; ours %.2f ms; ours / ffmpeg %.2fx", filter, net, ours, ours / net))
        }
    }
}

/// Writes an NV12 frame's planes, row by row without padding, as ffmpeg's rawvideo reads them.
func writeNV12(_ frame: CVPixelBuffer, to url: URL) throws {
    var bytes = Data()
    for (index, plane) in frame.planes.enumerated() {
        // Luma is a byte a sample; each chroma sample is a Cb, Cr pair.
        for row in 0..<plane.height { bytes.append(Data(bytes: plane.baseAddress + row * plane.bytesPerRow, count: plane.width * (index == 0 ? 1 : 2))) }
    }
    try bytes.write(to: url)
}

/// ffmpeg's CPU per frame, one thread, for `filter` over 300 copies of a raw NV12 frame; nil when ffmpeg fails.
func ffmpegFilterCPU(raw: URL, width: Int, height: Int, filter: String, count: Int = 300) -> Double? {
    var before = rusage(), after = rusage()
    getrusage(RUSAGE_CHILDREN.rawValue, &before)
    let result = shell([
        "/usr/bin/ffmpeg", "-loglevel", "error", "-threads", "1", "-filter_threads", "1", "-f", "rawvideo", "-pix_fmt", "nv12",
        "-s", "\(width)x\(height)", "-stream_loop", "\(count - 1)", "-i", raw.path, "-vf", filter, "-f", "null", "-",
    ])
    getrusage(RUSAGE_CHILDREN.rawValue, &after)
    guard result.status == 0 else { return nil }
    func seconds(_ u: rusage) -> Double {
        Double(u.ru_utime.tv_sec) + Double(u.ru_utime.tv_usec) / 1e6 + Double(u.ru_stime.tv_sec) + Double(u.ru_stime.tv_usec) / 1e6
    }
    return (seconds(after) - seconds(before)) / Double(count) * 1000
}
