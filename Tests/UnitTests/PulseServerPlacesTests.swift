import CPulse
import Foundation
import XCTest

/// Whether a PulseAudio server may answer, decided before libpulse is loaded from the places a
/// client looks for one: a machine with none keeps libpulse and its libraries out of memory, and
/// every place that may lead to a server still loads it.
final class PulseServerPlacesTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("pulse-places-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    /// Places that all exist but hold nothing: each test fills one in.
    private struct Places {
        var server: String?, display: String?, runtimePath: String?, xdgRuntimeDir: String?, clientConfig: String?
        var configPath: String?, configHome: String?, home: String?, systemConfig: String?, systemRuntime: String?, daemon: String?
        var root = true
    }

    private func empty() throws -> Places {
        var places = Places()
        for name in ["runtime", "xdg", "config-path", "config-home", "home", "etc", "system-runtime"] {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent(name), withIntermediateDirectories: true)
        }
        places.runtimePath = path("runtime")
        places.xdgRuntimeDir = path("xdg")
        places.configPath = path("config-path")
        places.configHome = path("config-home")
        places.home = path("home")
        places.systemConfig = path("etc")
        places.systemRuntime = path("system-runtime")
        places.daemon = path("no-daemon")
        return places
    }

    private func path(_ relative: String) -> String { folder.appendingPathComponent(relative).path }

    private func write(_ text: String, to relative: String) throws {
        let url = folder.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    /// Whether a server may answer while `text` is in the file at `relative`, which is removed after.
    private func mayAnswer(_ places: Places, with text: String, at relative: String) throws -> Bool {
        try write(text, to: relative)
        defer { try? FileManager.default.removeItem(atPath: path(relative)) }
        return mayAnswer(places)
    }

    private func mayAnswer(_ places: Places) -> Bool {
        let strings = [
            places.server, places.display, places.runtimePath, places.xdgRuntimeDir, places.clientConfig, places.configPath, places.configHome,
            places.home, places.systemConfig, places.systemRuntime, places.daemon,
        ].map { $0.map { strdup($0) } ?? nil }
        defer { strings.forEach { free($0) } }
        var c = cpulse_server_places(
            server: strings[0], display: strings[1], runtime_path: strings[2], xdg_runtime_dir: strings[3], client_config: strings[4],
            config_path: strings[5], config_home: strings[6], home: strings[7], system_config: strings[8], system_runtime: strings[9],
            daemon: strings[10], root: places.root ? 1 : 0)
        return cpulse_server_may_answer_at(&c) != 0
    }

    func testNothingThatLeadsToAServerMeansNoServer() throws {
        XCTAssertFalse(mayAnswer(try empty()))
        XCTAssertFalse(mayAnswer(Places()), "no place given at all")
    }

    func testANamedServerIsTheOnlyOneTried() throws {
        var places = try empty()
        try write("", to: "runtime/native")
        places.server = "unix:\(path("gone/native"))"
        XCTAssertFalse(mayAnswer(places), "a named socket that is absent, whatever the default places hold")
        places.server = "{0123456789abcdef}unix:\(path("gone/native")) \(path("also-gone"))"
        XCTAssertFalse(mayAnswer(places), "a list of absent sockets, one with a machine's name, one as a bare path")
        try write("", to: "named/native")
        places.server = "unix:\(path("gone/native"))  unix:\(path("named/native"))"
        XCTAssertTrue(mayAnswer(places), "the second socket named is there")
        for remote in ["tcp:localhost", "tcp4:127.0.0.1:4713", "media-box", "{0123}tcp6:[::1]"] {
            places.server = remote
            XCTAssertTrue(mayAnswer(places), "\(remote): a network server may answer")
        }
    }

    func testTheUsersAndTheSystemsSocketsAreFound() throws {
        let places = try empty()
        for (socket, place) in [
            ("xdg/pulse/native", "$XDG_RUNTIME_DIR/pulse/native"), ("runtime/native", "$PULSE_RUNTIME_PATH/native"),
            ("system-runtime/native", "the system-wide server's socket"),
            ("config-home/pulse/0123456789abcdef-runtime/native", "a machine's runtime folder in the configuration folder, used without XDG_RUNTIME_DIR"),
            ("home/.pulse/0123456789abcdef-runtime/native", "the same in the older ~/.pulse"),
        ] {
            XCTAssertTrue(try mayAnswer(places, with: "", at: socket), place)
        }
        XCTAssertFalse(mayAnswer(places), "every socket removed")
    }

    func testADisplayMayNameAServer() throws {
        var places = try empty()
        places.display = ":0"
        XCTAssertTrue(mayAnswer(places), "an X11 display's root window may carry PULSE_SERVER")
        places.display = ""
        XCTAssertFalse(mayAnswer(places))
    }

    func testAClientConfigurationThatNamesAServerOrAsksForOne() throws {
        var places = try empty()
        try write("; default-server = unix:/nowhere\n# auto-connect-localhost = yes\nautospawn = yes\n", to: "etc/client.conf")
        XCTAssertFalse(mayAnswer(places), "only comments and a server to start, which is not done as root")
        try write("  default-server =  \n", to: "etc/client.conf.d/50-empty.conf")
        XCTAssertFalse(mayAnswer(places), "a server setting left empty")
        try write("auto-connect-localhost = no\n", to: "etc/client.conf.d/60-no.conf")
        XCTAssertFalse(mayAnswer(places))
        for (file, text, place) in [
            ("etc/client.conf.d/70-local.conf", "auto-connect-localhost=Yes\n", "a server on this host is asked for, in a part of the system's configuration"),
            ("config-home/pulse/client.conf", "default-server = tcp:media-box\n", "the user's configuration names a server"),
            ("home/.pulse/client.conf", "auto-connect-display = on\n", "the older ~/.pulse/client.conf"),
            ("config-path/client.conf", "default-server = media-box\n", "$PULSE_CONFIG_PATH's"),
        ] {
            XCTAssertTrue(try mayAnswer(places, with: text, at: file), place)
        }
        try write("default-server = media-box\n", to: "own.conf")
        places.clientConfig = path("own.conf")
        XCTAssertTrue(mayAnswer(places), "$PULSE_CLIENTCONFIG's")
    }

    func testAConfigurationThatIsNotASmallFileIsLeftToLibpulseUnread() throws {
        var places = try empty()
        places.clientConfig = "/dev/zero"
        XCTAssertTrue(mayAnswer(places), "a device, which would never end, is not read: it may name a server")
        try write(String(repeating: "; a comment\n", count: 7_000), to: "huge.conf")
        places.clientConfig = path("huge.conf")
        XCTAssertTrue(mayAnswer(places), "a file over 64 KB is not read either")
        try write("; a comment\n", to: "small.conf")
        places.clientConfig = path("small.conf")
        XCTAssertFalse(mayAnswer(places), "a small one naming nothing is read")
    }

    func testAServerAClientMayStartCountsExceptForRoot() throws {
        var places = try empty()
        try write("#!/bin/sh\n", to: "bin/pulseaudio")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path("bin/pulseaudio"))
        places.daemon = path("bin/pulseaudio")
        places.root = true
        XCTAssertFalse(mayAnswer(places), "libpulse starts no server for root")
        places.root = false
        XCTAssertTrue(mayAnswer(places), "another user's client may start one")
    }
}
