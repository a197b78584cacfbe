import CTurboJPEG
import CoreGraphics
import Foundation
import ImageIO
import TestSupport
import XCTest

/// What a picture's headers say, under Apple's keys: a PNG's chunks, a JPEG's JFIF segment and
/// whether it is progressive, a GIF's global colour table; each file's facts written by a tool of
/// its own (exiftool, TurboJPEG) or by hand, never by the code read back.
final class HeaderDictionaryTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("headers-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() {
        if let folder { try? FileManager.default.removeItem(at: folder) }
        super.tearDown()
    }

    /// A 16 x 8 red picture written by Image I/O as `type` into the folder.
    private func picture(_ name: String, type: String) throws -> URL {
        let context = try XCTUnwrap(
            CGContext(
                data: nil, width: 16, height: 8, bitsPerComponent: 8, bytesPerRow: 0, space: CGColorSpaceCreateDeviceRGB(),
                bitmapInfo: CGImageAlphaInfo.noneSkipLast.rawValue))
        context.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
        context.fill(CGRect(x: 0, y: 0, width: 16, height: 8))
        let url = folder.appendingPathComponent(name)
        let destination = try XCTUnwrap(CGImageDestinationCreateWithURL(url as CFURL, type as CFString, 1, nil))
        CGImageDestinationAddImage(destination, try XCTUnwrap(context.makeImage()), nil)
        XCTAssertTrue(CGImageDestinationFinalize(destination))
        return url
    }

    private func properties(_ url: URL) throws -> [String: Any] {
        let source = try XCTUnwrap(CGImageSourceCreateWithURL(url as CFURL, nil))
        return try XCTUnwrap(CGImageSourceCopyPropertiesAtIndex(source, 0, nil) as? [String: Any])
    }

    private func exiftool(_ arguments: [String]) throws {
        try XCTSkipUnless(isInstalled("/usr/bin/exiftool"), "exiftool is needed: scripts/install-deps.sh --with-servers")
        XCTAssertNotNil(runTool("/usr/bin/exiftool", ["-q", "-overwrite_original"] + arguments), "exiftool \(arguments)")
    }

    func testAPNGsChunksAreItsDictionary() throws {
        let url = try picture("chunks.png", type: "public.png")
        try exiftool([
            "-PNG:Title=A title", "-PNG:Author=Someone", "-PNG:Comment=A comment", "-PNG:Description=Ünïcødé ☃", "-PNG:PixelsPerUnitX=3780",
            "-PNG:PixelsPerUnitY=1890", "-PNG:PixelUnits=meters", "-PNG:Gamma=2.2", "-PNG:SRGBRendering=Relative Colorimetric", url.path,
        ])
        let described = try properties(url)
        let png = try XCTUnwrap(described[kCGImagePropertyPNGDictionary as String] as? [String: Any])
        XCTAssertEqual(png[kCGImagePropertyPNGTitle as String] as? String, "A title")
        XCTAssertEqual(png[kCGImagePropertyPNGAuthor as String] as? String, "Someone")
        XCTAssertEqual(png[kCGImagePropertyPNGComment as String] as? String, "A comment")
        XCTAssertEqual(png[kCGImagePropertyPNGDescription as String] as? String, "Ünïcødé ☃", "international text, in UTF-8")
        XCTAssertEqual(png[kCGImagePropertyPNGXPixelsPerMeter as String] as? Int, 3780)
        XCTAssertEqual(png[kCGImagePropertyPNGYPixelsPerMeter as String] as? Int, 1890)
        // exiftool's gamma is the display's; the chunk keeps its inverse, as Apple reports it.
        XCTAssertEqual(try XCTUnwrap(png[kCGImagePropertyPNGGamma as String] as? Double), 1 / 2.2, accuracy: 0.00001)
        XCTAssertEqual(png[kCGImagePropertyPNGsRGBIntent as String] as? Int, 1)
        XCTAssertEqual(png[kCGImagePropertyPNGInterlaceType as String] as? Int, 0)
        XCTAssertEqual(described[kCGImagePropertyDPIWidth as String] as? Double, 96)
        XCTAssertEqual(described[kCGImagePropertyDPIHeight as String] as? Double, 48)
        XCTAssertNil(png[kCGImagePropertyAPNGDelayTime as String], "a still picture has no delay")
    }

    func testAJPEGsJFIFSegmentAndWhetherItIsProgressive() throws {
        // A progressive JPEG of TurboJPEG's (its JFIF segment says an aspect ratio of 1:1).
        let handle = try XCTUnwrap(tjInitCompress())
        defer { tjDestroy(handle) }
        var pixels = [UInt8](repeating: 0, count: 16 * 8 * 3)
        for index in stride(from: 0, to: pixels.count, by: 3) { pixels[index] = 200 }
        var buffer: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        XCTAssertEqual(
            tjCompress2(handle, &pixels, 16, 48, 8, Int32(TJPF_RGB.rawValue), &buffer, &size, Int32(TJSAMP_420.rawValue), 90, TJFLAG_PROGRESSIVE), 0)
        let progressive = folder.appendingPathComponent("progressive.jpg")
        try Data(bytes: try XCTUnwrap(buffer), count: Int(size)).write(to: progressive)
        tjFree(buffer)
        var jfif = try XCTUnwrap(try properties(progressive)[kCGImagePropertyJFIFDictionary as String] as? [String: Any])
        XCTAssertEqual(jfif[kCGImagePropertyJFIFIsProgressive as String] as? Bool, true)
        XCTAssertEqual(jfif[kCGImagePropertyJFIFVersion as String] as? [Int], [1, 0, 1])
        XCTAssertEqual(jfif[kCGImagePropertyJFIFDensityUnit as String] as? Int, 0)
        XCTAssertEqual(jfif[kCGImagePropertyJFIFXDensity as String] as? Int, 1)

        // The same file's resolution set by exiftool in dots per inch.
        try exiftool(["-JFIF:XResolution=300", "-JFIF:YResolution=150", "-JFIF:ResolutionUnit=inches", progressive.path])
        let described = try properties(progressive)
        jfif = try XCTUnwrap(described[kCGImagePropertyJFIFDictionary as String] as? [String: Any])
        XCTAssertEqual(jfif[kCGImagePropertyJFIFDensityUnit as String] as? Int, 1)
        XCTAssertEqual(jfif[kCGImagePropertyJFIFXDensity as String] as? Int, 300)
        XCTAssertEqual(jfif[kCGImagePropertyJFIFYDensity as String] as? Int, 150)
        XCTAssertEqual(described[kCGImagePropertyDPIWidth as String] as? Double, 300)
        XCTAssertEqual(described[kCGImagePropertyDPIHeight as String] as? Double, 150)

        // A baseline JPEG of TurboJPEG's is not progressive.
        var baseline: UnsafeMutablePointer<UInt8>?
        XCTAssertEqual(tjCompress2(handle, &pixels, 16, 48, 8, Int32(TJPF_RGB.rawValue), &baseline, &size, Int32(TJSAMP_420.rawValue), 90, 0), 0)
        let plain = folder.appendingPathComponent("baseline.jpg")
        try Data(bytes: try XCTUnwrap(baseline), count: Int(size)).write(to: plain)
        tjFree(baseline)
        let plainJFIF = try XCTUnwrap(try properties(plain)[kCGImagePropertyJFIFDictionary as String] as? [String: Any])
        XCTAssertEqual(plainJFIF[kCGImagePropertyJFIFIsProgressive as String] as? Bool, false)
    }

    func testAJPEGsIPTCRecordIsItsIPTCDictionary() throws {
        let url = try picture("iptc.jpg", type: "public.jpeg")
        XCTAssertNil(try properties(url)[kCGImagePropertyIPTCDictionary as String], "no IPTC record yet")
        try exiftool([
            "-IPTC:CodedCharacterSet=UTF8", "-IPTC:Keywords=harbour", "-IPTC:Keywords=boats", "-IPTC:By-line=Ann Example",
            "-IPTC:Caption-Abstract=Boats at dawn",
            "-IPTC:City=Bergen", "-IPTC:Country-PrimaryLocationName=Norway", "-IPTC:ObjectName=Harbour", "-IPTC:CopyrightNotice=(c) Ann",
            "-IPTC:Headline=Båter ved daggry", url.path,
        ])
        let iptc = try XCTUnwrap(try properties(url)[kCGImagePropertyIPTCDictionary as String] as? [String: Any])
        XCTAssertEqual(iptc[kCGImagePropertyIPTCKeywords as String] as? [String], ["harbour", "boats"], "a repeated dataset is an array")
        XCTAssertEqual(iptc[kCGImagePropertyIPTCByline as String] as? [String], ["Ann Example"])
        XCTAssertEqual(iptc[kCGImagePropertyIPTCCaptionAbstract as String] as? String, "Boats at dawn")
        XCTAssertEqual(iptc[kCGImagePropertyIPTCCity as String] as? String, "Bergen")
        XCTAssertEqual(iptc[kCGImagePropertyIPTCCountryPrimaryLocationName as String] as? String, "Norway")
        XCTAssertEqual(iptc[kCGImagePropertyIPTCObjectName as String] as? String, "Harbour")
        XCTAssertEqual(iptc[kCGImagePropertyIPTCCopyrightNotice as String] as? String, "(c) Ann")
        XCTAssertEqual(iptc[kCGImagePropertyIPTCHeadline as String] as? String, "Båter ved daggry", "UTF-8, as the record's character set says")
    }

    func testAnIPTCDictionaryGivenToAJPEGDestinationIsWrittenAsExiftoolReadsIt() throws {
        try XCTSkipUnless(isInstalled("/usr/bin/exiftool"), "exiftool is needed: scripts/install-deps.sh --with-servers")
        let context = try XCTUnwrap(
            CGContext(
                data: nil, width: 16, height: 8, bitsPerComponent: 8, bytesPerRow: 0, space: CGColorSpaceCreateDeviceRGB(),
                bitmapInfo: CGImageAlphaInfo.noneSkipLast.rawValue))
        let url = folder.appendingPathComponent("written.jpg")
        let destination = try XCTUnwrap(CGImageDestinationCreateWithURL(url as CFURL, "public.jpeg" as CFString, 1, nil))
        let iptc: [CFString: Any] = [
            kCGImagePropertyIPTCCaptionAbstract: "Fjord at noon", kCGImagePropertyIPTCKeywords: ["fjord", "noon"], kCGImagePropertyIPTCByline: ["Bjørn"],
        ]
        CGImageDestinationAddImage(
            destination, try XCTUnwrap(context.makeImage()),
            [kCGImagePropertyIPTCDictionary: iptc, kCGImagePropertyOrientation: 6] as CFDictionary)
        XCTAssertTrue(CGImageDestinationFinalize(destination))
        // exiftool, reading on its own, finds the record (and the EXIF orientation beside it).
        let facts = String(
            decoding: try XCTUnwrap(
                runTool(
                    "/usr/bin/exiftool",
                    ["-s3", "-charset", "iptc=UTF8", "-IPTC:Caption-Abstract", "-IPTC:Keywords", "-IPTC:By-line", "-EXIF:Orientation#", url.path])),
            as: UTF8.self)
        XCTAssertEqual(facts.split(separator: "\n").map(String.init), ["Fjord at noon", "fjord, noon", "Bjørn", "6"])
        let read = try XCTUnwrap(try properties(url)[kCGImagePropertyIPTCDictionary as String] as? [String: Any])
        XCTAssertEqual(read[kCGImagePropertyIPTCKeywords as String] as? [String], ["fjord", "noon"])
        XCTAssertEqual(read[kCGImagePropertyIPTCByline as String] as? [String], ["Bjørn"])
    }

    func testAGIFSaysWhetherItHasAGlobalColourTable() throws {
        // FFmpeg's GIF has one; a GIF of one pixel written by hand has only a local one.
        let withTable = folder.appendingPathComponent("global.gif")
        XCTAssertNotNil(runTool("/usr/bin/ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=32x24:rate=4", "-frames:v", "2", "-y", withTable.path]))
        let local = folder.appendingPathComponent("local.gif")
        try Data(
            [0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 1, 0, 1, 0, 0x00, 0, 0]  // GIF89a, 1 x 1, no global table
                + [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0x80, 0xFF, 0, 0, 0, 0, 0xFF]  // an image with a local table of red and blue
                + [2, 2, 0x44, 0x01, 0, 0x3B]  // LZW: clear, index 0, end; the trailer
        ).write(to: local)
        for (url, expected) in [(withTable, true), (local, false)] {
            let source = try XCTUnwrap(CGImageSourceCreateWithURL(url as CFURL, nil))
            let gif = try XCTUnwrap((CGImageSourceCopyProperties(source, nil) as? [String: Any])?[kCGImagePropertyGIFDictionary as String] as? [String: Any])
            XCTAssertEqual(gif[kCGImagePropertyGIFHasGlobalColorMap as String] as? Bool, expected, url.lastPathComponent)
        }
        let pixel = try XCTUnwrap(CGImageSourceCreateImageAtIndex(try XCTUnwrap(CGImageSourceCreateWithURL(local as CFURL, nil)), 0, nil))
        XCTAssertEqual([pixel.width, pixel.height], [1, 1], "the hand-written GIF is one that decodes")
    }
}
