import Foundation
import XCTest
import TestSupport

/// Movies made by the `ffmpeg` command, and their packets as `ffprobe` lists them: a source of
/// truth that shares no code with the asset reader.
public enum TestMovies {
    /// One packet as ffprobe lists it.
    public struct Packet {
        public var pts: Double
        public var dts: Double
        public var size: Int
        public var keyframe: Bool
    }

    /// Makes a movie with the ffmpeg command; the arguments go between the inputs and the output.
    public static func make(_ url: URL, inputs: [String], arguments: [String]) throws {
        var all = ["-v", "error", "-y"]
        for input in inputs { all += ["-f", "lavfi", "-i", input] }
        all += arguments + [url.path]
        guard runTool("/usr/bin/ffmpeg", all) != nil else { throw XCTSkip("ffmpeg could not make \(url.lastPathComponent)") }
    }

    /// A movie of `seconds` of 320x240 30 fps H.264 with B-frames (a solid colour, or testsrc2)
    /// and a 1 kHz stereo tone at 48 kHz in AAC.
    public static func picturesAndTone(_ url: URL, seconds: Int = 2, colour: String? = nil, extra: [String] = []) throws {
        let picture = colour.map { "color=c=\($0):s=320x240:r=30:d=\(seconds)" } ?? "testsrc2=s=320x240:r=30:d=\(seconds)"
        try make(
            url, inputs: [picture, "sine=frequency=1000:sample_rate=48000:duration=\(seconds)"],
            arguments: [
                "-ac", "2", "-c:v", "libx264", "-preset", "veryfast", "-bf", "2", "-g", "15", "-pix_fmt", "yuv420p",
                "-c:a", "aac", "-b:a", "128k", "-shortest",
            ] + extra)
    }

    /// The packets of one stream (`v:0` or `a:0`), in file order.
    public static func packets(_ url: URL, stream: String) -> [Packet] {
        guard
            let data = runTool(
                "/usr/bin/ffprobe",
                [
                    "-v", "error", "-select_streams", stream, "-show_entries", "packet=pts_time,dts_time,size,flags",
                    "-of", "csv=p=0", url.path,
                ]),
            let text = String(data: data, encoding: .utf8)
        else { return [] }
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 4, let size = Int(fields[2]) else { return nil }
            return Packet(pts: Double(fields[0]) ?? .nan, dts: Double(fields[1]) ?? .nan, size: size, keyframe: fields[3].contains("K"))
        }
    }
}
