import XCTest
import Foundation

/// `avcapture export IN OUT [--preset NAME] [--range START-END]`.
final class ExportCommandTests: XCTestCase {
    /// A 3-second 320x240 movie with a tone, made by the ffmpeg command.
    private func movie(in folder: URL) throws -> URL { try AVCaptureTool.movie(in: folder, seconds: 3, name: "source.mp4") }

    private func probe(_ url: URL, _ entries: String) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffprobe")
        process.arguments = ["-v", "error", "-show_entries", entries, "-of", "csv=p=0", url.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try? process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func testARangeIsExportedAsItIsAndAPresetEncodesAgain() throws {
        let folder = AVCaptureTool.folder("export")
        let source = try movie(in: folder)
        let part = folder.appendingPathComponent("part.mov")
        let result = try AVCaptureTool.run(["export", source.path, part.path, "--range", "1-2"])
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(result.standardOutput.contains("Exported"), result.output)
        XCTAssertEqual(Double(probe(part, "format=duration")) ?? 0, 1.0, accuracy: 0.15)

        let small = folder.appendingPathComponent("small.mp4")
        let encoded = try AVCaptureTool.run(["export", source.path, small.path, "--preset", "low"])
        XCTAssertEqual(encoded.status, 0, encoded.output)
        XCTAssertEqual(probe(small, "stream=codec_name,width,height").split(separator: "\n").first, "h264,224,168")
    }

    func testASlowSectionIsRetimedAndItsSoundStretched() throws {
        let folder = AVCaptureTool.folder("export-slow")
        let source = try movie(in: folder)
        let slow = folder.appendingPathComponent("slow.mov")
        let result = try AVCaptureTool.run(["export", source.path, slow.path, "--slow", "1-2:3", "--pitch", "varispeed"])
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertEqual(Double(probe(slow, "format=duration")) ?? 0, 5.0, accuracy: 0.15, "3 s with one second three times as long")
        XCTAssertEqual(probe(slow, "stream=nb_frames").split(separator: "\n").first.flatMap { Int($0) }, 90, "every frame, none encoded again")

        let constant = folder.appendingPathComponent("constant.mp4")
        let steady = try AVCaptureTool.run(["export", source.path, constant.path, "--slow", "1-2:3", "--fps", "30"])
        XCTAssertEqual(steady.status, 0, steady.output)
        XCTAssertEqual(probe(constant, "stream=nb_frames").split(separator: "\n").first.flatMap { Int($0) }, 150, "5 s at 30 fps")

        let overlapping = try AVCaptureTool.run(["export", source.path, folder.appendingPathComponent("x.mov").path, "--slow", "1-2:2", "--slow", "1.5-2.5:2"])
        XCTAssertNotEqual(overlapping.status, 0)
        XCTAssertTrue(overlapping.standardError.contains("overlap"), overlapping.output)
        let badPitch = try AVCaptureTool.run(["export", source.path, folder.appendingPathComponent("y.mov").path, "--slow", "1-2:2", "--pitch", "chipmunk"])
        XCTAssertTrue(badPitch.standardError.contains("--pitch is"), badPitch.output)
    }

    func testItRefusesAnExistingFileAnUnknownPresetAndABadRange() throws {
        let folder = AVCaptureTool.folder("export-refusals")
        let source = try movie(in: folder)
        let existing = folder.appendingPathComponent("exists.mov")
        try Data("keep".utf8).write(to: existing)
        let refused = try AVCaptureTool.run(["export", source.path, existing.path])
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.standardError.contains("never overwritten"), refused.output)
        XCTAssertEqual(try Data(contentsOf: existing), Data("keep".utf8))

        let unknown = try AVCaptureTool.run(["export", source.path, folder.appendingPathComponent("a.mov").path, "--preset", "fancy"])
        XCTAssertNotEqual(unknown.status, 0)
        XCTAssertTrue(unknown.standardError.contains("fancy is no export preset"), unknown.output)

        let backwards = try AVCaptureTool.run(["export", source.path, folder.appendingPathComponent("b.mov").path, "--range", "3-1"])
        XCTAssertNotEqual(backwards.status, 0)
        XCTAssertTrue(backwards.standardError.contains("--range is START-END"), backwards.output)

        let notAMovie = folder.appendingPathComponent("notes.mov")
        try Data("words".utf8).write(to: notAMovie)
        let unreadable = try AVCaptureTool.run(["export", notAMovie.path, folder.appendingPathComponent("c.mov").path])
        XCTAssertNotEqual(unreadable.status, 0)
        XCTAssertTrue(unreadable.standardError.contains("not a movie"), unreadable.output)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("c.mov").path))
    }
}
