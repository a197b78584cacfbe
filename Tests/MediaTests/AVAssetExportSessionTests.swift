import CaptureTestSupport
import XCTest
@testable import AVFoundation
import TestSupport

/// AVAssetExportSession (the AV Foundation Programming Guide, "Export": passthrough, or presets that encode again; WWDC 2013 session 610,
/// "Export"): the samples as they are for a time range, or re-encoded to a preset's size.
final class AVAssetExportSessionTests: XCTestCase {
    override func setUpWithError() throws {
        try XCTSkipUnless(MediaProbe.isAvailable, "ffprobe is needed: apt-get install ffmpeg")
    }

    func testPassthroughOfATimeRangeCopiesThatPartsPacketsWithoutEncoding() async throws {
        let folder = makeScratchFolder()
        let source = folder.appendingPathComponent("source.mp4")
        try TestMovies.picturesAndTone(source, seconds: 3)
        let asset = AVURLAsset(url: source)
        XCTAssertEqual(AVAssetExportSession.exportPresets(compatibleWith: asset), AVAssetExportSession.allExportPresets())
        let session = try XCTUnwrap(AVAssetExportSession(asset: asset, presetName: AVAssetExportPresetPassthrough))
        XCTAssertEqual(session.supportedFileTypes, [.mov, .mp4, .m4v])
        session.timeRange = CMTimeRange(start: CMTime(value: 1, timescale: 1), duration: CMTime(value: 1, timescale: 1))
        let output = folder.appendingPathComponent("part.mov")
        try await session.export(to: output, as: .mov)
        XCTAssertEqual(session.status, .completed)
        XCTAssertEqual(session.progress, 1)

        // The part's pictures are the source's packets from its keyframe at 1 s, byte for byte in size.
        let original = TestMovies.packets(source, stream: "v:0")
        let part = TestMovies.packets(output, stream: "v:0")
        let start = try XCTUnwrap(original.firstIndex { $0.keyframe && abs($0.pts - 1.0) < 0.001 })
        XCTAssertTrue(part.first?.keyframe ?? false)
        XCTAssertEqual(part.map(\.size), Array(original[start..<min(original.count, start + part.count)]).map(\.size), "never encoded again")
        XCTAssertTrue((30...33).contains(part.count), "a second of pictures, and the references its last ones need: \(part.count)")
        let probe = try XCTUnwrap(MediaProbe.probe(output))
        XCTAssertEqual(probe.duration, 1.0, accuracy: 0.12)
        XCTAssertEqual(probe.audio?.codec, "aac")
        XCTAssertTrue(MediaProbe.decodesCleanly(output))
    }

    func testAPresetEncodesAgainAtItsSizeKeepingTheShapeAndEveryFrame() async throws {
        let folder = makeScratchFolder()
        let source = folder.appendingPathComponent("wide.mp4")
        try TestMovies.make(
            source, inputs: ["testsrc2=s=1280x720:r=30:d=2", "sine=frequency=1000:sample_rate=48000:duration=2"],
            arguments: ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest"])
        let session = try XCTUnwrap(AVAssetExportSession(asset: AVURLAsset(url: source), presetName: AVAssetExportPreset640x480))
        session.outputURL = folder.appendingPathComponent("small.mp4")
        session.outputFileType = .mp4
        let done = expectation(description: "export")
        session.exportAsynchronously { done.fulfill() }
        await fulfillment(of: [done], timeout: 120)
        XCTAssertEqual(session.status, .completed, "\(String(describing: session.error))")
        let probe = try XCTUnwrap(MediaProbe.probe(session.outputURL!))
        XCTAssertEqual(probe.video?.codec, "h264")
        XCTAssertEqual(probe.video?.width, 640)
        XCTAssertEqual(probe.video?.height, 360, "16:9 fitted into 640x480")
        XCTAssertEqual(probe.video?.frames, 60)
        XCTAssertEqual(probe.audio?.codec, "aac")
        XCTAssertEqual(probe.duration, 2.0, accuracy: 0.1)
    }

    func testTheAudioPresetWritesSoundAlone() async throws {
        let folder = makeScratchFolder()
        let source = folder.appendingPathComponent("source.mp4")
        try TestMovies.picturesAndTone(source, seconds: 1)
        let session = try XCTUnwrap(AVAssetExportSession(asset: AVURLAsset(url: source), presetName: AVAssetExportPresetAppleM4A))
        XCTAssertEqual(session.supportedFileTypes, [.m4a])
        let output = folder.appendingPathComponent("sound.m4a")
        try await session.export(to: output, as: .m4a)
        let probe = try XCTUnwrap(MediaProbe.probe(output))
        XCTAssertNil(probe.video)
        XCTAssertEqual(probe.audio?.codec, "aac")
    }

    func testAnExistingFileIsNeverOverwritten() async throws {
        let folder = makeScratchFolder()
        let source = folder.appendingPathComponent("source.mp4")
        try TestMovies.picturesAndTone(source, seconds: 1)
        let existing = folder.appendingPathComponent("keep.mov")
        try Data("precious".utf8).write(to: existing)
        let session = try XCTUnwrap(AVAssetExportSession(asset: AVURLAsset(url: source), presetName: AVAssetExportPresetPassthrough))
        do {
            try await session.export(to: existing, as: .mov)
            XCTFail("the file exists")
        } catch let error as AVError {
            XCTAssertEqual(error.code, .fileAlreadyExists)
        }
        XCTAssertEqual(session.status, .failed)
        XCTAssertEqual(try Data(contentsOf: existing), Data("precious".utf8))
        XCTAssertNil(AVAssetExportSession(asset: AVURLAsset(url: source), presetName: "AVAssetExportPresetNoSuchThing"))
    }

    func testCancellingLeavesNoFile() async throws {
        let folder = makeScratchFolder()
        let source = folder.appendingPathComponent("long.mp4")
        try TestMovies.make(source, inputs: ["testsrc2=s=1280x720:r=30:d=20"], arguments: ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"])
        let session = try XCTUnwrap(AVAssetExportSession(asset: AVURLAsset(url: source), presetName: AVAssetExportPresetHighestQuality))
        let output = folder.appendingPathComponent("never.mp4")
        session.outputURL = output
        let done = expectation(description: "export")
        session.exportAsynchronously { done.fulfill() }
        // Cancelled once under way; an export that ends or stalls first fails the test rather than hanging it.
        let deadline = Date() + 60
        while session.progress < 0.02, [.waiting, .exporting, .unknown].contains(session.status), Date() < deadline {
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        XCTAssertEqual(session.status, .exporting, "under way when cancelled (progress \(session.progress))")
        session.cancelExport()
        await fulfillment(of: [done], timeout: 60)
        XCTAssertEqual(session.status, .cancelled)
        XCTAssertFalse(FileManager.default.fileExists(atPath: output.path))
    }
}
