import AVFoundation
import AppleStyleCode
import CaptureDevices
import Combine
import TestSupport
import XCTest

/// A camera model written with Combine, unchanged: its published state follows the session, the
/// recording (with its timer) and the session's interruptions, on the main queue.
final class CombineCameraModelTests: XCTestCase {
    override func setUp() {
        super.setUp()
        setenv("LINUXAVFOUNDATION_DEVICES", "virtual", 1)
    }

    override func tearDown() {
        unsetenv("LINUXAVFOUNDATION_DEVICES")
        super.tearDown()
    }

    // XCTest on Linux runs tests on the main thread but cannot call a main-actor test method.
    func testThePublishedStateFollowsTheSessionTheRecordingAndInterruptions() throws {
        try MainActor.assumeIsolated { try Self.followTheModel() }
    }

    @MainActor
    private static func followTheModel() throws {
        let model = CombineCameraModel(tick: 0.02)
        try model.configure()
        var announced = 0
        let willChange = model.objectWillChange.sink { announced += 1 }
        XCTAssertFalse(model.isSessionRunning)
        model.session.startRunning()
        defer { model.session.stopRunning() }
        XCTAssertTrue(waitUntil { model.isSessionRunning }, "published on the main queue")
        XCTAssertGreaterThan(announced, 0, "objectWillChange announced it")
        XCTAssertTrue(model.canRecord, "running, uninterrupted and not recording")

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("combine-model-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let delegate = FinishWaiter()
        model.movieOutput.startRecording(to: folder.appendingPathComponent("clip.mov"), recordingDelegate: delegate)
        XCTAssertTrue(waitUntil { model.isRecording })
        XCTAssertFalse(model.canRecord, "not while recording")
        XCTAssertTrue(waitUntil(timeout: 15) { model.recordingTicks >= 3 }, "the recording timer ticks: \(model.recordingTicks)")
        model.movieOutput.stopRecording()
        XCTAssertTrue(waitUntil(timeout: 15) { delegate.finished && !model.isRecording })
        let ticks = model.recordingTicks
        RunLoop.main.run(until: Date().addingTimeInterval(0.1))
        XCTAssertEqual(model.recordingTicks, ticks, "the timer stopped with the recording")

        let scene = try XCTUnwrap(AVCaptureDevice.default(for: .video)?.virtualScene)
        scene.interrupt(reason: AVCaptureSession.InterruptionReason.videoDeviceNotAvailableWithMultipleForegroundApps.rawValue)
        XCTAssertTrue(waitUntil { model.interruption == .videoDeviceNotAvailableWithMultipleForegroundApps })
        XCTAssertFalse(model.canRecord, "not while interrupted")
        scene.endInterruption()
        XCTAssertTrue(waitUntil { model.interruption == nil })
        XCTAssertTrue(model.canRecord)
        model.session.stopRunning()
        XCTAssertTrue(waitUntil { !model.isSessionRunning })
        willChange.cancel()
    }
}

/// A recording delegate that notes the end of the file.
private final class FinishWaiter: NSObject, AVCaptureFileOutputRecordingDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var done = false
    var finished: Bool { lock.withLock { done } }

    func fileOutput(_ output: AVCaptureFileOutput, didFinishRecordingTo outputFileURL: URL, from connections: [AVCaptureConnection], error: (any Error)?) {
        lock.withLock { done = true }
    }
}
