import XCTest
import Foundation
@testable import CaptureDevices
@testable import FrameProcessing

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

    func testTheHelpListsExactlyTheTypesTheCommandTakes() throws {
        let help = try AVCaptureTool.run(["scan", "--help"])
        let listed = try XCTUnwrap(help.output.range(of: "Types: ").map { help.output[$0.upperBound...].prefix { $0 != "." } })
        let refused = try AVCaptureTool.run(["scan", "--image", "--types", "cats", "x.png"])
        XCTAssertNotEqual(refused.status, 0)
        let taken = try XCTUnwrap(refused.standardError.range(of: "; use ").map { refused.standardError[$0.upperBound...].prefix { $0 != "." } })
        XCTAssertEqual(
            listed.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) },
            taken.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }, "the help's list is the table's")
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
        // A folder, a pipe with no writer, a device and a missing file: each refused at once, by what it is.
        let fifo = folder.appendingPathComponent("fifo")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        let odd = try AVCaptureTool.run(["scan", "--image", folder.path, fifo.path, "/dev/zero", folder.appendingPathComponent("gone.png").path])
        XCTAssertEqual(odd.status, 1)
        for reason in [
            "\(folder.path) is a folder, not a file.", "fifo is a pipe, not a file.", "/dev/zero is a device, not a file.", "gone.png does not exist.",
        ] {
            XCTAssertTrue(odd.standardError.contains(reason), "\(reason): \(odd.standardError)")
        }
        XCTAssertFalse(odd.standardError.contains("NSCocoaErrorDomain") || odd.standardError.contains(".."), odd.standardError)
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

    /// A PNG is refused from the size its header declares, before its pixels are allocated: a
    /// 40000x40000 PNG of a few kilobytes took 1.6 GB and 6 s.
    func testAHugeDeclaredPictureIsRefusedFromItsHeader() throws {
        let folder = AVCaptureTool.folder("scan-huge")
        let huge = folder.appendingPathComponent("huge.png")
        try Self.png(width: 40_000, height: 40_000).write(to: huge)
        let result = try AVCaptureTool.run(["scan", "--image", huge.path])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.standardError.contains("40000x40000 pixels, more than the 100000000"), result.standardError)
        XCTAssertLessThan(result.seconds, 3, "refused without decoding")
    }

    /// A grey PNG of the size given whose pixel data holds only a few black rows.
    static func png(width: Int, height: Int) -> Data {
        func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
            let typed = Array(type.utf8) + body
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in typed {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            }
            return bigEndian(UInt32(body.count)) + typed + bigEndian(~crc)
        }
        func bigEndian(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.bigEndian) { Array($0) } }
        let header = bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, 0, 0, 0, 0]
        // Stored (uncompressed) deflate blocks are enough: the header is what is refused.
        let rows = [UInt8](repeating: 0, count: 3 * (width + 1))
        var deflate: [UInt8] = [0x78, 0x01]
        var offset = 0
        while offset < rows.count {
            let length = min(65535, rows.count - offset)
            let last: UInt8 = offset + length == rows.count ? 1 : 0
            deflate += [last, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF)]
            deflate += rows[offset..<(offset + length)]
            offset += length
        }
        deflate += [0, 0, 0, 1]  // an Adler-32 no reader gets to check
        return Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", deflate) + chunk("IEND", []))
    }
}
