import XCTest
import Foundation

/// The command-line tool, run as users run it.
final class AVCaptureCommandTests: XCTestCase {
    private var executable: URL? {
        let candidates = [Bundle.main.bundleURL, Bundle(for: Self.self).bundleURL.deletingLastPathComponent()]
            .map { $0.appendingPathComponent("avcapture") }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    private func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let url = try XCTUnwrap(executable, "build avcapture first: swift build --build-tests builds it")
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    func testDevicesListsFormatsFrameRatesAndControls() throws {
        let (status, output) = try run(["devices"])
        XCTAssertEqual(status, 0)
        XCTAssertTrue(output.contains("Virtual Back Camera (virtual:camera:back)"))
        XCTAssertTrue(output.contains("'420v' 1280x720"))
        XCTAssertTrue(output.contains("1.000-60.000 fps"))
        XCTAssertTrue(output.contains("focus: locked autoFocus continuousAutoFocus"))
        XCTAssertTrue(output.contains("Virtual Microphone"))
    }

    func testMonitorCapturesAndReportsRateDropsAndLevel() throws {
        let (status, output) = try run(["monitor", "--seconds", "1.5", "--preset", "640x480"])
        XCTAssertEqual(status, 0, output)
        XCTAssertTrue(output.contains("at 640x480"))
        XCTAssertTrue(output.contains("dBFS"), "the audio level meter")
        let done = try XCTUnwrap(output.split(separator: "\n").last { $0.hasPrefix("Done:") })
        let frames = Int(done.split(separator: " ")[1])!
        XCTAssertEqual(Double(frames), 45, accuracy: 5)
    }

    func testMonitorShowsLateDropsForASlowDelegate() throws {
        let (status, output) = try run(["monitor", "--seconds", "1", "--preset", "low", "--work", "100", "--no-audio"])
        XCTAssertEqual(status, 0, output)
        let done = try XCTUnwrap(output.split(separator: "\n").last { $0.hasPrefix("Done:") })
        XCTAssertFalse(done.contains("dropped 0 late"), String(done))
    }

    func testBadArgumentsGiveClearErrors() throws {
        let format = try run(["monitor", "--format", "123x45@7"])
        XCTAssertNotEqual(format.status, 0)
        XCTAssertTrue(format.output.contains("has no 123x45@7 format"), format.output)
        let preset = try run(["monitor", "--preset", "3840x2160"])
        XCTAssertNotEqual(preset.status, 0)
        XCTAssertTrue(preset.output.contains("does not support the preset"), preset.output)
        let device = try run(["monitor", "--device", "nope"])
        XCTAssertNotEqual(device.status, 0)
        XCTAssertTrue(device.output.contains("No camera nope found"), device.output)
        let pixels = try run(["monitor", "--pixel-format", "rgb565"])
        XCTAssertTrue(pixels.output.contains("Unsupported pixel format"), pixels.output)
    }
}
