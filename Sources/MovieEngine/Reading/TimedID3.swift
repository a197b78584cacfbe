import CID3Tags
import CMediaCodecs
import CoreMedia
import Foundation

/// One frame of an ID3v2 tag, as libid3tag reads it.
package struct ID3Frame: Sendable, Equatable {
    /// The frame's four-character identifier, such as "TIT2", "TXXX" or "PRIV".
    package var identifier: String
    /// A TXXX, WXXX or COMM frame's description, a PRIV frame's owner; empty when none.
    package var description: String
    /// A text frame's text, a URL or a comment; nil for a frame of bytes.
    package var text: String?
    /// A PRIV, APIC or GEOB frame's bytes; nil when none.
    package var data: Data?
    /// A COMM or USLT frame's ISO 639-2 language; empty when none.
    package var language: String

    /// Creates a frame from every value.
    package init(identifier: String, description: String = "", text: String? = nil, data: Data? = nil, language: String = "") {
        self.identifier = identifier
        self.description = description
        self.text = text
        self.data = data
        self.language = language
    }
}

/// One tag of a timed ID3 stream, at its time.
package struct TimedID3Packet: Sendable {
    /// When the tag applies, on the movie's timeline.
    package var time: CMTime
    /// How long it applies, when the container says; invalid otherwise.
    package var duration: CMTime
    /// The tag's bytes.
    package var bytes: Data
}

/// Timed ID3: the tags MPEG-TS streams (and so HLS) carry as timed metadata, which FFmpeg
/// demuxes as a `timed_id3` data stream and libid3tag reads.
package enum TimedID3 {
    /// FFmpeg's name for a timed ID3 stream.
    package static let codecName = "timed_id3"

    /// Why tags cannot be read here (libid3tag missing), or nil when they can.
    package static var problem: String? { cid3_problem().map { String(cString: $0) } }

    /// Why bytes could not be read as a tag.
    package enum Failure: Error, Equatable {
        /// The bytes hold no whole ID3v2 tag.
        case notATag
        /// libid3tag cannot be loaded; the message says what to install.
        case libraryMissing(String)
    }

    /// A timed ID3 packet's tag. FFmpeg 5.1's MPEG-TS demuxer drops the first five bytes of every
    /// metadata (stream type 0x15) payload, taking them for the access unit header KLV metadata
    /// has (later FFmpeg drops them for KLV only): an ID3 tag loses "ID3" and its version. A
    /// payload that is such a tag, its flags and size telling its length exactly, gets them back
    /// (version 4; version 3 tags read the same but for frames of 128 bytes or more, which are
    /// tried as version 3 when version 4 reads nothing); any other payload is left as it is.
    package static func tag(fromPacket bytes: Data) -> [Data] {
        if bytes.starts(with: Array("ID3".utf8)) { return [bytes] }
        guard bytes.count >= 5 else { return [bytes] }
        let header = Array(bytes.prefix(5))
        guard header[1...4].allSatisfy({ $0 < 0x80 }) else { return [bytes] }
        let size = header[1...4].reduce(0) { $0 << 7 | Int($1) }
        let footer = header[0] & 0x10 != 0 ? 10 : 0
        // The tag's length (header, body and footer) against the payload's with the five bytes back.
        guard 10 + size + footer == bytes.count + 5 else { return [bytes] }
        return [4, 3].map { version in Data(Array("ID3".utf8) + [version, 0]) + bytes }
    }

    /// The frames of the ID3v2 tag of a timed ID3 packet, repaired as `tag(fromPacket:)` says.
    package static func frames(inPacket bytes: Data) throws(Failure) -> [ID3Frame] {
        var failure = Failure.notATag
        for candidate in tag(fromPacket: bytes) {
            do {
                let frames = try frames(in: candidate)
                if !frames.isEmpty { return frames }
            } catch { failure = error }
        }
        throw failure
    }

    /// The frames of the ID3v2 tag at the start of `bytes`, in the tag's order.
    package static func frames(in bytes: Data) throws(Failure) -> [ID3Frame] {
        final class Collected { var frames: [ID3Frame] = [] }
        let collected = Collected()
        let count = bytes.withUnsafeBytes { raw -> Int32 in
            guard let base = raw.bindMemory(to: UInt8.self).baseAddress else { return -1 }
            return cid3_read(
                base, raw.count,
                { context, frame in
                    guard let context, let frame = frame?.pointee else { return }
                    let identifier = withUnsafeBytes(of: frame.id) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
                    let data = frame.data.map { Data(bytes: $0, count: frame.size) }
                    Unmanaged<Collected>.fromOpaque(context).takeUnretainedValue().frames.append(
                        ID3Frame(
                            identifier: identifier, description: String(cString: frame.description), text: frame.text.map { String(cString: $0) },
                            data: data, language: String(cString: frame.language)))
                }, Unmanaged.passUnretained(collected).toOpaque())
        }
        if count == -2 { throw .libraryMissing(problem ?? "libid3tag cannot be loaded") }
        guard count >= 0 else { throw .notATag }
        return collected.frames
    }
}

extension MovieFile {
    /// Hands `body` each packet of the timed ID3 stream `stream`, in file order, read from where
    /// the file is (its start, when just opened) until its end or until `body` returns false.
    /// Packets of other streams are passed over, not decoded.
    package func forEachTimedID3Packet(stream: Int, _ body: (TimedID3Packet) -> Bool) throws(MovieFileError) {
        var info = cmc_stream_info()
        guard cmc_reader_stream_info(reader, Int32(stream), &info) == 0, info.time_base_num > 0, info.time_base_den > 0 else { return }
        let timeBase = (numerator: info.time_base_num, denominator: info.time_base_den)
        var packet = cmc_packet()
        while true {
            let result = cmc_reader_read(reader, &packet)
            if result == 1 { return }
            if result < 0 { throw MovieFileError(url: url, problem: .damaged(code: result)) }
            guard Int(packet.stream) == stream, packet.size > 0, let data = packet.data else { continue }
            let time = Self.time(packet.pts != Int64.min ? packet.pts : packet.dts, timeBase: timeBase)
            guard time.isValid else { continue }
            let duration = packet.duration > 0 ? Self.time(packet.duration, timeBase: timeBase) : CMTime.invalid
            guard body(TimedID3Packet(time: time, duration: duration, bytes: Data(bytes: data, count: Int(packet.size)))) else { return }
        }
    }
}
