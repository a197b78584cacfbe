import CaptureTestSupport
import XCTest
@testable import AVFoundation
@testable import CaptureDevices
@testable import FrameProcessing

/// Frames turned for a connection's `videoRotationAngle` and `isVideoMirrored`: every pixel
/// lands where a clockwise quarter-turn rotation, then a left-right mirror, puts it.
final class PixelOrientationTests: CaptureTestCase {
    /// Where output pixel (x, y) comes from in a `width` x `height` source.
    private func sourcePixel(_ x: Int, _ y: Int, width: Int, height: Int, _ orientation: PixelOrientation) -> (Int, Int) {
        let outWidth = orientation.swapsDimensions ? height : width
        let x = orientation.mirrored ? outWidth - 1 - x : x
        switch orientation.rotationDegrees {
        case 90: return (y, height - 1 - x)
        case 180: return (width - 1 - x, height - 1 - y)
        case 270: return (width - 1 - y, x)
        default: return (x, y)
        }
    }

    private let orientations = [0, 90, 180, 270].flatMap { degrees in [false, true].map { PixelOrientation(rotationDegrees: degrees, mirrored: $0) } }

    /// Fills a plane with values that name their position, `bytes` bytes a sample.
    private func fill(_ plane: CVPixelBuffer.Plane, bytes: Int) {
        for y in 0..<plane.height {
            for x in 0..<plane.width {
                let sample = plane.baseAddress + y * plane.bytesPerRow + x * bytes
                for byte in 0..<bytes { sample.storeBytes(of: UInt8(truncatingIfNeeded: (y * 16 + x) * 4 + byte), toByteOffset: byte, as: UInt8.self) }
            }
        }
    }

    private func sample(_ plane: CVPixelBuffer.Plane, _ x: Int, _ y: Int, bytes: Int) -> [UInt8] {
        let base = plane.baseAddress + y * plane.bytesPerRow + x * bytes
        return (0..<bytes).map { base.load(fromByteOffset: $0, as: UInt8.self) }
    }

    func testEveryPlaneOfEveryTurnedFormatMovesWhole() throws {
        let formats: [(OSType, [Int])] = [
            (kCVPixelFormatType_32BGRA, [4]),
            (kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, [1, 2]),
            (kCVPixelFormatType_420YpCbCr8BiPlanarFullRange, [1, 2]),
            (kCVPixelFormatType_420YpCbCr10BiPlanarVideoRange, [2, 4]),
        ]
        let converter = PixelFormatConverter()
        for (format, sampleBytes) in formats {
            let source = try XCTUnwrap(CVPixelBuffer(width: 12, height: 8, pixelFormatType: format))
            for (plane, bytes) in zip(source.planes, sampleBytes) { fill(plane, bytes: bytes) }
            for orientation in orientations {
                let (w, h) = orientation.swapsDimensions ? (8, 12) : (12, 8)
                let turned = try XCTUnwrap(CVPixelBuffer(width: w, height: h, pixelFormatType: format))
                XCTAssertTrue(converter.convert(source, into: turned, orientation: orientation), "\(format.fourCharacterString) \(orientation)")
                for (index, bytes) in sampleBytes.enumerated() {
                    let from = source.planes[index], to = turned.planes[index]
                    for y in 0..<to.height {
                        for x in 0..<to.width {
                            let (sx, sy) = sourcePixel(x, y, width: from.width, height: from.height, orientation)
                            XCTAssertEqual(
                                sample(to, x, y, bytes: bytes), sample(from, sx, sy, bytes: bytes),
                                "\(format.fourCharacterString) plane \(index) \(orientation) at (\(x), \(y))")
                        }
                    }
                }
            }
        }
    }

