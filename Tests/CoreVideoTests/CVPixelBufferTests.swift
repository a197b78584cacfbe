import XCTest
import Foundation
import CoreVideo

final class CVPixelBufferTests: XCTestCase {
    func testPlaneLayoutsOfEachFormat() {
        let cases: [(OSType, Int, [(Int, Int)])] = [
            (kCVPixelFormatType_32BGRA, 0, [(101, 51)]),
            (kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, 2, [(101, 51), (51, 26)]),
            (kCVPixelFormatType_420YpCbCr8BiPlanarFullRange, 2, [(101, 51), (51, 26)]),
            (kCVPixelFormatType_422YpCbCr8, 0, [(101, 51)]),
            (kCVPixelFormatType_422YpCbCr8_yuvs, 0, [(101, 51)]),
            (kCVPixelFormatType_420YpCbCr8Planar, 3, [(101, 51), (51, 26), (51, 26)]),
        ]
        for (format, planeCount, planes) in cases {
            var buffer: CVPixelBuffer?
            XCTAssertEqual(CVPixelBufferCreate(nil, 101, 51, format, nil, &buffer), kCVReturnSuccess)
            let b = buffer!
            XCTAssertEqual(CVPixelBufferGetPlaneCount(b), planeCount)
            XCTAssertEqual(CVPixelBufferIsPlanar(b), planeCount > 0)
            XCTAssertEqual(CVPixelBufferGetPixelFormatType(b), format)
            for (index, (width, height)) in planes.enumerated() where planeCount > 0 {
                XCTAssertEqual(CVPixelBufferGetWidthOfPlane(b, index), width)
                XCTAssertEqual(CVPixelBufferGetHeightOfPlane(b, index), height)
                XCTAssertEqual(CVPixelBufferGetBytesPerRowOfPlane(b, index) % 64, 0, "rows are aligned")
                XCTAssertNotNil(CVPixelBufferGetBaseAddressOfPlane(b, index))
            }
            XCTAssertNil(CVPixelBufferGetBaseAddressOfPlane(b, 5))
        }
        XCTAssertGreaterThanOrEqual(bytesPerRow(kCVPixelFormatType_32BGRA), 404)
        XCTAssertGreaterThanOrEqual(bytesPerRow(kCVPixelFormatType_422YpCbCr8_yuvs), 204, "packed 4:2:2 rounds up to whole pixel pairs")
        var bad: CVPixelBuffer?
        XCTAssertEqual(CVPixelBufferCreate(nil, 10, 10, 0x6A756E6B, nil, &bad), kCVReturnInvalidPixelFormat)
        XCTAssertEqual(CVPixelBufferCreate(nil, 0, 10, kCVPixelFormatType_32BGRA, nil, &bad), kCVReturnInvalidSize)
    }

    private func bytesPerRow(_ format: OSType) -> Int {
        var buffer: CVPixelBuffer?
        CVPixelBufferCreate(nil, 101, 51, format, nil, &buffer)
        return CVPixelBufferGetBytesPerRow(buffer!)
    }

    func testLockingBalances() {
        var buffer: CVPixelBuffer?
        CVPixelBufferCreate(nil, 8, 8, kCVPixelFormatType_32BGRA, nil, &buffer)
        XCTAssertEqual(CVPixelBufferLockBaseAddress(buffer!, .readOnly), kCVReturnSuccess)
        XCTAssertEqual(CVPixelBufferUnlockBaseAddress(buffer!, .readOnly), kCVReturnSuccess)
        XCTAssertEqual(CVPixelBufferUnlockBaseAddress(buffer!, .readOnly), kCVReturnError, "an unbalanced unlock is an error")
    }

    func testCompatibilityAttributesAreAcceptedAsAppsPassThem() throws {
        let attributes =
            [
                kCVPixelBufferCGImageCompatibilityKey: kCFBooleanTrue!, kCVPixelBufferCGBitmapContextCompatibilityKey: kCFBooleanTrue!,
                kCVPixelBufferMetalCompatibilityKey: true, kCVPixelBufferBytesPerRowAlignmentKey: 128,
            ] as CFDictionary
        var buffer: CVPixelBuffer?
        XCTAssertEqual(CVPixelBufferCreate(kCFAllocatorDefault, 40, 10, kCVPixelFormatType_32ARGB, attributes, &buffer), kCVReturnSuccess)
        XCTAssertEqual(CVPixelBufferGetBytesPerRow(try XCTUnwrap(buffer)) % 128, 0, "the alignment read from a dictionary keyed by CFStrings")
    }

    func testPoolRecyclesBuffersAndHonoursItsThreshold() {
        let attributes: [String: Any] = [
            kCVPixelBufferWidthKey as String: 32, kCVPixelBufferHeightKey as String: 16, kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA,
        ]
        var pool: CVPixelBufferPool?
        XCTAssertEqual(
            CVPixelBufferPoolCreate(nil, [kCVPixelBufferPoolMinimumBufferCountKey: 2] as CFDictionary, attributes as CFDictionary, &pool), kCVReturnSuccess)
        var first: CVPixelBuffer?
        XCTAssertEqual(CVPixelBufferPoolCreatePixelBuffer(nil, pool!, &first), kCVReturnSuccess)
        let firstID = ObjectIdentifier(first!)
        first = nil
        var again: CVPixelBuffer?
        CVPixelBufferPoolCreatePixelBuffer(nil, pool!, &again)
        XCTAssertEqual(ObjectIdentifier(again!), firstID, "a released buffer is reused")
        var second: CVPixelBuffer?, third: CVPixelBuffer?
        let threshold = [kCVPixelBufferPoolAllocationThresholdKey: 2] as CFDictionary
        XCTAssertEqual(CVPixelBufferPoolCreatePixelBufferWithAuxAttributes(nil, pool!, threshold, &second), kCVReturnSuccess)
        XCTAssertEqual(CVPixelBufferPoolCreatePixelBufferWithAuxAttributes(nil, pool!, threshold, &third), kCVReturnWouldExceedAllocationThreshold)
        XCTAssertNil(third)
        XCTAssertEqual(CVPixelBufferGetWidth(second!), 32)
        var missing: CVPixelBufferPool?
        XCTAssertEqual(CVPixelBufferPoolCreate(nil, nil, [kCVPixelBufferWidthKey: 4] as CFDictionary, &missing), kCVReturnInvalidPixelBufferAttributes)
    }

    func testBuffersOverClientMemoryCallTheReleaseCallback() {
        let memory = UnsafeMutableRawPointer.allocate(byteCount: 16 * 4 * 4, alignment: 16)
        var buffer: CVPixelBuffer?
        let callback: CVPixelBufferReleaseBytesCallback = { _, base in
            CVPixelBufferTests.releasedCount += 1
            UnsafeMutableRawPointer(mutating: base!).deallocate()
        }
        XCTAssertEqual(CVPixelBufferCreateWithBytes(nil, 16, 4, kCVPixelFormatType_32BGRA, memory, 64, callback, nil, nil, &buffer), kCVReturnSuccess)
        XCTAssertEqual(CVPixelBufferGetBaseAddress(buffer!), memory)
        XCTAssertEqual(CVPixelBufferGetBytesPerRow(buffer!), 64)
        buffer = nil
        XCTAssertEqual(CVPixelBufferTests.releasedCount, 1)
    }
    nonisolated(unsafe) static var releasedCount = 0
}
