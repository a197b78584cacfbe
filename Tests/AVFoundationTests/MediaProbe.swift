import Foundation
import XCTest

/// What ffprobe says of a media file.
struct MediaProbe {
    struct Stream {
        var codec: String
        var type: String
        var width: Int?
        var height: Int?
        var frames: Int?
        var startTime: Double
        var duration: Double?
        var frameRate: Double?
        var rotation: Double?
        var colorPrimaries: String?
        var colorTransfer: String?
        var colorSpace: String?
    }
    var formatName: String
    var duration: Double
    var size: Int
    var tags: [String: String]
    var streams: [Stream]
    var video: Stream? { streams.first { $0.type == "video" } }
    var audio: Stream? { streams.first { $0.type == "audio" } }

    /// Probes a file, counting frames by decoding them; nil when ffprobe cannot read it.
    static func probe(_ url: URL) -> MediaProbe? {
        guard let json = run(["-v", "error", "-count_frames", "-print_format", "json", "-show_format", "-show_streams", url.path]),
              let object = try? JSONSerialization.jsonObject(with: json) as? [String: Any],
              let format = object["format"] as? [String: Any] else { return nil }
        let streams = (object["streams"] as? [[String: Any]] ?? []).map { s -> Stream in
            let rate = (s["r_frame_rate"] as? String).flatMap { text -> Double? in
                let parts = text.split(separator: "/").compactMap { Double($0) }
                return parts.count == 2 && parts[1] != 0 ? parts[0] / parts[1] : nil
            }
            let sideData = s["side_data_list"] as? [[String: Any]] ?? []
            let rotation = sideData.compactMap { ($0["rotation"] as? NSNumber)?.doubleValue }.first
            return Stream(codec: s["codec_name"] as? String ?? "", type: s["codec_type"] as? String ?? "",
                          width: s["width"] as? Int, height: s["height"] as? Int,
                          frames: (s["nb_read_frames"] as? String).flatMap { Int($0) },
                          startTime: Double(s["start_time"] as? String ?? "0") ?? 0,
                          duration: (s["duration"] as? String).flatMap(Double.init), frameRate: rate, rotation: rotation,
                          colorPrimaries: s["color_primaries"] as? String, colorTransfer: s["color_transfer"] as? String,
                          colorSpace: s["color_space"] as? String)
        }
        return MediaProbe(formatName: format["format_name"] as? String ?? "", duration: Double(format["duration"] as? String ?? "") ?? 0,
                          size: Int(format["size"] as? String ?? "") ?? 0, tags: format["tags"] as? [String: String] ?? [:], streams: streams)
    }

    /// Whether every frame of the file decodes without error.
    static func decodesCleanly(_ url: URL) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.arguments = ["-v", "error", "-xerror", "-i", url.path, "-f", "null", "-"]
        let pipe = Pipe()
        process.standardError = pipe
        process.standardOutput = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        let errors = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 && errors.isEmpty
    }

    /// The top-level boxes of a QuickTime or MPEG-4 file, in order.
    static func topLevelBoxes(_ url: URL) -> [String] {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return [] }
        defer { try? handle.close() }
        var boxes: [String] = []
        var offset: UInt64 = 0
        while let header = try? { try handle.seek(toOffset: offset); return try handle.read(upToCount: 16) }(), header.count >= 8 {
            var size = UInt64(header[0]) << 24 | UInt64(header[1]) << 16 | UInt64(header[2]) << 8 | UInt64(header[3])
            boxes.append(String(decoding: header[4..<8], as: UTF8.self))
            if size == 1, header.count >= 16 { size = header[8..<16].reduce(0) { $0 << 8 | UInt64($1) } }
            if size < 8 { break }
            offset += size
        }
        return boxes
    }

    static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/ffprobe") }

    private static func run(_ arguments: [String]) -> Data? { runTool("/usr/bin/ffprobe", arguments) }
}

/// A scratch folder for a test's files.
func makeScratchFolder(_ name: String = #function) -> URL {
    let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("linuxavfoundation-tests-\(getpid())")
        .appendingPathComponent(name.filter { $0.isLetter || $0.isNumber })
    try? FileManager.default.removeItem(at: folder)
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}

/// Runs a command-line tool and returns its standard output, or nil when it fails.
func runTool(_ tool: String, _ arguments: [String]) -> Data? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return nil }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return process.terminationStatus == 0 ? data : nil
}
