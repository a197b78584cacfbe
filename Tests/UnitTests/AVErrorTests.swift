import XCTest
import Foundation
@testable import AVFoundation

/// The AV Foundation Programming Guide, "Ensuring That the File Was Written Successfully": errors are read through
/// `(error as NSError).userInfo` and `AVErrorRecordingSuccessfullyFinishedKey`.
final class AVErrorTests: XCTestCase {
    func testBridgesToNSErrorWithApplesDomainCodesAndUserInfo() {
        let error: Error = AVError(.maximumDurationReached, userInfo: [AVErrorRecordingSuccessfullyFinishedKey: true])
        let bridged = error as NSError
        XCTAssertEqual(bridged.domain, AVFoundationErrorDomain)
        XCTAssertEqual(bridged.code, -11810)
        XCTAssertEqual(bridged.userInfo[AVErrorRecordingSuccessfullyFinishedKey] as? Bool, true)
        XCTAssertFalse(bridged.localizedDescription.isEmpty)
        XCTAssertEqual((error as? AVError)?.recordingSuccessfullyFinished, true)
    }

    func testCodesMatchApple() {
        XCTAssertEqual(AVError.Code.diskFull.rawValue, -11807)
        XCTAssertEqual(AVError.Code.deviceWasDisconnected.rawValue, -11808)
        XCTAssertEqual(AVError.Code.fileAlreadyExists.rawValue, -11823)
        XCTAssertEqual(AVError.Code.applicationIsNotAuthorizedToUseDevice.rawValue, -11852)
        XCTAssertEqual(AVError.Code.mediaServicesWereReset.rawValue, -11819)
    }

    func testCatchPatternsMatchCodes() {
        func fail() throws { throw AVError(.diskFull) }
        do {
            try fail()
            XCTFail("expected an error")
        } catch AVError.maximumFileSizeReached {
            XCTFail("wrong code matched")
        } catch AVError.diskFull {
            // expected
        } catch {
            XCTFail("unexpected \(error)")
        }
    }

    /// The change dictionary's keys are spelled as Apple's, for code that observes by string key path.
    func testKeyValueChangeKeysAreApples() {
        XCTAssertEqual(
            [NSKeyValueChangeKey.kindKey, .newKey, .oldKey, .indexesKey, .notificationIsPriorKey].map(\.rawValue),
            ["kind", "new", "old", "indexes", "notificationIsPrior"])
        let change: [NSKeyValueChangeKey: Any] = [.kindKey: NSKeyValueChange.setting.rawValue, .newKey: 2]
        XCTAssertEqual(change[.newKey] as? Int, 2)
        XCTAssertEqual(NSKeyValueChangeKey("new"), .newKey)
    }
}
