import XCTest
@testable import AVFoundation
@testable import CaptureDevices
@testable import FrameProcessing

/// The light meter a real camera's automatic flash and torch go by: the mean luma of its frames.
final class SceneLightMeterTests: XCTestCase {
    /// A 64x48 picture in `format` whose every luma sample is `luma`, chroma neutral.
    private func picture(_ format: OSType, luma: UInt8) throws -> CVPixelBuffer {
        var image: CVPixelBuffer?
        XCTAssertEqual(CVPixelBufferCreate(nil, 64, 48, format, nil, &image), kCVReturnSuccess)
        let buffer = try XCTUnwrap(image)
        CVPixelBufferLockBaseAddress(buffer, [])
        defer { CVPixelBufferUnlockBaseAddress(buffer, []) }
        let planar = CVPixelBufferIsPlanar(buffer)
        let base = try XCTUnwrap(planar ? CVPixelBufferGetBaseAddressOfPlane(buffer, 0) : CVPixelBufferGetBaseAddress(buffer)).assumingMemoryBound(
            to: UInt8.self)
        let stride = planar ? CVPixelBufferGetBytesPerRowOfPlane(buffer, 0) : CVPixelBufferGetBytesPerRow(buffer)
        for y in 0..<48 {
            for x in 0..<stride {
                switch format {
                case kCVPixelFormatType_32BGRA: base[y * stride + x] = x % 4 == 3 ? 255 : luma
                case kCVPixelFormatType_422YpCbCr8_yuvs: base[y * stride + x] = x % 2 == 0 ? luma : 128
                case kCVPixelFormatType_422YpCbCr8: base[y * stride + x] = x % 2 == 1 ? luma : 128
                default: base[y * stride + x] = luma
                }
            }
        }
        return buffer
    }

    func testTheMeanLumaOfEachFormatACameraDelivers() throws {
        for format in [kCVPixelFormatType_422YpCbCr8_yuvs, kCVPixelFormatType_422YpCbCr8, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange] {
            XCTAssertEqual(try XCTUnwrap(SceneLightMeter.meanLuma(of: try picture(format, luma: 126))), 0.502, accuracy: 0.003, "video range: (126 - 16) / 219")
            XCTAssertEqual(try XCTUnwrap(SceneLightMeter.meanLuma(of: try picture(format, luma: 16))), 0, accuracy: 0.001, "video-range black")
        }
        XCTAssertEqual(try XCTUnwrap(SceneLightMeter.meanLuma(of: try picture(kCVPixelFormatType_32BGRA, luma: 51))), 0.2, accuracy: 0.001)
        XCTAssertEqual(try XCTUnwrap(SceneLightMeter.meanLuma(of: try picture(kCVPixelFormatType_420YpCbCr8BiPlanarFullRange, luma: 51))), 0.2, accuracy: 0.001)
        XCTAssertNil(SceneLightMeter.meanLuma(of: try picture(kCVPixelFormatType_DepthFloat32, luma: 0)), "not a picture it can read")
    }

    func testItReadsEveryFifteenthFrameAndTheModelKeepsReadingsTakenInTheLEDsLight() throws {
        var meter = SceneLightMeter()
        let image = try picture(kCVPixelFormatType_420YpCbCr8BiPlanarFullRange, luma: 23)
        var description: CMVideoFormatDescription?
        XCTAssertEqual(CMVideoFormatDescriptionCreateForImageBuffer(allocator: nil, imageBuffer: image, formatDescriptionOut: &description), noErr)
        var timing = CMSampleTimingInfo(duration: .invalid, presentationTimeStamp: .zero, decodeTimeStamp: .invalid)
        var created: CMSampleBuffer?
        XCTAssertEqual(
            CMSampleBufferCreateReadyWithImageBuffer(
                allocator: nil, imageBuffer: image, formatDescription: try XCTUnwrap(description),
                sampleTiming: &timing, sampleBufferOut: &created), noErr)
        let sample = try XCTUnwrap(created)
        let readings = (0..<30).map { _ in meter.reading(of: sample) }
        XCTAssertEqual(readings.compactMap { $0 }.count, 2)
        let reading = try XCTUnwrap(readings[14])
        XCTAssertEqual(reading, 0.2, accuracy: 0.01, "luma 0.09 against a lit room's 0.45")
        let model = ImagingModel(ImagingState())
        model.meter(reading)
        XCTAssertEqual(model.current.sceneLuminance, reading)
        model.update {
            $0.isStreaming = true; $0.torchMode = .on; $0.torchLevel = 1
        }
        XCTAssertTrue(model.current.isTorchActive)
        model.meter(1.5)
        XCTAssertEqual(model.current.sceneLuminance, reading, "a picture lit by the torch says nothing about the room")
    }
}
