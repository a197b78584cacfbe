import AVFoundation
import CBenchmarkSupport
import Foundation

/// Decoding a 1080p30 H.264 clip through `AVAssetReaderTrackOutput`, in two-plane 4:2:0 (the
/// decoder's own format, no conversion but the copy into the pool's buffer) and in BGRA, next to
/// `ffmpeg -f null` decoding the same clip to the same formats in the same run; and the heap
/// allocations a frame in steady state (after the first second): all, and those FFmpeg's and libyuv's code makes.
enum ReaderBenchmark {
    static let seconds = 20

    static func run() throws {
        print("")
        print("Reading: a \(seconds) s 1920x1080 30 fps H.264 clip decoded through AVAssetReaderTrackOutput, and by ffmpeg to the same format:")
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg") else {
            return print("  ffmpeg not available: install ffmpeg for this comparison")
        }
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("avbench-reader-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = folder.appendingPathComponent("clip.mp4")
        let made = shell([
            "/usr/bin/ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=30:duration=\(seconds)",
            "-c:v", "libx264", "-preset", "veryfast", "-b:v", "8M", "-g", "30", "-bf", "2", "-pix_fmt", "yuv420p", "-y", clip.path,
        ])
        guard made.status == 0 else { return print("  could not make the clip") }
        let asset = AVURLAsset(url: clip)
        guard let track = asset.tracks(withMediaType: .video).first else { return print("  the clip has no video track") }
        for (name, format, ffmpegFormat) in [
            ("'420v'", kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, "nv12"), ("BGRA", kCVPixelFormatType_32BGRA, "bgra"),
        ] {
            var result: (frames: Int, seconds: Double, allocations: Double, codecAllocations: Double) = (0, 0, 0, 0)
            let ours = try EncodeBenchmark.measure {
                let output = AVAssetReaderTrackOutput(track: track, outputSettings: [kCVPixelBufferPixelFormatTypeKey as String: format])
                result = try CompositionBenchmark.read(output, of: asset)
            }
            let theirs = try EncodeBenchmark.measure {
                guard
                    shell(["/usr/bin/ffmpeg", "-v", "error", "-i", clip.path, "-map", "0:v", "-pix_fmt", ffmpegFormat, "-f", "null", "-"]).status == 0
                else { throw CocoaError(.fileReadUnknown) }
            }
            let frames = Double(seconds * 30)
            print(
                String(
                    format:
                        "  %@: %d frames in %.2f s (%.1f ms CPU a frame), %.1f heap allocations a frame (the media libraries' %.1f, the rest %.1f); ffmpeg -pix_fmt %@: %.2f s (%.1f ms CPU a frame); %.2fx ffmpeg's throughput, %.2fx its CPU a frame",
                    name, result.frames, ours.seconds, ours.cpu / frames * 1000, result.allocations, result.codecAllocations,
                    result.allocations - result.codecAllocations, ffmpegFormat, theirs.seconds,
                    theirs.cpu / frames * 1000, theirs.seconds / ours.seconds, ours.cpu / theirs.cpu))
        }
    }
}
