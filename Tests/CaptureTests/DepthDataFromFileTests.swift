import AVFoundation
import CoreVideo
import ImageIO
import XCTest

/// A portrait photo's depth read back from its HEIC file, as a photo app does it: Image I/O's
/// auxiliary data dictionary, then AVDepthData from it. The file (pillow-heif's pug.heic) holds
/// its depth as 8-bit values of a uniform disparity from 1.498047 to 4.382812; pug_depth.png is
/// that depth image as the pillow-heif project decoded it, the independent reference here.
final class DepthDataFromFileTests: XCTestCase {
    private func picture(_ name: String) throws -> URL {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/test-pictures/\(name)")
        guard FileManager.default.fileExists(atPath: url.path) else {
            if ProcessInfo.processInfo.environment["CI"] != nil { XCTFail("\(url.path) is missing: scripts/fetch-test-pictures.sh fetches it") }
            throw XCTSkip("\(name) is not fetched: run scripts/fetch-test-pictures.sh")
        }
        return url
    }

    func testAPortraitHEICsDisparityComesAsImageIOsAuxiliaryDataAndAsDepthData() throws {
        let source = try XCTUnwrap(CGImageSourceCreateWithURL(try picture("pug.heic") as CFURL, nil))
        XCTAssertNil(CGImageSourceCopyAuxiliaryDataInfoAtIndex(source, 0, kCGImageAuxiliaryDataTypeDepth), "the file holds disparity, not depth")
        XCTAssertNil(CGImageSourceCopyAuxiliaryDataInfoAtIndex(source, 1, kCGImageAuxiliaryDataTypeDisparity), "one picture")
        let info = try XCTUnwrap(CGImageSourceCopyAuxiliaryDataInfoAtIndex(source, 0, kCGImageAuxiliaryDataTypeDisparity) as? [String: Any])
        let description = try XCTUnwrap(info[kCGImageAuxiliaryDataInfoDataDescription as String] as? [String: Any])
        XCTAssertEqual(description["Width"] as? Int, 768)
        XCTAssertEqual(description["Height"] as? Int, 576)
        XCTAssertEqual(description["BytesPerRow"] as? Int, 768 * 4)
        XCTAssertEqual(description["PixelFormat"] as? OSType, kCVPixelFormatType_DisparityFloat32)
        let data = try XCTUnwrap(info[kCGImageAuxiliaryDataInfoData as String] as? Data)
        XCTAssertEqual(data.count, 768 * 576 * 4)

        // The reference: the depth image's 8-bit values, as the pillow-heif project decoded them.
        let reference = try XCTUnwrap(CGImageSourceCreateWithURL(try picture("pug_depth.png") as CFURL, nil))
        let image = try XCTUnwrap(CGImageSourceCreateImageAtIndex(reference, 0, nil))
        XCTAssertEqual(image.width, 768)
        XCTAssertEqual(image.height, 576)
        let context = try XCTUnwrap(
            CGContext(
                data: nil, width: 768, height: 576, bitsPerComponent: 8, bytesPerRow: 768 * 4, space: CGColorSpaceCreateDeviceRGB(),
                bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue))
        context.draw(image, in: CGRect(x: 0, y: 0, width: 768, height: 576))
        let grey = try XCTUnwrap(context.data).assumingMemoryBound(to: UInt8.self)
        let depth = try AVDepthData(fromDictionaryRepresentation: info)
        XCTAssertEqual(depth.depthDataType, kCVPixelFormatType_DisparityFloat32)
        let map = depth.depthDataMap
        XCTAssertEqual(map.width, 768)
        XCTAssertEqual(map.height, 576)
        var largestError: Float = 0
        var spread = Set<Int>()
        for y in stride(from: 0, to: 576, by: 7) {
            let row = (map.planes[0].baseAddress + y * map.planes[0].bytesPerRow).assumingMemoryBound(to: Float.self)
            for x in stride(from: 0, to: 768, by: 5) {
                let stored = Float(grey[(y * 768 + x) * 4]) / 255
                let want = 1.498047 + stored * (4.382812 - 1.498047)
                largestError = max(largestError, abs(row[x] - want))
                spread.insert(Int(stored * 255))
            }
        }
        XCTAssertLessThan(largestError, 0.001, "each disparity is the stored value spread over the file's range")
        XCTAssertGreaterThan(spread.count, 50, "a map of many values, not a flat one")
        // Disparity to depth: 1 / disparity, in metres.
        let metres = depth.converting(toDepthDataType: kCVPixelFormatType_DepthFloat32)
        let first = (metres.depthDataMap.planes[0].baseAddress).assumingMemoryBound(to: Float.self)[0]
        let disparity = (map.planes[0].baseAddress).assumingMemoryBound(to: Float.self)[0]
        XCTAssertEqual(first, 1 / disparity, accuracy: 1e-4)
    }

    func testAPictureWithoutDepthHasNoAuxiliaryData() throws {
        // A HEIC of the package's own, which holds no depth image.
        var pixels = [UInt8](repeating: 128, count: 64 * 48 * 4)
        let data = NSMutableData()
        let destination = try XCTUnwrap(CGImageDestinationCreateWithData(data as CFMutableData, "public.heic" as CFString, 1, nil))
        let context = try XCTUnwrap(
            CGContext(
                data: &pixels, width: 64, height: 48, bitsPerComponent: 8, bytesPerRow: 256, space: CGColorSpaceCreateDeviceRGB(),
                bitmapInfo: CGImageAlphaInfo.noneSkipLast.rawValue))
        CGImageDestinationAddImage(destination, try XCTUnwrap(context.makeImage()), nil)
        XCTAssertTrue(CGImageDestinationFinalize(destination))
        let source = try XCTUnwrap(CGImageSourceCreateWithData(data as CFData, nil))
        XCTAssertNil(CGImageSourceCopyAuxiliaryDataInfoAtIndex(source, 0, kCGImageAuxiliaryDataTypeDisparity))
        XCTAssertNil(CGImageSourceCopyAuxiliaryDataInfoAtIndex(source, 0, kCGImageAuxiliaryDataTypeDepth))
        XCTAssertThrowsError(try AVDepthData(fromDictionaryRepresentation: [:]), "an empty dictionary is no depth data")
    }
}
