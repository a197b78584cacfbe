import CaptureTestSupport
import XCTest
@testable import AVFoundation
@testable import CaptureDevices
@testable import FrameProcessing
import TestSupport

/// Frames say what colour their numbers mean, as Core Video's attachments, and movies say it in
/// their colour atoms: BT.709 for HD video, BT.601 with SMPTE C primaries for standard definition.
final class ColourTests: CaptureTestCase {
    private func attachment(_ buffer: CVPixelBuffer, _ key: CFString) -> String? {
        var mode = CVAttachmentMode.shouldNotPropagate
        let value = CVBufferCopyAttachment(buffer, key, &mode) as? NSString
        if value != nil { XCTAssertEqual(mode, .shouldPropagate, "colour travels with derived buffers") }
        return value.map(String.init)
    }

    func testCapturedFramesCarryTheirColour() throws {
        for (preset, primaries, matrix) in [
            (AVCaptureSession.Preset.vga640x480, kCVImageBufferColorPrimaries_SMPTE_C as String, kCVImageBufferYCbCrMatrix_ITU_R_601_4 as String),
            (.hd1280x720, kCVImageBufferColorPrimaries_ITU_R_709_2 as String, kCVImageBufferYCbCrMatrix_ITU_R_709_2 as String),
        ] {
            let seen = Recorder<(String?, String?, String?, String?)>()
            let collector = FrameCollector()
            collector.onFrame = { buffer in
                let pixels = CMSampleBufferGetImageBuffer(buffer)!
                seen.append(
                    (
                        self.attachment(pixels, kCVImageBufferColorPrimariesKey), self.attachment(pixels, kCVImageBufferTransferFunctionKey),
                        self.attachment(pixels, kCVImageBufferYCbCrMatrixKey),
                        CMGetAttachment(pixels, key: kCVImageBufferYCbCrMatrixKey, attachmentModeOut: nil) as? String
                    ))
            }
            let (session, _) = try makeVideoSession(preset: preset, collector: collector)
            useManualClock()
            session.startRunning()
            XCTAssertTrue(advanceUntil { !seen.values.isEmpty })
            session.stopRunning()
            // The camera goes back to the next session's preset only once this one lets it go.
            session.inputs.forEach(session.removeInput)
            let first = try XCTUnwrap(seen.values.first)
            XCTAssertEqual(first.0, primaries, "\(preset.rawValue)")
            XCTAssertEqual(first.1, kCVImageBufferTransferFunction_ITU_R_709_2 as String)
            XCTAssertEqual(first.2, matrix, "\(preset.rawValue)")
            XCTAssertEqual(first.3, matrix, "CMGetAttachment reads a pixel buffer's attachments too")
        }
    }

    func testPackedFourTwoTwoFramesDecodeWithTheMatrixTheyAreTaggedWith() throws {
        // vivid's 75% red, (191, 0, 0), as its driver encodes it in each matrix (limited range).
        let encodings: [(VideoColorimetry.Matrix, (y: UInt8, cb: UInt8, cr: UInt8))] = [(.bt601, (64, 99, 211)), (.bt709, (50, 108, 211))]
        for format in [kCVPixelFormatType_422YpCbCr8_yuvs, kCVPixelFormatType_422YpCbCr8] {
            for (encoded, sample) in encodings {
                for tagged in [VideoColorimetry.Matrix.bt601, .bt709] {
                    let packed = try XCTUnwrap(CVPixelBuffer(width: 64, height: 16, pixelFormatType: format))
                    let bytes = packed.planes[0].baseAddress.assumingMemoryBound(to: UInt8.self)
                    let group: [UInt8] =
                        format == kCVPixelFormatType_422YpCbCr8_yuvs ? [sample.y, sample.cb, sample.y, sample.cr] : [sample.cb, sample.y, sample.cr, sample.y]
                    for y in 0..<16 { for pair in 0..<32 { for k in 0..<4 { bytes[y * packed.planes[0].bytesPerRow + pair * 4 + k] = group[k] } } }
                    var colour = VideoColorimetry.hd
                    colour.matrix = tagged
                    colour.tag(packed)
                    let decoded = try XCTUnwrap(CVPixelBuffer(width: 64, height: 16, pixelFormatType: kCVPixelFormatType_32BGRA))
                    XCTAssertTrue(PixelFormatConverter().convert(packed, into: decoded))
                    let pixel = decoded.planes[0].baseAddress.assumingMemoryBound(to: UInt8.self) + 8 * decoded.planes[0].bytesPerRow + 32 * 4
                    let seen = (Int(pixel[2]), Int(pixel[1]), Int(pixel[0]))
                    let right = abs(seen.0 - 191) <= 4 && seen.1 <= 4 && seen.2 <= 4
                    XCTAssertEqual(right, encoded == tagged, "\(format.fourCharacterString) encoded \(encoded), tagged \(tagged): \(seen)")
                }
            }
        }
    }

