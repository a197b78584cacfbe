import CaptureTestSupport
import XCTest
@testable import AVFoundation
import TestSupport

/// A shutter button kept in step with the photo output, as Apple's camera sample keeps it: the
/// readiness coordinator's delegate hears, on the main queue, when the output can take a photo.
final class PhotoReadinessTests: CaptureTestCase {
    /// Hears the readiness changes, on the main queue.
    private final class Shutter: NSObject, AVCapturePhotoOutputReadinessCoordinatorDelegate, @unchecked Sendable {
        let heard = Recorder<AVCapturePhotoOutput.CaptureReadiness>()
        let onMain = Recorder<Bool>()
        func readinessCoordinator(
            _ coordinator: AVCapturePhotoOutputReadinessCoordinator, captureReadinessDidChange captureReadiness: AVCapturePhotoOutput.CaptureReadiness
        ) {
            heard.append(captureReadiness)
            onMain.append(Thread.isMainThread)
        }
    }

    /// A photo delegate that holds the output's queue in its first callback until let go.
    private final class HeldCapture: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
        let gate = DispatchSemaphore(value: 0)
        let finished = Recorder<Bool>()
        func photoOutput(_ output: AVCapturePhotoOutput, willBeginCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings) { gate.wait() }
        func photoOutput(_ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings, error: Error?) {
            finished.append(true)
        }
    }

    func testTheShutterFollowsTheSessionTrackedRequestsAndProcessing() throws {
        let session = AVCaptureSession()
        sessions.append(session)
        session.sessionPreset = .vga640x480
        session.addInput(try AVCaptureDeviceInput(device: backCamera))
        let output = AVCapturePhotoOutput()
        session.addOutput(output)
        let coordinator = AVCapturePhotoOutputReadinessCoordinator(photoOutput: output)
        let shutter = Shutter()
        coordinator.delegate = shutter
        XCTAssertEqual(coordinator.captureReadiness, .sessionNotRunning)
        XCTAssertTrue(waitUntil { shutter.heard.values == [.sessionNotRunning] }, "the value as it is, when the delegate is set")

        session.startRunning()
        XCTAssertTrue(waitUntil { output.maxPhotoDimensions.width > 0 && shutter.heard.values.last == .ready }, "\(shutter.heard.values)")

        // A tap: the app tracks the request while it hands it to the output on its own queue.
        let settings = AVCapturePhotoSettings()
        coordinator.startTrackingCaptureRequest(using: settings)
        XCTAssertEqual(coordinator.captureReadiness, .notReadyMomentarily)
        XCTAssertTrue(waitUntil { shutter.heard.values.last == .notReadyMomentarily })
        let capture = HeldCapture()
        output.capturePhoto(with: settings, delegate: capture)
        // The output has it now, busy with it until its delegate lets go.
        XCTAssertTrue(waitUntil { shutter.heard.values.last == .notReadyWaitingForProcessing }, "\(shutter.heard.values)")
        XCTAssertEqual(output.captureReadiness, .notReadyWaitingForProcessing)
        capture.gate.signal()
        XCTAssertTrue(waitUntil { capture.finished.values == [true] })
        XCTAssertTrue(waitUntil { shutter.heard.values.last == .ready }, "\(shutter.heard.values)")

        // Tracking given up without a capture.
        let abandoned = AVCapturePhotoSettings()
        coordinator.startTrackingCaptureRequest(using: abandoned)
        coordinator.stopTrackingCaptureRequest(using: abandoned.uniqueID)
        XCTAssertEqual(coordinator.captureReadiness, .ready)

        session.stopRunning()
        XCTAssertTrue(waitUntil { shutter.heard.values.last == .sessionNotRunning })
        XCTAssertEqual(Set(shutter.onMain.values), [true], "always on the main queue")
    }
}
