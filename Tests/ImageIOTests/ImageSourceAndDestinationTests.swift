import CoreGraphics
import Foundation
import ImageIO
import TestSupport
import XCTest

/// Image I/O's sources and destinations: pictures written and read back, their properties, EXIF
/// orientation and thumbnails, and damaged input refused without harm.
final class ImageSourceAndDestinationTests: XCTestCase {
    /// A picture of `width` x `height`: the left half red, the right half blue (in Quartz's coordinates, x to the right).
    private func halves(_ width: Int = 40, _ height: Int = 20) throws -> CGImage {
        let context = try XCTUnwrap(
            CGContext(
                data: nil, width: width, height: height, bitsPerComponent: 8, bytesPerRow: 0, space: CGColorSpaceCreateDeviceRGB(),
                bitmapInfo: CGImageAlphaInfo.noneSkipLast.rawValue))
        context.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
        context.fill(CGRect(x: 0, y: 0, width: width / 2, height: height))
        context.setFillColor(red: 0, green: 0, blue: 1, alpha: 1)
        context.fill(CGRect(x: width / 2, y: 0, width: width - width / 2, height: height))
        return try XCTUnwrap(context.makeImage())
    }

    private func encode(_ image: CGImage, as type: String, quality: Double? = nil) throws -> Data {
        let data = NSMutableData()
        let destination = try XCTUnwrap(CGImageDestinationCreateWithData(data as CFMutableData, type as CFString, 1, nil))
        CGImageDestinationAddImage(destination, image, quality.map { [kCGImageDestinationLossyCompressionQuality: $0] } as CFDictionary?)
        XCTAssertTrue(CGImageDestinationFinalize(destination))
        XCTAssertFalse(CGImageDestinationFinalize(destination), "a destination is finalized once")
        return data as Data
    }

    /// The red, green and blue of pixel (x, y), counted from the top left, of a BGRA or RGBA image.
    private func rgb(_ image: CGImage, _ x: Int, _ y: Int) throws -> [Int] {
        let data = try XCTUnwrap(image.dataProvider?.data)
        let at = y * image.bytesPerRow + x * 4
        let p = data[at..<(at + 4)].map(Int.init)
        return image.byteOrderInfo == .order32Little ? [p[2], p[1], p[0]] : [p[0], p[1], p[2]]
    }

    func testAPNGIsWrittenAndReadBackPixelForPixel() throws {
        let png = try encode(try halves(), as: "public.png")
        XCTAssertEqual(Array(png.prefix(4)), [0x89, 0x50, 0x4E, 0x47])
        let source = try XCTUnwrap(CGImageSourceCreateWithData(png as CFData, nil))
        XCTAssertEqual(CGImageSourceGetType(source), "public.png")
        XCTAssertEqual(CGImageSourceGetCount(source), 1)
        let properties = try XCTUnwrap(CGImageSourceCopyPropertiesAtIndex(source, 0, nil))
        XCTAssertEqual(properties[kCGImagePropertyPixelWidth] as? Int, 40)
        XCTAssertEqual(properties[kCGImagePropertyPixelHeight] as? Int, 20)
        XCTAssertEqual(properties[kCGImagePropertyHasAlpha] as? Bool, false)
        let image = try XCTUnwrap(CGImageSourceCreateImageAtIndex(source, 0, nil))
        XCTAssertEqual([image.width, image.height], [40, 20])
        XCTAssertEqual(try rgb(image, 5, 10), [255, 0, 0])
        XCTAssertEqual(try rgb(image, 35, 10), [0, 0, 255])
        XCTAssertNil(CGImageSourceCreateImageAtIndex(source, 1, nil), "one picture")
    }

    func testAJPEGsQualityIsItsSizeAndItsPixelsComeBackClose() throws {
        let picture = try halves(64, 64)
        let small = try encode(picture, as: "public.jpeg", quality: 0.1)
        let large = try encode(picture, as: "public.jpeg", quality: 1)
        XCTAssertLessThan(small.count, large.count, "lower quality, fewer bytes")
        let source = try XCTUnwrap(CGImageSourceCreateWithData(large as CFData, nil))
        XCTAssertEqual(CGImageSourceGetType(source), "public.jpeg")
        let image = try XCTUnwrap(CGImageSourceCreateImageAtIndex(source, 0, nil))
        for (value, expected) in zip(try rgb(image, 8, 32) + (try rgb(image, 56, 32)), [255, 0, 0, 0, 0, 255]) {
            XCTAssertEqual(value, expected, accuracy: 10)
        }
    }