    func testAConversionAndATurnHappenInOnePassForTheClient() throws {
        // 420v from the camera, BGRA turned for the client: the colours survive and the size turns.
        let converter = PixelFormatConverter()
        let source = try XCTUnwrap(CVPixelBuffer(width: 64, height: 32, pixelFormatType: kCVPixelFormatType_32BGRA))
        let base = source.planes[0].baseAddress.assumingMemoryBound(to: UInt8.self)
        for y in 0..<32 {
            for x in 0..<64 { let p = base + y * source.planes[0].bytesPerRow + x * 4; p[0] = x < 32 ? 255 : 0; p[1] = 0; p[2] = x < 32 ? 0 : 255; p[3] = 255 }
        }
        let yuv = try XCTUnwrap(CVPixelBuffer(width: 64, height: 32, pixelFormatType: kCVPixelFormatType_422YpCbCr8))
        XCTAssertTrue(converter.convert(source, into: yuv))
        let turned = try XCTUnwrap(CVPixelBuffer(width: 32, height: 64, pixelFormatType: kCVPixelFormatType_32BGRA))
        XCTAssertTrue(converter.convert(yuv, into: turned, orientation: PixelOrientation(rotationDegrees: 90, mirrored: false)))
        // A quarter turn clockwise: the left (blue) half becomes the top.
        let (_, top) = PixelStatistics.measure(turned, region: CGRect(x: 0.2, y: 0.1, width: 0.6, height: 0.3))
        let (_, bottom) = PixelStatistics.measure(turned, region: CGRect(x: 0.2, y: 0.6, width: 0.6, height: 0.3))
        XCTAssertGreaterThan(top!.0, 200)
        XCTAssertGreaterThan(bottom!.2, 200)
    }

