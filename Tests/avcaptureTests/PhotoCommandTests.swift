import XCTest
import Foundation

/// `avcapture photo`, as users run it.
final class PhotoCommandTests: XCTestCase {
    func testAPhotoIsAJPEGOfTheSessionsSize() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/ffprobe"), "ffprobe is needed")
        let url = AVCaptureTool.folder("photo").appendingPathComponent("shot.jpg")
        let result = try AVCaptureTool.run(["photo", url.path, "--preset", "640x480", "--quality", "speed"])
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(result.standardOutput.contains("640x480 JPEG"), result.standardOutput)
        XCTAssertEqual(try AVCaptureTool.probe(url, entries: "stream=codec_name,width,height").split(separator: "\n"), ["mjpeg", "640", "480"])
        let again = try AVCaptureTool.run(["photo", url.path])
        XCTAssertNotEqual(again.status, 0)
        XCTAssertTrue(again.standardError.contains("never overwrites"), again.standardError)
    }

    func testWhatItCannotDoIsRefusedInOneLine() throws {
        let folder = AVCaptureTool.folder("photo")
        for (arguments, expected) in [
            (["photo", folder.appendingPathComponent("a.png").path], "Cannot write .png photos yet"),
            (["photo", folder.appendingPathComponent("a.jpg").path, "--device", "virtual:camera:front", "--flash", "on"], "has no flash"),
            (["photo", folder.appendingPathComponent("a.jpg").path, "--flash", "sometimes"], "--flash is off, on or auto"),
        ] {
            let result = try AVCaptureTool.run(arguments)
            XCTAssertNotEqual(result.status, 0, "\(arguments)")
            XCTAssertEqual(result.standardError.split(separator: "\n").count, 1, result.standardError)
            XCTAssertTrue(result.standardError.contains(expected), result.standardError)
        }
        XCTAssertTrue((try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.isEmpty ?? true, "nothing written")
    }
}
