import CaptureTestSupport
import XCTest
@testable import AVFoundation
@testable import CaptureDevices
import TestSupport

/// A virtual camera on a manual clock delivers exactly the frames whose times the clock has
/// passed, and its controls move by that time: tests step time instead of sleeping.
final class VirtualClockTests: CaptureTestCase {
    private let frame = CMTime(value: 1, timescale: 30)

    /// A running session of the back camera on `clock`, at 30 frames a second.
    private func session(on clock: VirtualClock) throws -> (AVCaptureSession, FrameCollector) {
        backCamera.virtualScene!.clock = clock
        let collector = FrameCollector()
        let (session, _) = try makeVideoSession(preset: .vga640x480, pixelFormat: kCVPixelFormatType_32BGRA, collector: collector)
        try backCamera.lockForConfiguration()
        backCamera.activeVideoMinFrameDuration = frame
        backCamera.activeVideoMaxFrameDuration = frame
        backCamera.unlockForConfiguration()
        XCTAssertEqual(backCamera.activeVideoMinFrameDuration, frame, "a format that runs at 30 frames a second")
        session.startRunning()
        return (session, collector)
    }

    func testFramesComeExactlyAsTheClockPassesTheirTimes() throws {
        let clock = VirtualClock.manual()
        let start = clock.now
        let (session, collector) = try session(on: clock)
        XCTAssertFalse(waitUntil(timeout: 0.3) { !collector.frames.isEmpty }, "the clock stands still: no frame is due")
        step(clock, frames: 10, collector: collector)
        let times = collector.frames.map(\.presentationTime)
        XCTAssertEqual(times.first, start + frame, "stamped with the clock's time")
        // The camera paces itself in whole nanoseconds, as it does on the host clock.
        let paced = CMTime(value: 33_333_333, timescale: 1_000_000_000)
        XCTAssertEqual(zip(times, times.dropFirst()).map { $1 - $0 }, Array(repeating: paced, count: 9), "exactly a frame apart")
        // Five frames' time at once brings five frames at once: the output delivers them or, busy
        // with the first, drops the late ones, as it would a burst from a driver's queue.
        let handled = { collector.frames.count + collector.drops.reduce(0) { $0 + $1.count } }
        clock.advance(by: CMTime(value: 5 * 33_333_333, timescale: 1_000_000_000))
        XCTAssertTrue(waitUntil { handled() >= 15 }, "five frames' time brings five frames")
        XCTAssertFalse(waitUntil(timeout: 0.3) { handled() > 15 }, "and no more: \(handled())")
        let started = Date()
        session.stopRunning()
        XCTAssertLessThan(Date().timeIntervalSince(started), 2, "a camera waiting on a still clock stops when asked")
    }

    func testAZoomRampMovesByTheClocksTimeInPowersOfTwo() throws {
        // WWDC 2013 session 610: "Rate is specified in powers of two per second"; "AVFoundation will consistently increment zoom factor on each frame".
        let clock = VirtualClock.manual()
        let (session, collector) = try session(on: clock)
        step(clock, frames: 1, collector: collector)
        let factors = Recorder<CGFloat>()
        let observation = backCamera.observe(\.videoZoomFactor, options: [.new]) { _, change in factors.append(change.newValue!) }
        try backCamera.lockForConfiguration()
        backCamera.ramp(toVideoZoomFactor: 4, withRate: 2)
        backCamera.unlockForConfiguration()
        XCTAssertTrue(backCamera.isRampingVideoZoom)
        step(clock, frames: 29, collector: collector)
        XCTAssertTrue(backCamera.isRampingVideoZoom, "two doublings at two a second take a second: 29 frames are not enough")
        step(clock, frames: 1, collector: collector)
        XCTAssertFalse(backCamera.isRampingVideoZoom)
        XCTAssertEqual(backCamera.videoZoomFactor, 4)
        XCTAssertTrue(waitUntil { factors.values.count == 30 }, "the factor changes on every frame: \(factors.values.count)")
        XCTAssertEqual(factors.values, factors.values.sorted())
        XCTAssertEqual(Double(factors.values[14]), pow(2, 1.0), accuracy: 0.001, "one doubling after half a second")
        observation.invalidate()

        try backCamera.lockForConfiguration()
        backCamera.ramp(toVideoZoomFactor: 1, withRate: 1)
        backCamera.unlockForConfiguration()
        step(clock, frames: 15, collector: collector)
        try backCamera.lockForConfiguration()
        backCamera.cancelVideoZoomRamp()
        backCamera.unlockForConfiguration()
        XCTAssertEqual(Double(backCamera.videoZoomFactor), 4 / pow(2, 0.5), accuracy: 0.001, "half a second at one halving a second")
        let stopped = backCamera.videoZoomFactor
        step(clock, frames: 10, collector: collector)
        XCTAssertEqual(backCamera.videoZoomFactor, stopped, "a cancelled ramp stays where it stopped")
        session.stopRunning()
    }

