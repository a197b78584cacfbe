import XCTest
import Foundation
import TestSupport

/// `avcapture export IN OUT [--preset NAME] [--range START-END]`.
final class ExportCommandTests: XCTestCase {
    /// A 3-second 320x240 movie with a tone, made by the ffmpeg command.
    private func movie(in folder: URL) throws -> URL { try AVCaptureTool.movie(in: folder, seconds: 3, name: "source.mp4") }

    func testARangeIsExportedAsItIsAndAPresetEncodesAgain() throws {
        let folder = AVCaptureTool.folder("export")
        let source = try movie(in: folder)
        let part = folder.appendingPathComponent("part.mov")
        let result = try AVCaptureTool.run(["export", source.path, part.path, "--range", "1-2"])
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(result.standardOutput.contains("Exported"), result.output)
        XCTAssertEqual(Double(MediaProbe.entries(part, "format=duration")) ?? 0, 1.0, accuracy: 0.15)

        let small = folder.appendingPathComponent("small.mp4")
        let encoded = try AVCaptureTool.run(["export", source.path, small.path, "--preset", "low"])
        XCTAssertEqual(encoded.status, 0, encoded.output)
        XCTAssertEqual(MediaProbe.entries(small, "stream=codec_name,width,height", csv: true).split(separator: "\n").first, "h264,224,168")
    }

    func testASlowSectionIsRetimedAndItsSoundStretched() throws {
        let folder = AVCaptureTool.folder("export-slow")
        let source = try movie(in: folder)
        let slow = folder.appendingPathComponent("slow.mov")
        let result = try AVCaptureTool.run(["export", source.path, slow.path, "--slow", "1-2:3", "--pitch", "varispeed"])
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertEqual(Double(MediaProbe.entries(slow, "format=duration")) ?? 0, 5.0, accuracy: 0.15, "3 s with one second three times as long")
        XCTAssertEqual(MediaProbe.entries(slow, "stream=nb_frames").split(separator: "\n").first.flatMap { Int($0) }, 90, "every frame, none encoded again")

        let constant = folder.appendingPathComponent("constant.mp4")
        let steady = try AVCaptureTool.run(["export", source.path, constant.path, "--slow", "1-2:3", "--fps", "30"])
        XCTAssertEqual(steady.status, 0, steady.output)
        XCTAssertEqual(MediaProbe.entries(constant, "stream=nb_frames").split(separator: "\n").first.flatMap { Int($0) }, 150, "5 s at 30 fps")

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

    /// Movies outside the encoders' 16...8192 are scaled into it with their shape kept (an 8x8
    /// and an 8200x64 movie aborted the process with SIGILL).
    func testMoviesOfEverySizeAreScaledIntoWhatTheEncoderTakes() throws {
        let folder = AVCaptureTool.folder("export-sizes")
        for (size, expected) in [("8x8", "16,16"), ("8200x64", "2050,16")] {
            let source = folder.appendingPathComponent("\(size).mp4")
            let make = Process()
            make.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
            make.arguments = ["-v", "error", "-f", "lavfi", "-i", "testsrc2=s=\(size):r=30:d=1", "-c:v", "libx264", "-pix_fmt", "yuv420p", source.path]
            try make.run()
            make.waitUntilExit()
            try XCTSkipUnless(make.terminationStatus == 0, "ffmpeg is needed")
            let out = folder.appendingPathComponent("\(size)-out.mp4")
            let result = try AVCaptureTool.run(["export", source.path, out.path, "--preset", "medium"])
            XCTAssertEqual(result.status, 0, "\(size): \(result.output)")
            XCTAssertFalse(result.output.contains("Fatal error"), size)
            XCTAssertEqual(MediaProbe.entries(out, "stream=width,height", csv: true), expected, size)
        }
    }

    /// The movie is written beside its destination and named only when complete: a killed
    /// export leaves nothing at the destination, and nothing is written through a link there.
    func testAKilledExportLeavesNothingAtItsDestinationAndLinksAreNotFollowed() throws {
        let folder = AVCaptureTool.folder("export-partial")
        let source = try AVCaptureTool.movie(in: folder, seconds: 20, name: "long.mp4")
        let out = folder.appendingPathComponent("out.mp4")
        let export = Process()
        export.executableURL = try XCTUnwrap(AVCaptureTool.executable)
        export.arguments = ["export", source.path, out.path, "--preset", "highest"]
        export.standardOutput = FileHandle.nullDevice
        export.standardError = FileHandle.nullDevice
        try export.run()
        // Wait until the partial file is being written, then kill the exporter.
        let deadline = Date().addingTimeInterval(20)
        func partials() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasPrefix(".out.export-") } }
        while partials().isEmpty, export.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        XCTAssertFalse(partials().isEmpty, "the export writes under a partial name first")
        kill(export.processIdentifier, SIGKILL)
        export.waitUntilExit()
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.path), "nothing stands at the destination")
        let retry = try AVCaptureTool.run(["export", source.path, out.path, "--range", "0-2"])
        XCTAssertEqual(retry.status, 0, "a retry is not blocked: \(retry.output)")

        let target = folder.appendingPathComponent("elsewhere.mp4")
        let link = folder.appendingPathComponent("link.mp4")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        let refused = try AVCaptureTool.run(["export", source.path, link.path, "--range", "0-1"])
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: target.path), "nothing was written through the dangling link")
    }

    /// A pipe, a device or a folder named as the movie is refused at once by what it is (opening
    /// a pipe with no writer used to wait for ever).
    func testPipesDevicesAndFoldersAreRefusedAsMovies() throws {
        let folder = AVCaptureTool.folder("export-odd")
        let fifo = folder.appendingPathComponent("fifo")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        for (input, kind) in [(fifo.path, "a pipe"), ("/dev/zero", "a device"), (folder.path, "a folder")] {
            let result = try AVCaptureTool.run(["export", input, folder.appendingPathComponent("out.mp4").path])
            XCTAssertNotEqual(result.status, 0, input)
            XCTAssertTrue(result.standardError.contains("is \(kind), not a movie file."), result.output)
            XCTAssertLessThan(result.seconds, 5)
        }
    }
}