    func testAHEICIsReadBackUprightWithItsSizeAndColours() throws {
        let heic = try encode(try halves(64, 32), as: "public.heic", quality: 0.9)
        let source = try XCTUnwrap(CGImageSourceCreateWithData(heic as CFData, nil))
        XCTAssertEqual(CGImageSourceGetType(source), "public.heic")
        XCTAssertTrue((CGImageSourceCopyTypeIdentifiers() as? [String])?.contains("public.heic") == true)
        let properties = try XCTUnwrap(CGImageSourceCopyPropertiesAtIndex(source, 0, nil))
        XCTAssertEqual(properties[kCGImagePropertyPixelWidth] as? Int, 64)
        XCTAssertEqual(properties[kCGImagePropertyPixelHeight] as? Int, 32)
        XCTAssertEqual(properties[kCGImagePropertyHasAlpha] as? Bool, false)
        let image = try XCTUnwrap(CGImageSourceCreateImageAtIndex(source, 0, nil))
        XCTAssertEqual([image.width, image.height], [64, 32])
        XCTAssertEqual(image.alphaInfo, .noneSkipFirst, "no alpha plane, an opaque image")
        for (value, expected) in zip(try rgb(image, 8, 16) + (try rgb(image, 56, 16)), [255, 0, 0, 0, 0, 255]) {
            XCTAssertEqual(value, expected, accuracy: 24, "red on the left, blue on the right, through 4:2:0 and HEVC")
        }
        let thumbnail = try XCTUnwrap(
            CGImageSourceCreateThumbnailAtIndex(
                source, 0, [kCGImageSourceCreateThumbnailFromImageAlways: true, kCGImageSourceThumbnailMaxPixelSize: 16] as CFDictionary))
        XCTAssertEqual([thumbnail.width, thumbnail.height], [16, 8])
    }

