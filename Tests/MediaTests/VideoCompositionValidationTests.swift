import CaptureTestSupport
import XCTest
@testable import AVFoundation
import TestSupport

/// `AVVideoComposition.isValid(for:timeRange:validationDelegate:)`: what Apple's validation reports
/// (invalid values, gaps, overlaps, instructions past the asset, layers of tracks it lacks), each
/// told to the delegate, which may stop it.
final class VideoCompositionValidationTests: XCTestCase {
    override func setUpWithError() throws {
        try XCTSkipUnless(MediaProbe.isAvailable, "ffmpeg is needed: apt-get install ffmpeg")
    }

    /// Hears every problem; stops after `limit` of them.
    final class Listener: NSObject, AVVideoCompositionValidationHandling, @unchecked Sendable {
        var heard: [String] = []
        var limit = Int.max

        private func hear(_ problem: String) -> Bool {
            heard.append(problem)
            return heard.count < limit
        }
        func videoComposition(_ videoComposition: AVVideoComposition, shouldContinueValidatingAfterFindingInvalidValueForKey key: String) -> Bool {
            hear("value \(key)")
        }
        func videoComposition(_ videoComposition: AVVideoComposition, shouldContinueValidatingAfterFindingEmptyTimeRange timeRange: CMTimeRange) -> Bool {
            hear("gap \(timeRange.start.seconds)-\(timeRange.end.seconds)")
        }
        func videoComposition(
            _ videoComposition: AVVideoComposition,
            shouldContinueValidatingAfterFindingInvalidTimeRangeIn videoCompositionInstruction: any AVVideoCompositionInstructionProtocol
        ) -> Bool {
            hear("range \(videoCompositionInstruction.timeRange.start.seconds)")
        }
        func videoComposition(
            _ videoComposition: AVVideoComposition,
            shouldContinueValidatingAfterFindingInvalidTrackIDIn videoCompositionInstruction: any AVVideoCompositionInstructionProtocol,
            layerInstruction: AVVideoCompositionLayerInstruction, asset: AVAsset
        ) -> Bool {
            hear("track \(layerInstruction.trackID)")
        }
    }

    private func seconds(_ value: Double) -> CMTime { CMTime(seconds: value, preferredTimescale: 600) }

    private func instruction(_ start: Double, _ duration: Double, tracks: [CMPersistentTrackID]) -> AVMutableVideoCompositionInstruction {
        let instruction = AVMutableVideoCompositionInstruction()
        instruction.timeRange = CMTimeRange(start: seconds(start), duration: seconds(duration))
        instruction.layerInstructions = tracks.map { id in
            let layer = AVMutableVideoCompositionLayerInstruction()
            layer.trackID = id
            return layer
        }
        return instruction
    }

    private let all = CMTimeRange(start: .zero, duration: .positiveInfinity)

    /// A four-second clip.
    private func clip() throws -> AVURLAsset {
        let url = makeScratchFolder().appendingPathComponent("clip.mp4")
        try TestMovies.picturesAndTone(url, seconds: 4, colour: "red")
        return AVURLAsset(url: url)
    }

    func testTheAsyncFormsLoadTheAssetAndAgree() async throws {
        let asset = try clip()
        let good = AVMutableVideoComposition(propertiesOf: asset)
        let valid = try await good.isValid(for: asset, timeRange: all, validationDelegate: nil)
        XCTAssertTrue(valid, "a composition made from the asset's properties is valid")
        let gap = AVMutableVideoComposition(propertiesOf: asset)
        gap.instructions = [instruction(1, 3, tracks: [])]
        let listener = Listener()
        let invalid = try await gap.isValid(for: asset, timeRange: all, validationDelegate: listener)
        XCTAssertFalse(invalid)
        XCTAssertEqual(listener.heard.first, "gap 0.0-1.0")

        let done = expectation(description: "determined")
        gap.determineValidity(for: nil, timeRange: all, validationDelegate: nil) { valid, error in
            XCTAssertFalse(valid)
            XCTAssertNil(error)
            done.fulfill()
        }
        await fulfillment(of: [done], timeout: 10)

        let properties = try await AVMutableVideoComposition.videoComposition(withPropertiesOf: asset)
        XCTAssertEqual(properties.renderSize, CGSize(width: 320, height: 240))
        XCTAssertEqual(properties.instructions.count, 1)
        let immutable = try await AVVideoComposition.videoComposition(withPropertiesOf: asset)
        XCTAssertEqual(immutable.frameDuration, properties.frameDuration)
    }

