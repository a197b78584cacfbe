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
}
