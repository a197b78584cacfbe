import AVFoundation
import CaptureDevices
import CBenchmarkSupport
import Foundation
import FrameProcessing

/// MJPEG decoding, the work a USB camera at 1080p asks for: a 1920x1080 4:2:2 JPEG (as UVC
/// cameras send) decoded into full-range 4:2:0 and into BGRA, next to libjpeg-turbo's own
/// `tjbench` decoding the same file to planar YUV and to BGRX in the same run.
enum MJPEGBenchmark {
    static func run(seconds: Double) throws {
        print("")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("avbench-mjpeg-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("frame.jpg")
        let made = shell([
            "/usr/bin/ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=1920x1080", "-frames:v", "1",
            "-q:v", "3", "-pix_fmt", "yuvj422p", file.path,
        ])
        guard made.status == 0, let jpeg = try? Array(Data(contentsOf: file)) else { print("MJPEG: ffmpeg could not make a frame: \(made.output)"); return }
        print("MJPEG 1920x1080 4:2:2 (\(jpeg.count / 1024) KiB), \(seconds) s per case, one thread:")
        let megapixels = 1920.0 * 1080 / 1e6
        for (name, format, peerOption) in [
            ("-> 420f", kCVPixelFormatType_420YpCbCr8BiPlanarFullRange, "-yuv"), ("-> BGRA", kCVPixelFormatType_32BGRA, "-bgrx"),
        ] {
            let decoder = MJPEGDecoder()
            let target = CVPixelBuffer(width: 1920, height: 1080, pixelFormatType: format)!
            let decode = { jpeg.withUnsafeBufferPointer { decoder.decode($0.baseAddress!, count: $0.count, into: target) } }
            guard decode() else { print("  \(name): decoding failed"); continue }
            var frames = 0
            let allocations0 = avbench_allocation_count(), start = now()
            while now() - start < seconds {
                _ = decode()
                frames += 1
            }
            let elapsed = now() - start
            let allocations = Double(avbench_allocation_count() - allocations0) / Double(frames)
            let ours = Double(frames) * megapixels / elapsed
            var line = String(
                format: "  %@: %.2f ms per frame, %.0f Mpixels/s, %.3f heap allocations per frame", name, elapsed / Double(frames) * 1000, ours, allocations)
            let peer = shell(["/usr/bin/tjbench", file.path, peerOption, "-benchtime", String(seconds), "-warmup", "0.5", "-quiet"])
            // tjbench -quiet prints one row per format; its eighth column is decompression in Mpixels/s.
            let row = peer.output.split(separator: "\n").last { $0.contains("1920") }?.split(separator: " ").map(String.init)
            if peer.status == 0, let row, row.count > 8, let theirs = Double(row[8]) {
                line += String(format: "; tjbench %@ %.0f Mpixels/s; ratio %.2fx (ours / tjbench)", peerOption, theirs, ours / theirs)
            } else {
                line += "; tjbench not available (install libjpeg-turbo-progs)"
            }
            print(line)
        }
    }
}
