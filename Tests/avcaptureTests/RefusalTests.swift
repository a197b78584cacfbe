import XCTest
import Foundation
import TestSupport

/// `avcapture record` refuses what it cannot do before a device starts: one line on standard
/// error, a non-zero exit status, nothing written.
final class RefusalTests: XCTestCase {
    private func refusal(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let result = try AVCaptureTool.run(arguments + ["--seconds", "0.3"])
        XCTAssertNotEqual(result.status, 0, result.output, file: file, line: line)
        let lines = result.standardError.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, "one line: \(result.standardError)", file: file, line: line)
        return result.standardError
    }

    func testAnExtensionItCannotWriteIsRefusedNamingTheOnesItCan() throws {
        let folder = AVCaptureTool.folder("refusals")
        let avi = folder.appendingPathComponent("out.avi")
        let message = try refusal(["record", avi.path])
        XCTAssertTrue(message.contains("Cannot write .avi files"), message)
        XCTAssertTrue(message.contains(".mov") && message.contains(".mp4") && message.contains(".m4v"), message)
        XCTAssertFalse(FileManager.default.fileExists(atPath: avi.path), "nothing is written")
        XCTAssertTrue(try refusal(["record", folder.appendingPathComponent("noextension").path]).contains("no extension"))
    }

    func testAMicrophoneThatIsNotThereIsRefusedAsACameraIs() throws {
        let folder = AVCaptureTool.folder("refusals")
        XCTAssertTrue(try refusal(["record", folder.appendingPathComponent("a.mov").path, "--audio", "nope"]).contains("No microphone nope found"))
        XCTAssertTrue(
            try refusal(["record", folder.appendingPathComponent("a.mov").path, "--audio", "virtual:camera:back"]).contains("No microphone"),
            "a camera is not a microphone")
        XCTAssertTrue(try refusal(["record", folder.appendingPathComponent("a.mov").path, "--video", "virtual:microphone"]).contains("No camera"))
    }

    func testALocationThatIsNotISO6709IsRefusedWithAnExample() throws {
        let folder = AVCaptureTool.folder("refusals")
        for bad in ["paris", "48.8584,2.2945", "+48.8584+002.2945", "+91.0000+002.2945/", "+48.8584+181.0/", "+4861+00217/", "+48.8584+2.2945/"] {
            let message = try refusal(["record", folder.appendingPathComponent("a.mov").path, "--location=\(bad)"])
            XCTAssertTrue(message.contains("+48.8584+002.2945/"), "\(bad): \(message)")
        }
        XCTAssertTrue((try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.isEmpty ?? true)
    }

    func testEveryISO6709FormIsAccepted() throws {
        try XCTSkipUnless(MediaProbe.isAvailable, "ffprobe is needed")
        let folder = AVCaptureTool.folder("locations")
        for (index, good) in ["+48.8584+002.2945/", "+4851.50+00217.67+35.5/", "-335207.7+1511233.5CRSWGS_84/"].enumerated() {
            let url = folder.appendingPathComponent("located-\(index).mov")
            let result = try AVCaptureTool.run(["record", url.path, "--seconds", "0.3", "--preset", "low", "--no-audio", "--location=\(good)"])
            XCTAssertEqual(result.status, 0, "\(good): \(result.output)")
            XCTAssertEqual(MediaProbe.entries(url, "format_tags=com.apple.quicktime.location.ISO6709"), good, "written as given")
        }
    }

    func testAFolderThatCannotBeWrittenIsNamedWithTheReason() throws {
        XCTAssertTrue(try refusal(["record", "/proc/x.mov"]).contains("Cannot write in the folder /proc: it is the kernel's proc file system"))
        XCTAssertTrue(try refusal(["record", "/nonexistent-\(getpid())/x.mov"]).contains("it does not exist"))
        let file = AVCaptureTool.folder("refusals").appendingPathComponent("plain")
        _ = FileManager.default.createFile(atPath: file.path, contents: Data())
        XCTAssertTrue(try refusal(["record", file.appendingPathComponent("x.mov").path]).contains("it is a file, not a folder"))
        let existing = AVCaptureTool.folder("refusals").appendingPathComponent("there.mov")
        _ = FileManager.default.createFile(atPath: existing.path, contents: Data("keep".utf8))
        XCTAssertTrue(try refusal(["record", existing.path]).contains("never overwrites"))
        XCTAssertEqual(try Data(contentsOf: existing), Data("keep".utf8))
    }

    func testAnUnknownCameraIsOneLineToo() throws {
        XCTAssertTrue(try refusal(["monitor", "--device", "nope"]).contains("No camera nope found"))
    }

    /// Every duration option of every command refuses NaN, infinity, negatives and absurd values
    /// with a reason, before anything starts (`preview --seconds nan` trapped; `record --seconds
    /// nan` recorded for ever; `--fragment-interval 0` was taken).
    func testEveryDurationOptionRefusesNaNInfinityNegativesAndAbsurdValues() throws {
        let folder = AVCaptureTool.folder("durations")
        let commands: [[String]] = [
            ["preview", "--seconds"], ["monitor", "--seconds"], ["scan", "--seconds"], ["stream", "rtmp://127.0.0.1/live/x", "--seconds"],
            ["record", folder.appendingPathComponent("a.mov").path, "--seconds"],
            ["record", folder.appendingPathComponent("b.mov").path, "--fragment-interval"],
            ["play", "/nonexistent.mov", "--start"], ["play", "/nonexistent.mov", "--seconds"],
        ]
        for command in commands {
            for value in ["nan", "inf", "-inf", "-1", "1e300"] + (command.last == "--fragment-interval" ? ["0"] : []) {
                // `--seconds=-1`: a separate `-1` would be read as an option.
                let result = try AVCaptureTool.run(command.dropLast() + ["\(command.last!)=\(value)"])
                XCTAssertNotEqual(result.status, 0, "\(command) \(value): \(result.output)")
                XCTAssertTrue(result.standardError.contains("is invalid for '\(command.last!)"), "\(command) \(value): \(result.standardError)")
                XCTAssertFalse(result.standardError.contains("Fatal error"), "\(command) \(value)")
            }
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [], "nothing was written")
        let work = try AVCaptureTool.run(["monitor", "--work", "nan"])
        XCTAssertTrue(work.standardError.contains("--work is 0 to 10000"), work.output)
        for range in ["nan-2", "1-inf", "0-1e300"] {
            let export = try AVCaptureTool.run(["export", "/nonexistent.mov", folder.appendingPathComponent("c.mp4").path, "--range", range])
            XCTAssertTrue(export.standardError.contains("--range is START-END"), "\(range): \(export.output)")
        }
        let slow = try AVCaptureTool.run(["export", "/nonexistent.mov", folder.appendingPathComponent("d.mp4").path, "--slow", "1-inf:2"])
        XCTAssertTrue(slow.standardError.contains("--slow is START-END:FACTOR"), slow.output)
    }

    /// `monitor --save-frame` refuses a file that exists, as every other command does (it used
    /// to overwrite it), and `photo` says what is wrong with a name that has no extension.
    func testMonitorNeverOverwritesAndPhotoNamesAMissingExtension() throws {
        let folder = AVCaptureTool.folder("refusals-files")
        let existing = folder.appendingPathComponent("frame.ppm")
        try Data("keep me".utf8).write(to: existing)
        let monitor = try AVCaptureTool.run(["monitor", "--seconds", "0.3", "--no-audio", "--save-frame", existing.path])
        XCTAssertNotEqual(monitor.status, 0)
        XCTAssertTrue(monitor.standardError.contains("already exists; avcapture never overwrites a file."), monitor.output)
        XCTAssertEqual(try String(contentsOf: existing, encoding: .utf8), "keep me")
        let photo = try AVCaptureTool.run(["photo", folder.appendingPathComponent("noextension").path])
        XCTAssertTrue(photo.standardError.contains("Cannot write a photo with no extension"), photo.output)
    }
}
