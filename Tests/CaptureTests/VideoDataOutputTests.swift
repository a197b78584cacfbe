import CaptureTestSupport
import XCTest
@testable import AVFoundation
import CaptureDevices
import TestSupport

/// The AV Foundation Programming Guide, "Processing Frames of Video", and WWDC 2010 session 409's performance rules for frame delivery.
final class VideoDataOutputTests: CaptureTestCase {
    func testFramesArriveInOrderOnTheDelegateQueue() throws {
        // The AV Foundation Programming Guide: "You must use a serial queue to ensure that frames are delivered to the delegate in the proper order."
        let collector = FrameCollector()
        let (session, _) = try makeVideoSession(collector: collector)
        session.startRunning()
        XCTAssertTrue(waitUntil { collector.frames.count >= 20 })
        session.stopRunning()
        let frames = collector.frames
        XCTAssertTrue(frames.allSatisfy(\.onQueue), "every callback runs on the queue given to setSampleBufferDelegate")
        for (earlier, later) in zip(frames, frames.dropFirst()) {
            XCTAssertLessThan(earlier.presentationTime, later.presentationTime)
        }
        XCTAssertTrue(frames.allSatisfy { $0.width == 640 && $0.height == 480 })
        XCTAssertTrue(frames.allSatisfy { $0.pixelFormat == kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange }, "default: the camera's most efficient format")
    }

    func testTimestampsAreCaptureTimesOnTheHostClock() throws {
        let collector = FrameCollector()
        var lags: [Double] = []
        let lock = NSLock()
        collector.onFrame = { sample in
            let now = CMClockGetTime(CMClockGetHostTimeClock())
            lock.lock(); lags.append((now - sample.presentationTimeStamp).seconds); lock.unlock()
        }
        let (session, _) = try makeVideoSession(preset: .low, collector: collector)
        session.startRunning()
        XCTAssertTrue(waitUntil { collector.frames.count >= 10 })
        session.stopRunning()
        lock.lock(); defer { lock.unlock() }
        XCTAssertTrue(lags.allSatisfy { $0 >= 0 && $0 < 0.25 }, "a frame is stamped when captured, shortly before delivery: \(lags)")
    }

    func testDeliveredRateIsWithinFivePercentOfTheConfiguredRate() throws {
        for (preset, rate) in [(AVCaptureSession.Preset.hd1280x720, 30.0)] {
            let collector = FrameCollector()
            let (session, _) = try makeVideoSession(preset: preset, collector: collector)
            let camera = try XCTUnwrap(backCamera.backend as? VirtualCamera)
            session.startRunning()
            XCTAssertTrue(waitUntil { collector.frames.count >= 3 })
            let (first, firstDrops, firstSkipped) = (collector.frames.count, collector.drops.count, camera.frameTimesSkipped)
            let start = CMClockGetTime(CMClockGetHostTimeClock())
            spin(3)
            let end = CMClockGetTime(CMClockGetHostTimeClock())
            let delivered = Double(collector.frames.count - first)
            // On a machine too busy to render at the rate, the camera passes frame times over, and says how many.
            let passedOver = Double(collector.drops.count - firstDrops) + Double(camera.frameTimesSkipped - firstSkipped)
            session.stopRunning()
            let seconds = (end - start).seconds
            XCTAssertEqual(
                (delivered + passedOver) / seconds, rate, accuracy: rate * 0.05,
                "\(preset.rawValue): \(delivered / seconds) fps delivered, \(passedOver) passed over")
            XCTAssertLessThanOrEqual(delivered / seconds, rate * 1.05, "never faster than the rate")
        }
    }

