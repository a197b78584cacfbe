import CaptureTestSupport
import XCTest
@testable import AVFoundation
import TestSupport

/// AVAsset and AVAssetTrack, through FFmpeg's demuxers: the AV Foundation Programming Guide's "Playback" and "Editing" start
/// from an asset's duration, tracks and their timing; the current SDK loads them with `load(_:)`.
final class AVAssetTests: XCTestCase {
    override func setUpWithError() throws {
        try XCTSkipUnless(MediaProbe.isAvailable, "ffprobe is needed: apt-get install ffmpeg")
    }

    func testLoadingGivesTheDurationTracksAndTheirTimingAsTheContainerSays() async throws {
        let url = makeScratchFolder().appendingPathComponent("movie.mp4")
        try TestMovies.picturesAndTone(url, seconds: 2, extra: ["-metadata", "title=Harbour at dusk"])
        let asset = AVURLAsset(url: url)
        XCTAssertEqual(asset.status(of: .duration).isNotYetLoaded, true, "nothing loads before it is asked for")

        let (duration, tracks, playable) = try await asset.load(.duration, .tracks, .isPlayable)
        XCTAssertEqual(duration.seconds, 2.0, accuracy: 0.05)
        XCTAssertTrue(playable)
        XCTAssertEqual(tracks.count, 2)
        let video = try await asset.loadTracks(withMediaType: .video)
        let audio = try await asset.loadTracks(withMediaType: .audio)
        XCTAssertEqual(video.count, 1)
        XCTAssertEqual(audio.count, 1)
        let picture = video[0], sound = audio[0]
        XCTAssertTrue(picture.asset === asset)
        let visual = try await asset.loadTracks(withMediaCharacteristic: .visual)
        let audible = try await asset.loadTracks(withMediaCharacteristic: .audible)
        XCTAssertTrue(visual.count == 1 && visual[0] === picture, "the picture track is the visual one")
        XCTAssertTrue(audible.count == 1 && audible[0] === sound, "the sound track is the audible one")
        let legible = try await asset.loadTracks(withMediaCharacteristic: .legible)
        XCTAssertTrue(legible.isEmpty, "no text")
        XCTAssertEqual(asset.tracks(withMediaCharacteristic: .visual).map(\.trackID), [picture.trackID])

        let (size, rate, minimum, range, formats) = try await picture.load(.naturalSize, .nominalFrameRate, .minFrameDuration, .timeRange, .formatDescriptions)
        XCTAssertEqual(size, CGSize(width: 320, height: 240))
        XCTAssertEqual(rate, 30, accuracy: 0.01)
        XCTAssertEqual(minimum.seconds, 1.0 / 30, accuracy: 0.0005)
        XCTAssertEqual(range.duration.seconds, 2.0, accuracy: 0.05)
        XCTAssertEqual(formats.first?.mediaSubType, .h264)
        XCTAssertNotNil(formats.first?.extensionAtoms["avcC"], "the H.264 configuration travels with the format")
        XCTAssertTrue(picture.requiresFrameReordering, "B-frames are presented out of decode order")
        let expectedBytes = TestMovies.packets(url, stream: "v:0").reduce(0) { $0 + $1.size }
        XCTAssertEqual(picture.totalSampleDataLength, Int64(expectedBytes), "the index's sizes add up to ffprobe's")
        XCTAssertGreaterThan(picture.estimatedDataRate, 0)
        XCTAssertEqual(picture.preferredTransform, .identity)

        let soundFormat = try await sound.load(.formatDescriptions).first
        XCTAssertEqual(soundFormat?.mediaSubType, .mpeg4AAC)
        XCTAssertEqual(soundFormat?.audioStreamBasicDescription?.mSampleRate, 48_000)
        XCTAssertEqual(soundFormat?.audioStreamBasicDescription?.mChannelsPerFrame, 2)
        XCTAssertNotNil(soundFormat?.magicCookie, "AAC's AudioSpecificConfig is the magic cookie")
        XCTAssertEqual(sound.trackID, picture.trackID + 1)

        let common = try await asset.load(.commonMetadata)
        XCTAssertEqual(common.first { $0.commonKey == .commonKeyTitle }?.stringValue, "Harbour at dusk")

        // The older synchronous properties say the same.
        XCTAssertEqual(asset.duration, duration)
        XCTAssertEqual(asset.tracks(withMediaType: .video).first?.naturalSize, size)
        XCTAssertEqual(asset.track(withTrackID: sound.trackID)?.mediaType, .audio)
        if case .loaded(let loaded) = asset.status(of: .duration) { XCTAssertEqual(loaded, duration) } else { XCTFail("duration is loaded") }
    }

    /// Writes ten 160x120 frames with the asset writer, its input carrying `transform`.
    private func writeTurned(_ url: URL, transform: CGAffineTransform) async throws {
        let writer = try AVAssetWriter(outputURL: url, fileType: .mov)
        let input = AVAssetWriterInput(
            mediaType: .video, outputSettings: [AVVideoCodecKey: AVVideoCodecType.h264, AVVideoWidthKey: 160, AVVideoHeightKey: 120])
        input.transform = transform
        let adaptor = AVAssetWriterInputPixelBufferAdaptor(assetWriterInput: input, sourcePixelBufferAttributes: nil)
        writer.add(input)
        XCTAssertTrue(writer.startWriting())
        writer.startSession(atSourceTime: .zero)
        for index in 0..<10 {
            var buffer: CVPixelBuffer?
            CVPixelBufferCreate(nil, 160, 120, kCVPixelFormatType_32BGRA, nil, &buffer)
            while !input.isReadyForMoreMediaData { usleep(1000) }
            adaptor.append(buffer!, withPresentationTime: CMTime(value: CMTimeValue(index), timescale: 30))
        }
        input.markAsFinished()
        await writer.finishWriting()
        XCTAssertEqual(writer.status, .completed)
    }

