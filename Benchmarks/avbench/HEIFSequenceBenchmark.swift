import AVFoundation
import Foundation
import TestSupport

/// HEIF image sequences: 60 frames of 640x480 (FFmpeg's testsrc2) written as a `public.heics` file
/// through Image I/O, then read back frame by frame as BGRA images, next to `ffmpeg` decoding the
/// same file's track to BGRA (its own HEVC decoder) as a whole process, in the same run. The
/// writing is printed beside `ffmpeg -c:v libx265`'s at its defaults, which are not libheif's
/// settings: a reference, not a ratio.
enum HEIFSequenceBenchmark {
    static func run() throws {
        print("")
        let (width, height, count) = (640, 480, 60)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("avbench-heics-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let raw = folder.appendingPathComponent("frames.bgra")
        guard
            runTool(
                "/usr/bin/ffmpeg",
                [
                    "-v", "error", "-f", "lavfi", "-i", "testsrc2=s=\(width)x\(height):r=10", "-frames:v", "\(count)", "-pix_fmt", "bgra", "-f", "rawvideo",
                    raw.path,
                ])
                != nil, let pixels = try? Data(contentsOf: raw), pixels.count == width * height * 4 * count
        else {
            print("HEIF image sequences: ffmpeg could not make the frames"); return
        }
        guard (CGImageDestinationCopyTypeIdentifiers() as? [String])?.contains("public.heics") == true else {
            print("HEIF image sequences: not offered here (no libheif 1.21 or newer; scripts/install-libheif-sequences.sh)"); return
        }
        let frameBytes = width * height * 4
        let images = (0..<count).compactMap { index -> CGImage? in
            let provider = CGDataProvider(data: pixels.subdata(in: index * frameBytes..<(index + 1) * frameBytes) as CFData)!
            return CGImage(
                width: width, height: height, bitsPerComponent: 8, bitsPerPixel: 32, bytesPerRow: width * 4, space: CGColorSpaceCreateDeviceRGB(),
                bitmapInfo: CGBitmapInfo(rawValue: CGBitmapInfo.byteOrder32Little.rawValue | CGImageAlphaInfo.noneSkipFirst.rawValue), provider: provider,
                decode: nil, shouldInterpolate: false, intent: .defaultIntent)
        }
        print("HEIF image sequences: \(count) frames of \(width)x\(height):")

        let data = NSMutableData()
        var start = now()
        guard let destination = CGImageDestinationCreateWithData(data as CFMutableData, "public.heics" as CFString, count, nil) else { return }
        for image in images {
            CGImageDestinationAddImage(destination, image, [kCGImagePropertyHEICSDictionary: [kCGImagePropertyHEICSUnclampedDelayTime: 0.1]] as CFDictionary)
        }
        guard CGImageDestinationFinalize(destination) else {
            print("  ours could not write the sequence"); return
        }
        let written = now() - start
        let file = folder.appendingPathComponent("ours.heics")
        try (data as Data).write(to: file)
        start = now()
        let x265 = folder.appendingPathComponent("x265.mp4")
        let referenced =
            runTool(
                "/usr/bin/ffmpeg",
                [
                    "-v", "error", "-f", "rawvideo", "-pix_fmt", "bgra", "-s", "\(width)x\(height)", "-r", "10", "-i", raw.path, "-c:v", "libx265",
                    "-x265-params", "log-level=none", "-y", x265.path,
                ]) != nil ? now() - start : nil
        let x265Size = (try? FileManager.default.attributesOfItem(atPath: x265.path)[.size] as? Int) ?? 0
        print(
            String(
                format: "  written, Image I/O (libheif, x265): %.0f ms, %d KB; ffmpeg -c:v libx265 at its defaults (a reference): %@, %d KB",
                written * 1000, data.length / 1024, referenced.map { String(format: "%.0f ms", $0 * 1000) } ?? "failed", x265Size / 1024))

        // Read back frame by frame, each as a BGRA image; best of three.
        var ours = Double.infinity, opening = Double.infinity
        for _ in 0..<3 {
            start = now()
            guard let source = CGImageSourceCreateWithData(data as CFData, nil), CGImageSourceGetCount(source) == count else {
                print("  ours could not read the sequence back"); return
            }
            opening = min(opening, now() - start)
            for index in 0..<count where CGImageSourceCreateImageAtIndex(source, index, nil) == nil {
                print("  ours could not decode frame \(index)"); return
            }
            ours = min(ours, now() - start)
        }
        var theirs = Double.infinity
        for _ in 0..<3 {
            start = now()
            guard runTool("/usr/bin/ffmpeg", ["-v", "error", "-i", file.path, "-fps_mode", "passthrough", "-pix_fmt", "bgra", "-f", "null", "-"]) != nil else {
                print("  ffmpeg could not read the sequence"); return
            }
            theirs = min(theirs, now() - start)
        }
        print(
            String(
                format:
                    "  read frame by frame as BGRA: ours (Image I/O, libheif's libde265) %.1f ms a frame, ffmpeg (a whole process) %.1f ms a frame: %.2fx the time",
                ours * 1000 / Double(count), theirs * 1000 / Double(count), ours / theirs))
        // libheif counts a sequence's frames only by decoding them: making the source is one pass.
        print(String(format: "  of ours, making the source (the frames counted, one decoding pass): %.0f ms of %.0f", opening * 1000, ours * 1000))
    }
}
