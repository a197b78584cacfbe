import XCTest
import Foundation
import TestSupport

/// `avcapture` on machines that lack a part or whose servers misbehave: each is a backend with
/// no devices, the virtual devices stand in, and nothing the libraries say reaches the terminal.
final class MissingSystemPartsTests: XCTestCase {
    /// An environment with no PipeWire server, no PulseAudio server and, optionally, no PipeWire
    /// client configuration (a machine with libpipewire but not pipewire-bin).
    private func bareMachine(withoutPipeWireConfiguration: Bool = true) -> (environment: [String: String], folder: URL) {
        let folder = AVCaptureTool.folder("bare")
        let empty = folder.appendingPathComponent("empty")
        try? FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        var environment = [
            "PIPEWIRE_RUNTIME_DIR": empty.path,
            "PIPEWIRE_REMOTE": "pipewire-0",
            "PULSE_SERVER": "unix:\(empty.path)/native",
            "LINUXAVFOUNDATION_LOG": "",
        ]
        if withoutPipeWireConfiguration { environment["PIPEWIRE_CONFIG_DIR"] = empty.path }
        return (environment, folder)
    }

    func testDevicesWithPipeWiresLibraryButNotItsConfigurationListsTheVirtualDevicesSilently() throws {
        // The crash a new Debian machine showed: libpipewire present, client.conf absent.
        let (environment, _) = bareMachine()
        let result = try AVCaptureTool.run(["devices"], environment: environment)
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(result.standardOutput.contains("Virtual Back Camera (virtual:camera:back)"), result.standardOutput)
        XCTAssertTrue(result.standardOutput.contains("Virtual Microphone"), result.standardOutput)
        XCTAssertEqual(result.standardError, "", "nothing from the libraries reaches the terminal")
    }

    func testTheLibrariesLogIsWrittenWhenAskedFor() throws {
        var (environment, folder) = bareMachine()
        environment["LINUXAVFOUNDATION_LOG"] = "warning"
        // A server socket, so that PipeWire's library is reached (without one no connection is tried) and finds no configuration.
        let runtime = try XCTUnwrap(environment["PIPEWIRE_RUNTIME_DIR"])
        let pipeWire = try XCTUnwrap(UnansweringServer(path: runtime + "/pipewire-0", behaviour: .hangsUp))
        defer { pipeWire.stop(); try? FileManager.default.removeItem(at: folder) }
        let result = try AVCaptureTool.run(["devices"], environment: environment)
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(result.standardError.contains("[pipewire]"), result.standardError)
        XCTAssertTrue(result.standardError.contains("client.conf"), result.standardError)
    }

    func testTheMainJobRecordsOnTheVirtualDevicesWithNoSoundOrMediaServer() throws {
        try XCTSkipUnless(MediaProbe.isAvailable, "ffprobe is needed")
        let (environment, folder) = bareMachine()
        let movie = folder.appendingPathComponent("bare.mov")
        let result = try AVCaptureTool.run(["record", movie.path, "--seconds", "1", "--preset", "640x480"], environment: environment)
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertEqual(result.standardError, "")
        let streams = MediaProbe.entries(movie, "stream=codec_type")
        XCTAssertEqual(streams.split(separator: "\n").sorted(), ["audio", "video"], "the virtual camera and microphone were recorded")
    }

