import AppleStyleCode
import CaptureTestSupport
import XCTest
@testable import AVFoundation
import CaptureDevices
import TestSupport

/// The audio session's outputs through a real PulseAudio server: the route's output is the sink
/// sound plays to, typed from what the server says of it; sinks that come and go are route
/// changes; the speaker override sends playback to the speaker's sink.
final class AudioSessionOutputTests: CaptureTestCase {
    private var server: PrivatePulseServer!
    private var modules: [String] = []
    private let audioSession = AVAudioSession.sharedInstance()

    override func setUpWithError() throws {
        guard let server = PrivatePulseServer() else { try skipOrFail("pulseaudio is not installed: scripts/install-deps.sh --with-servers") }
        self.server = server
        _ = AVAudioSession.sharedInstance()
        // The session follows the server's sinks from here on.
        XCTAssertTrue(waitUntil { PulseSinks.followed?.contains { $0.name == "testsink" } == true })
        XCTAssertTrue(drainMainQueue())
    }

    override func tearDown() {
        try? audioSession.overrideOutputAudioPort(.none)
        try? audioSession.setCategory(.soloAmbient)
        for module in modules { _ = server?.pactl(["unload-module", module]) }
        super.tearDown()
        server?.stop()
    }

    /// Loads a null sink whose device says `properties`; its module's index.
    private func loadSink(_ name: String, properties: String) throws {
        let loaded = server.pactl(["load-module", "module-null-sink", "sink_name=\(name)", "sink_properties=\"\(properties)\""])
        XCTAssertEqual(loaded.status, 0, loaded.text)
        modules.append(loaded.text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    private func routeChange(_ reason: AVAudioSession.RouteChangeReason, previous: @escaping @Sendable ([String]) -> Bool) -> XCTestExpectation {
        expectation(forNotification: AVAudioSession.routeChangeNotification, object: audioSession) { notification in
            let route = notification.userInfo?[AVAudioSessionRouteChangePreviousRouteKey] as? AVAudioSessionRouteDescription
            return (notification.userInfo?[AVAudioSessionRouteChangeReasonKey] as? UInt) == reason.rawValue && previous(route?.outputs.map(\.uid) ?? [])
        }
    }

    func testTheRoutesOutputIsTheDefaultSinkAndSinksThatComeAndGoAreRouteChanges() throws {
        let output = try XCTUnwrap(audioSession.currentRoute.outputs.first, "the server's default sink")
        XCTAssertEqual(output.uid, "testsink")
        XCTAssertEqual(output.portType, .virtual, "a null sink has no device behind it")
        XCTAssertEqual(output.channels?.count, 2)

        // Nothing here asks: the server's own events bring the news.
        let arrived = routeChange(.newDeviceAvailable) { $0 == ["testsink"] }
        try loadSink("phones", properties: "device.form_factor=headphone device.description=Phones")
        wait(for: [arrived], timeout: 10)

        let moved = routeChange(.routeConfigurationChange) { $0 == ["testsink"] }
        XCTAssertEqual(server.pactl(["set-default-sink", "phones"]).status, 0)
        wait(for: [moved], timeout: 10)
        let phones = try XCTUnwrap(audioSession.currentRoute.outputs.first)
        XCTAssertEqual(phones.uid, "phones")
        XCTAssertEqual(phones.portType, .headphones)
        XCTAssertEqual(phones.portName, "Phones")

        // Unplugged: the route falls back, and the notification says what it was.
        let left = routeChange(.oldDeviceUnavailable) { $0 == ["phones"] }
        XCTAssertEqual(server.pactl(["unload-module", modules.removeLast()]).status, 0)
        wait(for: [left], timeout: 10)
        XCTAssertTrue(waitUntil { self.audioSession.currentRoute.outputs.first?.uid == "testsink" })
    }

    func testTheSpeakerOverrideSendsPlaybackToTheSpeakersSink() throws {
        try loadSink("speakers", properties: "device.form_factor=speaker device.description=Speakers")
        XCTAssertTrue(waitUntil { PulseSinks.followed?.contains { $0.name == "speakers" } == true })
        XCTAssertTrue(drainMainQueue())
        XCTAssertEqual(audioSession.currentRoute.outputs.first?.uid, "testsink", "the default, until overridden")
        try audioSession.setCategory(.playAndRecord)
        let overridden = routeChange(.override) { $0 == ["testsink"] }
        try audioSession.overrideOutputAudioPort(.speaker)
        wait(for: [overridden], timeout: 10)
        let speaker = try XCTUnwrap(audioSession.currentRoute.outputs.first)
        XCTAssertEqual(speaker.uid, "speakers")
        XCTAssertEqual(speaker.portType, .builtInSpeaker)
        XCTAssertEqual(try playbackSink(), "speakers", "a stream opened now plays to the speaker")

        try audioSession.overrideOutputAudioPort(.none)
        XCTAssertEqual(audioSession.currentRoute.outputs.first?.uid, "testsink")
        XCTAssertEqual(try playbackSink(), "testsink", "and to the default again without the override")
    }

    /// The sink a sound output opened now plays to, as the server lists its stream.
    private func playbackSink() throws -> String {
        let output = PacedSoundOutput(name: "override test", rate: 48_000, channels: 2)
        defer { output.close() }
        let sinks = Dictionary(
            uniqueKeysWithValues: server.pactl(["list", "short", "sinks"]).text.split(separator: "\n").compactMap { line -> (String, String)? in
                let fields = line.split(separator: "\t")
                return fields.count > 1 ? (String(fields[0]), String(fields[1])) : nil
            })
        let streams = server.pactl(["list", "short", "sink-inputs"]).text.split(separator: "\n").map { $0.split(separator: "\t") }
        XCTAssertEqual(streams.count, 1, "one stream: \(streams)")
        let sink = try XCTUnwrap(streams.first.flatMap { $0.count > 1 ? String($0[1]) : nil })
        return try XCTUnwrap(sinks[sink])
    }

    func testAVoiceCallHearsHeadphonesComeAndGoAndItsSpeakerphoneButton() throws {
        try loadSink("speakers", properties: "device.form_factor=speaker device.description=Speakers")
        try loadSink("phones", properties: "device.form_factor=headphone device.description=Phones")
        XCTAssertTrue(waitUntil { PulseSinks.followed?.contains { $0.name == "phones" } == true })
        XCTAssertTrue(drainMainQueue())
        let call = SpeakerphoneCall()
        try call.start()
        defer { call.stop() }
        XCTAssertEqual(server.pactl(["set-default-sink", "phones"]).status, 0, "headphones plugged in")
        XCTAssertTrue(waitUntil(timeout: 10) { call.routeEvents.contains("headphones connected") }, "\(call.routeEvents)")
        XCTAssertEqual(call.outputPortType, .headphones)
        try call.setSpeakerphone(true)
        XCTAssertTrue(waitUntil(timeout: 10) { call.routeEvents.contains("speaker") }, "\(call.routeEvents)")
        XCTAssertEqual(call.outputPortType, .builtInSpeaker)
        try call.setSpeakerphone(false)
        XCTAssertEqual(call.outputPortType, .headphones)
        XCTAssertEqual(server.pactl(["unload-module", modules.removeLast()]).status, 0, "headphones pulled out")
        XCTAssertTrue(waitUntil(timeout: 10) { call.routeEvents.contains("headphones disconnected") }, "\(call.routeEvents)")
    }
}
