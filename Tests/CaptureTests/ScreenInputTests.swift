import CaptureTestSupport
import XCTest
@testable import AVFoundation
import TestSupport

/// AVCaptureScreenInput on an X11 display (Xvfb): the screen's pixels, its crop rectangle from the
/// bottom left, its scale factor, the cursor and clicks drawn in, and its frame rate.
final class ScreenInputTests: CaptureTestCase {
    /// Keeps the colours of a few points of the last frame, and each frame's size.
    private final class Frames: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
        let queue = DispatchQueue(label: "screen-frames")
        private let lock = NSLock()
        private var sizes: [(Int, Int)] = []
        private var times: [Double] = []
        private var last: CVPixelBuffer?
        /// Frames captured before this host time are from before the last reset, and left out.
        private var since = -Double.infinity

        func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
            guard let picture = CMSampleBufferGetImageBuffer(sampleBuffer) else { return }
            guard sampleBuffer.presentationTimeStamp.seconds > lock.withLock({ since }) else { return }
            // A copy, so that the frame goes back to its pool.
            var copy: CVPixelBuffer?
            CVPixelBufferCreate(nil, CVPixelBufferGetWidth(picture), CVPixelBufferGetHeight(picture), kCVPixelFormatType_32BGRA, nil, &copy)
            guard let copy else { return }
            CVPixelBufferLockBaseAddress(picture, .readOnly)
            CVPixelBufferLockBaseAddress(copy, [])
            for row in 0..<CVPixelBufferGetHeight(picture) {
                memcpy(
                    CVPixelBufferGetBaseAddress(copy)! + row * CVPixelBufferGetBytesPerRow(copy),
                    CVPixelBufferGetBaseAddress(picture)! + row * CVPixelBufferGetBytesPerRow(picture), CVPixelBufferGetWidth(picture) * 4)
            }
            CVPixelBufferUnlockBaseAddress(copy, [])
            CVPixelBufferUnlockBaseAddress(picture, .readOnly)
            lock.withLock {
                sizes.append((CVPixelBufferGetWidth(picture), CVPixelBufferGetHeight(picture)))
                times.append(sampleBuffer.presentationTimeStamp.seconds)
                last = copy
            }
        }

        /// Forgets the frames so far; frames still on their way, captured before now, are left out too.
        func reset() {
            let now = CMClockGetTime(CMClockGetHostTimeClock()).seconds
            lock.withLock { (sizes, times, last, since) = ([], [], nil, now) }
        }
        var count: Int { lock.withLock { sizes.count } }
        var lastSize: (Int, Int)? { lock.withLock { sizes.last } }
        var presentationTimes: [Double] { lock.withLock { times } }

        /// The red, green and blue at a point of the last frame.
        func colour(_ x: Int, _ y: Int) -> [Int]? {
            lock.withLock {
                guard let last else { return nil }
                let base = CVPixelBufferGetBaseAddress(last)!.assumingMemoryBound(to: UInt8.self) + y * CVPixelBufferGetBytesPerRow(last) + x * 4
                return [Int(base[2]), Int(base[1]), Int(base[0])]
            }
        }

        /// Waits until `count` frames arrived since the last reset.
        func wait(for count: Int, seconds: Double = 10) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while self.count < count, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
            return self.count >= count
        }
    }

    private var display: VirtualDisplay!
    private var savedDisplay: String?

    override func setUpWithError() throws {
        do { display = try VirtualDisplay(width: 640, height: 480) } catch {
            if ProcessInfo.processInfo.environment["CI"] != nil { throw error }
            throw XCTSkip("\(error)")
        }
        savedDisplay = ProcessInfo.processInfo.environment["DISPLAY"]
        setenv("DISPLAY", display.name, 1)
        XCTAssertTrue(display.paint("#3060c0"))
    }

    override func tearDown() {
        super.tearDown()
        display?.stop()
        if let savedDisplay { setenv("DISPLAY", savedDisplay, 1) } else { unsetenv("DISPLAY") }
    }

    private func session(_ input: AVCaptureScreenInput, _ frames: Frames) -> AVCaptureSession {
        let session = AVCaptureSession()
        sessions.append(session)
        session.beginConfiguration()
        XCTAssertTrue(session.canAddInput(input))
        session.addInput(input)
        let output = AVCaptureVideoDataOutput()
        output.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA]
        output.setSampleBufferDelegate(frames, queue: frames.queue)
        session.addOutput(output)
        session.commitConfiguration()
        return session
    }

    private func assertColour(_ seen: [Int]?, _ expected: [Int], tolerance: Int = 6, _ message: String, line: UInt = #line) {
        guard let seen else { return XCTFail("no frame: \(message)", line: line) }
        XCTAssertTrue(zip(seen, expected).allSatisfy { abs($0 - $1) <= tolerance }, "\(message): \(seen), not \(expected)", line: line)
    }

    func testTheScreensPixelsCroppedFromTheBottomLeftAndScaled() throws {
        XCTAssertNil(AVCaptureScreenInput(displayID: 7), "only the main display can be captured")
        let input = try XCTUnwrap(AVCaptureScreenInput(displayID: CGMainDisplayID()))
        XCTAssertEqual(input.cropRect, CGRect(x: 0, y: 0, width: 640, height: 480), "the whole screen by default")
        XCTAssertEqual(input.scaleFactor, 1)
        XCTAssertTrue(input.capturesCursor)
        XCTAssertFalse(input.capturesMouseClicks)
        input.capturesCursor = false
        input.minFrameDuration = CMTime(value: 1, timescale: 20)
        XCTAssertEqual(input.minFrameDuration, CMTime(value: 1, timescale: 20))
        let frames = Frames()
        let session = session(input, frames)
        session.startRunning()
        XCTAssertTrue(frames.wait(for: 3))
        XCTAssertEqual(frames.lastSize.map { [$0.0, $0.1] }, [640, 480])
        assertColour(frames.colour(320, 240), [0x30, 0x60, 0xc0], "the screen's colour")
        // Twenty frames a second, stamped on the host clock at their frame times: never closer than
        // 1/20 s, and consecutive frames exactly that apart (a busy machine may drop some between).
        frames.reset()
        XCTAssertTrue(frames.wait(for: 21))
        let times = frames.presentationTimes
        let intervals = zip(times.dropFirst(), times).map { $0 - $1 }
        XCTAssertEqual(intervals.min() ?? 0, 0.05, accuracy: 0.001, "frames 1/20 s apart: \(intervals)")

        // The bottom-left quarter, half its size, repainted, with the cursor at (100, 400) from the
        // top left: in the quarter, at (50, 80) once halved.
        XCTAssertTrue(display.paint("#20a040"))
        XCTAssertTrue(display.pointer(["mousemove", "100", "400"]))
        input.capturesCursor = true
        input.cropRect = CGRect(x: 0, y: 0, width: 320, height: 240)
        input.scaleFactor = 0.5
        XCTAssertEqual(input.cropRect, CGRect(x: 0, y: 0, width: 320, height: 240))
        frames.reset()
        XCTAssertTrue(frames.wait(for: 3))
        XCTAssertEqual(frames.lastSize.map { [$0.0, $0.1] }, [160, 120], "320x240 at half")
        assertColour(frames.colour(120, 20), [0x20, 0xa0, 0x40], "the repainted screen")
        let around = (-3...3).flatMap { dx in (-3...3).map { dy in frames.colour(50 + dx, 80 + dy) ?? [0x20, 0xa0, 0x40] } }
        XCTAssertTrue(around.contains { $0 != [0x20, 0xa0, 0x40] }, "the cursor where the bottom-left crop puts it")
        XCTAssertEqual(
            input.formatDescription(for: input.ports[0]).map {
                [Int(CMVideoFormatDescriptionGetDimensions($0).width), Int(CMVideoFormatDescriptionGetDimensions($0).height)]
            },
            [160, 120], "the port's format says the size frames come in")
        session.stopRunning()
    }

    func testTheCursorAndClicksAreDrawnWhereThePointerIs() throws {
        let input = AVCaptureScreenInput()
        input.capturesMouseClicks = true
        let frames = Frames()
        let session = session(input, frames)
        session.startRunning()
        XCTAssertTrue(display.pointer(["mousemove", "200", "150"]))
        XCTAssertTrue(frames.wait(for: 3))
        // Xvfb's root cursor is a black and white cross centred on the pointer.
        frames.reset()
        XCTAssertTrue(frames.wait(for: 2))
        let background = [0x30, 0x60, 0xc0]
        let near = (-6...6).flatMap { dx in (-6...6).map { dy in frames.colour(200 + dx, 150 + dy) ?? background } }
        XCTAssertTrue(near.contains { $0 != background }, "the cursor is drawn at the pointer")
        assertColour(frames.colour(200 + 10, 150), background, "no ring while no button is held")
        // A button held: a dark ring 9 to 12 pixels from the pointer.
        XCTAssertTrue(display.pointer(["mousedown", "1"]))
        frames.reset()
        XCTAssertTrue(frames.wait(for: 2))
        let ring = try XCTUnwrap(frames.colour(200 + 10, 150))
        XCTAssertTrue(zip(ring, background).allSatisfy { $0 < $1 - 10 || $1 < 20 }, "darker on the ring: \(ring)")
        XCTAssertTrue(display.pointer(["mouseup", "1"]))
        // Without the cursor, the pointer's place shows the screen.
        input.capturesCursor = false
        frames.reset()
        XCTAssertTrue(frames.wait(for: 2))
        let bare = (-6...6).flatMap { dx in (-6...6).map { dy in frames.colour(200 + dx, 150 + dy) ?? [] } }
        XCTAssertTrue(bare.allSatisfy { zip($0, background).allSatisfy { abs($0 - $1) <= 2 } }, "no cursor drawn")
        session.stopRunning()
    }
}