    func testServersThatHangUpOrNeverAnswerDuringDiscoveryLeaveOnlyTheVirtualDevices() throws {
        for behaviour in [UnansweringServer.Behaviour.hangsUp, .staysSilent] {
            let (environment, folder) = bareMachine(withoutPipeWireConfiguration: false)
            let runtime = try XCTUnwrap(environment["PIPEWIRE_RUNTIME_DIR"])
            let pipeWire = try XCTUnwrap(UnansweringServer(path: runtime + "/pipewire-0", behaviour: behaviour))
            let pulse = try XCTUnwrap(UnansweringServer(path: runtime + "/native", behaviour: behaviour))
            defer { pipeWire.stop(); pulse.stop(); try? FileManager.default.removeItem(at: folder) }
            let devices = try AVCaptureTool.run(["devices"], environment: environment)
            XCTAssertEqual(devices.status, 0, "\(behaviour): \(devices.output)")
            XCTAssertTrue(devices.standardOutput.contains("Virtual Back Camera"), "\(behaviour)")
            XCTAssertEqual(devices.standardError, "", "\(behaviour)")
            XCTAssertLessThan(devices.seconds, 10, "\(behaviour): a server that never answers is given up on")
            // A running session on the default devices, which are the virtual ones.
            let monitor = try AVCaptureTool.run(["monitor", "--seconds", "1", "--preset", "low"], environment: environment)
            XCTAssertEqual(monitor.status, 0, "\(behaviour): \(monitor.output)")
            XCTAssertTrue(monitor.standardOutput.contains("Virtual Back Camera"), "\(behaviour): \(monitor.standardOutput)")
            XCTAssertTrue(monitor.standardOutput.contains("dBFS"), "\(behaviour): the virtual microphone is heard")
        }
    }

    /// The libraries `avcapture` loaded in one run, as glibc's loader reports them (LD_DEBUG=libs).
    private func librariesLoaded(_ arguments: [String], environment: [String: String]) throws -> (AVCaptureTool.Result, Set<String>) {
        let result = try AVCaptureTool.run(arguments, environment: environment.merging(["LD_DEBUG": "libs"]) { $1 })
        let loaded = result.standardError.split(separator: "\n").compactMap { line -> String? in
            guard let range = line.range(of: "find library=") else { return nil }
            return line[range.upperBound...].split(separator: ";").first.map(String.init)
        }
        return (result, Set(loaded))
    }

    func testTheLibrariesOfMoviesPhotosSoundDrawingAndFacesAreLoadedOnlyWhenUsed() throws {
        let (environment, folder) = bareMachine()
        let (help, atStart) = try librariesLoaded(["--help"], environment: environment)
        XCTAssertEqual(help.status, 0, help.output)
        XCTAssertFalse(atStart.isEmpty, "the loader's report was read: \(help.standardError.prefix(300))")
        for library in [
            "libavformat", "libavcodec", "libheif", "libpulse", "libcairo", "libpixman", "libdlib", "libblas", "liblapack", "librubberband", "libSoundTouch",
        ] {
            XCTAssertFalse(atStart.contains { $0.hasPrefix(library) }, "\(library) is not loaded to print the help: \(atStart.sorted())")
        }
        let movie = folder.appendingPathComponent("short.mov")
        let (record, recording) = try librariesLoaded(["record", "--seconds", "0.5", "--no-audio", movie.path], environment: environment)
        XCTAssertEqual(record.status, 0, record.output)
        XCTAssertTrue(
            recording.contains { $0.hasPrefix("libavformat") } && recording.contains { $0.hasPrefix("libavcodec") },
            "a recording loads FFmpeg when it starts: \(recording.sorted())")
        XCTAssertTrue(FileManager.default.fileExists(atPath: movie.path))
        let sheet = folder.appendingPathComponent("sheet.png")
        try? FileManager.default.removeItem(at: sheet)
        let (thumbnail, drawing) = try librariesLoaded(["thumbnail", movie.path, sheet.path, "--sheet", "--count", "2"], environment: environment)
        XCTAssertEqual(thumbnail.status, 0, thumbnail.output)
        XCTAssertTrue(
            drawing.contains { $0.hasPrefix("libcairo") } && drawing.contains { $0.hasPrefix("libpixman") },
            "a contact sheet is drawn with cairo: \(drawing.sorted())")
        let (preview, looking) = try librariesLoaded(
            ["preview", "--port", "0", "--seconds", "1.5", "--no-audio", "--detect", "faces"], environment: environment)
        XCTAssertEqual(preview.status, 0, preview.output)
        XCTAssertTrue(
            ["libdlib", "libblas", "liblapack"].allSatisfy { name in looking.contains { $0.hasPrefix(name) } },
            "looking for faces loads dlib: \(looking.sorted())")
        let withSound = folder.appendingPathComponent("with-sound.mov"), slow = folder.appendingPathComponent("slow.mov")
        for url in [withSound, slow] { try? FileManager.default.removeItem(at: url) }
        let recorded = try AVCaptureTool.run(["record", "--seconds", "1", withSound.path], environment: environment)
        XCTAssertEqual(recorded.status, 0, recorded.output)
        let (export, stretching) = try librariesLoaded(["export", withSound.path, slow.path, "--slow", "0.2-0.6:2"], environment: environment)
        XCTAssertEqual(export.status, 0, export.output)
        XCTAssertTrue(stretching.contains { $0.hasPrefix("librubberband") }, "a slowed section's sound is stretched: \(stretching.sorted())")
    }

