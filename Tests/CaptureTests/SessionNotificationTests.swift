import CaptureTestSupport
import XCTest
@testable import AVFoundation
import TestSupport

/// The AV Foundation Programming Guide, "Monitoring Capture Session State": notifications "are posted on the main thread";
/// WWDC 2010 session 409 on interruptions; the AVCam sample on runtime errors.
final class SessionNotificationTests: CaptureTestCase {
    /// Records notifications in order, with the thread they came on.
    private let sessionNames: [NSNotification.Name] = [
        .AVCaptureSessionDidStartRunning, .AVCaptureSessionDidStopRunning, .AVCaptureSessionRuntimeError,
        .AVCaptureSessionWasInterrupted, .AVCaptureSessionInterruptionEnded,
    ]

    func testStartAndStopAreSynchronousAndPostedOnTheMainThread() throws {
        let collector = FrameCollector()
        let (session, _) = try makeVideoSession(preset: .low, collector: collector)
        let log = NotificationLog(sessionNames, object: session)
        let running = Recorder<Bool>()
        let observation = session.observe(\.isRunning, options: [.new]) { _, change in running.append(change.newValue!) }
        // As AVCam does, start and stop on a session queue of the app's own.
        let sessionQueue = DispatchQueue(label: "session queue")
        sessionQueue.sync { session.startRunning() }
        XCTAssertTrue(session.isRunning, "startRunning returns once running")
        XCTAssertTrue(waitUntil { log.names == [.AVCaptureSessionDidStartRunning] })
        sessionQueue.sync { session.stopRunning() }
        XCTAssertFalse(session.isRunning)
        XCTAssertTrue(waitUntil { log.names == [.AVCaptureSessionDidStartRunning, .AVCaptureSessionDidStopRunning] })
        XCTAssertTrue(log.allOnMainThread)
        XCTAssertEqual(running.values, [true, false])
        let count = collector.frames.count
        spin(0.2)
        XCTAssertEqual(collector.frames.count, count, "no frames after stopRunning returns")
        observation.invalidate()
    }

    func testInterruptionStopsFramesUntilItEnds() throws {
        let collector = FrameCollector()
        let (session, _) = try makeVideoSession(preset: .low, collector: collector)
        let log = NotificationLog(sessionNames, object: session)
        session.startRunning()
        XCTAssertTrue(waitUntil { collector.frames.count >= 2 })
        backCamera.virtualScene!.interrupt(reason: AVCaptureSession.InterruptionReason.videoDeviceInUseByAnotherClient.rawValue)
        XCTAssertTrue(session.isInterrupted)
        XCTAssertTrue(session.isRunning, "an interrupted session is still running")
        XCTAssertTrue(waitUntil { log.names.contains(.AVCaptureSessionWasInterrupted) })
        let reason = (log.userInfo(of: .AVCaptureSessionWasInterrupted)?[AVCaptureSessionInterruptionReasonKey] as? NSNumber)?.intValue
        XCTAssertEqual(reason.flatMap(AVCaptureSession.InterruptionReason.init), .videoDeviceInUseByAnotherClient)
        XCTAssertFalse(session.outputs[0].connections[0].isActive)
        spin(0.15)
        let frozen = collector.frames.count
        spin(0.3)
        XCTAssertEqual(collector.frames.count, frozen, "no frames while interrupted")
        backCamera.virtualScene!.endInterruption()
        XCTAssertFalse(session.isInterrupted)
        XCTAssertTrue(waitUntil { collector.frames.count >= frozen + 3 }, "frames resume when the interruption ends")
        XCTAssertTrue(waitUntil { log.names.last == .AVCaptureSessionInterruptionEnded })
    }

    func testADisconnectedDeviceIsARuntimeErrorThatStopsTheSession() throws {
        let collector = FrameCollector()
        let (session, _) = try makeVideoSession(preset: .low, collector: collector)
        let camera = backCamera
        let log = NotificationLog(sessionNames, object: session)
        let deviceLog = NotificationLog([.AVCaptureDeviceWasDisconnected, .AVCaptureDeviceWasConnected], object: nil)
        session.startRunning()
        XCTAssertTrue(waitUntil { collector.frames.count >= 2 })
        camera.virtualScene!.disconnect()
        XCTAssertFalse(camera.isConnected)
        XCTAssertFalse(session.isRunning)
        XCTAssertTrue(waitUntil { log.names.suffix(2) == [.AVCaptureSessionRuntimeError, .AVCaptureSessionDidStopRunning] }, "\(log.names)")
        let error = log.userInfo(of: .AVCaptureSessionRuntimeError)?[AVCaptureSessionErrorKey] as? AVError
        XCTAssertEqual(error?.code, .deviceWasDisconnected)
        XCTAssertEqual(error?.device, camera)
        XCTAssertTrue(waitUntil { deviceLog.names == [.AVCaptureDeviceWasDisconnected] })
        camera.virtualScene!.reconnect()
        XCTAssertTrue(waitUntil { deviceLog.names == [.AVCaptureDeviceWasDisconnected, .AVCaptureDeviceWasConnected] })
        session.startRunning()
        let count = collector.frames.count
        XCTAssertTrue(waitUntil { collector.frames.count >= count + 2 }, "the session is usable again")
    }