    func testAValidCompositionPassesAndEachProblemIsToldUntilTheDelegateStops() throws {
        let asset = try clip()
        let track = try XCTUnwrap(asset.tracks(withMediaType: .video).first?.trackID)
        let good = AVMutableVideoComposition(propertiesOf: asset)
        XCTAssertTrue(good.isValid(for: asset, timeRange: all, validationDelegate: nil), "a composition made from the asset's properties is valid")

        let bad = AVMutableVideoComposition()
        bad.frameDuration = .invalid
        bad.renderSize = CGSize(width: 320, height: 240)
        // A gap from 1 to 1.5 s, an overlap at 2 s, a layer of a track the asset lacks at 3 s, and nothing after 3.5 s.
        bad.instructions = [
            instruction(0, 1, tracks: [track]), instruction(1.5, 1, tracks: [track]), instruction(2, 0.5, tracks: [track]),
            instruction(2.5, 1, tracks: [track, 99]),
        ]
        let listener = Listener()
        XCTAssertFalse(bad.isValid(for: asset, timeRange: all, validationDelegate: listener))
        XCTAssertEqual(listener.heard, ["value frameDuration", "gap 1.0-1.5", "range 2.0", "track 99", "gap 3.5-\(asset.duration.seconds)"])

        let stopper = Listener()
        stopper.limit = 2
        XCTAssertFalse(bad.isValid(for: asset, timeRange: all, validationDelegate: stopper))
        XCTAssertEqual(stopper.heard, ["value frameDuration", "gap 1.0-1.5"], "the delegate stops validation")

        // Without the asset, neither its tracks nor its duration are checked; a time range limits what is looked at.
        bad.frameDuration = CMTime(value: 1, timescale: 30)
        let unbound = Listener()
        XCTAssertFalse(bad.isValid(for: nil, timeRange: all, validationDelegate: unbound))
        XCTAssertEqual(unbound.heard, ["gap 1.0-1.5", "range 2.0"])
        let early = Listener()
        XCTAssertTrue(bad.isValid(for: asset, timeRange: CMTimeRange(start: .zero, duration: seconds(1)), validationDelegate: early), "\(early.heard)")
    }

    func testAnAdditionalLayersTrackIDIsATrackOfTheCompositionAndUnusedTrackIDsAreFree() throws {
        let asset = try clip()
        let track = try XCTUnwrap(asset.tracks(withMediaType: .video).first?.trackID)
        let free = asset.unusedTrackID()
        XCTAssertFalse(asset.tracks.map(\.trackID).contains(free), "no track of the asset uses it")
        XCTAssertGreaterThan(free, 0)
        let video = AVMutableVideoComposition()
        video.frameDuration = CMTime(value: 1, timescale: 30)
        video.renderSize = CGSize(width: 320, height: 240)
        video.instructions = [instruction(0, asset.duration.seconds, tracks: [free, track])]
        let without = Listener()
        XCTAssertFalse(video.isValid(for: asset, timeRange: all, validationDelegate: without))
        XCTAssertEqual(without.heard, ["track \(free)"], "a layer of a track nobody makes")
        video.animationTool = AVVideoCompositionCoreAnimationTool(additionalLayer: CALayer(), asTrackID: free)
        let with = Listener()
        XCTAssertTrue(video.isValid(for: asset, timeRange: all, validationDelegate: with), "the additional layer is that track: \(with.heard)")
    }
}
