import XCTest

@testable import AVFoundation

/// Float samples made 16-bit as readers give them: scaled by 32,768, rounded to the nearest, clamped, NaN as silence.
final class LinearPCMTests: XCTestCase {
    func testFloatSamplesBecomeRoundedClampedIntegers() {
        let step = Float(1) / 32768
        let samples: [Float] = [
            0, 0.5, -0.5, 1, -1, 2, -2, .infinity, -.infinity, .nan, 0.4 * step, -0.4 * step, 0.6 * step, -0.6 * step,
            2.5 * step, 3.5 * step, -2.5 * step, 1000.49 * step, -1000.51 * step, 32766.7 * step,
        ]
        let expected: [Int16] = [
            0, 16384, -16384, 32767, -32768, 32767, -32768, 32767, -32768, 0, 0, 0, 1, -1,
            2, 4, -2, 1000, -1001, 32767,
        ]
        // Long enough for the vectorised body and its remainder.
        let many = Array(repeating: samples, count: 13).flatMap { $0 }
        var converted = [Int16](repeating: 7, count: many.count)
        many.withUnsafeBufferPointer { source in
            converted.withUnsafeMutableBufferPointer { LinearPCM.int16(from: source.baseAddress!, to: $0.baseAddress!, count: many.count) }
        }
        XCTAssertEqual(converted, Array(repeating: expected, count: 13).flatMap { $0 })
    }

    func testABlockOfSixteenBitSoundHoldsTheConvertedSamples() {
        let samples: [Float] = [0.25, -0.25, 1.5, -0.75]
        let block = samples.withUnsafeBufferPointer { LinearPCM.block(from: $0, frames: 2, channels: 2, isFloat: false) }
        XCTAssertEqual(block.length, 8)
        let values = (0..<4).map { block.bytes.load(fromByteOffset: $0 * 2, as: Int16.self) }
        XCTAssertEqual(values, [8192, -8192, 32767, -24576])
    }
}
