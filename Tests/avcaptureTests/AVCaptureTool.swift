import XCTest
import Foundation

/// The built `avcapture`, run in a child process as a user runs it.
enum AVCaptureTool {
    /// What one run printed and how it ended.
    struct Result {
        var status: Int32
        var standardOutput: String
        var standardError: String
        var seconds: Double
        /// Both streams, standard output first.
        var output: String { standardOutput + standardError }
    }

    /// The executable `swift build --build-tests` puts beside the test bundle.
    static var executable: URL? {
        let candidates = [Bundle.main.bundleURL, Bundle(for: Marker.self).bundleURL.deletingLastPathComponent()]
            .map { $0.appendingPathComponent("avcapture") }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    private final class Marker {}

    /// Runs `avcapture arguments` with `environment` added to this process's, and waits for it.
    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Result {
        let url = try XCTUnwrap(executable, "build avcapture first: swift build --build-tests builds it")
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        // Standard error goes to a file, so that neither stream can fill up while the other is read.
        let errorFile = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("avcapture-stderr-\(getpid())-\(UUID().uuidString.prefix(8))")
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errorFile) }
        let errorHandle = try FileHandle(forWritingTo: errorFile)
        defer { try? errorHandle.close() }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = errorHandle
        let start = Date()
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let errorData = (try? Data(contentsOf: errorFile)) ?? Data()
        return Result(
            status: process.terminationStatus, standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: errorData, as: UTF8.self), seconds: Date().timeIntervalSince(start))
    }

    /// Starts `avcapture monitor` of the low preset without sound for `seconds`, its standard
    /// output on a pipe; `stop` ends it.
    static func startMonitor(seconds: Int = 30) throws -> (process: Process, output: FileHandle) {
        let process = Process()
        process.executableURL = try XCTUnwrap(executable, "build avcapture first: swift build --build-tests builds it")
        process.arguments = ["monitor", "--seconds", String(seconds), "--preset", "low", "--no-audio"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        return (process, output.fileHandleForReading)
    }

    /// Kills `process` if it still runs, and waits for it.
    static func stop(_ process: Process) {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Runs a script of Tests/Browser that drives a page of `avcapture` in Debian's headless
    /// Chromium through chromium-driver, and returns the JSON object it prints. Skipped outside CI
    /// when the browser is not installed; a failure in CI.
    static func browserResults(script name: String, seconds: Int) throws -> [String: Any] {
        let parts = ["/usr/bin/chromium", "/usr/bin/chromedriver", "/usr/bin/python3"]
        let missing = parts.filter { !FileManager.default.isExecutableFile(atPath: $0) }
        if ProcessInfo.processInfo.environment["CI"] == nil {
            try XCTSkipUnless(missing.isEmpty, "the browser test needs chromium, chromium-driver and python3-selenium (scripts/install-deps.sh --with-servers)")
        }
        XCTAssertEqual(missing, [], "install chromium, chromium-driver and python3-selenium")
        let executable = try XCTUnwrap(executable)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Browser/\(name)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [script.path, executable.path, "--seconds", String(seconds)]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let complaints = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, complaints)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: printed) as? [String: Any], String(decoding: printed, as: UTF8.self) + complaints)
    }

    /// A movie of `seconds` of 320x240 30 fps H.264 (a keyframe every 15) with a 1 kHz tone in AAC,
    /// made by the ffmpeg command in `folder`.
    static func movie(in folder: URL, seconds: Int, name: String = "movie.mp4") throws -> URL {
        let url = folder.appendingPathComponent(name)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.arguments = [
            "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=320x240:r=30:d=\(seconds)", "-f", "lavfi", "-i",
            "sine=frequency=1000:duration=\(seconds)", "-c:v", "libx264", "-g", "15", "-pix_fmt", "yuv420p", "-c:a", "aac",
            "-shortest", url.path,
        ]
        try process.run()
        process.waitUntilExit()
        try XCTSkipUnless(process.terminationStatus == 0, "ffmpeg is needed")
        return url
    }

    /// A new empty folder for one test.
    static func folder(_ name: String) -> URL {
        let url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("avcapture-\(name)-\(getpid())-\(UUID().uuidString.prefix(8))")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
