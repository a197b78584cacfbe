import CaptureTestSupport
import Foundation
import XCTest
import TestSupport

/// Streaming servers from Debian, started by the tests on loopback: nginx with its RTMP module
/// (recording what it receives to FLV files), srt-live-transmit as an SRT listener, and ffmpeg
/// listening for an RTSP publisher, each writing what it received where ffprobe can read it.
final class StreamingServer {
    let folder: URL
    let port: Int
    /// Whether the server listens on a UDP port rather than a TCP one.
    let udp: Bool
    private var process: Process?
    private let command: [String]

    private init(folder: URL, port: Int, udp: Bool = false, command: [String]) {
        self.folder = folder
        self.port = port
        self.udp = udp
        self.command = command
    }

    deinit { stop() }

    private static func temporaryFolder(_ name: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// nginx with libnginx-mod-rtmp accepting `rtmp://127.0.0.1:PORT/live/KEY` and recording each
    /// publication to its own FLV file; nil (with a skip, or a failure under CI) where it is not installed.
    static func rtmp(_ test: XCTestCase) throws -> StreamingServer {
        let module = "/usr/lib/nginx/modules/ngx_rtmp_module.so"
        guard FileManager.default.isExecutableFile(atPath: "/usr/sbin/nginx"), FileManager.default.fileExists(atPath: module) else {
            try test.skipOrFail("nginx and its RTMP module (nginx-light, libnginx-mod-rtmp) are not installed")
        }
        let folder = try temporaryFolder("rtmp")
        let recordings = folder.appendingPathComponent("recordings")
        try FileManager.default.createDirectory(at: recordings, withIntermediateDirectories: true)
        // nginx's workers run as another user: they must be able to write the recordings.
        chmod(recordings.path, 0o777)
        chmod(folder.path, 0o755)
        let port = freeLoopbackPort()
        let configuration = """
            load_module \(module);
            daemon off;
            master_process off;
            pid \(folder.path)/nginx.pid;
            error_log \(folder.path)/error.log info;
            events { worker_connections 64; }
            rtmp {
              server {
                listen 127.0.0.1:\(port);
                application live { live on; record all; record_path \(recordings.path); record_unique on; }
              }
            }
            """
        try configuration.write(to: folder.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
        let server = StreamingServer(folder: folder, port: port, command: ["/usr/sbin/nginx", "-c", folder.path + "/nginx.conf", "-p", folder.path])
        try server.start()
        return server
    }

    /// srt-live-transmit listening on a UDP port, writing the MPEG-TS it receives to `received.ts`.
    static func srt(_ test: XCTestCase) throws -> StreamingServer {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/srt-live-transmit") else {
            try test.skipOrFail("srt-live-transmit (srt-tools) is not installed")
        }
        let folder = try temporaryFolder("srt")
        let port = freeLoopbackPort(udp: true)
        let server = StreamingServer(
            folder: folder, port: port, udp: true,
            command: [
                "/bin/sh", "-c", "exec /usr/bin/srt-live-transmit -q 'srt://127.0.0.1:\(port)?mode=listener' file://con > '\(folder.path)/received.ts'",
            ])
        try server.start()
        return server
    }

    /// ffmpeg listening for one RTSP publisher on `rtsp://127.0.0.1:PORT/live`, copying what it receives into `received.ts`.
    static func rtsp(_ test: XCTestCase) throws -> StreamingServer {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg") else { try test.skipOrFail("ffmpeg is not installed") }
        let folder = try temporaryFolder("rtsp")
        let port = freeLoopbackPort()
        let server = StreamingServer(
            folder: folder, port: port,
            command: [
                "/usr/bin/ffmpeg", "-nostdin", "-v", "error", "-rtsp_flags", "listen", "-i", "rtsp://127.0.0.1:\(port)/live", "-c", "copy", "-f", "mpegts",
                folder.path + "/received.ts",
            ])
        try server.start()
        return server
    }

    /// Starts (or starts again) the server and waits until it listens.
    func start() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning, !listens, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        guard process.isRunning else { throw XCTSkip("\(command[0]) exited at once; see \(folder.path)") }
        guard listens else { throw XCTSkip("\(command[0]) did not listen on port \(port) within 10 s; see \(folder.path)") }
    }

    /// Whether a socket on this machine listens on the server's port.
    private var listens: Bool { isListening(onLoopbackPort: port, udp: udp) }

    /// Stops the server as a crash would leave its clients: the connection simply goes.
    func stop() {
        guard let process, process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        self.process = nil
    }

    /// Freezes the server as an overloaded machine would: the kernel still accepts connections,
    /// which are answered once it thaws.
    func freeze() {
        guard let process, process.isRunning else { return }
        kill(process.processIdentifier, SIGSTOP)
    }

    /// Lets a frozen server run again.
    func thaw() {
        guard let process, process.isRunning else { return }
        kill(process.processIdentifier, SIGCONT)
    }

    /// Stops the server in an orderly way, so that what it wrote is complete.
    func finish() {
        guard let process, process.isRunning else { return }
        process.interrupt()
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        self.process = nil
    }

    /// The files the server wrote what it received into, oldest first.
    var receivedFiles: [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path + "/recordings")) ?? []
        let recordings = names.sorted().map { folder.appendingPathComponent("recordings/" + $0) }
        let received = folder.appendingPathComponent("received.ts")
        return recordings + (FileManager.default.fileExists(atPath: received.path) ? [received] : [])
    }
}
