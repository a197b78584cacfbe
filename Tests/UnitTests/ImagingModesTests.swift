import XCTest
@testable import AVFoundation
@testable import CaptureDevices

/// Apple's imaging modes and the device layer's typed controls translate both ways, one to one.
final class ImagingModesTests: XCTestCase {
    func testEveryModeTranslatesToItsOwnControlAndBack() {
        let focus: [AVCaptureDevice.FocusMode] = [.locked, .autoFocus, .continuousAutoFocus]
        XCTAssertEqual(focus.map(\.control), [.locked, .once, .continuous])
        XCTAssertEqual(focus.map { AVCaptureDevice.FocusMode($0.control) }, focus)
        let exposure: [AVCaptureDevice.ExposureMode] = [.locked, .autoExpose, .continuousAutoExposure, .custom]
        XCTAssertEqual(exposure.map(\.control), [.locked, .once, .continuous, .custom])
        XCTAssertEqual(exposure.map { AVCaptureDevice.ExposureMode($0.control) }, exposure)
        let whiteBalance: [AVCaptureDevice.WhiteBalanceMode] = [.locked, .autoWhiteBalance, .continuousAutoWhiteBalance]
        XCTAssertEqual(whiteBalance.map(\.control), [.locked, .once, .continuous])
        XCTAssertEqual(whiteBalance.map { AVCaptureDevice.WhiteBalanceMode($0.control) }, whiteBalance)
        let flash: [AVCaptureDevice.FlashMode] = [.off, .on, .auto]
        XCTAssertEqual(flash.map(\.control), [.off, .on, .auto])
        XCTAssertEqual(flash.map { AVCaptureDevice.FlashMode($0.control) }, flash)
        let torch: [AVCaptureDevice.TorchMode] = [.off, .on, .auto]
        XCTAssertEqual(torch.map(\.control), [.off, .on, .auto])
        XCTAssertEqual(torch.map { AVCaptureDevice.TorchMode($0.control) }, torch)
        let ranges: [AVCaptureDevice.AutoFocusRangeRestriction] = [.none, .near, .far]
        XCTAssertEqual(ranges.map(\.range), [.unrestricted, .near, .far])
        XCTAssertEqual(ranges.map { AVCaptureDevice.AutoFocusRangeRestriction($0.range) }, ranges)
    }

    func testAutomaticLightsComeOnInTheDarkOnly() {
        XCTAssertTrue(LightControl.auto.isLit(sceneLuminance: 0.1))
        XCTAssertFalse(LightControl.auto.isLit(sceneLuminance: 1))
        XCTAssertTrue(LightControl.on.isLit(sceneLuminance: 1))
        XCTAssertFalse(LightControl.off.isLit(sceneLuminance: 0))
    }
}