    func testTheTagSaysWhatTheNumbersMean() throws {
        // The virtual camera draws HD in BT.709: decoding its Y'CbCr with the tagged matrix gives
        // the picture it draws in BGRA; decoding with BT.601 does not.
        let parameters = SceneFrameParameters(frameNumber: 10, seconds: 1, zoom: 1, brightness: 1, colourGains: (1, 1, 1), defocus: 0, image: nil)
        let yuvRenderer = try XCTUnwrap(SceneRenderer(width: 1280, height: 720, pixelFormat: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange))
        let rgbRenderer = try XCTUnwrap(SceneRenderer(width: 1280, height: 720, pixelFormat: kCVPixelFormatType_32BGRA))
        let yuv = try XCTUnwrap(CVPixelBuffer(width: 1280, height: 720, pixelFormatType: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange))
        let drawn = try XCTUnwrap(CVPixelBuffer(width: 1280, height: 720, pixelFormatType: kCVPixelFormatType_32BGRA))
        yuvRenderer.render(into: yuv, parameters)
        rgbRenderer.render(into: drawn, parameters)
        XCTAssertEqual(attachment(yuv, kCVImageBufferYCbCrMatrixKey), kCVImageBufferYCbCrMatrix_ITU_R_709_2 as String)
        func difference(decodedWith matrix: VideoColorimetry.Matrix) throws -> Double {
            var colour = VideoColorimetry.hd
            colour.matrix = matrix
            colour.tag(yuv)
            let decoded = try XCTUnwrap(CVPixelBuffer(width: 1280, height: 720, pixelFormatType: kCVPixelFormatType_32BGRA))
            XCTAssertTrue(PixelFormatConverter().convert(yuv, into: decoded))
            // The colour bars, below the overlay: mean absolute difference per channel.
            var total = 0.0, count = 0.0
            for y in stride(from: 400, to: 700, by: 7) {
                for x in stride(from: 0, to: 1280, by: 5) {
                    let a = drawn.planes[0].baseAddress.assumingMemoryBound(to: UInt8.self) + y * drawn.planes[0].bytesPerRow + x * 4
                    let b = decoded.planes[0].baseAddress.assumingMemoryBound(to: UInt8.self) + y * decoded.planes[0].bytesPerRow + x * 4
                    for c in 0..<3 { total += abs(Double(a[c]) - Double(b[c])); count += 1 }
                }
            }
            return total / count
        }
        let right = try difference(decodedWith: .bt709), wrong = try difference(decodedWith: .bt601)
        XCTAssertLessThan(right, 4, "decoded with its own matrix, the picture is the one drawn")
        XCTAssertGreaterThan(wrong, right * 2, "decoded with the other matrix, the colours shift (\(wrong) against \(right))")
    }

    func testMoviesSayTheirColourInTheirColourAtoms() throws {
        try XCTSkipUnless(MediaProbe.isAvailable, "ffprobe is needed")
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("colour-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (preset, primaries, space) in [(AVCaptureSession.Preset.vga640x480, "smpte170m", "smpte170m"), (.hd1280x720, "bt709", "bt709")] {
            let session = AVCaptureSession()
            sessions.append(session)
            session.sessionPreset = preset
            session.addInput(try AVCaptureDeviceInput(device: backCamera))
            let movie = AVCaptureMovieFileOutput()
            session.addOutput(movie)
            useManualClock()
            outputsCaughtUp = { movie.samplesWaitingToBeWritten == 0 }
            session.startRunning()
            let url = folder.appendingPathComponent("\(space).mov")
            let done = RecordingDone()
            movie.maxRecordedDuration = CMTime(value: 1, timescale: 2)
            movie.startRecording(to: url, recordingDelegate: done)
            XCTAssertTrue(advanceUntil { done.finished })
            session.stopRunning()
            session.inputs.forEach(session.removeInput)
            let video = try XCTUnwrap(MediaProbe.probe(url)?.video)
            XCTAssertEqual(video.colorPrimaries, primaries, "\(preset.rawValue)")
            XCTAssertEqual(video.colorTransfer, "bt709")
            XCTAssertEqual(video.colorSpace, space)
            let bytes = try Data(contentsOf: url)
            XCTAssertNotNil(bytes.range(of: Data("colr".utf8)), "the sample description has a colour atom")
        }
    }
}

/// Waits for a recording to finish.
private final class RecordingDone: NSObject, AVCaptureFileOutputRecordingDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var done = false
    var finished: Bool { lock.withLock { done } }
    func fileOutput(_ output: AVCaptureFileOutput, didFinishRecordingTo outputFileURL: URL, from connections: [AVCaptureConnection], error: Error?) {
        lock.withLock { done = true }
    }
}
