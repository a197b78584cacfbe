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
}
