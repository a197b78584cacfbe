import XCTest
import Foundation

/// `avcapture play FILE [--rate R] [--pitch ALGORITHM] [--start S] [--volume V]`.
final class PlayCommandTests: XCTestCase {
    /// A 2-second 320x240 movie with a tone, made by the ffmpeg command.
    private func movie(in folder: URL) throws -> URL { try AVCaptureTool.movie(in: folder, seconds: 2, name: "movie.mp4") }

    /// The numbers of a "Played ... from A to B s in C s ...; N pictures" line.
    private func figures(_ text: String) -> (from: Double, to: Double, took: Double, pictures: Int)? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == ";" }).map(String.init)
        guard let from = words.firstIndex(of: "from"), let into = words.firstIndex(of: "in"), let pictures = words.firstIndex(of: "pictures"),
              let start = Double(words[from + 1]), let end = Double(words[from + 3]), let took = Double(words[into + 1]),
              let count = Int(words[pictures - 1]) else { return nil }
        return (start, end, took, count)
    }

    func testPlaysAtARateForwardsAndBackwardsAndCountsThePicturesShown() throws {
        let url = try movie(in: AVCaptureTool.folder("play"))
        let fast = try AVCaptureTool.run(["play", url.path, "--rate", "2"])
        XCTAssertEqual(fast.status, 0, fast.output)
        let forwards = try XCTUnwrap(figures(fast.standardOutput), fast.output)
        XCTAssertEqual(forwards.from, 0)
        XCTAssertEqual(forwards.to, 2, accuracy: 0.01)
        XCTAssertEqual(forwards.took, 1, accuracy: 0.2, "two seconds of movie at twice the speed")
        XCTAssertGreaterThan(forwards.pictures, 40, "a picture for nearly every display refresh")
        XCTAssertTrue(fast.standardOutput.contains("sound"), fast.output)

        let back = try AVCaptureTool.run(["play", url.path, "--rate", "-4", "--start", "1.5"])
        XCTAssertEqual(back.status, 0, back.output)
        let backwards = try XCTUnwrap(figures(back.standardOutput), back.output)
        XCTAssertEqual(backwards.from, 1.5)
        XCTAssertEqual(backwards.to, 0, accuracy: 0.01)
        XCTAssertEqual(backwards.took, 0.375, accuracy: 0.2)
        XCTAssertTrue(back.standardOutput.contains("silent at -4.0x"), "backwards is silent: \(back.output)")
    }

    func testRefusesWhatItCannotPlayInOneLine() throws {
        let folder = AVCaptureTool.folder("play-refusals")
        let url = try movie(in: folder)
        for (arguments, words) in [(["--rate", "0"], "--rate"), (["--pitch", "fast"], "--pitch"), (["--volume", "2"], "--volume"),
                                   (["--start", "9"], "past the movie's end")] {
            let result = try AVCaptureTool.run(["play", url.path] + arguments)
            XCTAssertNotEqual(result.status, 0, "\(arguments)")
            XCTAssertTrue(result.standardError.contains(words), "\(arguments): \(result.output)")
        }
        let missing = try AVCaptureTool.run(["play", folder.appendingPathComponent("none.mp4").path])
        XCTAssertNotEqual(missing.status, 0)
        XCTAssertTrue(missing.standardError.contains("does not exist"), missing.output)
        let garbage = folder.appendingPathComponent("garbage.mp4")
        try Data(repeating: 0x5A, count: 10_000).write(to: garbage)
        let bad = try AVCaptureTool.run(["play", garbage.path])
        XCTAssertNotEqual(bad.status, 0)
        XCTAssertTrue(bad.standardError.contains("cannot be played"), bad.output)
        XCTAssertEqual(bad.standardError.split(separator: "\n").count, 1, "one line: \(bad.output)")
    }
}
