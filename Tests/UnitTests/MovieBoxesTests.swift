import CaptureTestSupport
import Foundation
import MovieEngine
import TestSupport
import XCTest

/// The box walker under the clean aperture's edits, fed damaged movies: it reads nothing it
/// cannot trust, refuses to edit what it cannot find, and never leaves a half-written file.
final class MovieBoxesTests: XCTestCase {
    private let aperture = CleanApertureBox(width: 100, height: 80, horizontalOffset: 0.5, verticalOffset: -2)

    func testDamagedMoviesAreReadAsHavingNoApertureAndAreNotEdited() throws {
        try XCTSkipUnless(MediaProbe.isAvailable, "ffmpeg is needed: apt-get install ffmpeg")
        let folder = makeScratchFolder()
        let movie = folder.appendingPathComponent("movie.mp4")
        try TestMovies.picturesAndTone(movie, seconds: 1)
        let bytes = try Data(contentsOf: movie)

        // The edit round-trips, halves included, and a second edit replaces the first in place.
        let edited = folder.appendingPathComponent("edited.mp4")
        try bytes.write(to: edited)
        try MovieBoxes.setCleanAperture(aperture, of: edited)
        XCTAssertEqual(MovieBoxes.cleanApertures(of: edited), [0: aperture])
        let size = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: edited.path)[.size] as? Int)
        XCTAssertEqual(size, bytes.count + 40)
        try MovieBoxes.setCleanAperture(CleanApertureBox(width: 64, height: 48, horizontalOffset: 0, verticalOffset: 0), of: edited)
        XCTAssertEqual(MovieBoxes.cleanApertures(of: edited)[0]?.width, 64)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: edited.path)[.size] as? Int, size, "replaced, not added twice")
        XCTAssertTrue(MediaProbe.decodesCleanly(edited))

        // Cut short, sizes that lie, or not a movie at all: nothing read, the edit refused, the file as it was.
        var lying = bytes
        if let moov = lying.range(of: Data("moov".utf8)) { lying.replaceSubrange((moov.lowerBound - 4)..<moov.lowerBound, with: [0x7F, 0xFF, 0xFF, 0xFF]) }
        let damaged: [(String, Data)] = [
            ("short.mp4", bytes.prefix(bytes.count / 2)), ("lying.mp4", lying), ("text.mp4", Data("not a movie at all".utf8)), ("empty.mp4", Data()),
        ]
        for (name, contents) in damaged {
            let url = folder.appendingPathComponent(name)
            try contents.write(to: url)
            XCTAssertEqual(MovieBoxes.cleanApertures(of: url), [:], name)
            XCTAssertThrowsError(try MovieBoxes.setCleanAperture(aperture, of: url), name)
            XCTAssertEqual(try Data(contentsOf: url), contents, "\(name) is left as it was")
        }
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".") }, [], "no edited copy is left behind")
        XCTAssertEqual(MovieBoxes.cleanApertures(of: folder.appendingPathComponent("missing.mp4")), [:])
    }

    /// A one-second movie made by ffmpeg in a scratch folder; its path.
    private func makeMovie() throws -> String {
        let movie = makeScratchFolder("made").appendingPathComponent("movie.mp4")
        try TestMovies.picturesAndTone(movie, seconds: 1)
        return movie.path
    }

    /// A movie whose header ends it, padded with a `free` box before the header so that growing
    /// the header by the box's 40 bytes needs a new page of the disk.
    private func movieNeedingAPage(in folder: URL) throws -> Data {
        let movie = folder.appendingPathComponent("source.mp4")
        try TestMovies.picturesAndTone(movie, seconds: 1)
        let bytes = try Data(contentsOf: movie)
        let moov = try XCTUnwrap(bytes.range(of: Data("moov".utf8))).lowerBound - 4
        XCTAssertEqual(bytes.count - moov, bytes[moov..<(moov + 4)].reduce(0) { $0 << 8 | Int($1) }, "the header ends the file")
        var padding = (4096 - 8 - (bytes.count + 8) % 4096 + 4096) % 4096 + 8
        if padding < 8 { padding += 4096 }
        var free = Data([UInt8(padding >> 24 & 0xFF), UInt8(padding >> 16 & 0xFF), UInt8(padding >> 8 & 0xFF), UInt8(padding & 0xFF)])
        free.append(Data("free".utf8))
        free.append(Data(count: padding - 8))
        return bytes.prefix(moov) + free + bytes.suffix(from: moov)
    }

    func testAFullDiskRefusesTheEditAndLeavesTheMovieAsItWas() throws {
        try XCTSkipUnless(MediaProbe.isAvailable, "ffmpeg is needed: apt-get install ffmpeg")
        try XCTSkipUnless(getuid() == 0, "filling a small tmpfs needs root to mount it")
        let padded = try movieNeedingAPage(in: makeScratchFolder("source"))
        XCTAssertEqual(padded.count % 4096, 4088, "40 more bytes take a new page")
        let disk = makeScratchFolder("disk")
        try XCTSkipUnless(TestMounts.mount(["-t", "tmpfs", "-o", "size=\(padded.count / 1024 + 64)k", "tmpfs", disk.path]), "mount failed")
        defer { TestMounts.unmount(disk.path) }
        let movie = disk.appendingPathComponent("movie.mp4")
        try padded.write(to: movie)
        // Fill what is left, a page at a time.
        let filler = disk.appendingPathComponent("filler")
        XCTAssertTrue(FileManager.default.createFile(atPath: filler.path, contents: nil))
        let handle = try FileHandle(forWritingTo: filler)
        while (try? handle.write(contentsOf: Data(count: 4096))) != nil {}
        try? handle.close()

        XCTAssertThrowsError(try MovieBoxes.setCleanAperture(aperture, of: movie)) { error in
            XCTAssertTrue("\(error)".contains("no room"), "\(error)")
        }
        XCTAssertEqual(try Data(contentsOf: movie), padded, "the movie is as it was")
        XCTAssertTrue(MediaProbe.decodesCleanly(movie))
        // With the header first the movie is rewritten beside itself: no room for the copy, and none is left behind.
        let indexFirst = disk.appendingPathComponent("first.mp4")
        try FileManager.default.removeItem(at: movie)
        let source = try makeMovie()
        XCTAssertNotNil(runTool("/usr/bin/ffmpeg", ["-v", "error", "-i", source, "-c", "copy", "-movflags", "+faststart", indexFirst.path]))
        let firstBytes = try Data(contentsOf: indexFirst)
        let refill = try FileHandle(forWritingTo: filler)
        try refill.seekToEnd()
        while (try? refill.write(contentsOf: Data(count: 4096))) != nil {}
        try? refill.close()
        XCTAssertThrowsError(try MovieBoxes.setCleanAperture(aperture, of: indexFirst))
        XCTAssertEqual(try Data(contentsOf: indexFirst), firstBytes, "the movie is as it was")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: disk.path).sorted(), ["filler", "first.mp4"], "no half-written copy is left")
        try FileManager.default.removeItem(at: indexFirst)
        // With room again, the same edit is made.
        try FileManager.default.removeItem(at: filler)
        try padded.write(to: movie)
        try MovieBoxes.setCleanAperture(aperture, of: movie)
        XCTAssertEqual(MovieBoxes.cleanApertures(of: movie), [0: aperture])
        XCTAssertTrue(MediaProbe.decodesCleanly(movie))
    }
}
