import Foundation

/// A video track's clean aperture, the `clap` box of its sample entry: the size of the picture
/// meant to be shown and its centre's offset from the encoded picture's, in encoded pixels.
///
/// FFmpeg's MPEG-4 and QuickTime muxers write the box only for uncompressed video and its
/// demuxer does not read it, so movies get it here, after the muxer is done.
package struct CleanApertureBox: Equatable, Sendable {
    package var width: Double
    package var height: Double
    package var horizontalOffset: Double
    package var verticalOffset: Double

    package init(width: Double, height: Double, horizontalOffset: Double, verticalOffset: Double) {
        (self.width, self.height, self.horizontalOffset, self.verticalOffset) = (width, height, horizontalOffset, verticalOffset)
    }

    /// The box's 40 bytes: each value as a fraction, whole where it is whole.
    var bytes: [UInt8] {
        var box = [UInt8](repeating: 0, count: 40)
        MovieBoxes.setBigEndian32(&box, 0, 40)
        box.replaceSubrange(4..<8, with: Array("clap".utf8))
        for (index, value) in [width, height, horizontalOffset, verticalOffset].enumerated() {
            let denominator: Int32 = value.rounded() == value ? 1 : 1000
            let numerator = Int32(clamping: Int64((value * Double(denominator)).rounded()))
            MovieBoxes.setBigEndian32(&box, 8 + index * 8, UInt32(bitPattern: numerator))
            MovieBoxes.setBigEndian32(&box, 12 + index * 8, UInt32(bitPattern: denominator))
        }
        return box
    }

    /// The aperture a `clap` box's contents say; nil when a denominator is zero or a size is not positive.
    init?(contents bytes: [UInt8], at offset: Int) {
        var values: [Double] = []
        for index in 0..<4 {
            let numerator = Int32(bitPattern: MovieBoxes.bigEndian32(bytes, offset + index * 8))
            let denominator = Int32(bitPattern: MovieBoxes.bigEndian32(bytes, offset + index * 8 + 4))
            guard denominator > 0 else { return nil }
            // Sizes are unsigned, offsets signed.
            let top = index < 2 ? Double(UInt32(bitPattern: numerator)) : Double(numerator)
            values.append(top / Double(denominator))
        }
        guard values[0] > 0, values[1] > 0 else { return nil }
        self.init(width: values[0], height: values[1], horizontalOffset: values[2], verticalOffset: values[3])
    }
}

/// Why a clean aperture could not be written into a movie.
package struct CleanApertureError: Error, CustomStringConvertible {
    package let description: String
}

extension MovieBoxes {
    /// The largest movie header read into memory: beyond it the file is left as it is.
    private static let largestMovieHeader: UInt64 = 256 << 20
    /// The fixed fields of a visual sample entry before its boxes.
    private static let visualSampleEntryFields = 78

    /// Each track's first sample entry with the boxes around it (moov to stsd), in track order, and
    /// whether the track is video.
    private static func sampleEntries(in moov: [UInt8]) -> [(path: [Box], entry: Box, isVideo: Bool)] {
        guard let root = children(of: moov, in: 0..<moov.count).first(where: { $0.type == "moov" }) else { return [] }
        return children(of: moov, in: root.contentStart..<root.end).filter { $0.type == "trak" }.compactMap { trak in
            guard let mdia = child("mdia", of: trak, in: moov), let hdlr = child("hdlr", of: mdia, in: moov), hdlr.contentStart + 12 <= hdlr.end,
                let minf = child("minf", of: mdia, in: moov), let stbl = child("stbl", of: minf, in: moov),
                let stsd = child("stsd", of: stbl, in: moov), stsd.contentStart + 8 <= stsd.end,
                let entry = children(of: moov, in: (stsd.contentStart + 8)..<stsd.end).first
            else { return nil }
            let isVideo = fourCC(moov, hdlr.contentStart + 8) == "vide"
            return ([root, trak, mdia, minf, stbl, stsd], entry, isVideo)
        }
    }

    /// The clean apertures a movie's video tracks declare, by track number from 0 in the order of
    /// the file's tracks (FFmpeg's stream order); empty when the file cannot be read.
    package static func cleanApertures(of url: URL) -> [Int: CleanApertureBox] {
        guard url.isFileURL, let handle = try? FileHandle(forReadingFrom: url) else { return [:] }
        defer { try? handle.close() }
        guard let moovBox = try? topLevel(of: handle).first(where: { $0.type == "moov" }), moovBox.size <= largestMovieHeader,
            (try? handle.seek(toOffset: moovBox.start)) != nil, let data = try? handle.read(upToCount: Int(moovBox.size))
        else { return [:] }
        let moov = [UInt8](data)
        var apertures: [Int: CleanApertureBox] = [:]
        for (track, found) in sampleEntries(in: moov).enumerated() where found.isVideo {
            let start = found.entry.contentStart + visualSampleEntryFields
            guard start <= found.entry.end, let clap = children(of: moov, in: start..<found.entry.end).first(where: { $0.type == "clap" }),
                clap.end - clap.contentStart >= 32, let aperture = CleanApertureBox(contents: moov, at: clap.contentStart)
            else { continue }
            apertures[track] = aperture
        }
        return apertures
    }

