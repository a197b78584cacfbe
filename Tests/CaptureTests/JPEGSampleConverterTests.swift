import CJPEGCodec
import CaptureTestSupport
import XCTest
@testable import AVFoundation
@testable import CaptureDevices
@testable import FrameProcessing
import TestSupport

/// Y'CbCr frames put straight into JPEG's samples (full-range planar 4:2:0) keep their colours:
/// the JPEG decodes to what the trip through BGRA gives, video-range black and white become 0 and
/// 255; two-plane BT.709 frames are turned by their matrix into what the standards' formulas give,
/// and other frames whose matrix is not JPEG's go through BGRA instead.
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

    /// BT.709's R'G'B' (0...1, not clipped) of one Y'CbCr sample, from the standard's formulas in floating point.
    private static func rgb709(_ y: Int, _ cb: Int, _ cr: Int, videoRange: Bool) -> (r: Double, g: Double, b: Double) {
        let luma = videoRange ? (Double(y) - 16) / 219 : Double(y) / 255
        let pb = (Double(cb) - 128) / (videoRange ? 224 : 255), pr = (Double(cr) - 128) / (videoRange ? 224 : 255)
        return (luma + 1.5748 * pr, luma - 0.187324 * pb - 0.468124 * pr, luma + 1.8556 * pb)
    }

    /// JFIF's samples of one BT.709 Y'CbCr sample, from the standard's formulas in floating point:
    /// R'G'B' from BT.709 (not clipped), then JFIF's Y'CbCr, rounded and held to 0...255.
    private static func jfif(_ y: Int, _ cb: Int, _ cr: Int, videoRange: Bool) -> [Int] {
        let (r, g, b) = rgb709(y, cb, cr, videoRange: videoRange)
        let samples = [
            255 * (0.299 * r + 0.587 * g + 0.114 * b), 128 + 255 * (-0.168736 * r - 0.331264 * g + 0.5 * b),
            128 + 255 * (0.5 * r - 0.418688 * g - 0.081312 * b),
        ]
        return samples.map { max(0, min(255, Int($0.rounded()))) }
    }

    /// A `width` x `height` two-plane 4:2:0 frame of samples that sweep their whole range (chroma
    /// out of R'G'B''s gamut among them), tagged BT.709.
    private func sweep(_ format: OSType, width: Int, height: Int) throws -> CVPixelBuffer {
        let frame = try XCTUnwrap(CVPixelBuffer(width: width, height: height, pixelFormatType: format))
        let videoRange = format == kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange
        let (luma, chroma) = (frame.planes[0], frame.planes[1])
        let y = luma.baseAddress.assumingMemoryBound(to: UInt8.self), uv = chroma.baseAddress.assumingMemoryBound(to: UInt8.self)
        for row in 0..<height {
            for column in 0..<width {
                let value = (column * 7 + row * 13) % (videoRange ? 220 : 256)
                y[row * luma.bytesPerRow + column] = UInt8(videoRange ? 16 + value : value)
            }
        }
        for row in 0..<((height + 1) / 2) {
            for column in 0..<((width + 1) / 2) {
                let cb = (column * 37 + row * 11) % (videoRange ? 225 : 256), cr = (column * 23 + row * 29) % (videoRange ? 225 : 256)
                uv[row * chroma.bytesPerRow + 2 * column] = UInt8(videoRange ? 16 + cb : cb)
                uv[row * chroma.bytesPerRow + 2 * column + 1] = UInt8(videoRange ? 16 + cr : cr)
            }
        }
        var colour = VideoColorimetry.standard(width: 1920, height: 1080)
        colour.matrix = .bt709
        colour.tag(frame)
        return frame
    }

    /// Compares JFIF planes (`y`, `cb`, `cr` with their strides) of a `width` x `height` picture
    /// with the floating-point formulas applied to `frame`'s samples: every sample within 1.
    private func assertJFIF(
        of frame: CVPixelBuffer, _ planes: [(UnsafePointer<UInt8>, Int)], width: Int, height: Int, _ label: String
    ) {
        let videoRange = frame.pixelFormatType == kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange
        let (luma, chroma) = (frame.planes[0], frame.planes[1])
        let y = luma.baseAddress.assumingMemoryBound(to: UInt8.self), uv = chroma.baseAddress.assumingMemoryBound(to: UInt8.self)
        var worst = 0, exact = 0, count = 0
        for row in 0..<height {
            for column in 0..<width {
                let pair = (row / 2) * chroma.bytesPerRow + (column / 2) * 2
                let expected = Self.jfif(Int(y[row * luma.bytesPerRow + column]), Int(uv[pair]), Int(uv[pair + 1]), videoRange: videoRange)
                var found = [Int(planes[0].0[row * planes[0].1 + column])]
                if row % 2 == 0, column % 2 == 0 {
                    found += [Int(planes[1].0[row / 2 * planes[1].1 + column / 2]), Int(planes[2].0[row / 2 * planes[2].1 + column / 2])]
                }
                for (a, b) in zip(found, expected) {
                    worst = max(worst, abs(a - b))
                    exact += a == b ? 1 : 0
                    count += 1
                }
            }
        }
        XCTAssertLessThanOrEqual(worst, 1, "\(label): the largest difference from the formulas")
        XCTAssertGreaterThan(Double(exact) / Double(count), 0.9, "\(label): samples equal to the formulas' (\(exact) of \(count))")
    }

    func testABT709TwoPlaneFrameBecomesJPEGsSamplesByTheStandardsFormulas() throws {
        for format in [kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange] {
            let frame = try sweep(format, width: 128, height: 64)
            XCTAssertTrue(JPEGSampleConverter.accepts(frame), format.fourCharacterString)
            let samples = try XCTUnwrap(JPEGSampleConverter().convert(frame))
            XCTAssertEqual(CVPixelBufferGetPixelFormatType(samples), kCVPixelFormatType_420YpCbCr8PlanarFullRange)
            XCTAssertEqual(VideoColorimetry.taggedMatrix(of: samples), .bt601, "the samples are JPEG's: BT.601")
            let planes = samples.planes.map { (UnsafePointer($0.baseAddress.assumingMemoryBound(to: UInt8.self)), $0.bytesPerRow) }
            assertJFIF(of: frame, planes, width: 128, height: 64, format.fourCharacterString)
        }
    }

    /// The conversion a band of the JPEG encoder uses, at sizes that are not even: the last column
    /// and row of chroma cover one sample of luma each.
    func testTheMatrixConversionTakesOddSizes() throws {
        for (width, height) in [(7, 5), (33, 17)] {
            let frame = try sweep(kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, width: width, height: height)
            var matrix = cje_jfif_matrix()
            cje_jfif_matrix_make(&matrix, 0.2126, 0.0722, 1)
            let (cw, ch) = ((width + 1) / 2, (height + 1) / 2)
            var y = [UInt8](repeating: 0, count: width * height), cb = [UInt8](repeating: 0, count: cw * ch), cr = cb
            let (luma, chroma) = (frame.planes[0], frame.planes[1])
            let status = cje_nv12_to_jfif(
                &matrix, luma.baseAddress.assumingMemoryBound(to: UInt8.self), Int32(luma.bytesPerRow),
                chroma.baseAddress.assumingMemoryBound(to: UInt8.self), Int32(chroma.bytesPerRow), &y, Int32(width), &cb, Int32(cw), &cr,
                Int32(cw), Int32(width), Int32(height))
            XCTAssertEqual(status, 0)
            y.withUnsafeBufferPointer { y in
                cb.withUnsafeBufferPointer { cb in
                    cr.withUnsafeBufferPointer { cr in
                        assertJFIF(
                            of: frame, [(y.baseAddress!, width), (cb.baseAddress!, cw), (cr.baseAddress!, cw)], width: width, height: height,
                            "\(width)x\(height)")
                    }
                }
            }
            XCTAssertEqual(
                cje_nv12_to_jfif(
                    &matrix, luma.baseAddress.assumingMemoryBound(to: UInt8.self), Int32(luma.bytesPerRow), nil, Int32(chroma.bytesPerRow), &y,
                    Int32(width), &cb, Int32(cw), &cr, Int32(cw), Int32(width), Int32(height)), -1, "a missing plane is refused")
        }
    }

    func testABT709FramesJPEGDecodesToTheColoursTheStandardGives() throws {
        // Four bars of BT.709 video-range samples: black, white, red and a mid blue-green.
        let frame = try XCTUnwrap(CVPixelBuffer(width: 64, height: 32, pixelFormatType: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange))
        let bars: [(y: Int, cb: Int, cr: Int)] = [(16, 128, 128), (235, 128, 128), (63, 102, 240), (120, 160, 80)]
        let (luma, chroma) = (frame.planes[0], frame.planes[1])
        for row in 0..<32 {
            for column in 0..<64 {
                let bar = bars[column / 16]
                luma.baseAddress.storeBytes(of: UInt8(bar.y), toByteOffset: row * luma.bytesPerRow + column, as: UInt8.self)
                if row % 2 == 0, column % 2 == 0 {
                    chroma.baseAddress.storeBytes(of: UInt8(bar.cb), toByteOffset: row / 2 * chroma.bytesPerRow + column, as: UInt8.self)
                    chroma.baseAddress.storeBytes(of: UInt8(bar.cr), toByteOffset: row / 2 * chroma.bytesPerRow + column + 1, as: UInt8.self)
                }
            }
        }
        var colour = VideoColorimetry.standard(width: 1920, height: 1080)
        colour.matrix = .bt709
        colour.tag(frame)
        XCTAssertTrue(JPEGSampleConverter.accepts(frame))
        let decoded = try barsThroughJPEG(frame)
        for (bar, bgr) in zip(bars, decoded) {
            // BT.709's R'G'B' of the bar, from the standard's formulas.
            let (r, g, b) = Self.rgb709(bar.y, bar.cb, bar.cr, videoRange: true)
            let rgb = [r, g, b].map { max(0, min(255, Int(($0 * 255).rounded()))) }
            for (found, expected) in zip(bgr.reversed(), rgb) {
                XCTAssertEqual(found, expected, accuracy: 4, "\(bar): \(Array(bgr.reversed())) against \(rgb)")
            }
        }
    }

    func testOtherMatricesAndRGBAreLeftToTheTripThroughBGRA() throws {
        XCTAssertFalse(JPEGSampleConverter.accepts(try yuyvBars(matrix: .bt709)), "BT.709 4:2:2 is not taken")
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

    func testTheLiveViewsHandlerGetsAnHDCamerasBT709FramesAsJPEGSamplesToo() throws {
        let session = AVCaptureSession()
        sessions.append(session)
        session.sessionPreset = .hd1280x720
        session.addInput(try AVCaptureDeviceInput(device: backCamera))
        // The camera's own frames, seen by a data output beside the layer.
        let cameraFrames = MatrixRecorder(), output = AVCaptureVideoDataOutput()
        output.setSampleBufferDelegate(cameraFrames, queue: DispatchQueue(label: "camera frames"))
        session.addOutput(output)
        let layer = AVCaptureVideoPreviewLayer(session: session)
        layer.frame = CGRect(x: 0, y: 0, width: 1280, height: 720)
        let frames = Recorder<(OSType, VideoColorimetry.Matrix?)>()
        layer.setLinuxPreviewFrameHandler(
            { frames.append((CVPixelBufferGetPixelFormatType($0), VideoColorimetry.taggedMatrix(of: $0))) }, queue: DispatchQueue(label: "encoder"),
            allowingJPEGSamples: true)
        session.startRunning()
        XCTAssertTrue(waitUntil { frames.values.count >= 5 })
        layer.setLinuxPreviewFrameHandler(nil)
        XCTAssertTrue(waitUntil { !cameraFrames.values.isEmpty })
        XCTAssertEqual(Set(cameraFrames.values.map { $0.map { "\($0)" } ?? "untagged" }), ["bt709"], "the virtual camera's HD frames are BT.709")
        for (format, matrix) in frames.values {
            XCTAssertEqual(format, kCVPixelFormatType_420YpCbCr8PlanarFullRange, "JPEG's samples, not BGRA")
            XCTAssertEqual(matrix, .bt601, "tagged as what they now are")
        }
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

/// A video data output's delegate that records the matrix each frame is tagged with.
final class MatrixRecorder: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
    private let recorder = Recorder<VideoColorimetry.Matrix?>()
    var values: [VideoColorimetry.Matrix?] { recorder.values }

    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        recorder.append(CMSampleBufferGetImageBuffer(sampleBuffer).flatMap { VideoColorimetry.taggedMatrix(of: $0) })
    }
}
