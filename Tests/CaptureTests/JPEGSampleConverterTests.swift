import CaptureTestSupport
import XCTest
@testable import AVFoundation
@testable import CaptureDevices
@testable import FrameProcessing
import TestSupport

/// Y'CbCr frames put straight into JPEG's samples (full-range planar 4:2:0) keep their colours:
/// the JPEG decodes to what the trip through BGRA gives, video-range black and white become 0 and
/// 255, and frames whose matrix is not JPEG's go through BGRA instead.
final class JPEGSampleConverterTests: CaptureTestCase {
    /// Video-range BT.601 Y'CbCr of black, white, red and a mid blue-green, one bar each.
    private static let bars: [(y: UInt8, cb: UInt8, cr: UInt8)] = [(16, 128, 128), (235, 128, 128), (81, 90, 240), (120, 160, 80)]

    /// A 64x32 YUYV frame of the four bars, tagged with `matrix`.
    private func yuyvBars(matrix: VideoColorimetry.Matrix = .bt601) throws -> CVPixelBuffer {
        let frame = try XCTUnwrap(CVPixelBuffer(width: 64, height: 32, pixelFormatType: kCVPixelFormatType_422YpCbCr8_yuvs))
        let plane = frame.planes[0]
        let base = plane.baseAddress.assumingMemoryBound(to: UInt8.self)
        for row in 0..<32 {
            for pair in 0..<32 {
                let bar = Self.bars[pair / 8], pixel = base + row * plane.bytesPerRow + pair * 4
                (pixel[0], pixel[1], pixel[2], pixel[3]) = (bar.y, bar.cb, bar.y, bar.cr)
            }
        }
        var colour = VideoColorimetry.standard(width: 640, height: 480)
        colour.matrix = matrix
        colour.tag(frame)
        return frame
    }

    /// The BGRA of the middle of each bar, after encoding `frame` as JPEG at quality 95 and decoding it.
    private func barsThroughJPEG(_ frame: CVPixelBuffer) throws -> [[Int]] {
        let jpeg = try XCTUnwrap(JPEGEncoder().encode(frame, quality: 95), "encoded")
        let decoded = try XCTUnwrap(CVPixelBuffer(width: 64, height: 32, pixelFormatType: kCVPixelFormatType_32BGRA))
        XCTAssertTrue(jpeg.withUnsafeBytes { MJPEGDecoder().decode($0.bindMemory(to: UInt8.self).baseAddress!, count: jpeg.count, into: decoded) })
        let plane = decoded.planes[0]
        let base = plane.baseAddress.assumingMemoryBound(to: UInt8.self)
        return (0..<4).map { bar in
            let pixel = base + 16 * plane.bytesPerRow + (bar * 16 + 8) * 4
            return [Int(pixel[0]), Int(pixel[1]), Int(pixel[2])]
        }
    }

    func testJPEGSamplesKeepTheColoursTheTripThroughBGRAGives() throws {
        let frame = try yuyvBars()
        XCTAssertTrue(JPEGSampleConverter.accepts(frame))
        let samples = try XCTUnwrap(JPEGSampleConverter().convert(frame))
        XCTAssertEqual(CVPixelBufferGetPixelFormatType(samples), kCVPixelFormatType_420YpCbCr8PlanarFullRange)
        XCTAssertEqual([samples.width, samples.height], [64, 32])
        // Video-range black and white stretched to the ends of the full range.
        let luma = samples.planes[0].baseAddress.assumingMemoryBound(to: UInt8.self)
        XCTAssertEqual(luma[8], 0)
        XCTAssertEqual(luma[24], 255)
        XCTAssertEqual(samples.planes[1].baseAddress.assumingMemoryBound(to: UInt8.self)[4], 128, "neutral chroma stays neutral")

        let direct = try barsThroughJPEG(samples)
        let bgra = try XCTUnwrap(CVPixelBuffer(width: 64, height: 32, pixelFormatType: kCVPixelFormatType_32BGRA))
        XCTAssertTrue(PixelFormatConverter().convert(frame, into: bgra))
        let throughBGRA = try barsThroughJPEG(bgra)
        for (ours, reference) in zip(direct, throughBGRA) {
            for (a, b) in zip(ours, reference) { XCTAssertEqual(a, b, accuracy: 6, "\(direct) against \(throughBGRA)") }
        }
        XCTAssertEqual(direct[0].max() ?? 255, 0, accuracy: 3, "black")
        XCTAssertEqual(direct[1].min() ?? 0, 255, accuracy: 3, "white")
        XCTAssertTrue(direct[2][2] > 230 && direct[2][1] < 30 && direct[2][0] < 30, "red: \(direct[2])")
    }

