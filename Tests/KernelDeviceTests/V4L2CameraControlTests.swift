import CaptureTestSupport
import XCTest
@testable import AVFoundation
@testable import CaptureDevices

/// How AVCaptureDevice's focus, exposure, white balance and zoom map onto a V4L2 camera's
/// controls, on a node with a UVC camera's controls (`scripts/vm/lafcam`, loaded in the VM by
/// `scripts/vm/test-in-vm.sh`) through the kernel's own control framework. Skips elsewhere.
final class V4L2CameraControlTests: CaptureTestCase {
    private var camera: AVCaptureDevice!

    override func setUpWithError() throws {
        super.setUp()
        guard let node = AVCaptureDevice.devices(for: .video).first(where: { $0.uniqueID.hasPrefix("v4l2:") && $0.manufacturer == "lafcam" }) else {
            throw XCTSkip("no camera with focus, exposure and zoom controls here: run scripts/vm/test-in-vm.sh")
        }
        camera = node
    }

    /// The driver's current value of a control.
    private func driver(_ id: UInt32) throws -> Int64 {
        try camera.value(of: try XCTUnwrap(camera.linuxControls.first { $0.id == id }, "control \(id)"))
    }

    func testSupportedModesAreTheOnesTheDriversControlsAllow() {
        XCTAssertTrue(camera.isFocusModeSupported(.continuousAutoFocus), "FOCUS_AUTO")
        XCTAssertTrue(camera.isFocusModeSupported(.locked))
        XCTAssertFalse(camera.isFocusModeSupported(.autoFocus), "no AUTO_FOCUS_START: no one-shot scan")
        XCTAssertTrue(camera.isLockingFocusWithCustomLensPositionSupported, "FOCUS_ABSOLUTE")
        XCTAssertTrue(camera.isExposureModeSupported(.continuousAutoExposure), "EXPOSURE_AUTO")
        XCTAssertTrue(camera.isExposureModeSupported(.custom), "EXPOSURE_ABSOLUTE")
        XCTAssertTrue(camera.isExposureModeSupported(.locked))
        XCTAssertTrue(camera.isWhiteBalanceModeSupported(.continuousAutoWhiteBalance), "AUTO_WHITE_BALANCE")
        XCTAssertTrue(camera.isWhiteBalanceModeSupported(.locked))
    }

    func testFocusExposureAndWhiteBalanceModesSetTheDriversControls() throws {
        try camera.lockForConfiguration()
        defer { camera.unlockForConfiguration() }
        camera.focusMode = .locked
        XCTAssertEqual(try driver(V4L2ControlID.focusAuto), 0)
        camera.setFocusModeLocked(lensPosition: 0.6)
        XCTAssertEqual(try driver(V4L2ControlID.focusAbsolute), 150, "a lens position of 0.6 is 60 % of FOCUS_ABSOLUTE's 0...250")
        camera.focusMode = .continuousAutoFocus
        XCTAssertEqual(try driver(V4L2ControlID.focusAuto), 1)

        camera.exposureMode = .locked
        XCTAssertEqual(try driver(V4L2ControlID.exposureAuto), 1, "V4L2_EXPOSURE_MANUAL")
        camera.setExposureModeCustom(duration: CMTime(value: 1, timescale: 100), iso: AVCaptureDevice.currentISO)
        XCTAssertEqual(try driver(V4L2ControlID.exposureAbsolute), 100, "1/100 s in EXPOSURE_ABSOLUTE's 100 us units")
        camera.exposureMode = .continuousAutoExposure
        XCTAssertEqual(try driver(V4L2ControlID.exposureAuto), 3, "the camera's automatic mode: aperture priority, as its menu offers")

        camera.whiteBalanceMode = .locked
        XCTAssertEqual(try driver(V4L2ControlID.autoWhiteBalance), 0)
        XCTAssertEqual(try driver(V4L2ControlID.whiteBalanceTemperature), 4600, "locking without new gains keeps the camera's temperature")
        let tungsten = camera.deviceWhiteBalanceGains(for: .init(temperature: 3200, tint: 0))
        camera.setWhiteBalanceModeLocked(with: tungsten)
        XCTAssertEqual(try driver(V4L2ControlID.whiteBalanceTemperature), 3200, "gains for 3200 K set WHITE_BALANCE_TEMPERATURE to 3200 K")
        camera.whiteBalanceMode = .continuousAutoWhiteBalance
        XCTAssertEqual(try driver(V4L2ControlID.autoWhiteBalance), 1)
    }

    func testZoomIsOpticalUpToTheLensAndDigitalBeyond() throws {
        XCTAssertEqual(camera.activeFormat.videoZoomFactorUpscaleThreshold, 5, "ZOOM_ABSOLUTE 100...500: a 5x lens")
        XCTAssertEqual(camera.activeFormat.videoMaxZoomFactor, 16)
        try camera.lockForConfiguration()
        defer { camera.videoZoomFactor = 1; camera.unlockForConfiguration() }
        camera.videoZoomFactor = 3
        XCTAssertEqual(try driver(V4L2ControlID.zoomAbsolute), 300)
        camera.videoZoomFactor = 10
        XCTAssertEqual(try driver(V4L2ControlID.zoomAbsolute), 500, "the lens at its longest; the remaining 2x is digital")
        camera.videoZoomFactor = 1
        XCTAssertEqual(try driver(V4L2ControlID.zoomAbsolute), 100)
    }
}
