import CaptureTestSupport
import XCTest
@testable import AVFoundation
import TestSupport

/// The AV Foundation Programming Guide, "An AVCaptureDevice Object Represents an Input Device", and WWDC 2013 session 610's formats.
final class DeviceTests: CaptureTestCase {
    func testDiscovery() throws {
        XCTAssertEqual(AVCaptureDevice.default(for: .video), backCamera, "the back camera is the default camera")
        XCTAssertEqual(backCamera.position, .back)
        XCTAssertEqual(frontCamera.position, .front)
        XCTAssertEqual(AVCaptureDevice.default(for: .audio)?.deviceType, .builtInMicrophone)
        XCTAssertEqual(AVCaptureDevice.devices(for: .video).count, 2)
        XCTAssertEqual(AVCaptureDevice.devices(for: .audio).count, 1)
        let discovery = AVCaptureDevice.DiscoverySession(deviceTypes: [.builtInWideAngleCamera], mediaType: .video, position: .front)
        XCTAssertEqual(discovery.devices, [frontCamera])
        let microphones = AVCaptureDevice.DiscoverySession(deviceTypes: [.microphone], mediaType: .audio, position: .unspecified)
        XCTAssertEqual(microphones.devices.count, 1)
        XCTAssertEqual(AVCaptureDevice(uniqueID: backCamera.uniqueID), backCamera)
        XCTAssertNil(AVCaptureDevice(uniqueID: "no-such-device"))
        XCTAssertTrue(backCamera.hasMediaType(.video))
        XCTAssertFalse(backCamera.hasMediaType(.audio))
        XCTAssertFalse(backCamera.localizedName.isEmpty)
        XCTAssertNotEqual(backCamera.uniqueID, frontCamera.uniqueID)
    }

    func testBackCameraFormatsReproduceTheSeedTable() throws {
        let rows: [(Int32, Int32, Double, Float, Bool, Bool)] = [
            (192, 144, 30, 56.70, true, false), (352, 288, 30, 51.98, true, false), (480, 360, 30, 56.70, true, false),
            (640, 480, 30, 56.70, true, false), (960, 540, 30, 53.89, false, true), (1280, 720, 30, 53.89, false, true),
            (1280, 720, 60, 51.94, true, true), (1920, 1080, 30, 53.89, false, true), (2592, 1936, 20, 56.70, false, false),
            (3264, 2448, 20, 56.70, false, false),
        ]
        XCTAssertEqual(backCamera.formats.count, rows.count)
        for (format, row) in zip(backCamera.formats, rows) {
            XCTAssertEqual(format.mediaType, .video)
            XCTAssertEqual(format.formatDescription.dimensions, CMVideoDimensions(width: row.0, height: row.1))
            XCTAssertEqual(format.videoSupportedFrameRateRanges.first?.minFrameRate, 1)
            XCTAssertEqual(format.videoSupportedFrameRateRanges.first?.maxFrameRate, row.2)
            XCTAssertEqual(format.videoFieldOfView, row.3, accuracy: 0.001)
            XCTAssertEqual(format.isVideoBinned, row.4)
            XCTAssertEqual(format.isVideoStabilizationSupported, row.5)
        }
        XCTAssertEqual(
            backCamera.formats[7].videoZoomFactorUpscaleThreshold, 1.45, accuracy: 0.001, "WWDC 2013 session 610: iPhone 5 1080p upscaling threshold")
        XCTAssertEqual(backCamera.formats[6].videoSupportedFrameRateRanges[0].minFrameDuration, CMTime(value: 1, timescale: 60))
    }

    func testAuthorization() throws {
        XCTAssertEqual(AVCaptureDevice.authorizationStatus(for: .video), .authorized)
        backCamera.virtualScene!.setAuthorized(false)
        XCTAssertEqual(AVCaptureDevice.authorizationStatus(for: .video), .denied)
        // WWDC 2013 session 610: "Subsequent DeviceInput creation fails if user denied access".
        XCTAssertThrowsError(try AVCaptureDeviceInput(device: backCamera)) { error in
            XCTAssertEqual((error as? AVError)?.code, .applicationIsNotAuthorizedToUseDevice)
        }
        let answered = expectation(description: "answer")
        AVCaptureDevice.requestAccess(for: .video) { granted in
            XCTAssertFalse(granted)
            answered.fulfill()
        }
        wait(for: [answered], timeout: 2)
        backCamera.virtualScene!.setAuthorized(true)
        XCTAssertNoThrow(try AVCaptureDeviceInput(device: backCamera))
    }

    func testAnInputCannotBeMadeForADisconnectedDevice() {
        let camera = frontCamera
        camera.virtualScene!.disconnect()
        XCTAssertFalse(camera.isConnected)
        XCTAssertFalse(AVCaptureDevice.devices(for: .video).contains(camera))
        XCTAssertNil(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .front))
        XCTAssertThrowsError(try AVCaptureDeviceInput(device: camera)) { error in
            XCTAssertEqual((error as? AVError)?.code, .deviceNotConnected)
        }
    }

    func testTheConfigurationLockIsExclusiveAcrossProcesses() throws {
        // WWDC 2010 session 409: "before messing with their state, we want to make sure that you have mutually exclusive access to that device."
        let path = AVCaptureDevice.lockFilePath(for: backCamera.uniqueID)
        let other = open(path, O_CREAT | O_RDWR, 0o600)  // another open file, as another process holds
        XCTAssertGreaterThanOrEqual(other, 0)
        defer { close(other) }
        XCTAssertEqual(flock(other, LOCK_EX | LOCK_NB), 0)
        XCTAssertThrowsError(try backCamera.lockForConfiguration()) { error in
            XCTAssertEqual((error as? AVError)?.code, .deviceLockedForConfigurationByAnotherProcess)
        }
        flock(other, LOCK_UN)
        XCTAssertNoThrow(try backCamera.lockForConfiguration())
        XCTAssertNotEqual(flock(other, LOCK_EX | LOCK_NB), 0, "while this client holds the lock, others cannot take it")
        backCamera.unlockForConfiguration()
        XCTAssertEqual(flock(other, LOCK_EX | LOCK_NB), 0)
    }

    /// A symbolic link planted where the lock file goes is never followed: nothing is created
    /// through it, and the lock still works within the process.
    func testTheLockFileIsNeverOpenedThroughASymbolicLink() throws {
        let camera = frontCamera
        let path = AVCaptureDevice.lockFilePath(for: camera.uniqueID)
        unlink(path)
        let target = makeScratchFolder().appendingPathComponent("planted-target")
        XCTAssertEqual(symlink(target.path, path), 0)
        defer { unlink(path) }
        XCTAssertNoThrow(try camera.lockForConfiguration())
        camera.unlockForConfiguration()
        XCTAssertFalse(FileManager.default.fileExists(atPath: target.path), "the link's target was not created")
    }
}
