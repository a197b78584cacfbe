import XCTest
import CTurboJPEG
@testable import AVFoundation
@testable import CaptureDevices
@testable import FrameProcessing

/// The JPEG encoder writes what TurboJPEG writes for the same settings, from BGRA rows and from
/// JPEG's own planar samples, and asks the system for memory only for its first frame of a size.
final class JPEGEncoderTests: XCTestCase {
    /// A 1280x720 frame of the virtual scene in BGRA, and the same as JPEG's full-range planar 4:2:0.
    private func frames() throws -> (bgra: CVPixelBuffer, planar: CVPixelBuffer) {
        let renderer = try XCTUnwrap(SceneRenderer(width: 1280, height: 720, pixelFormat: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange))
        let scene = try XCTUnwrap(CVPixelBuffer(width: 1280, height: 720, pixelFormatType: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange))
        renderer.render(
            into: scene, SceneFrameParameters(frameNumber: 7, seconds: 0.25, zoom: 1, brightness: 1, colourGains: (1, 1, 1), defocus: 0, image: nil))
        var colour = VideoColorimetry.standard(width: 1280, height: 720)
        colour.matrix = .bt601
        colour.tag(scene)
        let bgra = try XCTUnwrap(CVPixelBuffer(width: 1280, height: 720, pixelFormatType: kCVPixelFormatType_32BGRA))
        XCTAssertTrue(PixelFormatConverter().convert(scene, into: bgra))
        return (bgra, try XCTUnwrap(JPEGSampleConverter().convert(scene)))
    }

    /// TurboJPEG's JPEG of the same frame with the same settings.
    private func turboJPEG(_ frame: CVPixelBuffer, quality: Int32, fullChroma: Bool, accurateDCT: Bool) throws -> Data {
        let handle = try XCTUnwrap(tjInitCompress())
        defer { tjDestroy(handle) }
        var buffer: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let flags = accurateDCT ? TJFLAG_ACCURATEDCT : TJFLAG_FASTDCT
        let planes = frame.planes
        let status: Int32
        if frame.pixelFormatType == kCVPixelFormatType_32BGRA {
            status = tjCompress2(
                handle, planes[0].baseAddress.assumingMemoryBound(to: UInt8.self), Int32(frame.width), Int32(planes[0].bytesPerRow),
                Int32(frame.height), Int32(TJPF_BGRA.rawValue), &buffer, &size,
                Int32(fullChroma ? TJSAMP_444.rawValue : TJSAMP_420.rawValue), quality, flags)
        } else {
            var pointers: [UnsafePointer<UInt8>?] = planes.map { UnsafePointer($0.baseAddress.assumingMemoryBound(to: UInt8.self)) }
            var strides: [Int32] = planes.map { Int32($0.bytesPerRow) }
            status = tjCompressFromYUVPlanes(
                handle, &pointers, Int32(frame.width), &strides, Int32(frame.height), Int32(TJSAMP_420.rawValue),
                &buffer, &size, quality, flags)
        }
        XCTAssertEqual(status, 0)
        defer { tjFree(buffer) }
        return Data(bytes: try XCTUnwrap(buffer), count: Int(size))
    }

    func testTheBytesAreTurboJPEGsForEverySetting() throws {
        let (bgra, planar) = try frames()
        let encoder = JPEGEncoder()
        for (quality, fullChroma, accurate) in [(Int32(80), false, false), (95, false, true), (97, false, false), (90, true, true), (10, false, false)] {
            let ours = try XCTUnwrap(encoder.encode(bgra, quality: quality, fullChroma: fullChroma, accurateDCT: accurate))
            XCTAssertEqual(
                ours, try turboJPEG(bgra, quality: quality, fullChroma: fullChroma, accurateDCT: accurate),
                "BGRA at quality \(quality), 4:4:4 \(fullChroma), accurate DCT \(accurate)")
        }
        for (quality, accurate) in [(Int32(80), false), (95, true)] {
            let ours = try XCTUnwrap(encoder.encode(planar, quality: quality, accurateDCT: accurate))
            XCTAssertEqual(ours, try turboJPEG(planar, quality: quality, fullChroma: false, accurateDCT: accurate), "planes at quality \(quality)")
        }
    }

    func testNothingIsAskedOfTheSystemAfterTheFirstFrameOfASize() throws {
        let (bgra, planar) = try frames()
        let encoder = JPEGEncoder()
        for frame in [bgra, planar] {
            XCTAssertNotNil(encoder.encode(frame, quality: 80, accurateDCT: false))
            let settled = encoder.systemAllocations
            for _ in 0..<10 { XCTAssertNotNil(encoder.encode(frame, quality: 80, accurateDCT: false)) }
            XCTAssertEqual(encoder.systemAllocations, settled, "\(frame.pixelFormatType.fourCharacterString): memory reused")
        }
        // A picture larger than the output buffer's first guess: it grows, the JPEG is whole.
        let noise = try XCTUnwrap(CVPixelBuffer(width: 64, height: 64, pixelFormatType: kCVPixelFormatType_32BGRA))
        var generator = SystemRandomNumberGenerator()
        let base = noise.planes[0].baseAddress.assumingMemoryBound(to: UInt8.self)
        for index in 0..<(noise.planes[0].bytesPerRow * 64) { base[index] = UInt8.random(in: 0...255, using: &generator) }
        let fresh = JPEGEncoder()
        let jpeg = try XCTUnwrap(fresh.encode(noise, quality: 100, fullChroma: true))
        XCTAssertGreaterThan(jpeg.count, 64 * 64 + 4096, "noise at quality 100 outgrows a byte a pixel")
        XCTAssertEqual(jpeg, try turboJPEG(noise, quality: 100, fullChroma: true, accurateDCT: true))
    }

    func testAFrameTooLargeForJPEGIsRefusedNotACrash() throws {
        let wide = try XCTUnwrap(CVPixelBuffer(width: 70_000, height: 2, pixelFormatType: kCVPixelFormatType_32BGRA))
        XCTAssertNil(JPEGEncoder().encode(wide, quality: 80), "JPEG holds at most 65500 pixels a side")
    }
}