    func testTheMicrophoneHearsExactlyTheTimeTheClockPasses() throws {
        let clock = VirtualClock.manual()
        microphone.virtualScene!.clock = clock
        let collector = FrameCollector()
        let (session, _) = try makeAudioSession(microphone: microphone, collector: collector)
        session.startRunning()
        XCTAssertFalse(waitUntil(timeout: 0.3) { collector.audioBufferCount > 0 }, "the clock stands still: no sound is due")
        // A buffer comes once the clock has passed its last sample, and each buffer's time brings one.
        let rate = Int32(AudioPreferences.sampleRate(native: Double(VirtualMicrophone.sampleRate)).rounded())
        let perBuffer = AudioPreferences.framesPerBuffer(rate: Double(rate), standard: VirtualMicrophone.framesPerBuffer)
        for step in 1...10 {
            clock.advance(by: CMTime(value: CMTimeValue(perBuffer), timescale: rate))
            XCTAssertTrue(waitUntil { collector.audioBufferCount == step }, "one buffer for each buffer's time")
        }
        XCTAssertFalse(waitUntil(timeout: 0.3) { collector.audioBufferCount > 10 }, "and no more than the clock passed")
        XCTAssertEqual(collector.audioBuffers.first?.numSamples, perBuffer)
        XCTAssertEqual(collector.audioBuffers.first?.formatDescription?.audioStreamBasicDescription?.mSampleRate, Double(rate))
        let times = collector.audioBuffers.map(\.presentationTimeStamp)
        XCTAssertEqual(
            zip(times, times.dropFirst()).map { ($1 - $0).convertScale(rate, method: .default).value },
            Array(repeating: CMTimeValue(perBuffer), count: times.count - 1), "sample times follow one another")
        session.stopRunning()
    }

    /// The handshake of a test clock: the clock is settled once every device streaming on it is
    /// parked on a time still to come, so that its owner waits for exactly the work the time it
    /// passed started, and no longer.
    func testTheClockIsSettledOnceEveryDeviceIsParkedOnIt() throws {
        let clock = VirtualClock.manual()
        XCTAssertTrue(clock.isSettled, "nothing streams on a new clock")
        guard let camera = backCamera.backend as? VirtualCamera else { return XCTFail("the back camera is virtual") }
        let (session, _) = try session(on: clock)
        XCTAssertTrue(clock.waitUntilSettled(timeout: 10), "the camera parks on the clock, waiting for its first frame's time")
        for _ in 0..<5 {
            let before = camera.framesHandedOver
            clock.advance(by: frame)
            XCTAssertTrue(clock.waitUntilSettled(timeout: 10))
            XCTAssertEqual(camera.framesHandedOver, before + 1, "settled means the frame the time brought is handed over, with no wait after")
        }
        session.stopRunning()
        XCTAssertTrue(clock.waitUntilSettled(timeout: 10), "a stopped camera leaves the clock")
        clock.advance(by: frame)
        XCTAssertTrue(clock.isSettled, "time passing on a clock no device streams on settles at once")
    }

