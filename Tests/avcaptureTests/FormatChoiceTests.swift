import Foundation
import TestSupport
import XCTest

/// `--format WxH@FPS` picks, among the camera's formats of that size and rate, the one that needs
/// no conversion: the pixel format `--pixel-format` asks for, or what the encoders take. Checked
/// on a real PipeWire camera (a private PipeWire stack's test camera offers RGB and UYVY at
/// every size, RGB first).
final class FormatChoiceTests: XCTestCase {
    private var stack: PipeWireStack?
    private var environment: [String: String] { stack?.environment ?? [:] }

    override func setUpWithError() throws {
        do {
            stack = try PipeWireStack(folder: AVCaptureTool.folder("pipewire"))
        } catch {
            if ProcessInfo.processInfo.environment["CI"] != nil { XCTFail("CI runs every real-server test: \(error)") }
            throw XCTSkip("\(error)")
        }
    }

    override func tearDown() {
        stack?.stop()
        super.tearDown()
    }

    func testThePixelFormatAskedForIsTakenFromTheCameraWhenItOffersIt() throws {
        let uyvy = try AVCaptureTool.run(
            [
                "monitor", "--device", "pipewire:test-camera", "--format", "1280x720@30", "--pixel-format", "2vuy",
                "--seconds", "0.5", "--no-audio",
            ], environment: environment)
        XCTAssertEqual(uyvy.status, 0, uyvy.output)
        XCTAssertTrue(uyvy.standardOutput.contains("the camera's format: '2vuy' 1280x720"), "2vuy, not the RGB listed first: \(uyvy.output)")
        let plain = try AVCaptureTool.run(
            ["monitor", "--device", "pipewire:test-camera", "--format", "1280x720@30", "--seconds", "0.5", "--no-audio"],
            environment: environment)
        XCTAssertTrue(plain.standardOutput.contains("the camera's format: '24' 1280x720"), "no preference: the camera's order: \(plain.output)")
    }
}
