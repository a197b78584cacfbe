import CoreVideo
import XCTest
@testable import FrameProcessing

/// A decoder's 4:2:0 pictures become the BGRA the matrix and range formulas give, in both layouts,
/// at their size and shrunk.
final class DecodedPictureConverterTests: XCTestCase {
    /// Planes of a 4:2:0 picture whose left half is one Y'CbCr colour and right half another.
    private struct Planes {
        var luma: [UInt8]
        var chroma: [UInt8]  // Cb then Cr planes, or interleaved pairs
        let width: Int, height: Int
        let interleaved: Bool

        init(width: Int, height: Int, interleaved: Bool, left: (UInt8, UInt8, UInt8), right: (UInt8, UInt8, UInt8)) {
            self.width = width
            self.height = height
            self.interleaved = interleaved
            luma = (0..<(width * height)).map { $0 % width < width / 2 ? left.0 : right.0 }
            let (cw, ch) = (width / 2, height / 2)
            if interleaved {
                chroma = (0..<(cw * ch)).flatMap { index -> [UInt8] in index % cw < cw / 2 ? [left.1, left.2] : [right.1, right.2] }
            } else {
                chroma =
                    (0..<(cw * ch)).map { $0 % cw < cw / 2 ? left.1 : right.1 } + (0..<(cw * ch)).map { $0 % cw < cw / 2 ? left.2 : right.2 }
            }
        }

        func convert(with converter: DecodedPictureConverter, matrix: VideoColorimetry.Matrix, fullRange: Bool, into out: CVPixelBuffer) -> Bool {
            luma.withUnsafeBufferPointer { y in
                chroma.withUnsafeBufferPointer { c in
                    let (cw, ch) = (width / 2, height / 2)
                    let picture =
                        interleaved
                        ? DecodedPictureConverter.Picture(
                            layout: .twoPlanes, width: width, height: height, planes: (y.baseAddress!, c.baseAddress!, nil),
                            strides: (Int32(width), Int32(cw * 2), 0))
                        : DecodedPictureConverter.Picture(
                            layout: .threePlanes, width: width, height: height,
                            planes: (y.baseAddress!, c.baseAddress!, c.baseAddress! + cw * ch), strides: (Int32(width), Int32(cw), Int32(cw)))
                    return converter.convert(picture, matrix: matrix, fullRange: fullRange, into: out)
                }
            }
        }
    }

    /// R'G'B' (0-255) of a Y'CbCr triple by the matrix's formula.
    private func expected(_ ycc: (UInt8, UInt8, UInt8), matrix: VideoColorimetry.Matrix, fullRange: Bool) -> (b: Double, g: Double, r: Double) {
        let (kr, kb) = matrix == .bt709 ? (0.2126, 0.0722) : (0.299, 0.114)
        let y = fullRange ? Double(ycc.0) / 255 : (Double(ycc.0) - 16) / 219
        let cb = fullRange ? (Double(ycc.1) - 128) / 255 : (Double(ycc.1) - 128) / 224
        let cr = fullRange ? (Double(ycc.2) - 128) / 255 : (Double(ycc.2) - 128) / 224
        let r = y + 2 * (1 - kr) * cr
        let b = y + 2 * (1 - kb) * cb
        let g = (y - kr * r - kb * b) / (1 - kr - kb)
        func clamp(_ v: Double) -> Double { min(255, max(0, v * 255)) }
        return (clamp(b), clamp(g), clamp(r))
    }

    private func pixel(_ buffer: CVPixelBuffer, x: Int, y: Int) -> (b: Double, g: Double, r: Double) {
        let plane = buffer.planes[0]
        let p = plane.baseAddress.assumingMemoryBound(to: UInt8.self) + y * plane.bytesPerRow + x * 4
        return (Double(p[0]), Double(p[1]), Double(p[2]))
    }

    private let left: (UInt8, UInt8, UInt8) = (81, 90, 240)  // a red
    private let right: (UInt8, UInt8, UInt8) = (170, 166, 16)  // a yellow-green

    func testEachLayoutMatrixAndRangeGivesTheFormulasColours() throws {
        let converter = DecodedPictureConverter()
        for interleaved in [false, true] {
            for matrix in [VideoColorimetry.Matrix.bt601, .bt709] {
                for fullRange in [false, true] {
                    let what = "\(interleaved ? "two" : "three") planes, \(matrix), \(fullRange ? "full" : "video") range"
                    let planes = Planes(width: 64, height: 32, interleaved: interleaved, left: left, right: right)
                    let out = try XCTUnwrap(CVPixelBuffer(width: 64, height: 32, pixelFormatType: kCVPixelFormatType_32BGRA))
                    XCTAssertTrue(planes.convert(with: converter, matrix: matrix, fullRange: fullRange, into: out), what)
                    for (x, colour) in [(8, left), (56, right)] {
                        let got = pixel(out, x: x, y: 16)
                        let want = expected(colour, matrix: matrix, fullRange: fullRange)
                        XCTAssertEqual(got.b, want.b, accuracy: 3, "blue, \(what)")
                        XCTAssertEqual(got.g, want.g, accuracy: 3, "green, \(what)")
                        XCTAssertEqual(got.r, want.r, accuracy: 3, "red, \(what)")
                    }
                }
            }
        }
    }

    func testAShrunkPictureKeepsItsHalvesAndTheirColours() throws {
        let converter = DecodedPictureConverter()
        for interleaved in [false, true] {
            let planes = Planes(width: 128, height: 64, interleaved: interleaved, left: left, right: right)
            let out = try XCTUnwrap(CVPixelBuffer(width: 48, height: 24, pixelFormatType: kCVPixelFormatType_32BGRA))
            XCTAssertTrue(planes.convert(with: converter, matrix: .bt709, fullRange: false, into: out))
            for (x, colour) in [(4, left), (44, right)] {
                let got = pixel(out, x: x, y: 12)
                let want = expected(colour, matrix: .bt709, fullRange: false)
                // libyuv's box filter rounds interleaved chroma down by a level or so: a few levels of blue.
                XCTAssertEqual(got.b, want.b, accuracy: 6)
                XCTAssertEqual(got.g, want.g, accuracy: 6)
                XCTAssertEqual(got.r, want.r, accuracy: 6)
            }
        }
    }

    func testALargerOrNonBGRADestinationIsRefused() throws {
        let converter = DecodedPictureConverter()
        let planes = Planes(width: 32, height: 16, interleaved: false, left: left, right: right)
        let larger = try XCTUnwrap(CVPixelBuffer(width: 64, height: 32, pixelFormatType: kCVPixelFormatType_32BGRA))
        XCTAssertFalse(planes.convert(with: converter, matrix: .bt709, fullRange: false, into: larger))
        let twoPlane = try XCTUnwrap(CVPixelBuffer(width: 32, height: 16, pixelFormatType: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange))
        XCTAssertFalse(planes.convert(with: converter, matrix: .bt709, fullRange: false, into: twoPlane))
    }
}