    /// Writes `aperture` into the first video track of the movie at `url`: replaced where the
    /// track has one, added otherwise (moving the chunk offsets of media stored after the header).
    /// The movie is rewritten beside itself and renamed into place unless its header ends the file.
    package static func setCleanAperture(_ aperture: CleanApertureBox, of url: URL) throws(CleanApertureError) {
        do {
            let handle = try FileHandle(forUpdating: url)
            defer { try? handle.close() }
            let boxes = try topLevel(of: handle)
            guard let moovBox = boxes.first(where: { $0.type == "moov" }) else { throw CleanApertureError(description: "the movie has no header") }
            guard moovBox.size <= largestMovieHeader else { throw CleanApertureError(description: "the movie's header is too large to edit") }
            try handle.seek(toOffset: moovBox.start)
            var moov = [UInt8](try handle.read(upToCount: Int(moovBox.size)) ?? Data())
            guard moov.count == Int(moovBox.size), let video = sampleEntries(in: moov).first(where: \.isVideo) else {
                throw CleanApertureError(description: "the movie has no video track")
            }
            let fieldsEnd = video.entry.contentStart + visualSampleEntryFields
            guard fieldsEnd <= video.entry.end else { throw CleanApertureError(description: "the video track's sample entry is damaged") }
            let box = aperture.bytes
            if let existing = children(of: moov, in: fieldsEnd..<video.entry.end).first(where: { $0.type == "clap" }),
                existing.end - existing.start == box.count
            {
                moov.replaceSubrange(existing.start..<existing.end, with: box)
            } else {
                try moveChunkOffsets(in: &moov, after: moovBox.start + moovBox.size, by: box.count)
                for ancestor in video.path + [video.entry] { grow(ancestor, by: box.count, in: &moov) }
                moov.insert(contentsOf: box, at: video.entry.end)
            }
            let length = try handle.seekToEnd()
            if moovBox.start + moovBox.size == length {
                // The room is reserved first: a full disk refuses the edit before the header is touched.
                guard posix_fallocate(handle.fileDescriptor, off_t(moovBox.start), off_t(moov.count)) == 0 else {
                    throw CleanApertureError(description: "no room on the disk for the movie's larger header")
                }
                try handle.seek(toOffset: moovBox.start)
                try handle.write(contentsOf: moov)
                try handle.synchronize()
            } else {
                try rewrite(url, from: handle, replacing: moovBox.start..<(moovBox.start + moovBox.size), with: moov)
            }
        } catch let error as CleanApertureError {
            throw error
        } catch {
            throw CleanApertureError(description: "the movie could not be edited: \(error.localizedDescription)")
        }
    }

    /// Adds `delta` to every chunk offset (stco, co64) that points at or beyond `end`, the old end of the header.
    private static func moveChunkOffsets(in moov: inout [UInt8], after end: UInt64, by delta: Int) throws(CleanApertureError) {
        guard let root = children(of: moov, in: 0..<moov.count).first(where: { $0.type == "moov" }) else { return }
        for trak in children(of: moov, in: root.contentStart..<root.end) where trak.type == "trak" {
            guard let mdia = child("mdia", of: trak, in: moov), let minf = child("minf", of: mdia, in: moov), let stbl = child("stbl", of: minf, in: moov)
            else { continue }
            for table in children(of: moov, in: stbl.contentStart..<stbl.end) where table.type == "stco" || table.type == "co64" {
                let wide = table.type == "co64"
                guard table.contentStart + 8 <= table.end else { continue }
                let count = Int(bigEndian32(moov, table.contentStart + 4))
                let first = table.contentStart + 8, width = wide ? 8 : 4
                guard count <= (table.end - first) / width else { throw CleanApertureError(description: "the movie's chunk table is damaged") }
                for index in 0..<count {
                    let at = first + index * width
                    if wide {
                        let offset = bigEndian64(moov, at)
                        if offset >= end { setBigEndian64(&moov, at, offset + UInt64(delta)) }
                    } else {
                        let offset = UInt64(bigEndian32(moov, at))
                        guard offset >= end else { continue }
                        guard offset + UInt64(delta) <= UInt64(UInt32.max) else {
                            throw CleanApertureError(description: "the movie's chunk offsets would overflow")
                        }
                        setBigEndian32(&moov, at, UInt32(offset) + UInt32(delta))
                    }
                }
            }
        }
    }

    /// Writes a copy of the file with `range` replaced by `replacement` beside it, then renames it into place.
    private static func rewrite(_ url: URL, from handle: FileHandle, replacing range: Range<UInt64>, with replacement: [UInt8]) throws {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).clap")
        guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
            throw CleanApertureError(description: "no room for the edited movie beside it")
        }
        var renamed = false
        defer { if !renamed { unlink(temporary.path) } }
        let output = try FileHandle(forWritingTo: temporary)
        defer { try? output.close() }
        func copy(_ span: Range<UInt64>) throws {
            try handle.seek(toOffset: span.lowerBound)
            var left = span.upperBound - span.lowerBound
            while left > 0 {
                guard let chunk = try handle.read(upToCount: Int(min(left, 1 << 20))), !chunk.isEmpty else { break }
                try output.write(contentsOf: chunk)
                left -= UInt64(chunk.count)
            }
        }
        try copy(0..<range.lowerBound)
        try output.write(contentsOf: replacement)
        try copy(range.upperBound..<(try handle.seekToEnd()))
        try output.synchronize()
        guard rename(temporary.path, url.path) == 0 else { throw CleanApertureError(description: "the edited movie could not replace the original") }
        renamed = true
    }
}
