import CALSA
import Foundation
import XCTest

/// Sound cards are looked for through their control devices before libasound is loaded: a machine
/// without one lists no ALSA microphone and keeps the library out of memory.
final class ALSACardsTests: XCTestCase {
    func testACardIsPresentWhenItsControlDeviceIs() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("snd-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        XCTAssertEqual(calsa_cards_present_in(folder.path), 0, "no folder")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        XCTAssertEqual(calsa_cards_present_in(folder.path), 0, "an empty folder")
        for name in ["timer", "seq", "pcmC0D0c"] { _ = FileManager.default.createFile(atPath: folder.appendingPathComponent(name).path, contents: nil) }
        XCTAssertEqual(calsa_cards_present_in(folder.path), 0, "a timer, a sequencer and a stray PCM, but no card's control")
        _ = FileManager.default.createFile(atPath: folder.appendingPathComponent("controlC1").path, contents: nil)
        XCTAssertEqual(calsa_cards_present_in(folder.path), 1, "a second card's control")
    }
}