    func testSixtyFramesPerSecondFromTheHighFrameRateFormat() throws {
        useManualClock()
        let collector = FrameCollector()
        let (session, output) = try makeVideoSession(collector: collector)
        // Every frame is counted: time waits for the delegate, whose queue a loaded machine may hold up.
        output.alwaysDiscardsLateVideoFrames = false
        outputsCaughtUp = { !output.hasWorkInFlight }
        let format = try XCTUnwrap(backCamera.formats.first { $0.videoSupportedFrameRateRanges.contains { $0.maxFrameRate == 60 } })
        try backCamera.lockForConfiguration()
        backCamera.activeFormat = format
        backCamera.activeVideoMinFrameDuration = format.videoSupportedFrameRateRanges[0].minFrameDuration
        backCamera.activeVideoMaxFrameDuration = format.videoSupportedFrameRateRanges[0].minFrameDuration
        backCamera.unlockForConfiguration()
        session.startRunning()
        let sixtieth = CMTime(value: 1, timescale: 60)
        XCTAssertTrue(advanceUntil(frame: sixtieth) { collector.frames.count >= 3 })
        let first = collector.frames.last!.presentationTime
        pass(2, frame: sixtieth)
        XCTAssertTrue(
            waitUntil { collector.frames.last?.presentationTime ?? .zero >= first + CMTime(value: 2, timescale: 1) - CMTime(value: 1, timescale: 120) })
        let frames = collector.frames.filter { $0.presentationTime >= first }
        session.stopRunning()
        XCTAssertEqual(frames.count, 121, "every frame of two seconds at 60 fps")
        XCTAssertEqual(frameRate(of: frames, since: first), 60, accuracy: 0.01)
        XCTAssertTrue(frames.allSatisfy { $0.width == 1280 && $0.height == 720 })
    }

    func testALateFrameIsDroppedAtOnceAndReportedAfterTheCurrentCallback() throws {
        // WWDC 2010 session 409: "By default, we want to drop video frames early and efficiently if you fall behind."
        let collector = FrameCollector()
        collector.work = 0.1  // three frame times at 30 fps
        let (session, output) = try makeVideoSession(preset: .low, collector: collector)
        XCTAssertTrue(output.alwaysDiscardsLateVideoFrames, "the default is true")
        session.startRunning()
        XCTAssertTrue(waitUntil { collector.frames.count >= 10 })
        session.stopRunning()
        spin(0.2)
        let drops = collector.drops
        XCTAssertFalse(drops.isEmpty)
        XCTAssertTrue(drops.allSatisfy { $0.reason == kCMSampleBufferDroppedFrameReason_FrameWasLate as String }, "\(drops.map(\.reason))")
        XCTAssertTrue(drops.allSatisfy { !$0.duringCallback }, "a drop is reported after the current callback, not during it")
        XCTAssertTrue(drops.allSatisfy { !$0.hasImage }, "a dropped frame carries no image")
        // Each drop is reported right after the callback that was running when the frame arrived.
        var lastFrame = CMTime.negativeInfinity
        for event in collector.events {
            switch event {
            case .frame(let time): lastFrame = time
            case .drop(let time): XCTAssertGreaterThan(time, lastFrame)
            }
        }
        let frames = collector.frames
        XCTAssertEqual(Double(frames.count + drops.count) / Double(frames.count), 3.3, accuracy: 0.8, "about two of every three frames are dropped")
        // A frame that arrives while a callback runs is never delivered after it: it was dropped
        // at once. The test sees capture times, not arrivals: on a loaded machine the camera may
        // hand a frame over a few milliseconds after its capture time, after the callback returned.
        // An output that kept the frame for later would deliver every next frame captured during
        // the callback; at most a few may be, by a camera running late.
        let margin = CMTime(value: 5, timescale: 1000)
        let pairs = Array(zip(frames, frames.dropFirst()))
        let capturedDuring = pairs.filter { earlier, later in later.presentationTime < earlier.callbackEnd - margin }
        XCTAssertLessThanOrEqual(
            capturedDuring.count, pairs.count / 3,
            "frames at \(capturedDuring.map(\.1.presentationTime.seconds)) were captured during the previous callback")
    }

    func testHoldingBuffersStarvesThePoolAndReleasingThemRecovers() throws {
        // WWDC 2010 session 409: "if you hold onto the buffers too long, the camera is going to stop producing buffers".
        let collector = FrameCollector()
        collector.framesToRetain = 1000
        let (session, _) = try makeVideoSession(preset: .low, collector: collector)
        session.startRunning()
        XCTAssertTrue(waitUntil { collector.drops.contains { $0.reason == kCMSampleBufferDroppedFrameReason_OutOfBuffers as String } })
        let held = collector.frames.count
        XCTAssertLessThanOrEqual(held, 8, "no more frames than the pool holds")
        spin(0.3)
        XCTAssertEqual(collector.frames.count, held, "no frames while every buffer is held")
        collector.framesToRetain = 0
        collector.releaseRetained()
        XCTAssertTrue(waitUntil { collector.frames.count >= held + 5 }, "delivery resumes once buffers are returned")
        session.stopRunning()
    }