    func testAMovieRecordedTurnedHasThePreferredTransformThatShowsItUpright() async throws {
        let url = makeScratchFolder().appendingPathComponent("turned.mov")
        try await writeTurned(url, transform: CGAffineTransform(rotationAngle: .pi / 2))
        // ffprobe reads the display matrix as a quarter turn (counterclockwise negative).
        XCTAssertEqual(MediaProbe.probe(url)?.video?.rotation, -90)
        let track = try await AVURLAsset(url: url).loadTracks(withMediaType: .video)[0]
        let transform = try await track.load(.preferredTransform)
        // A quarter turn clockwise, moved back into view: a 160x120 picture shows as 120x160.
        XCTAssertEqual(transform, CGAffineTransform(a: 0, b: 1, c: -1, d: 0, tx: 120, ty: 0))
        let shown = CGRect(origin: .zero, size: track.naturalSize).applying(transform)
        XCTAssertEqual(shown, CGRect(x: 0, y: 0, width: 120, height: 160))
    }

    func testAHalfTurnReadsBackAsTheTracksTransform() async throws {
        let url = makeScratchFolder().appendingPathComponent("upside-down.mov")
        try await writeTurned(url, transform: CGAffineTransform(rotationAngle: .pi))
        let track = try await AVURLAsset(url: url).loadTracks(withMediaType: .video)[0]
        let transform = try await track.load(.preferredTransform)
        XCTAssertEqual(transform, CGAffineTransform(a: -1, b: 0, c: 0, d: -1, tx: 160, ty: 120))
    }

    func testAFileThatIsNoMovieOrIsMissingIsAnErrorNotACrash() async throws {
        let folder = makeScratchFolder()
        let text = folder.appendingPathComponent("notes.mov")
        try Data("these are words, not a movie\n".utf8).write(to: text)
        do {
            _ = try await AVURLAsset(url: text).load(.duration)
            XCTFail("a text file is no movie")
        } catch let error as AVError {
            XCTAssertEqual(error.code, .fileFormatNotRecognized)
            XCTAssertTrue(error.localizedDescription.contains("notes.mov"), error.localizedDescription)
        }
        let missing = AVURLAsset(url: folder.appendingPathComponent("absent.mov"))
        do {
            _ = try await missing.load(.tracks)
            XCTFail("a missing file has no tracks")
        } catch let error as AVError {
            XCTAssertEqual(error.code, .failedToLoadMediaData)
            XCTAssertEqual((error.errorUserInfo[NSUnderlyingErrorKey] as? NSError)?.code, Int(ENOENT))
        }
        if case .failed = missing.status(of: .tracks) {} else { XCTFail("the failure is remembered") }
        XCTAssertFalse(missing.isPlayable)
        XCTAssertFalse(missing.duration.isValid)
        XCTAssertEqual(missing.tracks.count, 0)
    }

    func testAFileThatNamesOtherFilesIsNotFollowed() async throws {
        // A playlist, a concatenation list and an image sequence are formats FFmpeg reads that open
        // the files they name: a movie file here is read from itself alone.
        let folder = makeScratchFolder()
        let real = folder.appendingPathComponent("real.mp4")
        try TestMovies.picturesAndTone(real, seconds: 1)
        let tracks = try await AVURLAsset(url: real).load(.tracks)
        XCTAssertEqual(tracks.count, 2, "the movie itself opens")
        let playlist = folder.appendingPathComponent("list.mov")
        try Data("#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1.0,\nreal.mp4\n#EXT-X-ENDLIST\n".utf8).write(to: playlist)
        let concat = folder.appendingPathComponent("concat.mp4")
        try Data("ffconcat version 1.0\nfile real.mp4\n".utf8).write(to: concat)
        for url in [playlist, concat] {
            do {
                _ = try await AVURLAsset(url: url).load(.tracks)
                XCTFail("\(url.lastPathComponent) opened the file it names")
            } catch let error as AVError {
                XCTAssertEqual(error.code, .fileFormatNotRecognized, "\(url.lastPathComponent): \(error.localizedDescription)")
            }
        }
    }

    func testTheOlderKeyValueLoadingCallsItsHandlerOnceLoaded() throws {
        let url = makeScratchFolder().appendingPathComponent("movie.mp4")
        try TestMovies.picturesAndTone(url, seconds: 1)
        let asset = AVAsset(url: url)
        var error: NSError?
        XCTAssertEqual(asset.statusOfValue(forKey: "duration", error: &error), .unknown)
        let loaded = expectation(description: "handler")
        asset.loadValuesAsynchronously(forKeys: ["duration", "tracks"]) { loaded.fulfill() }
        wait(for: [loaded], timeout: 10)
        XCTAssertEqual(asset.statusOfValue(forKey: "duration", error: &error), .loaded)
        XCTAssertNil(error)
        XCTAssertEqual(asset.duration.seconds, 1.0, accuracy: 0.05)
    }
}

extension AVAsyncProperty.Status {
    var isNotYetLoaded: Bool { if case .notYetLoaded = self { true } else { false } }
}
