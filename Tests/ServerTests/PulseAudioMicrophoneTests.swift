import CaptureTestSupport
import XCTest
@testable import AVFoundation
@testable import CaptureDevices
import CPulse
import TestSupport

/// A private, headless PulseAudio server for tests: a null sink, its monitor, and a 1 kHz sine source.
final class PrivatePulseServer {
    let folder: URL
    let socket: String
    private let daemon: String
    private var process = Process()

    init?() {
        guard let daemon = ["/usr/bin/pulseaudio"].first(where: FileManager.default.isExecutableFile) else { return nil }
        self.daemon = daemon
        folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("pulse-\(getpid())-\(UUID().uuidString.prefix(8))")
        let runtime = folder.appendingPathComponent("runtime"), home = folder.appendingPathComponent("home")
        try? FileManager.default.createDirectory(at: runtime.appendingPathComponent("pulse"), withIntermediateDirectories: true)
        try? FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        chmod(runtime.path, 0o700)
        socket = runtime.appendingPathComponent("pulse/native").path
        // The socket last: once it appears, the sink and the source are there (a loaded machine
        // can take a while between the lines).
        let script = """
            load-module module-null-sink sink_name=testsink rate=48000 channels=2 norewinds=1
            load-module module-sine-source source_name=sine1k frequency=1000 rate=48000
            set-default-source sine1k
            set-default-sink testsink
            load-module module-native-protocol-unix auth-anonymous=1 socket=\(socket)
            """
        try? script.write(to: folder.appendingPathComponent("test.pa"), atomically: true, encoding: .utf8)
        guard start() else { stop(); return nil }
        setenv("PULSE_SERVER", "unix:\(socket)", 1)
        setenv("PULSE_COOKIE", home.appendingPathComponent("cookie").path, 1)
        // Up once discovery lists its source: a lookup waits half a second at most, which a loaded
        // machine can take to answer, and is remembered for a second.
        let deadline = Date().addingTimeInterval(10)
        repeat {
            PulseDiscovery.refresh()
            if PulseDiscovery.microphones().contains(where: { $0.sourceName == "sine1k" && $0.isConnected }) {
                // What the last server's going and this one's coming posted reaches the main queue
                // now, not in the middle of a test watching for notifications.
                drainMainQueue()
                return
            }
            usleep(100_000)
        } while Date() < deadline
        stop()
        return nil
    }