    func testAHEICFromLibheifsOwnEncoderIsRead() throws {
        let encoder = "/usr/bin/heif-enc"
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: encoder), "heif-enc (libheif-examples) makes the peer's file")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("heic-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = folder.appendingPathComponent("halves.png"), heic = folder.appendingPathComponent("halves.heic")
        try encode(try halves(48, 24), as: "public.png").write(to: png)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: encoder)
        process.arguments = ["-q", "90", "-o", heic.path, png.path]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        let source = try XCTUnwrap(CGImageSourceCreateWithURL(heic as CFURL, nil))
        let image = try XCTUnwrap(CGImageSourceCreateImageAtIndex(source, 0, nil))
        XCTAssertEqual([image.width, image.height], [48, 24])
        for (value, expected) in zip(try rgb(image, 6, 12) + (try rgb(image, 42, 12)), [255, 0, 0, 0, 0, 255]) {
            XCTAssertEqual(value, expected, accuracy: 24)
        }
    }

    func testTheEXIFOrientationTurnsThumbnailsThatAskForIt() throws {
        let jpeg = JPEGOrientation.tagged(try encode(try halves(), as: "public.jpeg", quality: 1), 6)
        let source = try XCTUnwrap(CGImageSourceCreateWithData(jpeg as CFData, nil))
        let properties = try XCTUnwrap(CGImageSourceCopyPropertiesAtIndex(source, 0, nil))
        XCTAssertEqual(properties[kCGImagePropertyOrientation] as? Int, 6)
        XCTAssertEqual((properties[kCGImagePropertyTIFFDictionary] as? [AnyHashable: Any])?[kCGImagePropertyTIFFOrientation] as? Int, 6)
        XCTAssertNil(CGImageSourceCreateThumbnailAtIndex(source, 0, nil), "no embedded thumbnail, and none asked to be made")
        let upright = try XCTUnwrap(
            CGImageSourceCreateThumbnailAtIndex(
                source, 0,
                [
                    kCGImageSourceCreateThumbnailFromImageAlways: true, kCGImageSourceCreateThumbnailWithTransform: true,
                    kCGImageSourceThumbnailMaxPixelSize: 100,
                ]
                    as CFDictionary))
        XCTAssertEqual([upright.width, upright.height], [20, 40], "turned a quarter to display")
        let top = try rgb(upright, 10, 5), bottom = try rgb(upright, 10, 35)
        XCTAssertGreaterThan(top[0], 200, "orientation 6 turns the picture clockwise: its left half (red) is on top: \(top)")
        XCTAssertGreaterThan(bottom[2], 200, "and its right half (blue) at the bottom: \(bottom)")
        let small = try XCTUnwrap(
            CGImageSourceCreateThumbnailAtIndex(
                source, 0, [kCGImageSourceCreateThumbnailFromImageAlways: true, kCGImageSourceThumbnailMaxPixelSize: 10] as CFDictionary))
        XCTAssertEqual([small.width, small.height], [10, 5], "as stored, its longer side 10 pixels")
    }

    func testTIFFAndGIFAreWrittenAndReadBackPixelForPixel() throws {
        for (type, magic) in [("public.tiff", [0x49, 0x49, 0x2A, 0x00]), ("com.compuserve.gif", Array("GIF8".utf8).map(Int.init))] {
            let data = try encode(try halves(), as: type)
            XCTAssertEqual(Array(data.prefix(4)).map(Int.init), magic, type)
            let source = try XCTUnwrap(CGImageSourceCreateWithData(data as CFData, nil), type)
            XCTAssertEqual(CGImageSourceGetType(source).map { $0 as String }, type)
            let properties = try XCTUnwrap(CGImageSourceCopyPropertiesAtIndex(source, 0, nil))
            XCTAssertEqual(properties[kCGImagePropertyPixelWidth] as? Int, 40, type)
            XCTAssertEqual(properties[kCGImagePropertyPixelHeight] as? Int, 20, type)
            let image = try XCTUnwrap(CGImageSourceCreateImageAtIndex(source, 0, nil), type)
            XCTAssertEqual([image.width, image.height], [40, 20])
            XCTAssertEqual(try rgb(image, 5, 10), [255, 0, 0], type)
            XCTAssertEqual(try rgb(image, 35, 10), [0, 0, 255], type)
        }
        XCTAssertTrue((CGImageSourceCopyTypeIdentifiers() as? [String] ?? []).contains("public.tiff"))
        XCTAssertTrue((CGImageDestinationCopyTypeIdentifiers() as? [String] ?? []).contains("com.compuserve.gif"))
    }

    func testTIFFAndGIFFromOtherToolsAreReadWithTheirAlpha() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg"), "ffmpeg makes the pictures: apt-get install ffmpeg")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("imageio-\(getpid())-\(UUID().uuidString.prefix(6))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // A green picture whose left half is half transparent, as ffmpeg writes TIFF (RGBA) and GIF (a palette).
        let tiff = folder.appendingPathComponent("green.tif"), gif = folder.appendingPathComponent("green.gif")
        XCTAssertNotNil(
            runTool(
                "/usr/bin/ffmpeg",
                [
                    "-v", "error", "-f", "lavfi", "-i", "color=0x00FF00:size=64x48", "-vf",
                    "format=rgba,geq=r='r(X,Y)':g='g(X,Y)':b='b(X,Y)':a='if(lt(X,32),128,255)'", "-frames:v", "1", "-y", tiff.path,
                ]))
        XCTAssertNotNil(runTool("/usr/bin/ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "color=0x00FF00:size=64x48", "-frames:v", "1", "-y", gif.path]))
        let tiffSource = try XCTUnwrap(CGImageSourceCreateWithURL(tiff as CFURL, nil))
        XCTAssertEqual(CGImageSourceCopyPropertiesAtIndex(tiffSource, 0, nil)?[kCGImagePropertyHasAlpha] as? Bool, true)
        let tiffImage = try XCTUnwrap(CGImageSourceCreateImageAtIndex(tiffSource, 0, nil))
        XCTAssertNotEqual(tiffImage.alphaInfo, .noneSkipFirst, "a picture with alpha keeps it")
        for (value, expected) in zip(try rgb(tiffImage, 48, 24), [0, 255, 0]) { XCTAssertEqual(value, expected, accuracy: 2) }
        for (value, expected) in zip(try rgb(tiffImage, 8, 24), [0, 128, 0]) { XCTAssertEqual(value, expected, accuracy: 2, "premultiplied by half") }
        let gifImage = try XCTUnwrap(CGImageSourceCreateImageAtIndex(try XCTUnwrap(CGImageSourceCreateWithURL(gif as CFURL, nil)), 0, nil))
        XCTAssertEqual([gifImage.width, gifImage.height], [64, 48])
        for (value, expected) in zip(try rgb(gifImage, 30, 20), [0, 255, 0]) { XCTAssertEqual(value, expected, accuracy: 4) }
    }

    func testPropertiesAreWrittenIntoJPEGAndHEICAndReadBackUnderApplesKeys() throws {
        let written: [CFString: Any] = [
            kCGImagePropertyOrientation: 6,
            kCGImagePropertyTIFFDictionary: [kCGImagePropertyTIFFMake: "Linux", kCGImagePropertyTIFFModel: "Virtual Camera"],
            kCGImagePropertyExifDictionary: [
                kCGImagePropertyExifDateTimeOriginal: "2026:11:26 12:00:00", kCGImagePropertyExifFNumber: 1.8,
                kCGImagePropertyExifExposureTime: 1.0 / 120, kCGImagePropertyExifISOSpeedRatings: [200],
            ],
            kCGImagePropertyGPSDictionary: [
                kCGImagePropertyGPSLatitude: 48.8584, kCGImagePropertyGPSLatitudeRef: "N", kCGImagePropertyGPSLongitude: 2.2945,
                kCGImagePropertyGPSLongitudeRef: "E", kCGImagePropertyGPSAltitude: 35.0,
            ],
        ]
        for type in ["public.jpeg", "public.heic"] {
            let data = NSMutableData()
            let destination = try XCTUnwrap(CGImageDestinationCreateWithData(data as CFMutableData, type as CFString, 1, nil))
            CGImageDestinationAddImage(destination, try halves(), written as CFDictionary)
            XCTAssertTrue(CGImageDestinationFinalize(destination))
            let source = try XCTUnwrap(CGImageSourceCreateWithData(data as CFData, nil))
            let read = try XCTUnwrap(CGImageSourceCopyPropertiesAtIndex(source, 0, nil) as? [String: Any], type)
            XCTAssertEqual(read[kCGImagePropertyOrientation] as? Int, 6, type)
            let tiff = read[kCGImagePropertyTIFFDictionary] as? [String: Any] ?? [:]
            XCTAssertEqual(tiff[kCGImagePropertyTIFFMake] as? String, "Linux", type)
            XCTAssertEqual(tiff[kCGImagePropertyTIFFModel] as? String, "Virtual Camera", type)
            let exif = read[kCGImagePropertyExifDictionary] as? [String: Any] ?? [:]
            XCTAssertEqual(exif[kCGImagePropertyExifDateTimeOriginal] as? String, "2026:11:26 12:00:00", type)
            XCTAssertEqual(exif[kCGImagePropertyExifFNumber] as? Double ?? 0, 1.8, accuracy: 1e-6, type)
            XCTAssertEqual(exif[kCGImagePropertyExifExposureTime] as? Double ?? 0, 1.0 / 120, accuracy: 1e-6, type)
            XCTAssertEqual(exif[kCGImagePropertyExifISOSpeedRatings] as? [Int], [200], type)
            let gps = read[kCGImagePropertyGPSDictionary] as? [String: Any] ?? [:]
            XCTAssertEqual(gps[kCGImagePropertyGPSLatitude] as? Double ?? 0, 48.8584, accuracy: 1e-4, type)
            XCTAssertEqual(gps[kCGImagePropertyGPSLatitudeRef] as? String, "N", type)
            XCTAssertEqual(gps[kCGImagePropertyGPSLongitude] as? Double ?? 0, 2.2945, accuracy: 1e-4, type)
            XCTAssertEqual(gps[kCGImagePropertyGPSAltitude] as? Double ?? 0, 35, accuracy: 1e-6, type)
            // The orientation turns a thumbnail that asks for it: the 40x20 picture stands up.
            let thumbnail = try XCTUnwrap(
                CGImageSourceCreateThumbnailAtIndex(
                    source, 0, [kCGImageSourceCreateThumbnailFromImageAlways: true, kCGImageSourceCreateThumbnailWithTransform: true] as CFDictionary))
            XCTAssertEqual([thumbnail.width, thumbnail.height], [20, 40], type)
        }
        // Without properties, nothing is made up.
        let plain = try encode(try halves(), as: "public.jpeg")
        let plainProperties = try XCTUnwrap(CGImageSourceCopyPropertiesAtIndex(try XCTUnwrap(CGImageSourceCreateWithData(plain as CFData, nil)), 0, nil))
        XCTAssertNil(plainProperties[kCGImagePropertyGPSDictionary])
        XCTAssertNil(plainProperties[kCGImagePropertyOrientation])
    }

    func testDamagedAndForeignDataIsRefusedWithoutHarm() throws {
        XCTAssertNil(CGImageSourceCreateWithData(Data("not a picture".utf8) as CFData, nil))
        XCTAssertNil(CGImageSourceCreateWithURL(URL(fileURLWithPath: "/nonexistent/picture.jpg") as CFURL, nil))
        let jpeg = try encode(try halves(), as: "public.jpeg")
        let cut = try XCTUnwrap(CGImageSourceCreateWithData(jpeg.prefix(jpeg.count / 3) as CFData, nil), "the header is there")
        XCTAssertNil(CGImageSourceCreateImageAtIndex(cut, 0, nil), "a JPEG cut short decodes to nothing")
        // A PNG header that claims 60000x60000 pixels: refused before memory is taken.
        var png = try encode(try halves(), as: "public.png")
        png.replaceSubrange(16..<24, with: [0, 0, 0xEA, 0x60, 0, 0, 0xEA, 0x60])
        let huge = try XCTUnwrap(CGImageSourceCreateWithData(png as CFData, nil))
        XCTAssertNil(CGImageSourceCreateImageAtIndex(huge, 0, nil))
        let heic = try encode(try halves(), as: "public.heic")
        let cutHEIC = try XCTUnwrap(CGImageSourceCreateWithData(heic.prefix(heic.count / 2) as CFData, nil), "the ftyp box is there")
        XCTAssertNil(CGImageSourceCreateImageAtIndex(cutHEIC, 0, nil), "a HEIC cut short decodes to nothing")
        XCTAssertNil(CGImageDestinationCreateWithData(NSMutableData(), "public.bogus" as CFString, 1, nil), "a type no encoder writes")
        // A GIF whose screen and picture claim 65535x65535 pixels: refused from its header, before any is decoded.
        var gif = try encode(try halves(), as: "com.compuserve.gif")
        gif.replaceSubrange(6..<10, with: [0xFF, 0xFF, 0xFF, 0xFF])
        var at = 13 + (gif[10] & 0x80 != 0 ? 3 << (Int(gif[10] & 7) + 1) : 0)
        while at < gif.count, gif[at] == 0x21 {
            // An extension: its label, then sub-blocks until an empty one.
            at += 2
            while at < gif.count, gif[at] != 0 { at += Int(gif[at]) + 1 }
            at += 1
        }
        XCTAssertEqual(gif[at], 0x2C, "the picture's descriptor")
        gif.replaceSubrange((at + 5)..<(at + 9), with: [0xFF, 0xFF, 0xFF, 0xFF])
        let hugeGIF = try XCTUnwrap(CGImageSourceCreateWithData(gif as CFData, nil))
        XCTAssertNil(CGImageSourceCreateImageAtIndex(hugeGIF, 0, nil))
        let tiff = try encode(try halves(), as: "public.tiff")
        XCTAssertNil(CGImageSourceCreateImageAtIndex(try XCTUnwrap(CGImageSourceCreateWithData(tiff.prefix(12) as CFData, nil)), 0, nil), "a TIFF cut short")
    }

    func testAFileAppearsOnlyWhenComplete() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("imageio-\(getpid())-\(UUID().uuidString.prefix(6))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("halves.png")
        let destination = try XCTUnwrap(CGImageDestinationCreateWithURL(url as CFURL, "public.png" as CFString, 1, nil))
        CGImageDestinationAddImage(destination, try halves(), nil)
        XCTAssertFalse(FileManager.default.fileExists(atPath: url.path), "nothing before finalizing")
        XCTAssertTrue(CGImageDestinationFinalize(destination))
        let source = try XCTUnwrap(CGImageSourceCreateWithURL(url as CFURL, nil))
        XCTAssertEqual(CGImageSourceCopyPropertiesAtIndex(source, 0, nil)?[kCGImagePropertyPixelWidth] as? Int, 40)
        let unwritable = try XCTUnwrap(CGImageDestinationCreateWithURL(URL(fileURLWithPath: "/proc/nowhere/x.png") as CFURL, "public.png" as CFString, 1, nil))
        CGImageDestinationAddImage(unwritable, try halves(), nil)
        XCTAssertFalse(CGImageDestinationFinalize(unwritable), "a folder that cannot be written says so")
    }
}
