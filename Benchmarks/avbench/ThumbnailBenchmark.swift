import AVFoundation
import Foundation
import TestSupport

/// Thumbnails of a movie: the pictures at 20 times spread over a 10-minute 1920x1080 H.264 movie
/// (a keyframe every 10 s), as JPEG files. Ours in this process (AVAssetImageGenerator, the exact
/// frame, and Image I/O) and as whole processes (`avcapture thumbnail` per time, exact and with
/// `--keyframe`), next to
/// `ffmpeg -ss T -i MOVIE -frames:v 1` (the exact frame too) and `ffmpegthumbnailer -t T` (the
/// nearest keyframe onwards) per time, in the same run, wall time per thumbnail.
enum ThumbnailBenchmark {
    static func run() throws {
        print("")
        let movie = FileManager.default.temporaryDirectory.appendingPathComponent("avbench-thumbnails-1080p-600s.mp4")
        if !FileManager.default.fileExists(atPath: movie.path) {
            print("Making a 10-minute 1920x1080 movie for the thumbnails (once; kept in \(movie.path))...")
            guard
                runTool(
                    "/usr/bin/ffmpeg",
                    [
                        "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=1920x1080:r=30:d=600", "-c:v", "libx264", "-preset", "ultrafast", "-g", "300",
                        "-pix_fmt", "yuv420p", movie.path,
                    ]) != nil
            else {
                print("  ffmpeg could not make the movie"); return
            }
        }
        let times = (0..<20).map { (Double($0) + 0.5) * 30 }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("avbench-thumbnails-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        print("Thumbnails: 20 pictures of a 10-minute 1920x1080 H.264 movie (a keyframe every 10 s) as JPEG files, wall time per thumbnail:")

        let generator = AVAssetImageGenerator(asset: AVURLAsset(url: movie))
        generator.requestedTimeToleranceBefore = .zero
        generator.requestedTimeToleranceAfter = .zero
        var start = now()
        for (index, time) in times.enumerated() {
            guard let image = try? generator.copyCGImage(at: CMTime(seconds: time, preferredTimescale: 600), actualTime: nil),
                let destination = CGImageDestinationCreateWithURL(
                    folder.appendingPathComponent("ours-\(index).jpg") as CFURL, "public.jpeg" as CFString, 1, nil)
            else {
                print("  ours could not make the picture at \(time) s"); return
            }
            CGImageDestinationAddImage(destination, image, [kCGImageDestinationLossyCompressionQuality: 0.9] as CFDictionary)
            _ = CGImageDestinationFinalize(destination)
        }
        let inProcess = (now() - start) / Double(times.count) * 1000
        print(String(format: "  ours, AVAssetImageGenerator (the exact frame) and Image I/O in one process: %.1f ms", inProcess))

        func perProcess(_ name: String, _ tool: String, _ arguments: (Int, Double) -> [String]) -> Double? {
            guard FileManager.default.isExecutableFile(atPath: tool) else {
                print("  \(name): \(tool) is not installed")
                return nil
            }
            start = now()
            for (index, time) in times.enumerated() where runTool(tool, arguments(index, time)) == nil {
                print("  \(name) failed at \(time) s")
                return nil
            }
            let each = (now() - start) / Double(times.count) * 1000
            print(String(format: "  %@: %.1f ms", name, each))
            return each
        }
        let tool = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("avcapture").path
        let ours = perProcess("ours, avcapture thumbnail per time, the exact frame (build it with swift build -c release)", tool) { index, time in
            ["thumbnail", movie.path, folder.appendingPathComponent("process-\(index).jpg").path, "--at", String(time)]
        }
        let oursKeyframe = perProcess("ours, avcapture thumbnail --keyframe per time, the keyframe before", tool) { index, time in
            ["thumbnail", movie.path, folder.appendingPathComponent("keyframe-\(index).jpg").path, "--at", String(time), "--keyframe"]
        }
        let ffmpeg = perProcess("ffmpeg -ss T -i MOVIE -frames:v 1 per time", "/usr/bin/ffmpeg") { index, time in
            [
                "-v", "error", "-y", "-ss", String(time), "-i", movie.path, "-frames:v", "1", "-q:v", "3",
                folder.appendingPathComponent("ffmpeg-\(index).jpg").path,
            ]
        }
        let thumbnailer = perProcess("ffmpegthumbnailer -t T -s 0 per time", "/usr/bin/ffmpegthumbnailer") { index, time in
            let seconds = Int(time)
            let stamp = String(format: "%02d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60)
            // -q 9 is libjpeg's quality 90, avcapture's for JPEG thumbnails.
            return ["-i", movie.path, "-o", folder.appendingPathComponent("thumbnailer-\(index).jpg").path, "-t", stamp, "-s", "0", "-q", "9"]
        }
        if let ffmpeg {
            print(String(format: "  ratio ours in one process/ffmpeg: %.2fx", inProcess / ffmpeg))
            if let ours { print(String(format: "  ratio ours per process/ffmpeg: %.2fx", ours / ffmpeg)) }
        }
        if let thumbnailer, let oursKeyframe {
            print(String(format: "  ratio ours --keyframe per process/ffmpegthumbnailer (both the keyframe before): %.2fx", oursKeyframe / thumbnailer))
        }
        clips(of: movie, tool: tool, folder: folder)
    }

    /// A 3-second clip from 125 s at 10 pictures a second, fitted into 480x480, as an animated GIF:
    /// `avcapture thumbnail --gif` (a palette for each picture, libimagequant's) against ffmpeg's GIF
    /// of the same clip, with its fixed palette (`-vf fps,scale`) and with a palette made for the
    /// clip (palettegen, paletteuse), whole processes, wall time and size.
    static func clips(of movie: URL, tool: String, folder: URL) {
        print("A 3 s clip at 10 pictures a second, fitted into 480x480, as an animated GIF, whole processes, wall time:")
        func timed(_ name: String, _ command: String, _ arguments: [String], output: URL) -> Double? {
            guard FileManager.default.isExecutableFile(atPath: command) else {
                print("  \(name): \(command) is not there")
                return nil
            }
            var best = Double.infinity
            for _ in 0..<3 {
                try? FileManager.default.removeItem(at: output)
                let start = now()
                guard runTool(command, arguments) != nil else {
                    print("  \(name) failed")
                    return nil
                }
                best = min(best, now() - start)
            }
            let size = (try? FileManager.default.attributesOfItem(atPath: output.path)[.size] as? Int) ?? 0
            print(String(format: "  %@: %.0f ms (best of 3), %d KB", name, best * 1000, size / 1024))
            return best
        }
        let ours = folder.appendingPathComponent("clip-ours.gif"), theirs = folder.appendingPathComponent("clip-ffmpeg.gif")
        let oursTime = timed(
            "avcapture thumbnail --gif", tool,
            ["thumbnail", movie.path, ours.path, "--gif", "--at", "125", "--seconds", "3", "--fps", "10", "--size", "480x480"], output: ours)
        let ffmpegTime = timed(
            "ffmpeg -ss 125 -t 3 -vf fps=10,scale=480:-2", "/usr/bin/ffmpeg",
            ["-v", "error", "-y", "-ss", "125", "-t", "3", "-i", movie.path, "-vf", "fps=10,scale=480:-2", "-loop", "0", theirs.path], output: theirs)
        // ffmpeg's own palette for the clip (palettegen, paletteuse), as ours is made for each picture by libimagequant.
        let paletted = folder.appendingPathComponent("clip-ffmpeg-palette.gif")
        let palettedTime = timed(
            "ffmpeg ... palettegen,paletteuse", "/usr/bin/ffmpeg",
            [
                "-v", "error", "-y", "-ss", "125", "-t", "3", "-i", movie.path, "-vf", "fps=10,scale=480:-2,split[a][b];[a]palettegen[p];[b][p]paletteuse",
                "-loop", "0", paletted.path,
            ], output: paletted)
        if let oursTime, let ffmpegTime { print(String(format: "  ratio ours/ffmpeg (its fixed palette): %.2fx wall time", oursTime / ffmpegTime)) }
        if let oursTime, let palettedTime { print(String(format: "  ratio ours/ffmpeg (its palette for the clip): %.2fx wall time", oursTime / palettedTime)) }
    }
}
