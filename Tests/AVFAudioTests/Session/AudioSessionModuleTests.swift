import AVFAudio
import CaptureDevices
import TestSupport
import XCTest

/// `AVAudioSession` from `import AVFAudio` alone, as on Apple's platforms: the inputs it lists
/// and chooses are the microphones the engine and recorders use (here the virtual one).
final class AudioSessionModuleTests: XCTestCase {
    override func setUp() { setenv("LINUXAVFOUNDATION_DEVICES", "virtual", 1) }

    override func tearDown() {
        try? AVAudioSession.sharedInstance().setPreferredInput(nil)
        unsetenv("LINUXAVFOUNDATION_DEVICES")
    }

    func testTheSessionListsAndChoosesTheMicrophonesWithoutAVFoundation() throws {
        let session = AVAudioSession.sharedInstance()
        XCTAssertEqual(session.recordPermission, .granted)
        let inputs = try XCTUnwrap(session.availableInputs)
        XCTAssertEqual(inputs.count, 1, "the virtual microphone: \(inputs.map(\.portName))")
        let microphone = try XCTUnwrap(inputs.first)
        XCTAssertEqual(microphone.portType, .builtInMic)
        XCTAssertFalse(microphone.uid.isEmpty)
        XCTAssertEqual(microphone.channels?.count, session.inputNumberOfChannels)
        XCTAssertTrue(session.isInputAvailable)
        XCTAssertEqual(session.currentRoute.inputs.map(\.uid), [microphone.uid], "the route is the microphone recording uses")
        try session.setPreferredInput(microphone)
        XCTAssertEqual(session.preferredInput?.uid, microphone.uid)
        XCTAssertGreaterThan(session.sampleRate, 0)
        // The engine's input is the session's input: its format is the microphone's.
        let engine = AVAudioEngine()
        XCTAssertEqual(engine.inputNode.outputFormat(forBus: 0).sampleRate, session.sampleRate)
        XCTAssertEqual(Int(engine.inputNode.outputFormat(forBus: 0).channelCount), session.inputNumberOfChannels)
    }

    func testACategoryChangeIsPostedAsARouteChange() throws {
        let session = AVAudioSession.sharedInstance()
        let posted = expectation(forNotification: AVAudioSession.routeChangeNotification, object: session) {
            ($0.userInfo?[AVAudioSessionRouteChangeReasonKey] as? UInt) == AVAudioSession.RouteChangeReason.categoryChange.rawValue
        }
        let other: AVAudioSession.Category = session.category == .playAndRecord ? .record : .playAndRecord
        try session.setCategory(other, mode: .default, options: [])
        wait(for: [posted], timeout: 5)
        XCTAssertEqual(session.category, other)
    }

    func testInputsAreTypedFromTheNamesSoundServersAndALSAGiveThem() {
        let named: [(String, String, AVAudioSession.Port)] = [
            ("pulse:alsa_input.pci-0000_00_1f.3.analog-stereo", "Built-in Audio Analog Stereo", .builtInMic),
            ("pulse:alsa_input.usb-Blue_Microphones_Yeti-00.analog-stereo", "Yeti Stereo Microphone", .usbAudio),
            ("pulse:bluez_input.00_1B_66_AA_BB_CC.handsfree_head_unit", "WH-1000XM4", .bluetoothHFP),
            ("pulse:bluez_source.00_1B_66_AA_BB_CC.a2dp_source", "Phone", .bluetoothA2DP),
            ("pulse:alsa_input.pci-0000_00_1f.3.analog-stereo.headset-mic", "Headset Microphone", .headsetMic),
            ("alsa:hw:1,0", "HDA Intel PCH: ALC257 Line In", .lineIn),
            ("virtual:microphone", "Virtual Microphone", .builtInMic),
        ]
        for (uid, name, expected) in named {
            XCTAssertEqual(AVAudioSessionPortDescription.inputPortType(uniqueID: uid, name: name), expected, uid)
        }
    }