    func testWithoutDiscardingLateFramesASlowDelegateGetsABoundedQueue() throws {
        // The AV Foundation Programming Guide: with NO, "frames may still be dropped ... but they may not be dropped as early, or as efficiently".
        let collector = FrameCollector()
        collector.work = 0.05
        let (session, output) = try makeVideoSession(preset: .low, collector: collector)
        output.alwaysDiscardsLateVideoFrames = false
        session.startRunning()
        spin(1.5)
        session.stopRunning()
        spin(0.5)
        let frames = collector.frames, drops = collector.drops
        XCTAssertGreaterThan(frames.count, 20, "the queue keeps the delegate busy: \(frames.count)")
        XCTAssertFalse(drops.isEmpty, "beyond the queue's bound, frames are still dropped")
        for (earlier, later) in zip(frames, frames.dropFirst()) { XCTAssertLessThan(earlier.presentationTime, later.presentationTime) }
    }

    func testMinFrameDurationCapsTheRate() throws {
        // The AV Foundation Programming Guide: "cap the frame rate to 15 fps by setting the minFrameDuration property to 1/15 second".
        let collector = FrameCollector()
        useManualClock()
        let (session, output) = try makeVideoSession(preset: .low, collector: collector)
        // Time waits for the delegate, as a test that counts frames must: a delegate queue held up
        // by a loaded machine would otherwise see frames dropped beyond the output's short queue.
        output.alwaysDiscardsLateVideoFrames = false
        outputsCaughtUp = { !output.hasWorkInFlight }
        output.minFrameDuration = CMTimeMake(value: 1, timescale: 15)
        session.startRunning()
        XCTAssertTrue(advanceUntil { collector.frames.count >= 2 })
        let first = collector.frames.last!.presentationTime
        pass(2)
        XCTAssertTrue(waitUntil { collector.frames.count >= 32 }, "\(collector.frames.count)")
        session.stopRunning()
        XCTAssertEqual(frameRate(of: collector.frames, since: first), 15, accuracy: 0.01)
    }

    func testDeviceFrameDurationSetsTheRateAndInvalidRestoresTheDefault() throws {
        // WWDC 2013 session 610: "Use kCMTIME_INVALID to restore default frame rates".
        let collector = FrameCollector()
        useManualClock()
        let (session, output) = try makeVideoSession(preset: .low, collector: collector)
        // Time waits for the delegate, as a test that counts frames must: a delegate queue held up
        // by a loaded machine would otherwise see frames dropped beyond the output's short queue.
        output.alwaysDiscardsLateVideoFrames = false
        outputsCaughtUp = { !output.hasWorkInFlight }
        try backCamera.lockForConfiguration()
        backCamera.activeVideoMaxFrameDuration = CMTime(value: 1, timescale: 10)
        backCamera.activeVideoMinFrameDuration = CMTime(value: 1, timescale: 10)
        backCamera.unlockForConfiguration()
        session.startRunning()
        let tenth = CMTime(value: 1, timescale: 10)
        XCTAssertTrue(advanceUntil(frame: tenth) { collector.frames.count >= 2 })
        let first = collector.frames.last!.presentationTime
        let before = collector.frames.count
        pass(1.5, frame: tenth)
        XCTAssertTrue(waitUntil { collector.frames.count >= before + 15 })
        XCTAssertEqual(frameRate(of: collector.frames, since: first), 10, accuracy: 0.01)
        try backCamera.lockForConfiguration()
        backCamera.activeVideoMinFrameDuration = .invalid
        backCamera.activeVideoMaxFrameDuration = .invalid
        backCamera.unlockForConfiguration()
        XCTAssertEqual(backCamera.activeVideoMinFrameDuration, CMTime(value: 1, timescale: 30))
        session.stopRunning()
    }