    func testACameraAloneLoadsNoSoundLibraryAndPipeWireOnlyWhereItsServerIs() throws {
        let (environment, folder) = bareMachine()
        defer { try? FileManager.default.removeItem(at: folder) }
        let soundLibraries = ["libpulse", "libasound"]
        let quiet = folder.appendingPathComponent("quiet.mov")
        let (record, recording) = try librariesLoaded(["record", "--seconds", "0.5", "--no-audio", quiet.path], environment: environment)
        XCTAssertEqual(record.status, 0, record.output)
        XCTAssertFalse(recording.isEmpty, "the loader's report was read: \(record.standardError.prefix(300))")
        for library in soundLibraries + ["libpipewire"] {
            XCTAssertFalse(
                recording.contains { $0.hasPrefix(library) }, "\(library) is not loaded to record a camera with no PipeWire server: \(recording.sorted())")
        }
        // A PipeWire server's socket: the library is loaded to ask it for cameras; still no sound library.
        let runtime = try XCTUnwrap(environment["PIPEWIRE_RUNTIME_DIR"])
        let pipeWire = try XCTUnwrap(UnansweringServer(path: runtime + "/pipewire-0", behaviour: .hangsUp))
        defer { pipeWire.stop() }
        let (monitor, looking) = try librariesLoaded(["monitor", "--seconds", "0.5", "--no-audio", "--preset", "low"], environment: environment)
        XCTAssertEqual(monitor.status, 0, monitor.output)
        XCTAssertTrue(looking.contains { $0.hasPrefix("libpipewire") }, "a PipeWire server is asked for its cameras: \(looking.sorted())")
        for library in soundLibraries {
            XCTAssertFalse(looking.contains { $0.hasPrefix(library) }, "\(library) is not loaded to watch a camera: \(looking.sorted())")
        }
        // Sound is looked for when it is recorded, from a PulseAudio server where one may answer:
        // the socket PULSE_SERVER names is absent, so libpulse is not loaded, and the virtual
        // microphone is recorded.
        let unheard = folder.appendingPathComponent("unheard.mov")
        let (withoutServer, alone) = try librariesLoaded(["record", "--seconds", "0.5", unheard.path], environment: environment)
        XCTAssertEqual(withoutServer.status, 0, withoutServer.output)
        XCTAssertFalse(alone.contains { $0.hasPrefix("libpulse") }, "no PulseAudio server's socket, no libpulse: \(alone.sorted())")
        let (devices, listed) = try librariesLoaded(["devices"], environment: environment)
        XCTAssertTrue(devices.standardOutput.contains("Virtual Microphone"), devices.output)
        XCTAssertFalse(listed.contains { $0.hasPrefix("libpulse") }, "listing devices with no PulseAudio server: \(listed.sorted())")
        let soundCards = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/snd"))?.filter { $0.hasPrefix("controlC") } ?? []
        XCTAssertEqual(
            listed.contains { $0.hasPrefix("libasound") }, !soundCards.isEmpty,
            "ALSA is asked for microphones where a card is: \(soundCards), \(listed.sorted())")
        let server = try XCTUnwrap(environment["PULSE_SERVER"]).dropFirst("unix:".count)
        let pulse = try XCTUnwrap(UnansweringServer(path: String(server), behaviour: .hangsUp))
        defer { pulse.stop() }
        let heard = folder.appendingPathComponent("heard.mov")
        let (withSound, listening) = try librariesLoaded(["record", "--seconds", "0.5", heard.path], environment: environment)
        XCTAssertEqual(withSound.status, 0, withSound.output)
        XCTAssertTrue(listening.contains { $0.hasPrefix("libpulse") }, "recording sound asks the sound server: \(listening.sorted())")
    }