    /// The outputs' half of the handshake: an output is busy from the frame it is handed until its
    /// delegate returns, so that a test waits for the delegate rather than for a fixed time.
    func testAnOutputHasWorkInFlightUntilItsDelegateReturns() throws {
        let clock = VirtualClock.manual()
        let (session, collector) = try session(on: clock)
        XCTAssertTrue(clock.waitUntilSettled(timeout: 10))
        XCTAssertFalse(session.outputsHaveWorkInFlight, "nothing handed over yet")
        let held = DispatchSemaphore(value: 0)
        collector.queue.async { held.wait() }
        clock.advance(by: frame)
        XCTAssertTrue(clock.waitUntilSettled(timeout: 10))
        XCTAssertTrue(session.outputsHaveWorkInFlight, "the frame waits for a delegate queue that is held")
        held.signal()
        XCTAssertTrue(waitUntil(timeout: 10) { !session.outputsHaveWorkInFlight }, "done once the delegate has had it")
        XCTAssertEqual(collector.frames.count, 1)
        session.stopRunning()
    }

    func testResettingTheDeviceReturnsItToTheHostClock() {
        backCamera.virtualScene!.clock = .manual()
        XCTAssertTrue(backCamera.virtualScene!.clock.isManuallyAdvanced)
        (backCamera.backend as? VirtualDeviceBase)?.resetToDefaults()
        XCTAssertFalse(backCamera.virtualScene!.clock.isManuallyAdvanced)
        XCTAssertEqual(VirtualClock.host.now.seconds, CMClockGetTime(CMClockGetHostTimeClock()).seconds, accuracy: 0.1)
    }

    func testPhotosAfterTheRequestAreTheFirstFramesOnTheCamerasOwnClock() throws {
        let clock = VirtualClock.manual()
        backCamera.virtualScene!.clock = clock
        let collector = FrameCollector()
        let (session, _) = try makeVideoSession(preset: .vga640x480, pixelFormat: kCVPixelFormatType_32BGRA, collector: collector)
        let photos = AVCapturePhotoOutput()
        XCTAssertTrue(session.canAddOutput(photos))
        session.addOutput(photos)
        try backCamera.lockForConfiguration()
        backCamera.activeVideoMinFrameDuration = frame
        backCamera.activeVideoMaxFrameDuration = frame
        backCamera.unlockForConfiguration()
        session.startRunning()
        step(clock, frames: 2, collector: collector)
        // Real time passes; the camera's clock stays where it was stepped to, and photos follow it.
        spin(0.3)
        photos.isZeroShutterLagEnabled = false
        let asked = clock.now
        let plain = PhotoProcessor(), flashed = PhotoProcessor()
        photos.capturePhoto(with: AVCapturePhotoSettings(), delegate: plain)
        let flash = AVCapturePhotoSettings()
        flash.flashMode = .on
        photos.capturePhoto(with: flash, delegate: flashed)
        XCTAssertFalse(waitUntil(timeout: 0.3) { plain.isFinished }, "no frame has begun since the request")
        step(clock, frames: 3, collector: collector)
        XCTAssertTrue(waitUntil { plain.isFinished && flashed.isFinished }, "three frames' time brings both photos")
        let paced = CMTime(value: 33_333_333, timescale: 1_000_000_000)
        XCTAssertEqual(try XCTUnwrap(plain.photos.values.first).timestamp, asked + paced, "the first frame that began after the request")
        let lit = try XCTUnwrap(flashed.photos.values.first).timestamp
        XCTAssertGreaterThanOrEqual(lit, asked + paced, "a frame's time after the flash fired, on the camera's clock")
        XCTAssertLessThanOrEqual(lit, asked + paced + paced)
    }
}
