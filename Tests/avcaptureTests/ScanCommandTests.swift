import XCTest
import Foundation
@testable import CaptureDevices

/// `avcapture scan`, as zbarcam and zbarimg users run it.
final class ScanCommandTests: XCTestCase {
    /// Writes codes printed on a white 480x360 page as a binary PGM, and returns its URL.
    private func page(_ codes: [(CodeSymbology, String, x: Int, y: Int)], in folder: URL, name: String) throws -> URL {
        let (width, height) = (480, 360)
        var pixels = [UInt8](repeating: 255, count: width * height)
        for (symbology, payload, left, top) in codes {
            let bitmap = try CodeBitmap(symbology, payload: payload)
            let scale = 3
            for y in 0..<(bitmap.height * scale) where top + y < height {
                for x in 0..<(bitmap.width * scale) where left + x < width {
                    pixels[(top + y) * width + left + x] = bitmap.pixels[(y / scale) * bitmap.width + x / scale]
                }
            }
        }
        let url = folder.appendingPathComponent(name)
        try (Data("P5\n\(width) \(height)\n255\n".utf8) + Data(pixels)).write(to: url)
        return url
    }

    func testPicturesAreReadAsZbarimgReadsThem() throws {
        let folder = AVCaptureTool.folder("scan")
        let pgm = try page([(.qr, "hello scan", 10, 10), (.ean13, "4006381333931", 150, 250)], in: folder, name: "codes.pgm")
        let result = try AVCaptureTool.run(["scan", "--image", pgm.path])
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertEqual(Set(result.standardOutput.split(separator: "\n")), ["QR-Code:hello scan", "EAN-13:4006381333931"])
        XCTAssertTrue(result.standardError.contains("scanned 2 barcode symbols from 1 images"), result.standardError)
        let raw = try AVCaptureTool.run(["scan", "--image", "--raw", "--types", "qr", pgm.path])
        XCTAssertEqual(raw.standardOutput, "hello scan\n", "the payload alone, of the types asked for")
        // JPEG and PNG, made by FFmpeg from the same page.
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg") {
            for name in ["codes.png", "codes.jpg"] {
                let convert = Process()
                convert.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
                convert.arguments = ["-loglevel", "error", "-y", "-i", pgm.path, folder.appendingPathComponent(name).path]
                try convert.run()
                convert.waitUntilExit()
                let decoded = try AVCaptureTool.run(["scan", "--image", "--raw", folder.appendingPathComponent(name).path])
                XCTAssertEqual(Set(decoded.standardOutput.split(separator: "\n")), ["hello scan", "4006381333931"], name)
            }
        }
    }

    func testNothingFoundExitsFourAndAnUnreadablePictureOne() throws {
        let folder = AVCaptureTool.folder("scan-none")
        let blank = try page([], in: folder, name: "blank.pgm")
        let none = try AVCaptureTool.run(["scan", "--image", blank.path])
        XCTAssertEqual(none.status, 4, "zbarimg's status for no code found")
        XCTAssertEqual(none.standardOutput, "")
        let text = folder.appendingPathComponent("notes.txt")
        try Data("not a picture".utf8).write(to: text)
        let truncated = folder.appendingPathComponent("cut.pgm")
        try Data(try Data(contentsOf: blank).prefix(1000)).write(to: truncated)
        let bad = try AVCaptureTool.run(["scan", "--image", text.path, truncated.path, blank.path])
        XCTAssertEqual(bad.status, 1)
        XCTAssertTrue(bad.standardError.contains("notes.txt: not a JPEG, PNG, PGM or PPM picture"), bad.standardError)
        XCTAssertTrue(bad.standardError.contains("cut.pgm: a truncated PGM or PPM"), bad.standardError)
        let unknown = try AVCaptureTool.run(["scan", "--types", "qr,morse", "--image", blank.path])
        XCTAssertNotEqual(unknown.status, 0)
        XCTAssertTrue(unknown.standardError.contains("Unknown type morse"), unknown.standardError)
    }

    func testTheCameraIsScannedForTheTimeAsked() throws {
        let result = try AVCaptureTool.run(["scan", "--seconds", "1.5", "--types", "qr", "--rect", "0.25,0.25,0.5,0.5"])
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertEqual(result.standardOutput, "", "the virtual scene shows no code")
        XCTAssertTrue(result.standardError.contains("Scanning with Virtual Back Camera"), result.standardError)
        XCTAssertTrue(result.standardError.contains("searched"), result.standardError)
        let bad = try AVCaptureTool.run(["scan", "--rect", "0.5,0.5,0.8,0.1"])
        XCTAssertNotEqual(bad.status, 0)
        XCTAssertTrue(bad.standardError.contains("--rect is x,y,width,height within 0...1"), bad.standardError)
    }
}