    func testACairoThatCannotBeLoadedStopsOnlyWhatDraws() throws {
        var (environment, folder) = bareMachine()
        let movie = folder.appendingPathComponent("for-sheet.mov")
        try? FileManager.default.removeItem(at: movie)
        let record = try AVCaptureTool.run(["record", "--seconds", "0.5", "--no-audio", movie.path], environment: environment)
        XCTAssertEqual(record.status, 0, record.output)
        let code = folder.appendingPathComponent("code.png")
        let written = try AVCaptureTool.run(["thumbnail", movie.path, code.path], environment: environment)
        XCTAssertEqual(written.status, 0, written.output)
        // A library path whose cairo is a broken file: the loader finds it first and refuses it.
        let broken = folder.appendingPathComponent("broken-cairo")
        try FileManager.default.createDirectory(at: broken, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: broken.appendingPathComponent("libcairo.so.2").path, contents: Data())
        environment["LD_LIBRARY_PATH"] = broken.path
        let devices = try AVCaptureTool.run(["devices"], environment: environment)
        XCTAssertEqual(devices.status, 0, "a program that draws nothing starts without cairo: \(devices.output)")
        let scan = try AVCaptureTool.run(["scan", "--image", code.path], environment: environment)
        XCTAssertFalse(scan.standardError.contains("libcairo"), "reading a picture needs no cairo: \(scan.output)")
        // FFmpeg's own SVG decoder needs cairo, so a contact sheet stops at the movie.
        let sheet = folder.appendingPathComponent("never-sheet.png")
        let result = try AVCaptureTool.run(["thumbnail", movie.path, sheet.path, "--sheet", "--count", "2"], environment: environment)
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.standardError.contains("libcairo.so.2"), result.output)
        XCTAssertEqual(result.standardError.split(separator: "\n").count, 1, "one line: \(result.standardError)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: sheet.path), "no file is left")
    }

    func testAnFFmpegThatCannotBeLoadedIsAClearErrorAndNoFile() throws {
        var (environment, folder) = bareMachine()
        // A library path whose FFmpeg is a broken file: the loader finds it first and refuses it.
        let broken = folder.appendingPathComponent("lib")
        try FileManager.default.createDirectory(at: broken, withIntermediateDirectories: true)
        for major in 57...63 { _ = FileManager.default.createFile(atPath: broken.appendingPathComponent("libavformat.so.\(major)").path, contents: Data()) }
        environment["LD_LIBRARY_PATH"] = broken.path
        let movie = folder.appendingPathComponent("never.mov")
        let record = try AVCaptureTool.run(["record", "--seconds", "0.5", "--no-audio", movie.path], environment: environment)
        XCTAssertNotEqual(record.status, 0)
        // The loader kit's words: the library, why, and Debian's package that has it.
        XCTAssertTrue(
            record.standardError.contains("libavformat.so.") && record.standardError.contains("could not be loaded")
                && record.standardError.contains("(Debian's libavformat"), record.output)
        XCTAssertFalse(FileManager.default.fileExists(atPath: movie.path), "no file is left")
        let devices = try AVCaptureTool.run(["devices"], environment: environment)
        XCTAssertEqual(devices.status, 0, "what needs no movie still works: \(devices.output)")
    }
}
