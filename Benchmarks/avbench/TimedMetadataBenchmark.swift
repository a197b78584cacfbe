import AVFoundation
import CTimedID3Fixture
import Foundation
import TestSupport

/// Timed metadata: the 300 ID3 tags (a title and 64 private bytes, one every 2 s) of a 10-minute
/// 640x360 MPEG-TS stream. Ours read through an asset reader's metadata adaptor into
/// AVTimedMetadataGroups, and through a player item's metadata output from its addition to the
/// first group delivered (the output reads every tag first), next to `ffmpeg -map 0:d -c copy -f data`
/// (the same demuxing, no tag read) and `ffprobe -show_packets -show_data` of the data stream, in
/// the same run, wall time for the whole stream.
enum TimedMetadataBenchmark {
    static func run() throws {
        print("")
        guard let stream = makeStream() else { return }
        print("Timed metadata: the 300 ID3 tags of a 10-minute 640x360 MPEG-TS stream, wall time to read them all (best of 3):")

        /// The shortest of three runs, in milliseconds; each run times itself (nil when it failed).
        func best(_ body: () -> Double?) -> Double? {
            var times: [Double] = []
            for _ in 0..<3 {
                guard let seconds = body() else { return nil }
                times.append(seconds)
            }
            return times.min().map { $0 * 1000 }
        }
        /// How long `body` took, or nil when it failed.
        func timed(_ body: () -> Bool) -> Double? {
            let start = now()
            return body() ? now() - start : nil
        }

        let adaptor = best {
            timed {
                let asset = AVURLAsset(url: stream)
                guard let track = asset.tracks(withMediaType: .metadata).first, let reader = try? AVAssetReader(asset: asset) else { return false }
                let output = AVAssetReaderTrackOutput(track: track, outputSettings: nil)
                reader.add(output)
                let adaptor = AVAssetReaderOutputMetadataAdaptor(assetReaderTrackOutput: output)
                guard reader.startReading() else { return false }
                var groups = 0
                while adaptor.nextTimedMetadataGroup() != nil { groups += 1 }
                return groups == 300
            }
        }
        guard let adaptor else { print("  ours could not read the groups"); return }
        print(String(format: "  ours, AVAssetReaderOutputMetadataAdaptor, 300 groups: %.1f ms", adaptor))
        // Of which opening the stream: the asset's tracks and a reader started, no group read.
        if let opening = best({
            timed {
                let asset = AVURLAsset(url: stream)
                guard let track = asset.tracks(withMediaType: .metadata).first, let reader = try? AVAssetReader(asset: asset) else { return false }
                reader.add(AVAssetReaderTrackOutput(track: track, outputSettings: nil))
                return reader.startReading()
            }
        }) {
            print(String(format: "    of which opening the stream (its tracks, a reader started): %.1f ms", opening))
        }

        final class First: NSObject, AVPlayerItemMetadataOutputPushDelegate, @unchecked Sendable {
            let arrived = DispatchSemaphore(value: 0)
            func metadataOutput(
                _ output: AVPlayerItemMetadataOutput, didOutputTimedMetadataGroups groups: [AVTimedMetadataGroup], from track: AVPlayerItemTrack?
            ) {
                arrived.signal()
            }
        }
        let output = best {
            let item = AVPlayerItem(url: stream)
            let player = AVPlayer(playerItem: item)
            let deadline = Date().addingTimeInterval(10)
            while item.status != .readyToPlay, Date() < deadline { usleep(1000) }
            let metadata = AVPlayerItemMetadataOutput(identifiers: nil)
            let first = First()
            metadata.setDelegate(first, queue: DispatchQueue(label: "avbench.metadata"))
            // Only the output's part counts: the item was loaded before the clock started.
            let spent = timed {
                item.add(metadata)
                return first.arrived.wait(timeout: .now() + 30) == .success
            }
            withExtendedLifetime(player) {}
            return spent
        }
        if let output { print(String(format: "  ours, AVPlayerItemMetadataOutput, from add(_:) to the first group: %.1f ms", output)) }

        let ffmpeg = best {
            timed { runTool("/usr/bin/ffmpeg", ["-v", "error", "-i", stream.path, "-map", "0:d", "-c", "copy", "-f", "data", "-y", "/dev/null"]) != nil }
        }
        let ffprobe = best {
            timed { runTool("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "d", "-show_packets", "-show_data", "-of", "compact", stream.path]) != nil }
        }
        // The peers' fixed part: a process started and the stream opened, no packet read.
        if let opening = best({ timed { runTool("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "format=duration", stream.path]) != nil } }) {
            print(String(format: "  ffprobe opening the stream alone (its process started, no packet read): %.1f ms", opening))
        }
        if let ffmpeg {
            print(String(format: "  ffmpeg -map 0:d -c copy -f data (demuxing, no tag read): %.1f ms; ours %.2fx its time", ffmpeg, adaptor / ffmpeg))
        }
        if let ffprobe {
            print(String(format: "  ffprobe -show_packets -show_data of the data stream: %.1f ms; ours %.2fx its time", ffprobe, adaptor / ffprobe))
        }
    }

    /// The stream, made once and kept in the temporary folder.
    private static func makeStream() -> URL? {
        let folder = FileManager.default.temporaryDirectory
        let stream = folder.appendingPathComponent("avbench-timed-id3-600s.ts")
        if FileManager.default.fileExists(atPath: stream.path) { return stream }
        print("Making a 10-minute 640x360 MPEG-TS stream with 300 ID3 tags (once; kept in \(stream.path))...")
        let video = folder.appendingPathComponent("avbench-timed-id3-video-\(getpid()).ts")
        defer { try? FileManager.default.removeItem(at: video) }
        guard
            runTool(
                "/usr/bin/ffmpeg",
                ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=640x360:r=30:d=600", "-c:v", "mpeg2video", "-q:v", "8", "-f", "mpegts", video.path])
                != nil
        else {
            print("  ffmpeg could not make the pictures"); return nil
        }
        var tags: [[UInt8]] = []
        let payload = [UInt8](repeating: 0x5A, count: 64)
        for index in 0..<300 {
            var buffer = [UInt8](repeating: 0, count: 1024)
            let length = payload.withUnsafeBufferPointer {
                ctid3_render("Segment \(index)", nil, nil, "com.example.avbench", $0.baseAddress, $0.count, nil, nil, 0, &buffer, buffer.count)
            }
            guard length > 0 else { print("  libid3tag could not render a tag"); return nil }
            tags.append(Array(buffer.prefix(length)))
        }
        let pointers = tags.map { tag -> UnsafeMutablePointer<UInt8> in
            let pointer = UnsafeMutablePointer<UInt8>.allocate(capacity: tag.count)
            pointer.initialize(from: tag, count: tag.count)
            return pointer
        }
        defer { for pointer in pointers { pointer.deallocate() } }
        let partial = folder.appendingPathComponent("avbench-timed-id3-\(getpid()).partial.ts")
        let result = ctid3_write_stream(
            partial.path, video.path, Int32(tags.count), pointers.map { UnsafePointer($0) }, tags.map { Int32($0.count) },
            (0..<300).map { Int64($0) * 2000 })
        guard result == 0, (try? FileManager.default.moveItem(at: partial, to: stream)) != nil else {
            print("  libavformat could not write the stream (\(result))"); return nil
        }
        return stream
    }
}
