import AVFAudio
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
}
