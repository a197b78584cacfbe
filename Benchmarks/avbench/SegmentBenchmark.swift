import AVFoundation
import Foundation
import UniformTypeIdentifiers

/// HLS segmenting: the same raw 1280x720 frames encoded and cut into 2 s fragmented MPEG-4
/// segments written to a folder, by a segment writer (AVAssetWriter(contentType:) and its
/// delegate) and by `ffmpeg -f hls -hls_segment_type fmp4`, with the same encoder settings.
enum SegmentBenchmark {
    static let width = 1280, height = 720, frames = 1800, distinct = 60, bitRate = 4_000_000

    /// Writes each segment to a file, as an HLS packager does.
    final class FolderWriter: NSObject, AVAssetWriterDelegate, @unchecked Sendable {
        let folder: URL
        private(set) var count = 0
        init(folder: URL) { self.folder = folder }

        func assetWriter(_ writer: AVAssetWriter, didOutputSegmentData segmentData: Data, segmentType: AVAssetSegmentType, segmentReport: AVAssetSegmentReport?)
        {
            let name = segmentType == .initialization ? "init.mp4" : "segment\(count).m4s"
            if segmentType == .separable { count += 1 }
            try? segmentData.write(to: folder.appendingPathComponent(name))
        }
    }

    static func run() throws {
        print("")
        print("HLS segmenting: \(frames) raw \(width)x\(height) NV12 frames, H.264 (veryfast, zerolatency, \(bitRate / 1_000_000) Mbit/s), 2 s fMP4 segments:")
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg") else {
            return print("  ffmpeg not available: install ffmpeg for this comparison")
        }
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("avbench-hls-\(getpid())")
        let ours = folder.appendingPathComponent("ours"), theirs = folder.appendingPathComponent("ffmpeg")
        for made in [ours, theirs] { try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true) }
        defer { try? FileManager.default.removeItem(at: folder) }
        let raw = folder.appendingPathComponent("frames.nv12")
        guard
            shell([
                "/usr/bin/ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=\(width)x\(height):rate=30", "-frames:v", "\(distinct)",
                "-pix_fmt", "nv12", "-f", "rawvideo", "-y", raw.path,
            ]).status == 0
        else { return print("  could not make the frames") }
        let buffers = try EncodeBenchmark.load(raw, width: width, height: height, count: distinct)

        let delegate = FolderWriter(folder: ours)
        let (oursSeconds, oursCPU) = try EncodeBenchmark.measure { try segment(buffers, to: delegate) }
        let (ffmpegSeconds, ffmpegCPU) = try EncodeBenchmark.measure {
            let result = shell([
                "/usr/bin/ffmpeg", "-v", "error", "-stream_loop", "\(frames / distinct - 1)", "-f", "rawvideo", "-pix_fmt", "nv12",
                "-s", "\(width)x\(height)", "-r", "30", "-i", raw.path, "-c:v", "libx264", "-preset", "veryfast", "-tune", "zerolatency",
                "-b:v", "\(bitRate)", "-maxrate", "\(bitRate * 3 / 2)", "-bufsize", "\(bitRate)", "-g", "30", "-bf", "0",
                "-f", "hls", "-hls_segment_type", "fmp4", "-hls_time", "2", "-hls_playlist_type", "vod", "-y", theirs.appendingPathComponent("index.m3u8").path,
            ])
            guard result.status == 0 else { throw CocoaError(.fileWriteUnknown) }
        }
        let theirSegments = (try? FileManager.default.contentsOfDirectory(atPath: theirs.path).filter { $0.hasSuffix(".m4s") }.count) ?? 0
        let oursFPS = Double(frames) / oursSeconds, ffmpegFPS = Double(frames) / ffmpegSeconds
        print(String(format: "  segment writer: %.1f frames/s (%.2f s, CPU %.2f s), %d segments", oursFPS, oursSeconds, oursCPU, delegate.count))
        print(String(format: "  ffmpeg -f hls:  %.1f frames/s (%.2f s, CPU %.2f s), %d segments", ffmpegFPS, ffmpegSeconds, ffmpegCPU, theirSegments))
        print(String(format: "  ratio (segment writer / ffmpeg): %.2fx throughput", oursFPS / ffmpegFPS))
    }

    static func segment(_ buffers: [CVPixelBuffer], to delegate: FolderWriter) throws {
        let writer = AVAssetWriter(contentType: UTType(AVFileType.mp4.rawValue)!)
        writer.outputFileTypeProfile = .mpeg4AppleHLS
        writer.preferredOutputSegmentInterval = CMTime(value: 2, timescale: 1)
        writer.initialSegmentStartTime = .zero
        writer.delegate = delegate
        try EncodeBenchmark.write(buffers, frames: frames, with: writer, input: EncodeBenchmark.h264Input(width: width, height: height, bitRate: bitRate))
    }
}