    func testARuntimeErrorIsReportedAndTheSessionCanRestart() throws {
        // The AVCam sample: on mediaServicesWereReset, the app restarts the session.
        let collector = FrameCollector()
        let (session, _) = try makeVideoSession(preset: .low, collector: collector)
        let log = NotificationLog(sessionNames, object: session)
        session.startRunning()
        XCTAssertTrue(waitUntil { collector.frames.count >= 1 })
        backCamera.virtualScene!.failWithRuntimeError(code: AVError.Code.mediaServicesWereReset.rawValue)
        XCTAssertTrue(waitUntil { log.names.contains(.AVCaptureSessionRuntimeError) })
        let error = try XCTUnwrap(log.userInfo(of: .AVCaptureSessionRuntimeError)?[AVCaptureSessionErrorKey] as? AVError)
        XCTAssertEqual(error.code, .mediaServicesWereReset)
        XCTAssertFalse(session.isRunning)
        session.startRunning()
        XCTAssertTrue(session.isRunning)
        let count = collector.frames.count
        XCTAssertTrue(waitUntil { collector.frames.count >= count + 2 })
    }

    func testStartingWithADisconnectedDeviceFailsWithARuntimeError() throws {
        let collector = FrameCollector()
        let (session, _) = try makeVideoSession(preset: .low, collector: collector)
        let log = NotificationLog(sessionNames, object: session)
        backCamera.virtualScene!.disconnect()
        session.startRunning()
        XCTAssertFalse(session.isRunning)
        XCTAssertTrue(waitUntil { log.names.contains(.AVCaptureSessionRuntimeError) })
        XCTAssertFalse(log.names.contains(.AVCaptureSessionDidStartRunning))
        XCTAssertEqual((log.userInfo(of: .AVCaptureSessionRuntimeError)?[AVCaptureSessionErrorKey] as? AVError)?.code, .deviceNotConnected)
    }
}

/// The AV Foundation Programming Guide, "Switching Between Devices": "When the outermost commitConfiguration is invoked, all
/// the changes are made together. This ensures a smooth transition."
final class ConfigurationAtomicityTests: CaptureTestCase {
    func testSwitchingCamerasWhileRunningNeverMixesFrames() throws {
        useManualClock()
        let collector = FrameCollector()
        let session = AVCaptureSession()
        sessions.append(session)
        session.sessionPreset = .vga640x480
        let back = try AVCaptureDeviceInput(device: backCamera)
        session.addInput(back)
        let output = AVCaptureVideoDataOutput()
        output.setSampleBufferDelegate(collector, queue: collector.queue)
        session.addOutput(output)
        session.startRunning()
        XCTAssertTrue(advanceUntil { collector.frames.count >= 5 })
        for round in 0..<4 {
            let current = session.inputs[0] as! AVCaptureDeviceInput
            let next = try AVCaptureDeviceInput(device: current.device == backCamera ? frontCamera : backCamera)
            session.beginConfiguration()
            session.removeInput(current)
            session.addInput(next)
            session.sessionPreset = round % 2 == 0 ? .hd1280x720 : .vga640x480
            pass(0.1, camera: current.device)  // frames keep flowing from the old graph while the change is staged
            session.commitConfiguration()
            let count = collector.frames.count
            XCTAssertTrue(advanceUntil(camera: next.device) { collector.frames.count >= count + 4 })
        }
        session.stopRunning()
        // Every size change happens once per commit: the sizes never flip back and forth.
        let sizes = collector.frames.map(\.width)
        var runs: [Int] = []
        for size in sizes where runs.last != size { runs.append(size) }
        XCTAssertEqual(runs, [640, 1280, 640, 1280, 640], "frames of the old and new graphs never interleave: \(runs)")
        XCTAssertTrue(session.outputs[0].connections[0].inputPorts[0].input === session.inputs[0])
        for (earlier, later) in zip(collector.frames, collector.frames.dropFirst()) {
            XCTAssertLessThan(earlier.presentationTime, later.presentationTime)
        }
    }

    func testRemovingAnOutputWhileRunningStopsItsFramesAtOnce() throws {
        useManualClock()
        let collector = FrameCollector()
        let (session, output) = try makeVideoSession(preset: .low, collector: collector)
        session.startRunning()
        XCTAssertTrue(advanceUntil { collector.frames.count >= 3 })
        let count = collector.queue.sync {
            session.removeOutput(output)  // on the delivery queue, so no callback is under way
            return collector.frames.count
        }
        pass(0.3)
        drainMainQueue()
        collector.queue.sync {}
        XCTAssertEqual(collector.frames.count, count, "no frame goes to a removed output: the camera handed over nine more")
        XCTAssertTrue(session.isRunning)
    }
}
