import XCTest
import AVFoundation
import AppleStyleCode

/// Image I/O code in Core Foundation's C style: what it writes and reads here.
final class CoreFoundationStyleTests: XCTestCase {
    /// A 64x48 opaque picture.
    private func picture() throws -> CGImage {
        let context = try XCTUnwrap(
            CGContext(
                data: nil, width: 64, height: 48, bitsPerComponent: 8, bytesPerRow: 0, space: CGColorSpaceCreateDeviceRGB(),
                bitmapInfo: CGImageAlphaInfo.noneSkipLast.rawValue))
        context.setFillColor(red: 0.2, green: 0.6, blue: 0.9, alpha: 1)
        context.fill(CGRect(x: 0, y: 0, width: 64, height: 48))
        return try XCTUnwrap(context.makeImage())
    }

    func testAPropertiesDictionaryBuiltAndWalkedWithTheCFunctions() throws {
        let jpeg = try XCTUnwrap(
            PhotoPropertiesWalker.jpeg(of: try picture(), make: "Linux Camera", fNumber: 1.8, isoSpeeds: [200, 400], orientation: 6))
        let summary = try XCTUnwrap(PhotoPropertiesWalker.summary(of: jpeg))
        XCTAssertEqual(summary.width, 64)
        XCTAssertEqual(summary.height, 48)
        XCTAssertEqual(summary.orientation, 6, "the orientation set with CFDictionarySetValue, read back with CFNumberGetValue")
        XCTAssertEqual(summary.make, "Linux Camera", "a CFString value, bit-cast and bridged to String")
        XCTAssertEqual(summary.fNumber, 1.8, accuracy: 0.01)
        XCTAssertEqual(summary.isoSpeeds, [200, 400], "an array walked with CFArrayGetCount and CFArrayGetValueAtIndex")
        XCTAssertFalse(summary.hasAlpha, "a JPEG has no alpha; the CFBoolean says so")
        // The same dictionary read the Swift way.
        let source = try XCTUnwrap(CGImageSourceCreateWithData(jpeg as CFData, nil))
        let properties = try XCTUnwrap(CGImageSourceCopyPropertiesAtIndex(source, 0, nil) as? [String: Any])
        XCTAssertEqual(properties[kCGImagePropertyPixelWidth as String] as? Int, 64)
        XCTAssertEqual((properties[kCGImagePropertyTIFFDictionary as String] as? [String: Any])?[kCGImagePropertyTIFFMake as String] as? String, "Linux Camera")
    }

    func testAnUploaderFindsMIMETypesThroughCoreServicesFunctions() {
        XCTAssertEqual(UploadMIMETypes.mimeType(forPath: "/tmp/clip.mov"), "video/quicktime")
        XCTAssertEqual(UploadMIMETypes.mimeType(forPath: "/tmp/photo.JPG"), "image/jpeg")
        XCTAssertEqual(UploadMIMETypes.mimeType(forPath: "/tmp/memo.m4a"), "audio/x-m4a")
        XCTAssertEqual(UploadMIMETypes.mimeType(forPath: "/tmp/notes.xyz"), "application/octet-stream", "a dynamic type has no MIME type")
        XCTAssertTrue(UploadMIMETypes.isMovie("/tmp/clip.mp4"))
        XCTAssertFalse(UploadMIMETypes.isMovie("/tmp/photo.heic"))
    }
}
