import Foundation
import MovieEngine

/// Writing a clean aperture into a finished movie, as the asset writer does after FFmpeg's muxer:
/// on a 1080p H.264 movie with its index last (edited in place) and with its index first (the
/// media moves and the movie is rewritten beside itself), against FFmpeg copying the same movie's
/// streams into a new file with the index first, the cheapest rewrite it offers (it cannot write
/// the box for compressed video).
enum CleanApertureBenchmark {
    static func run() throws {
        print("")
        print("Clean aperture written into a finished 1080p H.264 movie, against ffmpeg -c copy -movflags +faststart:")
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg") else {
            return print("  ffmpeg not available: install ffmpeg for this comparison")
        }
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("avbench-clap-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let last = folder.appendingPathComponent("index-last.mp4"), first = folder.appendingPathComponent("index-first.mp4")
        let make = [
            "/usr/bin/ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=30", "-t", "120", "-c:v", "libx264",
            "-preset", "ultrafast", "-b:v", "20M", "-y", last.path,
        ]
        guard shell(make).status == 0,
            shell(["/usr/bin/ffmpeg", "-v", "error", "-i", last.path, "-c", "copy", "-movflags", "+faststart", "-y", first.path]).status == 0
        else { return print("  could not make the movies") }
        let size = (try? FileManager.default.attributesOfItem(atPath: last.path)[.size] as? Int) ?? 0
        let aperture = CleanApertureBox(width: 1904, height: 1064, horizontalOffset: 0, verticalOffset: 0)
        for (name, source) in [("index last", last), ("index first", first)] {
            let ours = folder.appendingPathComponent("ours.mp4"), theirs = folder.appendingPathComponent("theirs.mp4")
            try? FileManager.default.removeItem(at: ours)
            try FileManager.default.copyItem(at: source, to: ours)
            let (oursSeconds, oursCPU) = try EncodeBenchmark.measure { try MovieBoxes.setCleanAperture(aperture, of: ours) }
            let (ffmpegSeconds, ffmpegCPU) = try EncodeBenchmark.measure {
                let result = shell(["/usr/bin/ffmpeg", "-v", "error", "-i", source.path, "-c", "copy", "-movflags", "+faststart", "-y", theirs.path])
                guard result.status == 0 else { throw CocoaError(.fileWriteUnknown) }
            }
            guard MovieBoxes.cleanApertures(of: ours)[0] == aperture else { return print("  the aperture did not read back") }
            print(
                String(
                    format: "  %@ (%.0f MB): clean aperture %.3f s (CPU %.3f s); ffmpeg copy %.3f s (CPU %.3f s); ratio %.3fx time", name,
                    Double(size) / 1e6, oursSeconds, oursCPU, ffmpegSeconds, ffmpegCPU, oursSeconds / ffmpegSeconds))
        }
    }
}