    /// Starts the daemon; whether its socket appeared.
    @discardableResult
    func start() -> Bool {
        let home = folder.appendingPathComponent("home")
        process = Process()
        process.executableURL = URL(fileURLWithPath: daemon)
        process.arguments = [
            "-n", "-F", folder.appendingPathComponent("test.pa").path, "--daemonize=no", "--exit-idle-time=-1",
            "--realtime=no", "--high-priority=no", "--use-pid-file=no", "--log-target=file:\(folder.path)/pulse.log",
        ]
        process.environment = [
            "HOME": home.path, "XDG_RUNTIME_DIR": folder.appendingPathComponent("runtime").path,
            "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path, "PATH": "/usr/bin:/bin",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: socket), Date() < deadline { usleep(20_000) }
        return FileManager.default.fileExists(atPath: socket)
    }

    /// Kills the daemon; clients see the server go away.
    func kill() {
        if process.isRunning {
            process.interrupt()
            Foundation.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        unlink(socket)
    }

    /// `pactl` against this server.
    func pactl(_ arguments: [String]) -> (status: Int32, text: String) { runCommand(["/usr/bin/pactl"] + arguments) }

    func stop() {
        kill()
        unsetenv("PULSE_SERVER")
        PulseDiscovery.refresh()
        try? FileManager.default.removeItem(at: folder)
    }
}

/// Microphones through a real PulseAudio server. On a machine without pulseaudio installed these
/// tests skip; `.ci/run` installs it.
final class PulseAudioMicrophoneTests: CaptureTestCase {
    private var server: PrivatePulseServer!

    override func setUpWithError() throws {
        guard let server = PrivatePulseServer() else { try skipOrFail("pulseaudio is not installed: scripts/install-deps.sh --with-servers") }
        self.server = server
    }

    override func tearDown() {
        super.tearDown()
        server?.stop()
    }

    private func source(_ name: String) -> AVCaptureDevice? {
        AVCaptureDevice.devices(for: .audio).first { $0.uniqueID == "pulse:\(name)" }
    }

    func testListsTheServersSourcesDefaultFirstWithoutMonitors() throws {
        XCTAssertNotNil(source("sine1k"))
        XCTAssertNil(source("testsink.monitor"), "a sink's monitor is not a microphone")
        XCTAssertEqual(AVCaptureDevice.default(for: .audio)?.uniqueID, "pulse:sine1k", "the server's default source comes first")
        XCTAssertTrue(AVCaptureDevice.devices(for: .audio).contains { $0.virtualScene != nil })
    }

    func testSinkMonitorsAreMicrophonesOnlyWhenAskedFor() throws {
        XCTAssertNil(source("testsink.monitor"))
        setenv("LINUXAVFOUNDATION_PULSE_MONITORS", "1", 1)
        defer { unsetenv("LINUXAVFOUNDATION_PULSE_MONITORS"); PulseDiscovery.refresh() }
        PulseDiscovery.refresh()
        let monitor = try XCTUnwrap(source("testsink.monitor"), "what the machine plays, as a microphone, when asked for")
        XCTAssertTrue(monitor.isConnected)
        XCTAssertEqual(AVCaptureDevice.default(for: .audio)?.uniqueID, "pulse:sine1k", "the server's default source stays the default")
    }

    func testCapturesTheServersToneAt16BitsAndItsOwnRate() throws {
        let microphone = try XCTUnwrap(source("sine1k"))
        let collector = FrameCollector()
        let (session, output) = try makeAudioSession(microphone: microphone, collector: collector)
        session.startRunning()
        XCTAssertTrue(session.isRunning)
        XCTAssertTrue(waitUntil(timeout: 10) { collector.audioBuffers.count >= 30 })
        let level = try XCTUnwrap(output.connections.first?.audioChannels.first).averagePowerLevel
        session.stopRunning()
        let buffers = Array(collector.audioBuffers.dropFirst(3))
        let asbd = try XCTUnwrap(buffers.first?.formatDescription?.audioStreamBasicDescription)
        XCTAssertEqual(asbd.mSampleRate, 48_000)
        XCTAssertEqual(asbd.mBitsPerChannel, 16)
        XCTAssertEqual(ToneAnalysis.frequency(buffers), 1000, accuracy: 10, "the source's 1 kHz tone")
        XCTAssertEqual(level, -9, accuracy: 1.5, "a sine at half scale averages -9 dBFS")
        for (a, b) in zip(buffers, buffers.dropFirst()) { XCTAssertLessThan(a.presentationTimeStamp, b.presentationTimeStamp) }
        // The sine source is synthetic and hands a backlog over at once; timestamps follow the server's latency report.
        let lag = (CMClockGetTime(CMClockGetHostTimeClock()) - buffers.last!.presentationTimeStamp).seconds
        XCTAssertTrue(lag > 0 && lag < 6, "timestamps are capture times on the host clock: \(lag)")
    }

    func testASourceThatDoesNotExistIsNotConnectedAndSourcesGoWithTheirServer() throws {
        final class Sink: CaptureSampleSink, @unchecked Sendable {
            func deviceDidProduce(_ sampleBuffer: CMSampleBuffer, generation: Int) {}
            func deviceDidDrop(at presentationTime: CMTime, duration: CMTime, reason: FrameDropReason, generation: Int) {}
        }
        var missing = cpulse_source()
        missing.rate = 48_000
        missing.channels = 1
        withUnsafeMutableBytes(of: &missing.name) { raw in
            let name = Array("no-such-source".utf8)
            raw.copyBytes(from: name)
        }
        let nowhere = PulseMicrophone(source: missing)
        XCTAssertThrowsError(try nowhere.start(nil, sink: Sink())) { error in
            XCTAssertEqual(error as? CaptureBackendError, .notConnected, "PulseAudio's 'no such entity' is a device that is not connected")
        }
        let microphone = try XCTUnwrap(source("sine1k"))
        let log = NotificationLog([.AVCaptureDeviceWasDisconnected], object: microphone)
        server.stop()
        XCTAssertNil(source("sine1k"), "a server's sources go with it")
        XCTAssertFalse(microphone.isConnected)
        XCTAssertTrue(waitUntil { log.names == [.AVCaptureDeviceWasDisconnected] })
        XCTAssertThrowsError(try AVCaptureDeviceInput(device: microphone)) { XCTAssertEqual(($0 as? AVError)?.code, .deviceNotConnected) }
    }

    func testAServerThatDiesMidCaptureIsARuntimeError() throws {
        let microphone = try XCTUnwrap(source("sine1k"))
        let collector = FrameCollector()
        let (session, _) = try makeAudioSession(microphone: microphone, collector: collector)
        let log = NotificationLog([.AVCaptureSessionRuntimeError, .AVCaptureSessionDidStopRunning], object: session)
        session.startRunning()
        XCTAssertTrue(waitUntil(timeout: 10) { collector.audioBuffers.count >= 5 })
        server.stop()
        XCTAssertTrue(waitUntil(timeout: 10) { log.names.contains(.AVCaptureSessionRuntimeError) }, "a vanished server never hangs capture")
        XCTAssertEqual((log.userInfo(of: .AVCaptureSessionRuntimeError)?[AVCaptureSessionErrorKey] as? AVError)?.code, .mediaServicesWereReset)
        XCTAssertTrue(waitUntil { !session.isRunning })
    }

    func testAStereoInputGivesTheEngineThePreferredNumberOfChannels() throws {
        setenv("LINUXAVFOUNDATION_PULSE_MONITORS", "1", 1)
        PulseDiscovery.refresh()
        let audioSession = AVAudioSession.sharedInstance()
        defer {
            AudioPreferences.preferredInputChannels = nil
            try? audioSession.setPreferredInput(nil)
            unsetenv("LINUXAVFOUNDATION_PULSE_MONITORS")
            PulseDiscovery.refresh()
        }
        // The null sink's monitor is a stereo input.
        let port = try XCTUnwrap(audioSession.availableInputs?.first { $0.uid == "pulse:testsink.monitor" })
        try audioSession.setPreferredInput(port)
        XCTAssertEqual(audioSession.maximumInputNumberOfChannels, 2)
        XCTAssertEqual(AVAudioEngine().inputNode.outputFormat(forBus: 0).channelCount, 2, "the input's own channels")
        try audioSession.setPreferredInputNumberOfChannels(1)
        XCTAssertEqual(audioSession.inputNumberOfChannels, 1)
        XCTAssertEqual(AVAudioEngine().inputNode.outputFormat(forBus: 0).channelCount, 1, "the preferred number")
        XCTAssertThrowsError(try audioSession.setPreferredInputNumberOfChannels(3))
    }

    func testTheAudioSessionsRateAndGainReachTheServer() throws {
        let audioSession = AVAudioSession.sharedInstance()
        defer {
            try? audioSession.setInputGain(1)
            try? audioSession.setPreferredSampleRate(0)
            try? audioSession.setPreferredInput(nil)
        }
        let port = try XCTUnwrap(audioSession.availableInputs?.first { $0.uid == "pulse:sine1k" })
        try audioSession.setPreferredInput(port)
        try audioSession.setPreferredSampleRate(16_000)
        XCTAssertEqual(audioSession.sampleRate, 16_000, "the server resamples to the preferred rate")
        XCTAssertTrue(audioSession.isInputGainSettable, "a server's source has a volume")
        try audioSession.setInputGain(0.5)
        let volume = server.pactl(["get-source-volume", "sine1k"]).text
        XCTAssertTrue(volume.contains("-6.02 dB"), "the source's volume on the server is half the amplitude: \(volume)")
        let microphone = try XCTUnwrap(AVCaptureDevice.default(for: .audio))
        XCTAssertEqual(microphone.uniqueID, "pulse:sine1k")
        let collector = FrameCollector()
        collector.audioBuffersToKeep = 24
        let (session, _) = try makeAudioSession(microphone: microphone, collector: collector)
        session.startRunning()
        XCTAssertTrue(waitUntil(timeout: 10) { collector.audioBuffers.count >= 24 }, "\(collector.audioBufferCount) buffers, running \(session.isRunning)")
        session.stopRunning()
        let buffers = Array(collector.audioBuffers.dropFirst(5))
        XCTAssertEqual(buffers.first?.formatDescription?.audioStreamBasicDescription?.mSampleRate, 16_000)
        XCTAssertEqual(ToneAnalysis.frequency(buffers), 1000, accuracy: 10, "the same 1 kHz tone at 16 kHz")
        XCTAssertEqual(ToneAnalysis.peak(buffers), 0.25, accuracy: 0.03, "the half-scale sine at half the gain: \(ToneAnalysis.peak(buffers))")
        PulseDiscovery.refresh()
        _ = AVCaptureDevice.devices(for: .audio)
        XCTAssertEqual(audioSession.inputGain, 0.5, accuracy: 0.01, "the gain read back from the server")
    }

    func testSourcesThatComeAndGoAreAnnouncedWithoutAnyoneAsking() throws {
        let arrivals = DeviceEvents()
        let loaded = server.pactl(["load-module", "module-sine-source", "source_name=sine500", "frequency=500", "rate=48000"])
        XCTAssertEqual(loaded.status, 0, loaded.text)
        // Nothing here lists devices: the server's own events bring the news.
        XCTAssertTrue(waitUntil { arrivals.connected.contains("pulse:sine500") }, "AVCaptureDeviceWasConnected for a source the server gained")
        let module = loaded.text.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(server.pactl(["unload-module", module]).status, 0)
        XCTAssertTrue(waitUntil { arrivals.disconnected.contains("pulse:sine500") }, "AVCaptureDeviceWasDisconnected for a source the server lost")
        XCTAssertEqual(source("sine500")?.isConnected ?? false, false)
    }

    func testASessionCapturesAgainWhenTheServerReturns() throws {
        let microphone = try XCTUnwrap(source("sine1k"))
        let collector = FrameCollector()
        let (session, _) = try makeAudioSession(microphone: microphone, collector: collector)
        let events = DeviceEvents()
        session.startRunning()
        XCTAssertTrue(waitUntil(timeout: 10) { collector.audioBuffers.count >= 5 })
        server.kill()
        XCTAssertTrue(waitUntil(timeout: 10) { !session.isRunning && !microphone.isConnected }, "the server's sources go with it")
        XCTAssertTrue(server.start(), "the server comes back")
        XCTAssertTrue(waitUntil(timeout: 10) { microphone.isConnected }, "its sources return, as the same device, without anyone asking")
        XCTAssertTrue(waitUntil { events.connected.contains("pulse:sine1k") }, "AVCaptureDeviceWasConnected is posted")
        collector.reset()
        session.startRunning()
        XCTAssertTrue(session.isRunning)
        XCTAssertTrue(waitUntil(timeout: 10) { collector.audioBuffers.count >= 5 }, "the session captures again")
    }
}

/// The unique IDs of devices named by connection notifications, in order.
final class DeviceEvents: @unchecked Sendable {
    private let lock = NSLock()
    private var arrived: [String] = [], departed: [String] = []
    private var tokens: [NSObjectProtocol] = []

    init() {
        tokens.append(
            NotificationCenter.default.addObserver(forName: .AVCaptureDeviceWasConnected, object: nil, queue: nil) { [unowned self] note in
                guard let device = note.object as? AVCaptureDevice else { return }
                lock.lock(); arrived.append(device.uniqueID); lock.unlock()
            })
        tokens.append(
            NotificationCenter.default.addObserver(forName: .AVCaptureDeviceWasDisconnected, object: nil, queue: nil) { [unowned self] note in
                guard let device = note.object as? AVCaptureDevice else { return }
                lock.lock(); departed.append(device.uniqueID); lock.unlock()
            })
    }
    deinit { tokens.forEach(NotificationCenter.default.removeObserver) }
    var connected: [String] { lock.lock(); defer { lock.unlock() }; return arrived }
    var disconnected: [String] { lock.lock(); defer { lock.unlock() }; return departed }
}
