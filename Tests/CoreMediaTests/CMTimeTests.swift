import XCTest
import CoreMedia

final class CMTimeTests: XCTestCase {
    func testConstructionAndSeconds() {
        XCTAssertEqual(CMTimeMake(value: 1, timescale: 30).seconds, 1.0 / 30)
        XCTAssertEqual(CMTimeGetSeconds(CMTime(seconds: 2.5, preferredTimescale: 600)), 2.5)
        XCTAssertTrue(CMTime(seconds: 1.0 / 3, preferredTimescale: 10).hasBeenRounded)
        XCTAssertFalse(CMTime(value: 1, timescale: 0).isValid, "a zero timescale makes an invalid time")
        XCTAssertTrue(CMTime.invalid.seconds.isNaN)
        XCTAssertEqual(CMTime.positiveInfinity.seconds, .infinity)
        XCTAssertTrue(CMTIME_IS_NUMERIC(.zero))
        XCTAssertFalse(CMTIME_IS_NUMERIC(.indefinite))
        XCTAssertTrue(kCMTimeIndefinite.isIndefinite)
    }

    func testArithmeticAcrossTimescales() {
        let third = CMTime(value: 1, timescale: 3), half = CMTime(value: 1, timescale: 2)
        let sum = third + half
        XCTAssertEqual(sum, CMTime(value: 5, timescale: 6))
        XCTAssertEqual(sum.timescale, 6, "the least common multiple holds both exactly")
        XCTAssertEqual(half - third, CMTime(value: 1, timescale: 6))
        XCTAssertEqual(CMTimeMultiply(third, multiplier: 3), CMTime(value: 1, timescale: 1))
        XCTAssertEqual(CMTimeMultiplyByFloat64(CMTime(value: 30, timescale: 30), multiplier: 0.5), CMTime(value: 15, timescale: 30))
        let rounded = CMTimeMultiplyByFloat64(CMTime(value: 10, timescale: 1), multiplier: 0.25)
        XCTAssertEqual(rounded.timescale, 1, "the result keeps the operand's timescale")
        XCTAssertEqual(rounded, CMTime(value: 3, timescale: 1))
        XCTAssertTrue(rounded.hasBeenRounded)
        XCTAssertEqual(CMTimeMultiplyByRatio(CMTime(value: 30, timescale: 30), multiplier: 1, divisor: 2), CMTime(value: 15, timescale: 30))
        XCTAssertEqual(CMTime.positiveInfinity + half, .positiveInfinity)
        XCTAssertFalse((CMTime.positiveInfinity + .negativeInfinity).isValid)
        XCTAssertFalse((CMTime.invalid + half).isValid)
        XCTAssertEqual(CMTimeAbsoluteValue(CMTime(value: -3, timescale: 4)), CMTime(value: 3, timescale: 4))
    }

    func testConversionRoundsAndHandlesLargeValues() {
        let time = CMTime(value: 1, timescale: 3)
        XCTAssertEqual(time.convertScale(1000, method: .roundHalfAwayFromZero).value, 333)
        XCTAssertEqual(time.convertScale(1000, method: .roundAwayFromZero).value, 334)
        XCTAssertEqual(CMTime(value: -1, timescale: 3).convertScale(1000, method: .roundTowardNegativeInfinity).value, -334)
        XCTAssertFalse(time.convertScale(1000, method: .quickTime).isValid, "QuickTime rounding refuses inexact results")
        // A host time after weeks of uptime, at 44.1 kHz, converted to nanoseconds, needs 128 bits on the way.
        let audio = CMTime(value: 4_410_000_000_000, timescale: 44_100)  // 100,000,000 s
        XCTAssertEqual(audio.convertScale(1_000_000_000, method: .default).value, 100_000_000_000_000_000)
        XCTAssertTrue(CMTime(value: .max / 2, timescale: 1).convertScale(1_000_000_000, method: .default).isPositiveInfinity)
    }

    func testOrderingFollowsCoreMedia() {
        // Invalid is greatest, then +infinity, then indefinite, then numbers, then -infinity.
        let ordered: [CMTime] = [
            .negativeInfinity, CMTime(value: -1, timescale: 1), .zero, CMTime(value: 1, timescale: 3),
            CMTime(value: 1, timescale: 2), .indefinite, .positiveInfinity, .invalid,
        ]
        for (a, b) in zip(ordered, ordered.dropFirst()) {
            XCTAssertEqual(CMTimeCompare(a, b), -1, "\(a) < \(b)")
            XCTAssertEqual(CMTimeCompare(b, a), 1)
        }
        XCTAssertEqual(CMTimeCompare(CMTime(value: 1, timescale: 2), CMTime(value: 2, timescale: 4)), 0)
        XCTAssertEqual(Set([CMTime(value: 1, timescale: 2), CMTime(value: 500, timescale: 1000)]).count, 1, "equal times hash alike")
        XCTAssertEqual(CMTimeMaximum(.zero, .invalid), .invalid)
        XCTAssertEqual(CMTimeMinimum(CMTime(value: 1, timescale: 2), CMTime(value: 1, timescale: 3)), CMTime(value: 1, timescale: 3))
    }

