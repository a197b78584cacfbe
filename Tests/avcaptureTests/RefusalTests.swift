import XCTest
import Foundation

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
        XCTAssertTrue(try refusal(["record", folder.appendingPathComponent("a.mov").path, "--audio", "virtual:camera:back"]).contains("No microphone"),
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
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/ffprobe"), "ffprobe is needed")
        let folder = AVCaptureTool.folder("locations")
        for (index, good) in ["+48.8584+002.2945/", "+4851.50+00217.67+35.5/", "-335207.7+1511233.5CRSWGS_84/"].enumerated() {
            let url = folder.appendingPathComponent("located-\(index).mov")
            let result = try AVCaptureTool.run(["record", url.path, "--seconds", "0.3", "--preset", "low", "--no-audio", "--location=\(good)"])
            XCTAssertEqual(result.status, 0, "\(good): \(result.output)")
            XCTAssertEqual(try AVCaptureTool.probe(url, entries: "format_tags=com.apple.quicktime.location.ISO6709"), good, "written as given")
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
}
