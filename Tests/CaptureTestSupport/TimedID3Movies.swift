import CTimedID3Fixture
import Foundation
import TestSupport
import XCTest

/// MPEG-TS movies carrying timed ID3 tags, as HLS segments do: tags rendered by libid3tag and
/// muxed by libavformat (a source that shares no code with the reader), then put beside pictures
/// by the ffmpeg command.
public enum TimedID3Movies {
    /// One tag: a title (TIT2), and optionally a user text (TXXX) and private bytes (PRIV); or,
    /// with `raw`, bytes that are no tag at all.
    public struct Tag: Sendable {
        public var seconds: Double
        public var title: String
        public var userText: (description: String, value: String)?
        public var privateData: (owner: String, bytes: [UInt8])?
        public var picture: (description: String, bytes: [UInt8])?
        public var raw: [UInt8]?

        public init(
            seconds: Double, title: String = "", userText: (description: String, value: String)? = nil,
            privateData: (owner: String, bytes: [UInt8])? = nil, picture: (description: String, bytes: [UInt8])? = nil, raw: [UInt8]? = nil
        ) {
            self.seconds = seconds
            self.title = title
            self.userText = userText
            self.privateData = privateData
            self.picture = picture
            self.raw = raw
        }
    }

    /// The bytes of a tag: an ID3v2.4 tag rendered by libid3tag, or the tag's raw bytes.
    public static func bytes(of tag: Tag) throws -> [UInt8] {
        if let raw = tag.raw { return raw }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let owner = tag.privateData?.owner, bytes = tag.privateData?.bytes ?? []
        let picture = tag.picture?.bytes ?? []
        let length = bytes.withUnsafeBufferPointer { data in
            picture.withUnsafeBufferPointer { image in
                ctid3_render(
                    tag.title, tag.userText?.description, tag.userText?.value, owner, data.baseAddress, data.count, tag.picture?.description,
                    tag.picture == nil ? nil : image.baseAddress ?? UnsafePointer(bitPattern: 1), image.count, &buffer, buffer.count)
            }
        }
        guard length > 0 else { throw XCTSkip("libid3tag could not render a tag") }
        return Array(buffer.prefix(length))
    }

    /// Writes an MPEG-TS file holding only a timed ID3 stream of `tags`, or `tags` beside the video of the movie at `video`.
    public static func tagsOnly(_ url: URL, tags: [Tag], video: URL? = nil) throws {
        let rendered = try tags.map(bytes(of:))
        let pointers = rendered.map { bytes -> UnsafeMutablePointer<UInt8> in
            let pointer = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, bytes.count))
            pointer.initialize(from: bytes, count: bytes.count)
            return pointer
        }
        defer { for pointer in pointers { pointer.deallocate() } }
        let tagPointers: [UnsafePointer<UInt8>?] = pointers.map { UnsafePointer($0) }
        let sizes = rendered.map { Int32($0.count) }
        let milliseconds = tags.map { Int64(($0.seconds * 1000).rounded()) }
        let result = ctid3_write_stream(url.path, video?.path, Int32(tags.count), tagPointers, sizes, milliseconds)
        guard result == 0 else { throw XCTSkip("libavformat could not write timed ID3 (\(result))") }
    }

    /// Writes an MPEG-TS movie of `seconds` of 160x120 10 fps MPEG-2 video (made by the ffmpeg
    /// command) with the timed ID3 stream of `tags`.
    public static func movie(_ url: URL, seconds: Int, tags: [Tag]) throws {
        let videoURL = url.deletingLastPathComponent().appendingPathComponent(url.deletingPathExtension().lastPathComponent + "-video.ts")
        let arguments = [
            "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=s=160x120:r=10:d=\(seconds)", "-c:v", "mpeg2video", "-q:v", "4", "-f", "mpegts",
            videoURL.path,
        ]
        guard runTool("/usr/bin/ffmpeg", arguments) != nil else { throw XCTSkip("ffmpeg could not make the pictures") }
        try tagsOnly(url, tags: tags, video: videoURL)
    }
}
