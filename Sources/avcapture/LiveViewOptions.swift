import ArgumentParser
import AVFoundation
import Foundation
import LiveView

/// The options of a live view in the browser, which `preview` and `play --preview` share.
struct LiveViewOptions: ParsableArguments {
    @Option(help: "The port to listen on; 0 picks a free one.") var port: Int = 8080
    @Option(help: "The address to listen on, such as 0.0.0.0 for every interface; other than loopback, an access token is required.") var listen: String =
        "127.0.0.1"
    @Option(
        help:
            "The access token every request must carry, at least 16 letters, digits or -._~; generated when none is given (on loopback the page then carries it)."
    ) var token: String?
    @Option(help: "The picture's size on the page, WIDTHxHEIGHT; by default the picture's own size.") var size: String?
    @Option(help: "The video gravity: fit, fill or stretch.") var gravity: String = "fit"
    @Option(help: "The JPEG quality of the frames, 1 to 100.") var quality: Int = 80

    /// The gravity `--gravity` names.
    func videoGravity() throws -> AVLayerVideoGravity {
        let gravities: [String: AVLayerVideoGravity] = ["fit": .resizeAspect, "fill": .resizeAspectFill, "stretch": .resize]
        guard let videoGravity = gravities[gravity] else { throw CommandFailure("--gravity is fit, fill or stretch; got \(gravity).") }
        return videoGravity
    }

    /// Checks the options that need no device or file.
    func check() throws {
        _ = try videoGravity()
        guard (1...100).contains(quality) else { throw CommandFailure("--quality is 1 to 100; got \(quality).") }
        guard (0...65535).contains(port) else { throw CommandFailure("--port is 0 to 65535; got \(port).") }
        if let token {
            guard token.count >= LiveViewConfiguration.minimumTokenLength,
                token.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-._~".contains($0)) })
            else {
                throw CommandFailure(
                    "--token must be at least \(LiveViewConfiguration.minimumTokenLength) letters, digits or -._~; got \(token.count) characters.")
            }
        }
        _ = try layerSize(default: CGSize(width: 16, height: 16))
    }

    /// The layer's size: `--size`, or `natural`.
    func layerSize(default natural: CGSize) throws -> CGSize {
        guard let size else { return natural }
        let parts = size.lowercased().split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, (16...7680).contains(parts[0]), (16...4320).contains(parts[1]) else {
            throw CommandFailure("--size is WIDTHxHEIGHT between 16x16 and 7680x4320, such as 1280x720; got \(size).")
        }
        return CGSize(width: parts[0], height: parts[1])
    }

    /// The server's configuration.
    func configuration(saveDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)) -> LiveViewConfiguration {
        LiveViewConfiguration(host: listen, port: port, accessToken: token, jpegQuality: quality, saveDirectory: saveDirectory)
    }

    /// Serves until Ctrl-C, SIGTERM or `seconds`, printing the page's address (and token) once it listens.
    static func serve(_ server: LiveViewServer, seconds: Double?) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await server.run(handlesSignals: true) { _ in
                    say("Open \(server.pageURL()) in a browser; Ctrl-C to stop.")
                    say("Access token: \(server.accessToken) (the page carries it; other clients send ?token= or Authorization: Bearer)")
                }
            }
            if let seconds {
                group.addTask { try await Task.sleep(for: .seconds(seconds)) }
            }
            do {
                try await group.next()
            } catch {
                throw CommandFailure("The live view stopped: \(error)")
            }
            group.cancelAll()
        }
        say("Stopped; \(server.framesEncoded) frames sent.")
    }

    /// Runs `body` on Swift's concurrency pool while the calling thread waits: the tool's entry
    /// point stays synchronous, as the other commands wait on the main thread's run loop.
    static func runBlocking(_ body: @escaping @Sendable () async throws -> Void) throws {
        let outcome = LockedOutcome()
        let done = DispatchSemaphore(value: 0)
        Task {
            do { try await body() } catch { outcome.error = error }
            done.signal()
        }
        done.wait()
        if let error = outcome.error { throw error }
    }
}

/// Writes a line to standard output at once, even when it is a pipe.
func say(_ line: String) {
    StandardStreams.out(line + "\n")
}

/// The error a command's task ended with, read once it has ended.
private final class LockedOutcome: @unchecked Sendable {
    private let stored = LockedValue<(any Error)?>(nil)
    var error: (any Error)? {
        get { stored.withLock { $0 } }
        set { stored.withLock { $0 = newValue } }
    }
}