    func testEachRequestedPixelFormatIsDelivered() throws {
        let output = AVCaptureVideoDataOutput()
        XCTAssertTrue(output.availableVideoPixelFormatTypes.contains(kCVPixelFormatType_32BGRA))
        XCTAssertTrue(output.availableVideoPixelFormatTypes.contains(kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange))
        XCTAssertTrue(output.availableVideoPixelFormatTypes.contains(kCVPixelFormatType_420YpCbCr8BiPlanarFullRange))
        for format in output.availableVideoPixelFormatTypes {
            let collector = FrameCollector()
            collector.measures = format == kCVPixelFormatType_32BGRA
            let (session, output) = try makeVideoSession(preset: .cif352x288, pixelFormat: format, collector: collector)
            XCTAssertEqual(attributeOSType(output.videoSettings[kCVPixelBufferPixelFormatTypeKey as String]), format)
            session.startRunning()
            XCTAssertTrue(waitUntil { collector.frames.count >= 3 }, "format \(format)")
            session.stopRunning()
            XCTAssertTrue(collector.frames.allSatisfy { $0.pixelFormat == format && $0.width == 352 && $0.height == 288 })
            if let mean = collector.frames.last?.meanLuma { XCTAssertGreaterThan(mean, 40, "a BGRA frame shows the lit scene") }
        }
    }

    func testOneFrameGoesToEveryOutputWithoutCopiesAndIsConvertedOncePerFormat() throws {
        let session = AVCaptureSession()
        sessions.append(session)
        session.sessionPreset = .low
        session.addInput(try AVCaptureDeviceInput(device: backCamera))
        let collectors = (0..<3).map { FrameCollector(label: "c\($0)") }
        let outputs = (0..<3).map { _ in AVCaptureVideoDataOutput() }
        outputs[2].videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA]
        for (output, collector) in zip(outputs, collectors) {
            output.setSampleBufferDelegate(collector, queue: collector.queue)
            session.addOutput(output)
        }
        session.startRunning()
        XCTAssertTrue(waitUntil { collectors.allSatisfy { $0.frames.count >= 8 } })
        session.stopRunning()
        let first = Dictionary(collectors[0].frames.map { ($0.presentationTime, $0.pixelBufferID) }, uniquingKeysWith: { a, _ in a })
        var shared = 0
        for frame in collectors[1].frames where first[frame.presentationTime] != nil {
            XCTAssertEqual(first[frame.presentationTime]!, frame.pixelBufferID, "outputs that want the same format share one buffer")
            shared += 1
        }
        XCTAssertGreaterThan(shared, 4)
        XCTAssertTrue(collectors[2].frames.allSatisfy { $0.pixelFormat == kCVPixelFormatType_32BGRA })
        XCTAssertTrue(collectors[0].frames.allSatisfy { $0.pixelFormat == kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange })
    }

    func testSampleBufferCarriesFormatAndTiming() throws {
        let collector = FrameCollector()
        var checked = false
        let lock = NSLock()
        collector.onFrame = { sample in
            lock.lock(); defer { lock.unlock() }
            guard !checked else { return }
            checked = true
            XCTAssertEqual(CMSampleBufferGetNumSamples(sample), 1)
            XCTAssertEqual(sample.formatDescription?.mediaType, .video)
            XCTAssertEqual(CMFormatDescriptionGetMediaSubType(sample.formatDescription!), kCVPixelFormatType_32BGRA)
            XCTAssertEqual(CMVideoFormatDescriptionGetDimensions(sample.formatDescription!).width, 640)
            XCTAssertEqual(CMSampleBufferGetDuration(sample), CMTime(value: 33_333_333, timescale: 1_000_000_000))
            XCTAssertTrue(CMVideoFormatDescriptionMatchesImageBuffer(sample.formatDescription!, imageBuffer: CMSampleBufferGetImageBuffer(sample)!))
        }
        let (session, _) = try makeVideoSession(pixelFormat: kCVPixelFormatType_32BGRA, collector: collector)
        session.startRunning()
        XCTAssertTrue(waitUntil { collector.frames.count >= 2 })
        session.stopRunning()
        lock.lock(); XCTAssertTrue(checked); lock.unlock()
    }

    func testFramesAsAnAsyncSequence() async throws {
        let collector = FrameCollector()
        let (session, output) = try makeVideoSession(preset: .low, collector: collector)
        let stream = output.linuxSampleBuffers(bufferingNewest: 2)
        session.startRunning()
        var times: [CMTime] = []
        for await sample in stream {
            times.append(sample.presentationTimeStamp)
            if times.count == 5 { break }
        }
        session.stopRunning()
        XCTAssertEqual(times.count, 5)
        XCTAssertEqual(times, times.sorted())
    }
}
