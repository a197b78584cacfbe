import Foundation

/// What a fragmented MPEG-4 movie's segments hold, read from their boxes (ISO/IEC 14496-12): the
/// tracks an initialization segment declares, and each track's times and first sample in a
/// separable segment. Segment reports are made from the bytes written, not from what was asked.
package enum FragmentedMovieLayout {
    /// A track an initialization segment declares.
    package struct Track: Sendable, Equatable {
        /// The track's ID.
        package var id: UInt32
        /// Its media's ticks a second.
        package var timescale: UInt32
        /// Its handler: "vide" or "soun".
        package var handler: String
        /// The sample flags its fragments use when they give none (the trex box's).
        package var defaultSampleFlags: UInt32 = 0
    }

    /// One track's part of a separable segment, in the track's timescale.
    package struct TrackPart: Sendable, Equatable {
        /// The track's ID.
        package var trackID: UInt32
        /// The earliest presentation time of its samples.
        package var earliestPresentation: Int64
        /// The sum of its samples' durations.
        package var duration: Int64
        /// Its first sample: presentation time, byte offset in the segment, length, and whether it is a sync sample.
        package var first: (presentation: Int64, offset: Int, length: Int, isSync: Bool)?

        package static func == (lhs: TrackPart, rhs: TrackPart) -> Bool {
            lhs.trackID == rhs.trackID && lhs.earliestPresentation == rhs.earliestPresentation && lhs.duration == rhs.duration
                && lhs.first?.presentation == rhs.first?.presentation && lhs.first?.offset == rhs.first?.offset
        }
    }

    /// The tracks of an initialization segment (its moov's traks, with mvex's trex defaults).
    package static func tracks(inInitialization data: Data) -> [Track] {
        let bytes = [UInt8](data)
        guard let moov = boxes(bytes, 0..<bytes.count).first(where: { $0.type == "moov" }) else { return [] }
        var tracks: [Track] = []
        var defaults: [UInt32: UInt32] = [:]
        for box in boxes(bytes, moov.body) {
            if box.type == "mvex" {
                for trex in boxes(bytes, box.body) where trex.type == "trex" && trex.body.count >= 24 {
                    defaults[word(bytes, trex.body.lowerBound + 4)] = word(bytes, trex.body.lowerBound + 20)
                }
            }
            guard box.type == "trak" else { continue }
            var track = Track(id: 0, timescale: 0, handler: "")
            for part in boxes(bytes, box.body) {
                if part.type == "tkhd", let version = part.body.first.map({ bytes[$0] }) {
                    let at = part.body.lowerBound + (version == 1 ? 20 : 12)
                    if at + 4 <= part.body.upperBound { track.id = word(bytes, at) }
                }
                guard part.type == "mdia" else { continue }
                for media in boxes(bytes, part.body) {
                    if media.type == "mdhd", let version = media.body.first.map({ bytes[$0] }) {
                        let at = media.body.lowerBound + (version == 1 ? 20 : 12)
                        if at + 4 <= media.body.upperBound { track.timescale = word(bytes, at) }
                    }
                    if media.type == "hdlr", media.body.count >= 12 {
                        track.handler = String(decoding: bytes[(media.body.lowerBound + 8)..<(media.body.lowerBound + 12)], as: UTF8.self)
                    }
                }
            }
            tracks.append(track)
        }
        return tracks.map { track in
            var track = track
            track.defaultSampleFlags = defaults[track.id] ?? 0
            return track
        }
    }

    /// Each track's part of a separable segment (one or more moof and mdat pairs), in track order.
    package static func parts(ofSegment data: Data, tracks: [Track]) -> [TrackPart] {
        let bytes = [UInt8](data)
        var parts: [UInt32: TrackPart] = [:]
        var order: [UInt32] = []
        for moof in boxes(bytes, 0..<bytes.count) where moof.type == "moof" {
            for traf in boxes(bytes, moof.body) where traf.type == "traf" {
                guard let part = read(traf: traf, in: bytes, moofStart: moof.start, tracks: tracks) else { continue }
                if var known = parts[part.trackID] {
                    known.earliestPresentation = min(known.earliestPresentation, part.earliestPresentation)
                    known.duration += part.duration
                    parts[part.trackID] = known
                } else {
                    parts[part.trackID] = part
                    order.append(part.trackID)
                }
            }
        }
        return order.compactMap { parts[$0] }
    }

    /// One track fragment: tfhd's defaults, tfdt's decode time, and trun's samples.
    private static func read(traf: Box, in bytes: [UInt8], moofStart: Int, tracks: [Track]) -> TrackPart? {
        var trackID: UInt32?, decodeTime: Int64 = 0
        var defaultDuration: UInt32 = 0, defaultSize: UInt32 = 0, defaultFlags: UInt32?
        var durations: Int64 = 0, earliest = Int64.max, first: (Int64, Int, Int, Bool)?
        for box in boxes(bytes, traf.body) {
            let b = box.body.lowerBound
            guard box.body.count >= 4 else { continue }
            let version = bytes[b], flags = word(bytes, b) & 0xFF_FFFF
            switch box.type {
            case "tfhd":
                guard box.body.count >= 8 else { return nil }
                trackID = word(bytes, b + 4)
                var at = b + 8
                if flags & 0x01 != 0 { at += 8 }
                if flags & 0x02 != 0 { at += 4 }
                if flags & 0x08 != 0, at + 4 <= box.body.upperBound { defaultDuration = word(bytes, at); at += 4 }
                if flags & 0x10 != 0, at + 4 <= box.body.upperBound { defaultSize = word(bytes, at); at += 4 }
                if flags & 0x20 != 0, at + 4 <= box.body.upperBound { defaultFlags = word(bytes, at) }
            case "tfdt":
                if version == 1, box.body.count >= 12 {
                    decodeTime = Int64(bitPattern: UInt64(word(bytes, b + 4)) << 32 | UInt64(word(bytes, b + 8)))
                } else if box.body.count >= 8 {
                    decodeTime = Int64(word(bytes, b + 4))
                }
            case "trun":
                guard box.body.count >= 8 else { continue }
                let count = Int(word(bytes, b + 4))
                var at = b + 8
                var dataOffset = 0
                let optional = (flags & 0x001 != 0 ? 4 : 0) + (flags & 0x004 != 0 ? 4 : 0)
                guard at + optional <= box.body.upperBound else { return nil }
                if flags & 0x001 != 0 { dataOffset = Int(Int32(bitPattern: word(bytes, at))); at += 4 }
                var firstFlags: UInt32?
                if flags & 0x004 != 0 { firstFlags = word(bytes, at); at += 4 }
                let fieldCount = [0x100, 0x200, 0x400, 0x800].filter { flags & UInt32($0) != 0 }.count
                guard count >= 0, at + count * fieldCount * 4 <= box.body.upperBound else { return nil }
                var offset = moofStart + dataOffset
                for index in 0..<count {
                    var duration = defaultDuration, size = defaultSize, sampleFlags = defaultFlags, composition: Int64 = 0
                    if flags & 0x100 != 0 { duration = word(bytes, at); at += 4 }
                    if flags & 0x200 != 0 { size = word(bytes, at); at += 4 }
                    if flags & 0x400 != 0 { sampleFlags = word(bytes, at); at += 4 }
                    if flags & 0x800 != 0 {
                        let raw = word(bytes, at)
                        composition = version == 0 ? Int64(raw) : Int64(Int32(bitPattern: raw))
                        at += 4
                    }
                    if index == 0, let firstFlags { sampleFlags = firstFlags }
                    let presentation = decodeTime + durations + composition
                    earliest = min(earliest, presentation)
                    if first == nil {
                        let trackFlags = tracks.first { $0.id == trackID }?.defaultSampleFlags ?? 0
                        first = (presentation, offset, Int(size), (sampleFlags ?? trackFlags) & 0x0001_0000 == 0)
                    }
                    durations += Int64(duration)
                    offset += Int(size)
                }
            default:
                continue
            }
        }
        guard let trackID, earliest != .max else { return nil }
        return TrackPart(trackID: trackID, earliestPresentation: earliest, duration: durations, first: first)
    }

    /// A box of the segment, as the movie box walker finds them.
    private typealias Box = MovieBoxes.Box

    /// The boxes one after another in `range`; a box that claims more than is there ends the list.
    private static func boxes(_ bytes: [UInt8], _ range: Range<Int>) -> [Box] { MovieBoxes.children(of: bytes, in: range) }

    /// The big-endian 32-bit word at `at`.
    private static func word(_ bytes: [UInt8], _ at: Int) -> UInt32 { MovieBoxes.bigEndian32(bytes, at) }
}