    func testTimeRanges() {
        let range = CMTimeRange(start: CMTime(value: 1, timescale: 1), duration: CMTime(value: 2, timescale: 1))
        XCTAssertEqual(range.end, CMTime(value: 3, timescale: 1))
        XCTAssertTrue(range.containsTime(CMTime(value: 1, timescale: 1)))
        XCTAssertFalse(range.containsTime(CMTime(value: 3, timescale: 1)), "the end is not in the range")
        let other = CMTimeRange(start: CMTime(value: 2, timescale: 1), end: CMTime(value: 5, timescale: 1))
        XCTAssertEqual(range.intersection(other), CMTimeRange(start: CMTime(value: 2, timescale: 1), end: CMTime(value: 3, timescale: 1)))
        XCTAssertEqual(range.union(other), CMTimeRange(start: CMTime(value: 1, timescale: 1), end: CMTime(value: 5, timescale: 1)))
        XCTAssertTrue(CMTimeRange(start: .zero, duration: .zero).isEmpty)
        XCTAssertFalse(CMTimeRange(start: .zero, duration: CMTime(value: -1, timescale: 1)).isValid)
        XCTAssertFalse(kCMTimeRangeInvalid.isValid)
    }

    func testHostClockIsMonotonicNanoseconds() {
        let a = CMClockGetTime(CMClockGetHostTimeClock())
        let b = CMClockGetHostTimeClock().time
        XCTAssertEqual(a.timescale, 1_000_000_000)
        XCTAssertLessThanOrEqual(a, b)
        XCTAssertEqual(CMClockConvertHostTimeToSystemUnits(CMClockMakeHostTimeFromSystemUnits(123_456)), 123_456)
    }

    func testDescriptionsAreCoreMedias() {
        XCTAssertEqual(CMTimeCopyDescription(allocator: nil, time: CMTime(value: 1, timescale: 30)), "{1/30 = 0.033}")
        XCTAssertEqual(CMTimeCopyDescription(allocator: kCFAllocatorDefault, time: .invalid), "{INVALID}")
        XCTAssertEqual(CMTimeCopyDescription(allocator: nil, time: .positiveInfinity), "{+INFINITY}")
        XCTAssertEqual(CMTimeCopyDescription(allocator: nil, time: .negativeInfinity), "{-INFINITY}")
        XCTAssertEqual(CMTimeCopyDescription(allocator: nil, time: .indefinite), "{INDEFINITE}")
        let range = CMTimeRange(start: CMTime(value: 600, timescale: 600), duration: CMTime(value: 3, timescale: 2))
        XCTAssertEqual(CMTimeRangeCopyDescription(allocator: nil, range: range), "{{600/600 = 1.000}, {3/2 = 1.500}}")
    }

    func testClampingFoldingEpochsAndMappingsAsAppleDocumentsThem() {
        let range = CMTimeRange(start: CMTime(value: 2, timescale: 1), duration: CMTime(value: 3, timescale: 1))
        XCTAssertEqual(CMTimeClampToRange(CMTime(value: 1, timescale: 1), range: range), CMTime(value: 2, timescale: 1), "before: the start")
        XCTAssertEqual(CMTimeClampToRange(CMTime(value: 7, timescale: 2), range: range), CMTime(value: 7, timescale: 2), "inside: unchanged")
        XCTAssertEqual(CMTimeClampToRange(CMTime(value: 9, timescale: 1), range: range), CMTime(value: 5, timescale: 1), "after: the end")
        XCTAssertFalse(CMTimeClampToRange(.invalid, range: range).isValid)
        XCTAssertFalse(CMTimeClampToRange(.zero, range: CMTimeRange(start: .zero, duration: .zero)).isValid, "an empty range")
        // A loop of 3 s from 2 s: 6 s is 1 s into the second loop, 0.5 s is 1.5 s before the first.
        XCTAssertEqual(CMTimeFoldIntoRange(CMTime(value: 6, timescale: 1), foldRange: range).seconds, 3, accuracy: 1e-9)
        XCTAssertEqual(CMTimeFoldIntoRange(CMTime(value: 1, timescale: 2), foldRange: range).seconds, 3.5, accuracy: 1e-9)
        XCTAssertEqual(
            CMTimeFoldIntoRange(CMTime(value: 600, timescale: 600), foldRange: CMTimeRange(start: .zero, duration: CMTime(value: 1, timescale: 3))), .zero)
        XCTAssertFalse(CMTimeFoldIntoRange(.positiveInfinity, foldRange: range).isValid)
        let looped = CMTimeMakeWithEpoch(value: 5, timescale: 10, epoch: 3)
        XCTAssertEqual(looped.epoch, 3)
        XCTAssertTrue(looped.isValid)
        XCTAssertEqual(kCMTimeMaxTimescale, Int32.max)
        // Mappings, empty edits and their dictionaries.
        let mapping = CMTimeMappingMake(source: range, target: CMTimeRange(start: .zero, duration: CMTime(value: 6, timescale: 1)))
        let dictionary = CMTimeMappingCopyAsDictionary(mapping, allocator: nil)!
        XCTAssertEqual(CMTimeMappingMakeFromDictionary(dictionary), mapping)
        XCTAssertNotNil((dictionary as NSDictionary)[kCMTimeMappingSourceKey as String])
        let empty = CMTimeMappingMakeEmpty(target: range)
        XCTAssertFalse(empty.source.isValid)
        XCTAssertEqual(CMTimeMappingMakeFromDictionary(CMTimeMappingCopyAsDictionary(empty, allocator: nil)!), empty)
        XCTAssertEqual(CMTimeMappingMakeFromDictionary([:] as CFDictionary), kCMTimeMappingInvalid)
        XCTAssertEqual(
            CMTimeMappingCopyDescription(allocator: nil, mapping: mapping) as String?,
            "{source = {{2/1 = 2.000}, {3/1 = 3.000}}, target = {{0/1 = 0.000}, {6/1 = 6.000}}}")
    }
}
