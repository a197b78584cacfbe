import AVFoundation
import XCTest

/// The Objective-C names of AVFoundation's nested types are the nested types.
final class RenamedTypesTests: XCTestCase {
    func testTheOlderNamesAreTheNestedTypes() {
        let item: AVPlayerItemStatus = .readyToPlay
        let player: AVPlayerStatus = .failed
        let control: AVPlayerTimeControlStatus = .waitingToPlayAtSpecifiedRate
        let end: AVPlayerActionAtItemEnd = .advance
        XCTAssertEqual(item, AVPlayerItem.Status.readyToPlay)
        XCTAssertEqual(player, AVPlayer.Status.failed)
        XCTAssertEqual(control, AVPlayer.TimeControlStatus.waitingToPlayAtSpecifiedRate)
        XCTAssertEqual(end, AVPlayer.ActionAtItemEnd.advance)
        XCTAssertEqual(AVAssetExportSessionStatus.completed, AVAssetExportSession.Status.completed)
        XCTAssertEqual(AVAssetReaderStatus.reading, AVAssetReader.Status.reading)
        XCTAssertEqual(AVAssetWriterStatus.writing, AVAssetWriter.Status.writing)
    }
}