    func testOtherMatricesAndRGBAreLeftToTheTripThroughBGRA() throws {
        XCTAssertFalse(JPEGSampleConverter.accepts(try yuyvBars(matrix: .bt709)), "BT.709 is not JPEG's matrix")
        XCTAssertNil(JPEGSampleConverter().convert(try yuyvBars(matrix: .bt709)))
        let bgra = try XCTUnwrap(CVPixelBuffer(width: 64, height: 32, pixelFormatType: kCVPixelFormatType_32BGRA))
        XCTAssertFalse(JPEGSampleConverter.accepts(bgra))
        // Full-range NV12 is split into planes and not stretched again.
        let full = try XCTUnwrap(CVPixelBuffer(width: 64, height: 32, pixelFormatType: kCVPixelFormatType_420YpCbCr8BiPlanarFullRange))
        memset(full.planes[0].baseAddress, 200, full.planes[0].bytesPerRow * 32)
        memset(full.planes[1].baseAddress, 128, full.planes[1].bytesPerRow * 16)
        VideoColorimetry.standard(width: 640, height: 480).tag(full)
        let samples = try XCTUnwrap(JPEGSampleConverter().convert(full))
        XCTAssertEqual(samples.planes[0].baseAddress.assumingMemoryBound(to: UInt8.self)[10], 200)
    }

    func testTheLiveViewsHandlerGetsJPEGSamplesOnlyWhereTheLayerShowsTheFrameAsItIs() throws {
        let session = AVCaptureSession()
        sessions.append(session)
        session.sessionPreset = .vga640x480
        session.addInput(try AVCaptureDeviceInput(device: backCamera))
        let layer = AVCaptureVideoPreviewLayer(session: session)
        layer.frame = CGRect(x: 0, y: 0, width: 640, height: 480)
        let formats = Recorder<OSType>()
        layer.setLinuxPreviewFrameHandler(
            { formats.append(CVPixelBufferGetPixelFormatType($0)) }, queue: DispatchQueue(label: "encoder"), allowingJPEGSamples: true)
        session.startRunning()
        XCTAssertTrue(waitUntil { formats.values.count >= 5 })
        let sourceIsJPEGs = (session.inputs.first as? AVCaptureDeviceInput)?.device.activeFormat.formatDescription.mediaSubType.rawValue
        XCTAssertEqual(
            Set(formats.values), [kCVPixelFormatType_420YpCbCr8PlanarFullRange],
            "an SD camera's BT.601 Y'CbCr shown as it is ('\(sourceIsJPEGs.map { String(format: "%08x", $0) } ?? "?")')")
        // Scaled for the layer: BGRA, as for any drawer.
        layer.frame = CGRect(x: 0, y: 0, width: 320, height: 240)
        formats.removeAll()
        XCTAssertTrue(waitUntil { formats.values.count >= 5 })
        XCTAssertEqual(Set(formats.values.suffix(3)), [kCVPixelFormatType_32BGRA])
        // The public handler always gets BGRA.
        layer.frame = CGRect(x: 0, y: 0, width: 640, height: 480)
        layer.setLinuxPreviewFrameHandler { formats.append(CVPixelBufferGetPixelFormatType($0)) }
        formats.removeAll()
        XCTAssertTrue(waitUntil { formats.values.count >= 5 })
        XCTAssertEqual(Set(formats.values.suffix(3)), [kCVPixelFormatType_32BGRA])
        layer.setLinuxPreviewFrameHandler(nil)
    }
}
