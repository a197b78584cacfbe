import XCTest
@testable import CaptureDevices
@testable import FrameProcessing
import CoreVideo
import TestSupport

/// The MJPEG decoder USB cameras need, on real JPEG frames made by FFmpeg, checked against FFmpeg's own decode.
final class MJPEGDecoderTests: XCTestCase {
    /// Runs ffmpeg with `arguments`; whether it succeeded.
    private func ffmpeg(_ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.arguments = ["-loglevel", "error", "-y"] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    /// A camera-like JPEG (4:2:2, as UVC cameras send) and FFmpeg's decode of its luma plane.
    private func frame(width: Int, height: Int, subsampling: String) throws -> (jpeg: [UInt8], luma: [UInt8]) {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg") else { throw XCTSkip("ffmpeg is not installed: scripts/install-deps.sh") }
        let folder = makeScratchFolder()
        let jpeg = folder.appendingPathComponent("frame.jpg"), luma = folder.appendingPathComponent("frame.y")
        XCTAssertTrue(ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=\(width)x\(height)", "-frames:v", "1", "-q:v", "3", "-pix_fmt", subsampling, jpeg.path]))
        XCTAssertTrue(ffmpeg(["-i", jpeg.path, "-f", "rawvideo", "-pix_fmt", "gray", luma.path]))
        return (Array(try Data(contentsOf: jpeg)), Array(try Data(contentsOf: luma)))
    }

    func testDecodesCameraJPEGsIntoEveryCarriedFormatAsFFmpegDoes() throws {
        // Every subsampling cameras send, and a size that is no whole number of blocks.
        for (subsampling, width, height) in [
            ("yuvj422p", 1280, 720), ("yuvj420p", 1280, 720), ("yuvj444p", 640, 480), ("gray", 640, 480),
            ("yuvj420p", 650, 490),
        ] {
            let (jpeg, reference) = try frame(width: width, height: height, subsampling: subsampling)
            XCTAssertEqual(reference.count, width * height)
            let decoder = MJPEGDecoder()
            for format in [kCVPixelFormatType_420YpCbCr8BiPlanarFullRange, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_32BGRA] {
                let target = try XCTUnwrap(CVPixelBuffer(width: width, height: height, pixelFormatType: format))
                XCTAssertTrue(jpeg.withUnsafeBufferPointer { decoder.decode($0.baseAddress!, count: $0.count, into: target) }, "\(subsampling) into \(format)")
                guard format == kCVPixelFormatType_420YpCbCr8BiPlanarFullRange else { continue }
                // Full-range luma straight from the JPEG: FFmpeg's decode, to within rounding.
                let plane = target.planes[0]
                var difference = 0
                for row in 0..<height {
                    let line = plane.baseAddress.advanced(by: row * plane.bytesPerRow).assumingMemoryBound(to: UInt8.self)
                    for column in 0..<width { difference += abs(Int(line[column]) - Int(reference[row * width + column])) }
                }
                XCTAssertLessThan(
                    Double(difference) / Double(width * height), 1.0, "mean luma difference from FFmpeg's decode (\(subsampling) \(width)x\(height))")
            }
        }
    }

    /// FFmpeg's decode of the JPEG's chroma planes as they are stored (no conversion), each `width` x `height` samples.
    private func storedChroma(_ jpeg: [UInt8], subsampling: String, luma: Int, width: Int, height: Int) throws -> (cb: [UInt8], cr: [UInt8]) {
        let folder = makeScratchFolder()
        let file = folder.appendingPathComponent("frame.jpg"), raw = folder.appendingPathComponent("frame.yuv")
        try Data(jpeg).write(to: file)
        XCTAssertTrue(ffmpeg(["-i", file.path, "-f", "rawvideo", "-pix_fmt", subsampling, raw.path]))
        let planes = Array(try Data(contentsOf: raw))
        guard planes.count == luma + 2 * width * height else {
            XCTFail("FFmpeg's \(subsampling) planes are \(planes.count) bytes, not \(luma + 2 * width * height)")
            return ([], [])
        }
        return (Array(planes[luma..<luma + width * height]), Array(planes[luma + width * height..<planes.count]))
    }

    func testChromaIsTheJPEGsOwnHalvedToFourTwoZero() throws {
        // The decoder turns each band of block rows into the frame's rows as it goes: its chroma
        // must be the JPEG's stored chroma brought to 4:2:0 (pairs of rows averaged for 4:2:2,
        // squares of four for 4:4:4, as stored for 4:2:0), at every band's place, including a last
        // band cut short by a height that is no whole number of blocks. (FFmpeg's encoder writes
        // no one-component JPEG: asked for grey, it writes 4:4:4.)
        for (subsampling, width, height, across, down) in [
            ("yuvj422p", 1280, 720, 2, 1), ("yuvj422p", 640, 484, 2, 1), ("yuvj420p", 650, 490, 2, 2), ("yuvj444p", 640, 480, 1, 1),
        ] {
            let (jpeg, _) = try frame(width: width, height: height, subsampling: subsampling)
            let target = try XCTUnwrap(CVPixelBuffer(width: width, height: height, pixelFormatType: kCVPixelFormatType_420YpCbCr8BiPlanarFullRange))
            XCTAssertTrue(jpeg.withUnsafeBufferPointer { MJPEGDecoder().decode($0.baseAddress!, count: $0.count, into: target) }, subsampling)
            let (cw, ch) = ((width + 1) / 2, (height + 1) / 2)
            let plane = target.planes[1]
            func decoded(_ row: Int, _ column: Int, _ component: Int) -> Int {
                Int(plane.baseAddress.advanced(by: row * plane.bytesPerRow + column * 2 + component).assumingMemoryBound(to: UInt8.self).pointee)
            }
            let (storedWidth, storedHeight) = ((width + across - 1) / across, (height + down - 1) / down)
            let stored = try storedChroma(jpeg, subsampling: subsampling, luma: width * height, width: storedWidth, height: storedHeight)
            guard !stored.cb.isEmpty else { continue }
            // Each 4:2:0 sample covers 2x2 pixels: the stored samples under it, averaged.
            let (spanX, spanY) = (2 / across, 2 / down)
            var difference = [0, 0]
            for row in 0..<ch {
                for column in 0..<cw {
                    for (component, samples) in [stored.cb, stored.cr].enumerated() {
                        var sum = 0, count = 0
                        for y in row * spanY..<min(storedHeight, (row + 1) * spanY) {
                            for x in column * spanX..<min(storedWidth, (column + 1) * spanX) {
                                sum += Int(samples[y * storedWidth + x])
                                count += 1
                            }
                        }
                        difference[component] += abs(decoded(row, column, component) - (sum + count / 2) / count)
                    }
                }
            }
            for (component, name) in ["Cb", "Cr"].enumerated() {
                XCTAssertLessThan(
                    Double(difference[component]) / Double(cw * ch), 1.0, "mean \(name) difference from the stored chroma (\(subsampling) \(width)x\(height))")
            }
        }
    }

    func testSteadyDecodingAsksTheSystemForNoMemory() throws {
        // Issue 13: libjpeg's memory for a picture comes from arenas the decoder keeps; after the
        // first frame of a size, decoding allocates nothing, into planes or into BGRA.
        let (jpeg, _) = try frame(width: 1280, height: 720, subsampling: "yuvj422p")
        let decoder = MJPEGDecoder()
        for format in [kCVPixelFormatType_420YpCbCr8BiPlanarFullRange, kCVPixelFormatType_32BGRA] {
            let target = try XCTUnwrap(CVPixelBuffer(width: 1280, height: 720, pixelFormatType: format))
            XCTAssertTrue(jpeg.withUnsafeBufferPointer { decoder.decode($0.baseAddress!, count: $0.count, into: target) })
            let settled = decoder.systemAllocations
            XCTAssertGreaterThan(settled, 0, "the first frame sets the decoder up")
            for _ in 0..<20 {
                XCTAssertTrue(jpeg.withUnsafeBufferPointer { decoder.decode($0.baseAddress!, count: $0.count, into: target) })
            }
            XCTAssertEqual(decoder.systemAllocations, settled, "no memory asked for after the first frame (\(format))")
        }
    }

    func testACorruptFrameIsRefusedNotDelivered() throws {
        let (jpeg, _) = try frame(width: 640, height: 480, subsampling: "yuvj422p")
        let target = try XCTUnwrap(CVPixelBuffer(width: 640, height: 480, pixelFormatType: kCVPixelFormatType_32BGRA))
        let decoder = MJPEGDecoder()
        let noise = (0..<jpeg.count).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) }
        XCTAssertFalse(noise.withUnsafeBufferPointer { decoder.decode($0.baseAddress!, count: $0.count, into: target) }, "bytes that are no JPEG")
        let wrongSize = try XCTUnwrap(CVPixelBuffer(width: 320, height: 240, pixelFormatType: kCVPixelFormatType_32BGRA))
        XCTAssertFalse(
            jpeg.withUnsafeBufferPointer { decoder.decode($0.baseAddress!, count: $0.count, into: wrongSize) }, "a frame of another size than the stream's")
        XCTAssertTrue(jpeg.withUnsafeBufferPointer { decoder.decode($0.baseAddress!, count: $0.count, into: target) }, "the decoder recovers")
    }
}
