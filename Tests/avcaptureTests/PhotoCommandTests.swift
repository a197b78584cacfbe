import XCTest
import Foundation
import TestSupport

/// `avcapture photo`, as users run it.
final class PhotoCommandTests: XCTestCase {
    func testAPhotoIsAJPEGOfTheSessionsSize() throws {
        try XCTSkipUnless(MediaProbe.isAvailable, "ffprobe is needed")
        let url = AVCaptureTool.folder("photo").appendingPathComponent("shot.jpg")
        let result = try AVCaptureTool.run(["photo", url.path, "--preset", "640x480", "--quality", "speed"])
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(result.standardOutput.contains("640x480 JPEG"), result.standardOutput)
        XCTAssertEqual(MediaProbe.entries(url, "stream=codec_name,width,height").split(separator: "\n"), ["mjpeg", "640", "480"])
        let again = try AVCaptureTool.run(["photo", url.path])
        XCTAssertNotEqual(again.status, 0)
        XCTAssertTrue(again.standardError.contains("never overwrites"), again.standardError)
    }

    func testALivePhotosMovieIsWrittenBesideTheStill() throws {
        let folder = AVCaptureTool.folder("photo-live")
        let still = folder.appendingPathComponent("moment.jpg")
        let result = try AVCaptureTool.run(["photo", still.path, "--live", "--preset", "640x480"])
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(result.standardOutput.contains("with its Live Photo movie"), result.standardOutput)
        let movie = folder.appendingPathComponent("moment.mov")
        XCTAssertTrue(FileManager.default.fileExists(atPath: movie.path))
        guard MediaProbe.isAvailable else { return }
        let duration = try XCTUnwrap(Double(MediaProbe.entries(movie, "format=duration").trimmingCharacters(in: .whitespacesAndNewlines)))
        XCTAssertEqual(duration, 3, accuracy: 0.3)
    }

    func testHEICAndPNGPhotosAreWhatTheirNamesSay() throws {
        let folder = AVCaptureTool.folder("photo-kinds")
        let heic = folder.appendingPathComponent("shot.heic"), png = folder.appendingPathComponent("shot.png")
        let first = try AVCaptureTool.run(["photo", heic.path, "--preset", "640x480", "--quality", "speed"])
        XCTAssertEqual(first.status, 0, first.output)
        XCTAssertTrue(first.standardOutput.contains("640x480 HEIC"), first.standardOutput)
        let second = try AVCaptureTool.run(["photo", png.path, "--preset", "640x480", "--size", "640x480"])
        XCTAssertEqual(second.status, 0, second.output)
        XCTAssertTrue(second.standardOutput.contains("640x480 PNG"), second.standardOutput)
        XCTAssertEqual(Array(try Data(contentsOf: png).prefix(4)), [0x89, 0x50, 0x4E, 0x47])
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/exiftool") else { return }
        for url in [heic, png] {
            let tool = Process()
            tool.executableURL = URL(fileURLWithPath: "/usr/bin/exiftool")
            tool.arguments = ["-s3", "-n", "-FileType", "-ImageWidth", "-ImageHeight", "-Make", url.path]
            let pipe = Pipe()
            tool.standardOutput = pipe
            try tool.run()
            let lines = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n")
            tool.waitUntilExit()
            XCTAssertEqual(lines.prefix(3), [url.pathExtension == "heic" ? "HEIC" : "PNG", "640", "480"], "\(lines)")
            XCTAssertEqual(lines.count, 4, "the EXIF block's make is read too: \(lines)")
        }
    }

    func testWithoutAFileThePhotoGoesIntoThePicturesFolderAndTheMovieIntoVideos() throws {
        let home = AVCaptureTool.folder("photo-library")
        let environment = ["HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent("config").path]
        let photo = try AVCaptureTool.run(["photo", "--preset", "640x480"], environment: environment)
        XCTAssertEqual(photo.status, 0, photo.output)
        let pictures = try FileManager.default.contentsOfDirectory(atPath: home.appendingPathComponent("Pictures").path)
        XCTAssertEqual(pictures.count, 1)
        XCTAssertTrue(photo.standardOutput.contains(home.appendingPathComponent("Pictures").appendingPathComponent(pictures[0]).path), photo.standardOutput)
        let live = try AVCaptureTool.run(["photo", "--live", "--preset", "640x480"], environment: environment)
        XCTAssertEqual(live.status, 0, live.output)
        let withLive = try FileManager.default.contentsOfDirectory(atPath: home.appendingPathComponent("Pictures").path).sorted()
        XCTAssertEqual(withLive.count, 3, "\(withLive)")
        let movies = withLive.filter { $0.hasSuffix(".mov") }
        XCTAssertEqual(movies.count, 1)
        let base = (movies[0] as NSString).deletingPathExtension
        XCTAssertTrue(withLive.contains(base + ".jpg"), "the Live Photo's still and movie share a name: \(withLive)")
        let movie = try AVCaptureTool.run(["record", "--library", "--seconds", "1", "--no-audio", "--preset", "640x480"], environment: environment)
        XCTAssertEqual(movie.status, 0, movie.output)
        let videos = try FileManager.default.contentsOfDirectory(atPath: home.appendingPathComponent("Videos").path)
        XCTAssertEqual(videos.count, 1)
        XCTAssertTrue(videos[0].hasSuffix(".mov"), videos[0])
        XCTAssertTrue(movie.standardOutput.contains("Videos/\(videos[0])"), movie.standardOutput)
    }

    func testWhatItCannotDoIsRefusedInOneLine() throws {
        let folder = AVCaptureTool.folder("photo")
        for (arguments, expected) in [
            (["photo", folder.appendingPathComponent("a.gif").path], "Cannot write .gif photos"),
            (["photo", folder.appendingPathComponent("a.jpg").path, "--preset", "640x480", "--size", "1920x1080"], "takes photos of 640x480, not 1920x1080"),
            (["photo", folder.appendingPathComponent("a.jpg").path, "--size", "big"], "--size is WIDTHxHEIGHT"),
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