    func testA420FrameIsTurnedBeforeItIsWidenedToBGRA() throws {
        // The camera's 4:2:0 turns in 1.5 bytes a pixel, then becomes BGRA once; every turn agrees
        // with turning the BGRA picture itself.
        let converter = PixelFormatConverter()
        let picture = try XCTUnwrap(CVPixelBuffer(width: 64, height: 32, pixelFormatType: kCVPixelFormatType_32BGRA))
        let base = picture.planes[0].baseAddress.assumingMemoryBound(to: UInt8.self)
        for y in 0..<32 {
            for x in 0..<64 {
                let p = base + y * picture.planes[0].bytesPerRow + x * 4; p[0] = x < 32 ? 250 : 10; p[1] = y < 16 ? 200 : 30; p[2] = x < 32 ? 10 : 250;
                p[3] = 255
            }
        }
        let yuv = try XCTUnwrap(CVPixelBuffer(width: 64, height: 32, pixelFormatType: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange))
        XCTAssertTrue(converter.convert(picture, into: yuv))
        let reference = try XCTUnwrap(CVPixelBuffer(width: 64, height: 32, pixelFormatType: kCVPixelFormatType_32BGRA))
        XCTAssertTrue(converter.convert(yuv, into: reference))
        for orientation in orientations where !orientation.isIdentity {
            let (w, h) = orientation.swapsDimensions ? (32, 64) : (64, 32)
            let direct = try XCTUnwrap(CVPixelBuffer(width: w, height: h, pixelFormatType: kCVPixelFormatType_32BGRA))
            let viaReference = try XCTUnwrap(CVPixelBuffer(width: w, height: h, pixelFormatType: kCVPixelFormatType_32BGRA))
            XCTAssertTrue(converter.convert(yuv, into: direct, orientation: orientation))
            XCTAssertTrue(PixelFormatConverter().convert(reference, into: viaReference, orientation: orientation))
            // Quadrant centres agree (chroma is shared by 2x2 blocks, so edges may differ by a pixel).
            for (fx, fy) in [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)] {
                let region = CGRect(x: fx - 0.1, y: fy - 0.1, width: 0.2, height: 0.2)
                let a = PixelStatistics.measure(direct, region: region).1!, b = PixelStatistics.measure(viaReference, region: region).1!
                XCTAssertEqual(a.0, b.0, accuracy: 3, "\(orientation) at \(fx), \(fy)")
                XCTAssertEqual(a.2, b.2, accuracy: 3, "\(orientation) at \(fx), \(fy)")
            }
        }
    }

    func testVideoDataOutputsDeliverFramesTurnedAsTheirConnectionSays() throws {
        // Current Apple platforms rotate a video data output's pixels; WWDC 2010 session 409's 2010 exception is gone.
        let picture = try XCTUnwrap(CVPixelBuffer(width: 64, height: 48, pixelFormatType: kCVPixelFormatType_32BGRA))
        let base = picture.planes[0].baseAddress.assumingMemoryBound(to: UInt8.self)
        for y in 0..<48 {
            for x in 0..<64 {
                // Left half blue, right half red, so rotation and mirroring both show.
                let p = base + y * picture.planes[0].bytesPerRow + x * 4
                p[0] = x < 32 ? 255 : 0; p[1] = 0; p[2] = x < 32 ? 0 : 255; p[3] = 255
            }
        }
        backCamera.virtualScene!.showImage(picture)
        struct Seen { var width: Int; var height: Int; var formatHeight: Int32; var top: (Double, Double, Double); var left: (Double, Double, Double) }
        let seen = LockedValue<[Seen]>([])
        let collector = FrameCollector()
        collector.onFrame = { buffer in
            guard let pixels = CMSampleBufferGetImageBuffer(buffer) else { return }
            let top = PixelStatistics.measure(pixels, region: CGRect(x: 0.3, y: 0.1, width: 0.4, height: 0.3)).1!
            let left = PixelStatistics.measure(pixels, region: CGRect(x: 0.1, y: 0.4, width: 0.3, height: 0.3)).1!
            let formatHeight = CMVideoFormatDescriptionGetDimensions(CMSampleBufferGetFormatDescription(buffer)!).height
            seen.withLock {
                $0.append(Seen(width: CVPixelBufferGetWidth(pixels), height: CVPixelBufferGetHeight(pixels), formatHeight: formatHeight, top: top, left: left))
            }
        }
        let (session, output) = try makeVideoSession(preset: .vga640x480, pixelFormat: kCVPixelFormatType_32BGRA, collector: collector)
        let connection = try XCTUnwrap(output.connection(with: .video))
        XCTAssertTrue(connection.isVideoOrientationSupported)
        XCTAssertTrue(connection.isVideoRotationAngleSupported(90))
        XCTAssertFalse(connection.isVideoRotationAngleSupported(45))
        XCTAssertFalse(connection.isVideoMirrored, "a back camera's frames are not mirrored")
        connection.videoRotationAngle = 90
        XCTAssertEqual(connection.videoOrientation, .portrait)
        session.startRunning()
        func waitFor(_ condition: (Seen) -> Bool) -> Seen? {
            let deadline = Date().addingTimeInterval(5)
            while Date() < deadline {
                if let match = seen.withLock({ $0.last(where: condition) }) { return match }
                Thread.sleep(forTimeInterval: 0.02)
            }
            return nil
        }
        let turned = try XCTUnwrap(waitFor { $0.width == 480 })
        XCTAssertEqual(turned.height, 640)
        XCTAssertEqual(turned.formatHeight, 640, "the format description says the turned size")
        XCTAssertGreaterThan(turned.top.0, 200, "the picture's left (blue) half is on top after a clockwise quarter turn")
        // Mirrored, unturned: the red half is on the left.
        connection.automaticallyAdjustsVideoMirroring = false
        connection.isVideoMirrored = true
        connection.videoRotationAngle = 0
        let mirrored = try XCTUnwrap(waitFor { $0.width == 640 })
        XCTAssertGreaterThan(mirrored.left.2, 200, "mirrored: the red half is on the left")
        XCTAssertLessThan(mirrored.left.0, 60)
    }

    func testTheFrontCameraIsMirroredAutomaticallyForMoviesButNotForDataOutputs() throws {
        let session = AVCaptureSession()
        sessions.append(session)
        session.addInput(try AVCaptureDeviceInput(device: frontCamera))
        let data = AVCaptureVideoDataOutput(), movie = AVCaptureMovieFileOutput()
        session.addOutput(data)
        session.addOutput(movie)
        XCTAssertFalse(try XCTUnwrap(data.connection(with: .video)).isVideoMirrored)
        XCTAssertTrue(try XCTUnwrap(movie.connection(with: .video)).isVideoMirrored)
    }
}