    func testPortNamesAndTheSpeakerOverrideAreApples() throws {
        // Apple's raw values, which apps compare and log.
        XCTAssertEqual(AVAudioSession.Port.builtInSpeaker.rawValue, "Speaker")
        XCTAssertEqual(AVAudioSession.Port.builtInReceiver.rawValue, "Receiver")
        XCTAssertEqual(AVAudioSession.Port.headphones.rawValue, "Headphones")
        XCTAssertEqual(AVAudioSession.Port.bluetoothA2DP.rawValue, "BluetoothA2DPOutput")
        XCTAssertEqual(AVAudioSession.Port.HDMI.rawValue, "HDMIOutput")
        XCTAssertEqual(AVAudioSession.PortOverride.speaker.rawValue, 0x7370_6B72, "'spkr'")
        let session = AVAudioSession.sharedInstance()
        try session.setCategory(.playAndRecord, mode: .voiceChat, options: [.defaultToSpeaker])
        XCTAssertNoThrow(try session.overrideOutputAudioPort(.speaker))
        XCTAssertNoThrow(try session.overrideOutputAudioPort(.none))
    }

    func testTheSpeakerOverrideBelongsToPlayAndRecordAndIsARouteChange() throws {
        let session = AVAudioSession.sharedInstance()
        try session.setCategory(.playback)
        XCTAssertThrowsError(try session.overrideOutputAudioPort(.speaker)) { error in
            XCTAssertEqual((error as NSError).code, AVAudioSession.ErrorCode.incompatibleCategory.rawValue, "'!cat'")
        }
        XCTAssertEqual(AVAudioSession.ErrorCode.incompatibleCategory.rawValue, 0x2163_6174)
        XCTAssertNoThrow(try session.overrideOutputAudioPort(.none), "no override is taken in any category")
        try session.setCategory(.playAndRecord)
        XCTAssertTrue(drainMainQueue())
        let overridden = expectation(forNotification: AVAudioSession.routeChangeNotification, object: session) {
            ($0.userInfo?[AVAudioSessionRouteChangeReasonKey] as? UInt) == AVAudioSession.RouteChangeReason.override.rawValue
                && $0.userInfo?[AVAudioSessionRouteChangePreviousRouteKey] is AVAudioSessionRouteDescription
        }
        try session.overrideOutputAudioPort(.speaker)
        wait(for: [overridden], timeout: 5)
        // Leaving play-and-record ends the override: coming back does not bring it with it.
        try session.setCategory(.record)
        try session.setCategory(.playAndRecord)
        XCTAssertTrue(drainMainQueue())
        let again = expectation(forNotification: AVAudioSession.routeChangeNotification, object: session) {
            ($0.userInfo?[AVAudioSessionRouteChangeReasonKey] as? UInt) == AVAudioSession.RouteChangeReason.override.rawValue
        }
        try session.overrideOutputAudioPort(.speaker)
        wait(for: [again], timeout: 5)
        try session.overrideOutputAudioPort(.none)
        try session.setCategory(.soloAmbient)
    }

    func testOutputsAreTypedFromWhatTheSoundServerSaysOfTheirDevice() {
        func sink(
            _ name: String, port: String = "", type: Int32 = 0, formFactor: String = "", bus: String = "", profile: String = "", hardware: Bool = true,
            network: Bool = false
        ) -> SoundOutputPort {
            var sink = SoundOutputPort(name: name, description: name)
            (sink.port, sink.portType, sink.formFactor, sink.bus, sink.profile) = (port, type, formFactor, bus, profile)
            (sink.isHardware, sink.isNetwork) = (hardware, network)
            return sink
        }
        // pa_device_port_type_t: 2 speaker, 3 headphones, 4 line, 7 handset, 10 HDMI, 14 USB, 18 car.
        let outputs: [(SoundOutputPort, AVAudioSession.Port)] = [
            (sink("alsa_output.pci-0000_00_1f.3.analog-stereo", port: "analog-output-speaker", type: 2, bus: "pci"), .builtInSpeaker),
            (sink("alsa_output.pci-0000_00_1f.3.analog-stereo", port: "analog-output-headphones", type: 3, bus: "pci"), .headphones),
            (sink("alsa_output.pci-0000_00_1f.3.analog-stereo", port: "analog-output-lineout", type: 4, bus: "pci"), .lineOut),
            (sink("alsa_output.pci-0000_00_1f.3.hdmi-stereo", port: "hdmi-output-0", type: 10, bus: "pci"), .HDMI),
            (sink("alsa_output.pci-0000_00_1f.3.hdmi-stereo", port: "hdmi-output-0", bus: "pci"), .HDMI),
            (sink("alsa_output.usb-Focusrite_Scarlett-00.analog-stereo", port: "analog-output", type: 3, bus: "usb"), .usbAudio),
            (sink("bluez_output.00_1B_66_AA_BB_CC.1", bus: "bluetooth", profile: "a2dp-sink"), .bluetoothA2DP),
            (sink("bluez_sink.00_1B_66_AA_BB_CC.handsfree_head_unit", bus: "bluetooth", profile: "headset-head-unit"), .bluetoothHFP),
            (sink("bluez_output.00_1B_66_AA_BB_CC.1", bus: "bluetooth", profile: "bap-sink"), .bluetoothLE),
            (sink("raop_output.Living-Room.local", network: true), .airPlay),
            (sink("tunnel.other-host.alsa_output", network: true), .virtual),
            (sink("alsa_output.platform-car", port: "[Out] Car", type: 18), .carAudio),
            (sink("alsa_output.platform-phone", port: "[Out] Earpiece", type: 7), .builtInReceiver),
            (sink("phones", formFactor: "headphone", hardware: false), .headphones),
            (sink("laptop", formFactor: "internal"), .builtInSpeaker),
            (sink("null", hardware: false), .virtual),
            (sink("alsa_output.pci-0000_00_1b.0.analog-stereo", bus: "pci"), .lineOut),
        ]
        for (output, expected) in outputs {
            XCTAssertEqual(AVAudioSessionPortDescription.outputPortType(output), expected, "\(output.name) \(output.port) \(output.profile)")
        }
        let port = AVAudioSessionPortDescription(output: sink("phones", formFactor: "headphone"))
        XCTAssertEqual(port.uid, "phones")
        XCTAssertEqual(port.channels?.map(\.channelNumber), [1, 2])
    }

