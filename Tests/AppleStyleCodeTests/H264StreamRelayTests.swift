import AppleStyleCode
import VideoToolbox
import XCTest

/// A stream sender and receiver written as streaming SDKs write them, joined by a byte pipe: every
/// picture sent arrives, in order, with its brightness, and the stream starts again from a forced keyframe.
final class H264StreamRelayTests: XCTestCase {
    /// A full-range bi-planar picture whose left half has luma `left` and right half `right`.
    private func picture(left: UInt8, right: UInt8) throws -> CVPixelBuffer {
        var made: CVPixelBuffer?
        XCTAssertEqual(CVPixelBufferCreate(kCFAllocatorDefault, 192, 108, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange, nil, &made), kCVReturnSuccess)
        let buffer = try XCTUnwrap(made)
        CVPixelBufferLockBaseAddress(buffer, [])
        defer { CVPixelBufferUnlockBaseAddress(buffer, []) }
        for y in 0..<108 {
            let row = CVPixelBufferGetBaseAddressOfPlane(buffer, 0)! + y * CVPixelBufferGetBytesPerRowOfPlane(buffer, 0)
            row.initializeMemory(as: UInt8.self, repeating: left, count: 96)
            (row + 96).initializeMemory(as: UInt8.self, repeating: right, count: 96)
        }
        for y in 0..<54 {
            (CVPixelBufferGetBaseAddressOfPlane(buffer, 1)! + y * CVPixelBufferGetBytesPerRowOfPlane(buffer, 1)).initializeMemory(
                as: UInt8.self, repeating: 128, count: 192)
        }
        return buffer
    }

    private func luma(_ buffer: CVImageBuffer, x: Int) -> Int {
        CVPixelBufferLockBaseAddress(buffer, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
        return Int((CVPixelBufferGetBaseAddressOfPlane(buffer, 0)! + 54 * CVPixelBufferGetBytesPerRowOfPlane(buffer, 0) + x).load(as: UInt8.self))
    }

    func testEveryPictureSentArrivesWithItsBrightness() throws {
        let received = LockedPictures()
        let receiver = H264StreamReceiver { image, time in received.append(time, image) }
        let units = LockedUnits()
        let sender = try XCTUnwrap(H264StreamSender(width: 192, height: 108, bitRate: 300_000) { units.append($0) })
        for index in 0..<45 {
            let time = CMTime(value: CMTimeValue(index), timescale: 30)
            let value = UInt8(40 + index * 4)
            XCTAssertEqual(sender.encode(try picture(left: value, right: 255 - value), at: time, forceKeyFrame: index == 20), noErr)
            // The network: what the sender sent so far reaches the receiver.
            for unit in units.take() { receiver.receive(unit.data, at: unit.time ?? time) }
        }
        sender.flush()
        for unit in units.take() { receiver.receive(unit.data, at: unit.time ?? CMTime(value: 44, timescale: 30)) }
        receiver.flush()
        let pictures = received.all
        XCTAssertEqual(pictures.count, 45)
        for (index, (time, image)) in pictures.enumerated() {
            XCTAssertEqual(time, CMTime(value: CMTimeValue(index), timescale: 30))
            XCTAssertEqual(CVPixelBufferGetPixelFormatType(image), kCVPixelFormatType_420YpCbCr8BiPlanarFullRange)
            XCTAssertEqual(luma(image, x: 40), 40 + index * 4, accuracy: 6, "picture \(index)")
            XCTAssertEqual(luma(image, x: 150), 255 - (40 + index * 4), accuracy: 6, "picture \(index)")
        }
        // Parameter sets travel before each keyframe: the first and the forced one at least.
        XCTAssertGreaterThanOrEqual(units.keyFrames, 2)
    }
}

/// Access units as the sender sent them.
private final class LockedUnits: @unchecked Sendable {
    private let lock = NSLock()
    private var pending: [(data: Data, time: CMTime?)] = []
    private(set) var keyFrames = 0
    func append(_ data: Data) {
        lock.withLock {
            // An SPS (type 7) after the first start code marks a keyframe.
            if data.count > 4, data[4] & 0x1F == 7 { keyFrames += 1 }
            pending.append((data, nil))
        }
    }
    func take() -> [(data: Data, time: CMTime?)] {
        lock.withLock {
            defer { pending.removeAll() }; return pending
        }
    }
}

/// Pictures as the receiver decoded them.
private final class LockedPictures: @unchecked Sendable {
    private let lock = NSLock()
    private var pictures: [(CMTime, CVImageBuffer)] = []
    func append(_ time: CMTime, _ image: CVImageBuffer) { lock.withLock { pictures.append((time, image)) } }
    var all: [(CMTime, CVImageBuffer)] { lock.withLock { pictures.sorted { $0.0 < $1.0 } } }
}
