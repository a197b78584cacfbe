import AVFAudio
import CaptureDevices
import TestSupport
import XCTest

/// The audio session's preferred number of input channels, and the data sources and polar
/// patterns Linux's microphones do not have.
final class InputChannelsTests: XCTestCase {
    override func setUp() { setenv("LINUXAVFOUNDATION_DEVICES", "virtual", 1) }

    override func tearDown() {
        AudioPreferences.preferredInputChannels = nil
        unsetenv("LINUXAVFOUNDATION_DEVICES")
    }

    func testThePreferredChannelsAreBetweenOneAndTheInputsMostAndTheEngineTakesThem() throws {
        let session = AVAudioSession.sharedInstance()
        XCTAssertEqual(session.maximumInputNumberOfChannels, 1, "the virtual microphone is mono")
        XCTAssertEqual(session.preferredInputNumberOfChannels, 0, "no preference yet")
        XCTAssertEqual(session.inputNumberOfChannels, 1)
        for refused in [0, -1, 2] {
            XCTAssertThrowsError(try session.setPreferredInputNumberOfChannels(refused), "\(refused)") { error in
                XCTAssertEqual((error as NSError).code, AVAudioSession.ErrorCode.badParam.rawValue)
            }
        }
        XCTAssertEqual(session.preferredInputNumberOfChannels, 0, "a refused value changes nothing")
        try session.setPreferredInputNumberOfChannels(1)
        XCTAssertEqual(session.preferredInputNumberOfChannels, 1)
        XCTAssertEqual(session.inputNumberOfChannels, 1)
        XCTAssertEqual(AVAudioEngine().inputNode.outputFormat(forBus: 0).channelCount, 1)
    }

    func testNoInputHasDataSourcesAndOnlyNoneIsChosen() throws {
        let session = AVAudioSession.sharedInstance()
        XCTAssertNil(session.inputDataSources)
        XCTAssertNil(session.inputDataSource)
        XCTAssertNoThrow(try session.setInputDataSource(nil))
        XCTAssertNil(session.outputDataSources)
        XCTAssertNoThrow(try session.setOutputDataSource(nil))
        let port = try XCTUnwrap(session.currentRoute.inputs.first)
        XCTAssertNil(port.dataSources)
        XCTAssertNil(port.selectedDataSource)
        XCTAssertNoThrow(try port.setPreferredDataSource(nil))
        XCTAssertEqual(AVAudioSession.PolarPattern.cardioid.rawValue, "Cardioid")
        XCTAssertEqual(AVAudioSession.Orientation.front.rawValue, "Front")
        XCTAssertEqual(AVAudioSession.Location.lower.rawValue, "Lower")
    }
}