    func testStereoOrientationIsKeptAndNoneWithoutAStereoDataSource() throws {
        let session = AVAudioSession.sharedInstance()
        XCTAssertEqual(
            [.none, .portrait, .portraitUpsideDown, .landscapeRight, .landscapeLeft].map { (orientation: AVAudioSession.StereoOrientation) in
                orientation.rawValue
            },
            [0, 1, 2, 3, 4])
        try session.setPreferredInputOrientation(.landscapeLeft)
        XCTAssertEqual(session.preferredInputOrientation, .landscapeLeft)
        // Left and right follow the orientation only from a stereo data source, which no microphone here has.
        XCTAssertNil(session.inputDataSources)
        XCTAssertEqual(session.inputOrientation, .none)
        try session.setPreferredInputOrientation(.none)
        XCTAssertEqual(session.preferredInputOrientation, .none)
    }

    func testMicrophoneInjectionIsAskedForAndUnavailable() async throws {
        let session = AVAudioSession.sharedInstance()
        XCTAssertEqual(AVAudioSession.MicrophoneInjectionMode.spokenAudio.rawValue, 1)
        XCTAssertEqual(session.preferredMicrophoneInjectionMode, .none)
        try session.setPreferredMicrophoneInjectionMode(.spokenAudio)
        XCTAssertEqual(session.preferredMicrophoneInjectionMode, .spokenAudio)
        try session.setPreferredMicrophoneInjectionMode(.none)
        XCTAssertFalse(session.isMicrophoneInjectionAvailable)
        XCTAssertEqual(
            AVAudioSession.microphoneInjectionCapabilitiesChangeNotification.rawValue, "AVAudioSessionMicrophoneInjectionCapabilitiesChangeNotification")
        XCTAssertEqual(AVAudioSessionMicrophoneInjectionIsAvailableKey, "AVAudioSessionMicrophoneInjectionIsAvailableKey")
        // 'srds', 'undt', 'deny', 'grnt', as Apple's.
        XCTAssertEqual(
            [.serviceDisabled, .undetermined, .denied, .granted].map { (permission: AVAudioApplication.MicrophoneInjectionPermission) in permission.rawValue },
            [0x7372_6473, 0x756E_6474, 0x6465_6E79, 0x6772_6E74])
        XCTAssertEqual(AVAudioApplication.shared.microphoneInjectionPermission, .serviceDisabled)
        let answered = await AVAudioApplication.requestMicrophoneInjectionPermission()
        XCTAssertEqual(answered, .serviceDisabled)
        let handled = expectation(description: "the handler hears the answer")
        AVAudioApplication.requestMicrophoneInjectionPermission { permission in
            XCTAssertEqual(permission, .serviceDisabled)
            handled.fulfill()
        }
        await fulfillment(of: [handled], timeout: 5)
    }
}
