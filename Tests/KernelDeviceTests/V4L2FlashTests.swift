import CaptureTestSupport
import XCTest
@testable import AVFoundation
@testable import CaptureDevices
import TestSupport

/// How a V4L2 camera's LED flash (the flash class's LED mode, strobe and torch intensity, as
/// v4l2-flash-led-class drivers expose them) becomes AVCaptureDevice's torch and the photo
/// output's flash, on `scripts/vm/lafcam`, whose picture is brighter while its LED is lit.
/// Runs in the VM (`scripts/vm/test-in-vm.sh`); skips elsewhere.
final class V4L2FlashTests: CaptureTestCase {
    private var camera: AVCaptureDevice!

    override func setUpWithError() throws {
        super.setUp()
        guard let node = AVCaptureDevice.devices(for: .video).first(where: { $0.uniqueID.hasPrefix("v4l2:") && $0.manufacturer == "lafcam" }) else {
            throw XCTSkip("no camera with a flash here: run scripts/vm/test-in-vm.sh")
        }
        camera = node
    }

    /// The driver's current value of a control.
    private func driver(_ id: UInt32) throws -> Int64 {
        try camera.value(of: try XCTUnwrap(camera.linuxControls.first { $0.id == id }, "control \(id)"))
    }

    /// How many times the driver's flash has been strobed.
    private func strobes() throws -> Int {
        let text = try String(contentsOfFile: "/sys/module/lafcam/parameters/strobes", encoding: .utf8)
        return try XCTUnwrap(Int(text.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    func testTheLEDModeMenuGivesAFlashAndATorch() throws {
        XCTAssertTrue(camera.hasFlash, "LED mode FLASH and a STROBE control")
        XCTAssertTrue(camera.hasTorch, "LED mode TORCH")
        XCTAssertTrue(camera.isFlashModeSupported(.on))
        XCTAssertTrue(camera.isTorchModeSupported(.on))
        let session = AVCaptureSession()
        sessions.append(session)
        session.addInput(try AVCaptureDeviceInput(device: camera))
        let output = AVCapturePhotoOutput()
        session.addOutput(output)
        XCTAssertEqual(output.supportedFlashModes, [.off, .on, .auto])
        XCTAssertEqual(try driver(V4L2ControlID.flashLEDMode), V4L2ControlID.ledModeNone, "the LED is off until asked for")
    }

    func testTheTorchLightsTheLEDAtItsLevelWhileTheSessionRuns() throws {
        let collector = FrameCollector()
        collector.measures = true
        let (session, _) = try makeVideoSession(camera: camera, format: camera.activeFormat, pixelFormat: kCVPixelFormatType_32BGRA, collector: collector)
        session.startRunning()
        XCTAssertTrue(waitUntil(timeout: 10) { collector.frames.count >= 3 })
        func luma() -> Double {
            collector.reset()
            _ = waitUntil(timeout: 10) { collector.frames.count >= 4 }
            return collector.frames.last?.meanLuma ?? -1
        }
        let dark = luma()
        try camera.lockForConfiguration()
        defer { camera.torchMode = .off; camera.unlockForConfiguration() }
        camera.torchMode = .on
        XCTAssertTrue(camera.isTorchActive)
        XCTAssertEqual(try driver(V4L2ControlID.flashLEDMode), V4L2ControlID.ledModeTorch)
        XCTAssertEqual(try driver(V4L2ControlID.flashTorchIntensity), 100, "a torch turned on is at full level")
        let lit = luma()
        XCTAssertGreaterThan(lit, dark + 60, "the torch lights the picture: \(dark) without, \(lit) with")
        try camera.setTorchModeOn(level: 0.25)
        XCTAssertEqual(try driver(V4L2ControlID.flashTorchIntensity), 25, "TORCH_INTENSITY 0...100 at a quarter")
        camera.torchMode = .off
        XCTAssertEqual(try driver(V4L2ControlID.flashLEDMode), V4L2ControlID.ledModeNone)
        let after = luma()
        XCTAssertLessThan(after, dark + 10, "and goes out: \(after)")
        camera.torchMode = .on
        session.stopRunning()
        XCTAssertEqual(try driver(V4L2ControlID.flashLEDMode), V4L2ControlID.ledModeNone, "a torch burns only while the session runs")
    }

    func testAFlashPhotoStrobesTheFlashAndIsTheFrameItLit() throws {
        let output = try runningPhotoOutput()
        func photo(flash: AVCaptureDevice.FlashMode) throws -> AVCapturePhoto {
            let settings = AVCapturePhotoSettings(format: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA])
            settings.flashMode = flash
            let processor = PhotoProcessor()
            output.capturePhoto(with: settings, delegate: processor)
            XCTAssertTrue(waitUntil(timeout: 20) { processor.isFinished })
            XCTAssertTrue(processor.errors.values.isEmpty, "\(processor.errors.values)")
            return try XCTUnwrap(processor.photos.values.first)
        }
        let before = try strobes()
        let dark = try photo(flash: .off)
        XCTAssertEqual(try strobes(), before, "no flash, no strobe")
        let lit = try photo(flash: .on)
        XCTAssertEqual(try strobes(), before + 1, "one strobe for one flash photo")
        XCTAssertTrue(lit.resolvedSettings.isFlashEnabled)
        let (darkLuma, litLuma) = (PixelStatistics.measure(try XCTUnwrap(dark.pixelBuffer)).0, PixelStatistics.measure(try XCTUnwrap(lit.pixelBuffer)).0)
        XCTAssertLessThan(darkLuma, 70, "lafcam's room is dim")
        XCTAssertGreaterThan(litLuma, 230, "the photo is a frame the flash lit all of: \(litLuma)")
        let flashTag = (lit.metadata[kCGImagePropertyExifDictionary as String] as? [String: Any])?[kCGImagePropertyExifFlash as String] as? Int
        XCTAssertEqual(flashTag.map { $0 & 1 }, 1, "EXIF's Flash says it fired")
        XCTAssertEqual(try driver(V4L2ControlID.flashLEDMode), V4L2ControlID.ledModeNone, "the flash is stopped once the photo has its frame")
    }

    /// A running session from lafcam to a photo output that has had its first frame.
    private func runningPhotoOutput() throws -> AVCapturePhotoOutput {
        let session = AVCaptureSession()
        sessions.append(session)
        session.addInput(try AVCaptureDeviceInput(device: camera))
        let output = AVCapturePhotoOutput()
        session.addOutput(output)
        session.startRunning()
        XCTAssertTrue(waitUntil(timeout: 10) { output.maxPhotoDimensions.width > 0 })
        return output
    }

    /// Dims lafcam's room to `luma` (Y', 16-235) for the rest of a test.
    private func dimRoom(to luma: Int) throws {
        try "\(luma)\n".write(toFile: "/sys/module/lafcam/parameters/room", atomically: false, encoding: .utf8)
        addTeardownBlock { try? "60\n".write(toFile: "/sys/module/lafcam/parameters/room", atomically: false, encoding: .utf8) }
    }

    func testAnAutomaticFlashFiresWhenThePictureShowsADarkRoom() throws {
        let output = try runningPhotoOutput()
        func auto() throws -> Bool {
            let settings = AVCapturePhotoSettings()
            settings.flashMode = .auto
            let processor = PhotoProcessor()
            output.capturePhoto(with: settings, delegate: processor)
            XCTAssertTrue(waitUntil(timeout: 20) { processor.isFinished })
            return try XCTUnwrap(processor.photos.values.first).resolvedSettings.isFlashEnabled
        }
        spin(1)
        XCTAssertFalse(try auto(), "a lit room (Y' 60 under the camera's exposure) needs no flash")
        try dimRoom(to: 20)
        XCTAssertTrue(waitUntil(timeout: 10) { camera.backend.imaging.current.sceneLuminance < 0.3 }, "the meter reads the dim frames")
        XCTAssertTrue(try auto(), "a dark one does")
    }
}
