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

    /// The virtual scene at `width` x `height` in a camera's `format`, tagged BT.601.
    private func cameraFrame(_ format: OSType, width: Int, height: Int) throws -> CVPixelBuffer {
        let renderer = try XCTUnwrap(SceneRenderer(width: width, height: height, pixelFormat: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange))
        let scene = try XCTUnwrap(CVPixelBuffer(width: width, height: height, pixelFormatType: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange))
        renderer.render(
            into: scene, SceneFrameParameters(frameNumber: 11, seconds: 0.4, zoom: 1, brightness: 1, colourGains: (1, 1, 1), defocus: 0, image: nil))
        var colour = VideoColorimetry.standard(width: width, height: height)
        colour.matrix = .bt601
        colour.tag(scene)
        guard format != scene.pixelFormatType else { return scene }
        let converted = try XCTUnwrap(CVPixelBuffer(width: width, height: height, pixelFormatType: format))
        VideoColorimetry.copy(from: scene, to: converted)
        guard format == kCVPixelFormatType_420YpCbCr8Planar else {
            XCTAssertTrue(PixelFormatConverter().convert(scene, into: converted), format.fourCharacterString)
            return converted
        }
        // Three planes: the scene's Y' as it is, its interleaved chroma split.
        let from = scene.planes, to = converted.planes
        func bytes(_ plane: CVPixelBuffer.Plane) -> UnsafeMutablePointer<UInt8> { plane.baseAddress.assumingMemoryBound(to: UInt8.self) }
        for row in 0..<height {
            for column in 0..<width { bytes(to[0])[row * to[0].bytesPerRow + column] = bytes(from[0])[row * from[0].bytesPerRow + column] }
        }
        for row in 0..<(height / 2) {
            for column in 0..<(width / 2) {
                bytes(to[1])[row * to[1].bytesPerRow + column] = bytes(from[1])[row * from[1].bytesPerRow + 2 * column]
                bytes(to[2])[row * to[2].bytesPerRow + column] = bytes(from[1])[row * from[1].bytesPerRow + 2 * column + 1]
            }
        }
        return converted
    }

    /// `planar` ('f420') with each chroma sample repeated over its 2x2 pixels, compressed 4:4:4 by TurboJPEG.
    private func turboJPEG444(_ planar: CVPixelBuffer, quality: Int32, accurateDCT: Bool) throws -> Data {
        let (width, height) = (planar.width, planar.height)
        let source = planar.planes
        var planes = [[UInt8]](repeating: [UInt8](repeating: 0, count: width * height), count: 3)
        for plane in 0..<3 {
            let base = source[plane].baseAddress.assumingMemoryBound(to: UInt8.self), stride = source[plane].bytesPerRow
            for row in 0..<height {
                for column in 0..<width {
                    planes[plane][row * width + column] = plane == 0 ? base[row * stride + column] : base[row / 2 * stride + column / 2]
                }
            }
        }
        let handle = try XCTUnwrap(tjInitCompress())
        defer { tjDestroy(handle) }
        var buffer: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        var strides = [Int32](repeating: Int32(width), count: 3)
        let status = planes[0].withUnsafeBufferPointer { y in
            planes[1].withUnsafeBufferPointer { cb in
                planes[2].withUnsafeBufferPointer { cr in
                    var pointers: [UnsafePointer<UInt8>?] = [y.baseAddress, cb.baseAddress, cr.baseAddress]
                    return tjCompressFromYUVPlanes(
                        handle, &pointers, Int32(width), &strides, Int32(height), Int32(TJSAMP_444.rawValue), &buffer, &size, quality,
                        accurateDCT ? TJFLAG_ACCURATEDCT : TJFLAG_FASTDCT)
                }
            }
        }
        XCTAssertEqual(status, 0)
        defer { tjFree(buffer) }
        return Data(bytes: try XCTUnwrap(buffer), count: Int(size))
    }

    /// A camera's BT.601 frame (4:2:0 in two planes or three, 4:2:2 packed, video or full range) is
    /// compressed from its own samples a band at a time: the JPEG is TurboJPEG's of the frame's
    /// samples in JPEG's full-range 4:2:0 (`JPEGSampleConverter`), byte for byte, with a last band
    /// cut short and rows not whole blocks; at 4:4:4, of those samples each repeated over its pixels.
    func testACamerasFrameIsCompressedFromItsOwnSamplesABandAtATime() throws {
        let encoder = JPEGEncoder()
        let cases: [(OSType, Int, Int)] = [
            (kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, 1280, 720), (kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, 650, 490),
            (kCVPixelFormatType_420YpCbCr8BiPlanarFullRange, 640, 480), (kCVPixelFormatType_422YpCbCr8_yuvs, 650, 490),
            (kCVPixelFormatType_422YpCbCr8, 320, 240), (kCVPixelFormatType_420YpCbCr8Planar, 336, 200),
        ]
        for (format, width, height) in cases {
            let frame = try cameraFrame(format, width: width, height: height)
            let planar = try XCTUnwrap(JPEGSampleConverter().convert(frame))
            let label = "\(format.fourCharacterString) \(width)x\(height)"
            for (quality, accurate) in [(Int32(85), false), (92, true)] {
                let ours = try XCTUnwrap(encoder.encode(frame, quality: quality, accurateDCT: accurate), label)
                XCTAssertEqual(ours, try turboJPEG(planar, quality: quality, fullChroma: false, accurateDCT: accurate), "\(label) at quality \(quality)")
            }
            let full = try XCTUnwrap(encoder.encode(frame, quality: 95, fullChroma: true), label)
            XCTAssertEqual(full, try turboJPEG444(planar, quality: 95, accurateDCT: true), "\(label) at 4:4:4")
        }
    }

    /// Another matrix is not JPEG's: a BT.709 two-plane frame (HD video) is compressed a band at a
    /// time from its samples turned into JPEG's by its matrix, with no trip through R'G'B': the JPEG
    /// is TurboJPEG's of the whole frame as `JPEGSampleConverter` gives it, byte for byte, a last
    /// band cut short included; at 4:4:4, of those samples each repeated over its pixels.
    func testABT709FrameIsCompressedFromItsSamplesTurnedByItsMatrixABandAtATime() throws {
        let encoder = JPEGEncoder()
        for (format, width, height) in [
            (kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, 1280, 720), (kCVPixelFormatType_420YpCbCr8BiPlanarFullRange, 650, 490),
        ] {
            let hd = try cameraFrame(format, width: width, height: height)
            VideoColorimetry.tagMatrix(.bt709, of: hd)
            let planar = try XCTUnwrap(JPEGSampleConverter().convert(hd))
            let label = "\(format.fourCharacterString) \(width)x\(height)"
            for (quality, accurate) in [(Int32(90), true), (85, false)] {
                XCTAssertEqual(
                    encoder.encode(hd, quality: quality, accurateDCT: accurate),
                    try turboJPEG(planar, quality: quality, fullChroma: false, accurateDCT: accurate), "\(label) at quality \(quality)")
            }
            XCTAssertEqual(encoder.encode(hd, quality: 95, fullChroma: true), try turboJPEG444(planar, quality: 95, accurateDCT: true), "\(label) at 4:4:4")
        }
    }

    func testNothingIsAskedOfTheSystemAfterTheFirstFrameOfASize() throws {
        let (bgra, planar) = try frames()
        let camera = try cameraFrame(kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, width: 1280, height: 720)
        let hd = try cameraFrame(kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, width: 1280, height: 720)
        VideoColorimetry.tagMatrix(.bt709, of: hd)
        let encoder = JPEGEncoder()
        for frame in [bgra, planar, camera, hd] {
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
