import CaptureTestSupport
import XCTest
@testable import AVFoundation

/// A V4L2 camera whose node this user may not open (EACCES). Runs in the VM, as an unprivileged
/// user, on a node made root-only (`scripts/vm/test-in-vm.sh`); skips elsewhere.
final class V4L2PermissionTests: CaptureTestCase {
    func testACameraThisUserMayNotOpenIsListedButDenied() throws {
        guard ProcessInfo.processInfo.environment["LINUXAVFOUNDATION_EXPECT_DENIED"] != nil else {
            throw XCTSkip("runs in the VM as a user the camera's node refuses: scripts/vm/test-in-vm.sh")
        }
        XCTAssertNotEqual(getuid(), 0, "root opens any node")
        let camera = try XCTUnwrap(
            AVCaptureDevice.devices(for: .video).first { $0.uniqueID.hasPrefix("v4l2:") }, "a camera the user may not open is still listed")
        XCTAssertEqual(AVCaptureDevice.authorizationStatus(for: .video), .denied)
        XCTAssertThrowsError(try AVCaptureDeviceInput(device: camera)) { error in
            XCTAssertEqual((error as? AVError)?.code, .applicationIsNotAuthorizedToUseDevice)
        }
        let answered = expectation(description: "requestAccess answers")
        let granted = LockedBox(true)
        AVCaptureDevice.requestAccess(for: .video) {
            granted.value = $0; answered.fulfill()
        }
        wait(for: [answered], timeout: 5)
        XCTAssertFalse(granted.value, "access cannot be granted from inside the process: the node's permissions decide")
        XCTAssertEqual(AVCaptureDevice.authorizationStatus(for: .audio), .authorized, "the microphones are not affected")
    }
}
