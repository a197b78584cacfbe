import CaptureTestSupport
import XCTest
import AVFoundation
import TestSupport

/// Metadata items as players and libraries read them: filtered from an asset's metadata by
/// identifier or by key and key space, and their values loaded with `load(_:)`, as the current
/// SDK spells it.
final class MetadataItemTests: XCTestCase {
    func testAMoviesTitleIsFoundByIdentifierAndByKeyAndItsValuesLoad() async throws {
        try XCTSkipUnless(MediaProbe.isAvailable, "ffmpeg is needed: apt-get install ffmpeg")
        let url = makeScratchFolder().appendingPathComponent("titled.mov")
        try TestMovies.picturesAndTone(url, seconds: 1, extra: ["-metadata", "title=Harbour at dusk"])
        let common = try await AVURLAsset(url: url).load(.commonMetadata)

        let titles = AVMetadataItem.metadataItems(from: common, filteredByIdentifier: .commonIdentifierTitle)
        XCTAssertEqual(titles.count, 1, "\(common)")
        let title = try XCTUnwrap(titles.first)
        let text = try await title.load(.stringValue)
        XCTAssertEqual(text, "Harbour at dusk")
        let value = try await title.load(.value)
        XCTAssertEqual(value as? NSString, "Harbour at dusk")
        let (number, data) = try await title.load(.numberValue, .dataValue)
        XCTAssertNil(number, "a string is no number")
        XCTAssertEqual(data, Data("Harbour at dusk".utf8))
        if case .loaded(let loaded) = title.status(of: .stringValue) {
            XCTAssertEqual(loaded, "Harbour at dusk")
        } else {
            XCTFail("an item's value is loaded with it")
        }
        XCTAssertTrue(AVMetadataItem.metadataItems(from: common, filteredByIdentifier: .quickTimeMetadataLocationISO6709).isEmpty)

        let byKey = AVMetadataItem.metadataItems(from: common, withKey: AVMetadataKey.commonKeyTitle.rawValue, keySpace: .common)
        XCTAssertEqual(byKey.map(\.stringValue), ["Harbour at dusk"])
        XCTAssertEqual(AVMetadataItem.metadataItems(from: common, withKey: AVMetadataKey.commonKeyTitle.rawValue as NSString, keySpace: nil).count, 1)
        XCTAssertEqual(AVMetadataItem.metadataItems(from: common, withKey: nil, keySpace: .common).count, common.count, "no key: every key")
        XCTAssertTrue(AVMetadataItem.metadataItems(from: common, withKey: "nothing", keySpace: .common).isEmpty)
        XCTAssertTrue(AVMetadataItem.metadataItems(from: common, withKey: AVMetadataKey.commonKeyTitle.rawValue, keySpace: .quickTimeMetadata).isEmpty)
    }

    func testItemsMadeWithAKeySpaceAndKeyAreFoundByTheIdentifierTheyMake() async throws {
        let title = AVMutableMetadataItem()
        title.keySpace = .common
        title.key = AVMetadataKey.commonKeyTitle.rawValue as NSString
        title.value = "Two clips" as NSString
        let count = AVMutableMetadataItem()
        count.identifier = AVMetadataIdentifier(rawValue: "mdta/com.example.count")
        count.value = NSNumber(value: 42)
        let items: [AVMetadataItem] = [count, title]

        XCTAssertEqual(AVMetadataItem.metadataItems(from: items, filteredByIdentifier: .commonIdentifierTitle), [title])
        XCTAssertEqual(AVMetadataItem.metadataItems(from: items, filteredByIdentifier: AVMetadataIdentifier(rawValue: "mdta/com.example.count")), [count])
        XCTAssertEqual(AVMetadataItem.metadataItems(from: items, withKey: "com.example.count", keySpace: .quickTimeMetadata), [count])
        let (number, text, date) = try await count.load(.numberValue, .stringValue, .dateValue)
        XCTAssertEqual(number, 42)
        XCTAssertEqual(text, "42")
        XCTAssertNil(date)
    }

    func testADateIsWrittenInISO8601AndStringsInISO8601AreDates() {
        let date = Date(timeIntervalSince1970: 1_764_571_920)
        let item = AVMutableMetadataItem()
        item.identifier = .commonIdentifierCreationDate
        item.value = date as NSDate
        XCTAssertEqual(item.stringValue, "2025-12-01T06:52:00Z", "UTC, to the second")
        XCTAssertEqual(item.dateValue, date)
        let text = AVMutableMetadataItem()
        text.value = "2025-12-01T07:52:00+01:00" as NSString
        XCTAssertEqual(text.dateValue, date, "an offset from UTC is honoured")
        text.value = "1 December 2025" as NSString
        XCTAssertNil(text.dateValue, "what is not ISO 8601 is no date")
    }
}
