import XCTest
import Foundation
#if canImport(Glibc)
    import Glibc
    import TestSupport
#endif

/// Commands that serve stop when asked, whatever their clients hold open.
final class StoppingTests: XCTestCase {
    /// `preview` stops on SIGTERM, SIGINT and SIGHUP while a page's socket and an idle keep-alive
    /// connection are open (it used to wait for them for ever, until SIGKILL).
    func testPreviewStopsOnEverySignalWhileClientsHoldConnections() throws {
        for number in [SIGTERM, SIGINT, SIGHUP] {
            let token = "stopping-test-token-0123"
            let process = Process()
            process.executableURL = try XCTUnwrap(AVCaptureTool.executable)
            process.arguments = ["preview", "--port", "0", "--no-audio", "--token", token]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            let port = try XCTUnwrap(Self.port(printedBy: output.fileHandleForReading), "signal \(number): the address is printed")
            let socket = try XCTUnwrap(
                HeldConnection(
                    port: port,
                    request: "GET /frames?token=\(token) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
                        + "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
                    awaiting: "HTTP/1.1 101"), "signal \(number): a viewer's socket is open")
            let keepAlive = try XCTUnwrap(
                HeldConnection(
                    port: port, request: "GET /api/state?token=\(token) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n",
                    awaiting: "HTTP/1.1 200"))
            let idle = try XCTUnwrap(HeldConnection(port: port, request: ""))
            stop(process, with: number)
            let rest = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            XCTAssertTrue(rest.contains("Stopped"), "signal \(number): \(rest)")
            withExtendedLifetime([socket, keepAlive, idle]) {}
        }
    }

    /// A signal sent the moment the address is printed stops `preview` cleanly too: the signals
    /// are caught from before the server listens (a signal that came before its dispatch source
    /// was registered used to end the process at once, or be ignored).
    func testPreviewStopsCleanlyOnASignalSentTheMomentItListens() throws {
        for number in [SIGTERM, SIGINT, SIGHUP, SIGTERM, SIGINT, SIGHUP] {
            let process = Process()
            process.executableURL = try XCTUnwrap(AVCaptureTool.executable)
            process.arguments = ["preview", "--port", "0", "--no-audio"]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            XCTAssertNotNil(Self.port(printedBy: output.fileHandleForReading), "signal \(number): the address is printed")
            stop(process, with: number)
            XCTAssertEqual(process.terminationReason, .exit, "signal \(number): it ended by itself, not by the signal")
            XCTAssertEqual(process.terminationStatus, 0, "signal \(number)")
            let rest = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            XCTAssertTrue(rest.contains("Stopped"), "signal \(number): \(rest)")
        }
    }

    /// Sends `signal` and waits up to 10 s for the process to end (then kills it), failing if it had to be killed.
    private func stop(_ process: Process, with signal: Int32) {
        kill(process.processIdentifier, signal)
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        XCTAssertFalse(process.isRunning, "signal \(signal): preview stopped")
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// The port in the `Open http://...:PORT/` line a serving command prints.
    static func port(printedBy handle: FileHandle) -> Int? {
        var text = ""
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            let data = handle.availableData
            if data.isEmpty { return nil }
            text += String(decoding: data, as: UTF8.self)
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("Open http://") }),
                let address = line.split(separator: " ").dropFirst().first,
                let port = address.split(separator: ":").last?.split(separator: "/").first.flatMap({ Int($0) })
            {
                return port
            }
        }
        return nil
    }
}
