import Foundation

/// What ffprobe says of a media file.
public struct MediaProbe {
    /// One stream of the file.
    public struct Stream {
        /// The codec's short name (`h264`, `aac`).
        public var codec: String
        /// `video`, `audio` or another of ffprobe's types.
        public var type: String
        /// The picture's width in pixels.
        public var width: Int?
        /// The picture's height in pixels.
        public var height: Int?
        /// The frames counted by decoding.
        public var frames: Int?
        /// The first presentation time, in seconds.
        public var startTime: Double
        /// The stream's duration, in seconds.
        public var duration: Double?
        /// The stream's frame rate, in frames per second.
        public var frameRate: Double?
        /// The display matrix's rotation, in degrees.
        public var rotation: Double?
        /// The colour primaries tagged.
        public var colorPrimaries: String?
        /// The transfer function tagged.
        public var colorTransfer: String?
        /// The matrix tagged.
        public var colorSpace: String?
        /// Sound's frames a second, for audio.
        public var sampleRate: Int?
        /// Sound's channels, for audio.
        public var channels: Int?
        /// The codec's profile, as ffprobe names it ("High", "Main 10", "HQ").
        public var profile: String?
        /// The codec's level (41 for H.264's 4.1; HEVC's times three).
        public var level: Int?
        /// The decoded pixel format ("yuv420p", "yuv420p10le", "yuv422p10le").
        public var pixelFormat: String?
        /// The frames a decoder holds back for reordering: 0 when frames are in display order.
        public var reorderedFrames: Int?
        /// The sample entry's four-character code ("avc1", "hvc1", "apch").
        public var codecTag: String?
        /// Sound's channel layout, as FFmpeg names it ("mono", "stereo", "5.1").
        public var channelLayout: String?
    }
    /// The container's names, as ffprobe gives them.
    public var formatName: String
    /// The file's duration, in seconds.
    public var duration: Double
    /// The file's size in bytes.
    public var size: Int
    /// The container's metadata tags.
    public var tags: [String: String]
    /// The file's streams, in order.
    public var streams: [Stream]
    /// The first video stream.
    public var video: Stream? { streams.first { $0.type == "video" } }
    /// The first audio stream.
    public var audio: Stream? { streams.first { $0.type == "audio" } }

    /// Probes a file, counting frames by decoding them; nil when ffprobe cannot read it.
    public static func probe(_ url: URL) -> MediaProbe? {
        guard let json = run(["-v", "error", "-count_frames", "-print_format", "json", "-show_format", "-show_streams", url.path]),
            let object = try? JSONSerialization.jsonObject(with: json) as? [String: Any],
            let format = object["format"] as? [String: Any]
        else { return nil }
        let streams = (object["streams"] as? [[String: Any]] ?? []).map { s -> Stream in
            let rate = (s["r_frame_rate"] as? String).flatMap { text -> Double? in
                let parts = text.split(separator: "/").compactMap { Double($0) }
                return parts.count == 2 && parts[1] != 0 ? parts[0] / parts[1] : nil
            }
            let sideData = s["side_data_list"] as? [[String: Any]] ?? []
            let rotation = sideData.compactMap { ($0["rotation"] as? NSNumber)?.doubleValue }.first
            return Stream(
                codec: s["codec_name"] as? String ?? "", type: s["codec_type"] as? String ?? "",
                width: s["width"] as? Int, height: s["height"] as? Int,
                frames: (s["nb_read_frames"] as? String).flatMap { Int($0) },
                startTime: Double(s["start_time"] as? String ?? "0") ?? 0,
                duration: (s["duration"] as? String).flatMap(Double.init), frameRate: rate, rotation: rotation,
                colorPrimaries: s["color_primaries"] as? String, colorTransfer: s["color_transfer"] as? String,
                colorSpace: s["color_space"] as? String, sampleRate: (s["sample_rate"] as? String).flatMap { Int($0) },
                channels: s["channels"] as? Int, profile: s["profile"] as? String, level: s["level"] as? Int,
                pixelFormat: s["pix_fmt"] as? String, reorderedFrames: s["has_b_frames"] as? Int, codecTag: s["codec_tag_string"] as? String,
                channelLayout: s["channel_layout"] as? String)
        }
        return MediaProbe(
            formatName: format["format_name"] as? String ?? "", duration: Double(format["duration"] as? String ?? "") ?? 0,
            size: Int(format["size"] as? String ?? "") ?? 0, tags: format["tags"] as? [String: String] ?? [:], streams: streams)
    }

    /// The picture types of the first video stream's frames in display order ("I", "P", "B").
    public static func pictureTypes(_ url: URL) -> [String] {
        guard let data = run(["-v", "error", "-select_streams", "v:0", "-show_entries", "frame=pict_type", "-of", "csv=p=0", url.path]) else { return [] }
        return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// Whether every frame of the file decodes without error.
    public static func decodesCleanly(_ url: URL) -> Bool {
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
    public static func topLevelBoxes(_ url: URL) -> [String] {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return [] }
        defer { try? handle.close() }
        var boxes: [String] = []
        var offset: UInt64 = 0
        while let header = try? {
            try handle.seek(toOffset: offset); return try handle.read(upToCount: 16)
        }(), header.count >= 8 {
            var size = UInt64(header[0]) << 24 | UInt64(header[1]) << 16 | UInt64(header[2]) << 8 | UInt64(header[3])
            boxes.append(String(decoding: header[4..<8], as: UTF8.self))
            if size == 1, header.count >= 16 { size = header[8..<16].reduce(0) { $0 << 8 | UInt64($1) } }
            if size < 8 { break }
            offset += size
        }
        return boxes
    }

    /// Whether ffprobe is installed.
    public static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/ffprobe") }

    private static func run(_ arguments: [String]) -> Data? { runTool("/usr/bin/ffprobe", arguments) }

    /// What `ffprobe -show_entries ENTRIES` prints for `url`, trimmed: one value a line, or comma-separated
    /// fields a line when `csv` is set; `stream` selects streams (`v:0`), `countFrames` decodes to count them.
    /// Empty when ffprobe cannot read the file.
    public static func entries(_ url: URL, _ entries: String, stream: String? = nil, countFrames: Bool = false, csv: Bool = false) -> String {
        let arguments =
            ["-v", "error"] + (countFrames ? ["-count_frames"] : []) + (stream.map { ["-select_streams", $0] } ?? [])
            + ["-show_entries", entries, "-of", csv ? "csv=p=0" : "default=nw=1:nk=1", url.path]
        let text = run(arguments).map { String(decoding: $0, as: UTF8.self) } ?? ""
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The packets of the first video stream, counted by reading them; nil when ffprobe cannot read the file.
    public static func videoPacketCount(_ url: URL) -> Int? {
        let text =
            run([
                "-v", "error", "-count_packets", "-select_streams", "v:0", "-show_entries", "stream=nb_read_packets",
                "-of", "default=nw=1:nk=1", url.path,
            ]).map { String(decoding: $0, as: UTF8.self) } ?? ""
        return Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
