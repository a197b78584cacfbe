import CaptureTestSupport
import XCTest
@testable import AVFoundation
import TestSupport

/// AVAssetReader, the asset writer's counterpart (WWDC 2013 session 610, "Editing" and "AVAssetWriter"): a track's
/// samples as they are stored, or decoded into the pixel format or linear PCM asked for.
final class AVAssetReaderTests: XCTestCase {
    override func setUpWithError() throws {
        try XCTSkipUnless(MediaProbe.isAvailable, "ffprobe is needed: apt-get install ffmpeg")
    }

    private func readAll(_ output: AVAssetReaderOutput) -> [CMSampleBuffer] {
        var samples: [CMSampleBuffer] = []
        while let sample = output.copyNextSampleBuffer() { samples.append(sample) }
        return samples
    }

    func testPicturesDecodeToEveryFrameInPresentationOrderInTheFormatAsked() throws {
        let url = makeScratchFolder().appendingPathComponent("red.mp4")
        try TestMovies.picturesAndTone(url, seconds: 2, colour: "red")
        let asset = AVURLAsset(url: url)
        let track = asset.tracks(withMediaType: .video)[0]
        for (format, name) in [
            (kCVPixelFormatType_32BGRA, "BGRA"), (kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, "420v"),
            (kCVPixelFormatType_420YpCbCr8BiPlanarFullRange, "420f"),
        ] {
            let reader = try AVAssetReader(asset: asset)
            let output = AVAssetReaderTrackOutput(track: track, outputSettings: [kCVPixelBufferPixelFormatTypeKey as String: format])
            XCTAssertTrue(reader.canAdd(output))
            reader.add(output)
            XCTAssertTrue(reader.startReading())
            XCTAssertEqual(reader.status, .reading)
            let frames = readAll(output)
            XCTAssertEqual(reader.status, .completed, name)
            XCTAssertEqual(frames.count, TestMovies.packets(url, stream: "v:0").count, "\(name): every frame")
            let times = frames.map { $0.presentationTimeStamp.seconds }
            XCTAssertEqual(times, times.sorted(), "\(name): in presentation order, though stored with B-frames")
            XCTAssertEqual(times.first ?? -1, 0, accuracy: 0.001)
            XCTAssertEqual(times.last ?? -1, 59.0 / 30, accuracy: 0.001)
            XCTAssertEqual(frames[1].duration.seconds, 1.0 / 30, accuracy: 0.0005)
            let pixels = try XCTUnwrap(frames[30].imageBuffer)
            XCTAssertEqual(CVPixelBufferGetPixelFormatType(pixels), format)
            XCTAssertEqual(CVPixelBufferGetWidth(pixels), 320)
            XCTAssertEqual(frames[30].formatDescription?.dimensions, CMVideoDimensions(width: 320, height: 240))
            CVPixelBufferLockBaseAddress(pixels, .readOnly)
            let middle = CVPixelBufferGetBaseAddressOfPlane(pixels, 0)!.assumingMemoryBound(to: UInt8.self)
            let row = CVPixelBufferGetBytesPerRowOfPlane(pixels, 0) * 120
            switch format {
            case kCVPixelFormatType_32BGRA:
                // Red (255, 0, 0) through 4:2:0 and back: blue and green near 0, red near 255.
                let (b, g, r) = (middle[row + 640], middle[row + 641], middle[row + 642])
                XCTAssertLessThan(b, 12); XCTAssertLessThan(g, 12); XCTAssertGreaterThan(r, 243)
            case kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange:
                XCTAssertEqual(Double(middle[row + 160]), 81, accuracy: 3, "BT.601 red's luma in video range")
            default:
                XCTAssertEqual(Double(middle[row + 160]), 76, accuracy: 3, "BT.601 red's luma in full range")
            }
            CVPixelBufferUnlockBaseAddress(pixels, .readOnly)
            XCTAssertEqual(
                CVBufferCopyAttachment(pixels, kCVImageBufferYCbCrMatrixKey, nil) as? String, kCVImageBufferYCbCrMatrix_ITU_R_601_4 as String,
                "standard definition is BT.601")
        }
    }

    func testPictureSampleBuffersLetGoAreUsedAgainAndOnesHeldAreKeptAsTheyAre() throws {
        let url = makeScratchFolder().appendingPathComponent("blue.mp4")
        try TestMovies.picturesAndTone(url, seconds: 1, colour: "blue")
        let asset = AVURLAsset(url: url)
        let reader = try AVAssetReader(asset: asset)
        let output = AVAssetReaderTrackOutput(
            track: asset.tracks(withMediaType: .video)[0],
            outputSettings: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange])
        reader.add(output)
        XCTAssertTrue(reader.startReading())
        XCTAssertEqual(try assertLetGoSampleBuffersAreUsedAgain(output).count, 30)
        XCTAssertEqual(reader.status, .completed, String(describing: reader.error))
    }

    func testSoundDecodesToLinearPCMAtTheRateAndChannelsAsked() throws {
        let url = makeScratchFolder().appendingPathComponent("tone.mp4")
        try TestMovies.picturesAndTone(url, seconds: 2)
        let asset = AVURLAsset(url: url)
        let track = asset.tracks(withMediaType: .audio)[0]

        let reader = try AVAssetReader(asset: asset)
        let native = AVAssetReaderTrackOutput(track: track, outputSettings: [AVFormatIDKey: kAudioFormatLinearPCM])
        reader.add(native)
        reader.startReading()
        let buffers = readAll(native)
        XCTAssertEqual(reader.status, .completed)
        let asbd = try XCTUnwrap(buffers.first?.formatDescription?.audioStreamBasicDescription)
        XCTAssertEqual(asbd.mSampleRate, 48_000)
        XCTAssertEqual(asbd.mChannelsPerFrame, 2)
        XCTAssertEqual(asbd.mBitsPerChannel, 16)
        let frames = buffers.reduce(0) { $0 + $1.numSamples }
        XCTAssertEqual(Double(frames), 2 * 48_000, accuracy: 2048, "two seconds, give or take AAC's priming")
        XCTAssertEqual(ToneAnalysis.frequency(buffers), 1000, accuracy: 5)
        for (earlier, later) in zip(buffers, buffers.dropFirst()) {
            XCTAssertEqual(
                later.presentationTimeStamp, earlier.presentationTimeStamp + CMTime(value: CMTimeValue(earlier.numSamples), timescale: 48_000),
                "each buffer starts where the last ended")
        }

        // Resampled to 16 kHz mono: a third of the samples, the same tone.
        let second = try AVAssetReader(asset: asset)
        let resampled = AVAssetReaderTrackOutput(
            track: track,
            outputSettings: [
                AVFormatIDKey: kAudioFormatLinearPCM, AVSampleRateKey: 16_000,
                AVNumberOfChannelsKey: 1, AVLinearPCMBitDepthKey: 16,
            ])
        second.add(resampled)
        second.startReading()
        let mono = readAll(resampled)
        XCTAssertEqual(mono.first?.formatDescription?.audioStreamBasicDescription?.mChannelsPerFrame, 1)
        XCTAssertEqual(Double(mono.reduce(0) { $0 + $1.numSamples }), Double(frames) / 3, accuracy: 400)
        XCTAssertEqual(ToneAnalysis.frequency(mono), 1000, accuracy: 5)

        // 32-bit float, within -1...1 and as loud as ffmpeg's own decoding says.
        let third = try AVAssetReader(asset: asset)
        let float = AVAssetReaderTrackOutput(
            track: track,
            outputSettings: [
                AVFormatIDKey: kAudioFormatLinearPCM, AVLinearPCMIsFloatKey: true,
                AVLinearPCMBitDepthKey: 32,
            ])
        third.add(float)
        third.startReading()
        let floats = readAll(float)
        XCTAssertEqual(
            floats.first?.formatDescription?.audioStreamBasicDescription?.mFormatFlags ?? 0 & kAudioFormatFlagIsFloat,
            kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked)
        var peak: Float = 0
        for buffer in floats.dropFirst(4) {
            let block = buffer.dataBuffer!
            let values = block.bytes.assumingMemoryBound(to: Float.self)
            for index in 0..<(block.length / 4) { peak = max(peak, abs(values[index])) }
        }
        let decoded = try XCTUnwrap(runTool("/usr/bin/ffmpeg", ["-v", "error", "-i", url.path, "-map", "0:a", "-f", "f32le", "-"]))
        let reference = decoded.withUnsafeBytes { raw in raw.bindMemory(to: Float.self).dropFirst(8192).reduce(Float(0)) { max($0, abs($1)) } }
        XCTAssertGreaterThan(reference, 0.05)
        XCTAssertEqual(peak, reference, accuracy: 0.005)
    }

    func testStoredSamplesAreThePacketsAsTheyAreAndWriteBackUnchanged() async throws {
        let folder = makeScratchFolder()
        let url = folder.appendingPathComponent("source.mp4")
        try TestMovies.picturesAndTone(url, seconds: 2)
        let expected = TestMovies.packets(url, stream: "v:0")
        let asset = AVURLAsset(url: url)
        let reader = try AVAssetReader(asset: asset)
        let video = AVAssetReaderTrackOutput(track: asset.tracks(withMediaType: .video)[0], outputSettings: nil)
        let audio = AVAssetReaderTrackOutput(track: asset.tracks(withMediaType: .audio)[0], outputSettings: nil)
        reader.add(video)
        reader.add(audio)
        reader.startReading()
        let pictures = readAll(video)
        let sounds = readAll(audio)
        XCTAssertEqual(reader.status, .completed)
        XCTAssertEqual(pictures.count, expected.count)
        XCTAssertEqual(pictures.map { $0.totalSampleSize }, expected.map(\.size), "the same bytes, packet by packet")
        // As VideoToolbox code reads it: the first sample's dictionary, NotSync absent or false for a keyframe.
        let syncs = pictures.map { picture in
            let attachments = CMSampleBufferGetSampleAttachmentsArray(picture, createIfNecessary: false) as? [[CFString: Any]]
            return (attachments?.first?[kCMSampleAttachmentKey_NotSync] as? Bool) != true
        }
        XCTAssertEqual(syncs, expected.map(\.keyframe), "non-keyframes are marked NotSync")
        XCTAssertEqual(
            pictures.map { $0.decodeTimeStamp.seconds }, expected.map(\.dts).map { (($0 * 1e6).rounded()) / 1e6 }.map { $0 },
            accuracy: 0.0001)
        XCTAssertEqual(sounds.count, TestMovies.packets(url, stream: "a:0").count)

        // The asset writer takes them as they are: the same packets in a new file.
        let copy = folder.appendingPathComponent("copy.mov")
        let writer = try AVAssetWriter(outputURL: copy, fileType: .mov)
        let videoInput = AVAssetWriterInput(mediaType: .video, outputSettings: nil, sourceFormatHint: pictures[0].formatDescription)
        let audioInput = AVAssetWriterInput(mediaType: .audio, outputSettings: nil, sourceFormatHint: sounds[0].formatDescription)
        writer.add(videoInput)
        writer.add(audioInput)
        XCTAssertTrue(writer.startWriting())
        writer.startSession(atSourceTime: .zero)
        for sample in pictures {
            while !videoInput.isReadyForMoreMediaData { usleep(1000) }
            XCTAssertTrue(videoInput.append(sample))
        }
        for sample in sounds {
            while !audioInput.isReadyForMoreMediaData { usleep(1000) }
            XCTAssertTrue(audioInput.append(sample))
        }
        videoInput.markAsFinished()
        audioInput.markAsFinished()
        await writer.finishWriting()
        XCTAssertEqual(writer.status, .completed, "\(String(describing: writer.error))")
        XCTAssertEqual(TestMovies.packets(copy, stream: "v:0").map(\.size), expected.map(\.size))
        XCTAssertTrue(MediaProbe.decodesCleanly(copy))
    }

    func testStoredSoundSaysHowMuchOfItIsPrimingAndPadding() throws {
        let url = makeScratchFolder().appendingPathComponent("primed.mp4")
        try TestMovies.picturesAndTone(url, seconds: 1)
        let asset = AVURLAsset(url: url)
        let reader = try AVAssetReader(asset: asset)
        let output = AVAssetReaderTrackOutput(track: asset.tracks(withMediaType: .audio)[0], outputSettings: nil)
        reader.add(output)
        reader.startReading()
        let samples = readAll(output)
        func trim(_ sample: CMSampleBuffer, _ key: CFString) -> CMTime? {
            (CMGetAttachment(sample, key: key, attachmentModeOut: nil) as? NSDictionary).map { CMTimeMakeFromDictionary($0 as CFDictionary) }
        }
        // FFmpeg's AAC encoder primes with 1024 samples, which the MPEG-4 file's edit list leaves out.
        XCTAssertEqual(trim(samples[0], kCMSampleBufferAttachmentKey_TrimDurationAtStart), CMTime(value: 1024, timescale: 48_000))
        XCTAssertNil(trim(samples[2], kCMSampleBufferAttachmentKey_TrimDurationAtStart), "only the priming is trimmed")
    }

    func testCopiedSoundKeepsItsPrimingOutOfTheTimeline() async throws {
        let folder = makeScratchFolder()
        let url = folder.appendingPathComponent("primed.mp4")
        try TestMovies.picturesAndTone(url, seconds: 1)
        let asset = AVURLAsset(url: url)
        let reader = try AVAssetReader(asset: asset)
        let output = AVAssetReaderTrackOutput(track: asset.tracks(withMediaType: .audio)[0], outputSettings: nil)
        reader.add(output)
        reader.startReading()
        let sounds = readAll(output)
        // As Apple's reader gives it: the priming comes before zero, and trimming it starts the output at zero.
        XCTAssertEqual(sounds[0].presentationTimeStamp, CMTime(value: -1024, timescale: 48_000))
        XCTAssertEqual(sounds[0].outputPresentationTimeStamp, .zero)
        XCTAssertEqual(CMSampleBufferGetOutputDuration(sounds[0]), .zero, "the first packet is all priming")
        XCTAssertEqual(sounds[2].outputDuration, sounds[2].duration)

        let copy = folder.appendingPathComponent("copy.mp4")
        let writer = try AVAssetWriter(outputURL: copy, fileType: .mp4)
        let input = AVAssetWriterInput(mediaType: .audio, outputSettings: nil, sourceFormatHint: sounds[0].formatDescription)
        writer.add(input)
        XCTAssertTrue(writer.startWriting())
        writer.startSession(atSourceTime: .zero)
        for sample in sounds {
            while !input.isReadyForMoreMediaData { usleep(1000) }
            XCTAssertTrue(input.append(sample))
        }
        input.markAsFinished()
        await writer.finishWriting()
        XCTAssertEqual(writer.status, .completed, "\(String(describing: writer.error))")
        // Every packet, the priming still in the file but before zero: the copy's edit list leaves it out.
        let original = TestMovies.packets(url, stream: "a:0"), copied = TestMovies.packets(copy, stream: "a:0")
        XCTAssertEqual(copied.map(\.size), original.map(\.size))
        XCTAssertEqual(copied.first?.pts ?? 0, -1024.0 / 48_000, accuracy: 1e-6, "the priming is before the start")
        let copiedAsset = AVURLAsset(url: copy)
        let again = AVAssetReaderTrackOutput(track: copiedAsset.tracks(withMediaType: .audio)[0], outputSettings: nil)
        let rereader = try AVAssetReader(asset: copiedAsset)
        rereader.add(again)
        rereader.startReading()
        let reread = readAll(again)
        let trim = CMGetAttachment(reread[0], key: kCMSampleBufferAttachmentKey_TrimDurationAtStart, attachmentModeOut: nil) as? NSDictionary
        XCTAssertEqual(trim.map { CMTimeMakeFromDictionary($0 as CFDictionary) }, CMTime(value: 1024, timescale: 48_000), "and says so again when read")
    }

    func testATimeRangeReadsOnlyThatPart() throws {
        let url = makeScratchFolder().appendingPathComponent("movie.mp4")
        try TestMovies.picturesAndTone(url, seconds: 3)
        let asset = AVURLAsset(url: url)
        let reader = try AVAssetReader(asset: asset)
        reader.timeRange = CMTimeRange(start: CMTime(value: 1, timescale: 1), duration: CMTime(value: 1, timescale: 1))
        let video = AVAssetReaderTrackOutput(
            track: asset.tracks(withMediaType: .video)[0],
            outputSettings: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange])
        let audio = AVAssetReaderTrackOutput(track: asset.tracks(withMediaType: .audio)[0], outputSettings: [AVFormatIDKey: kAudioFormatLinearPCM])
        reader.add(video)
        reader.add(audio)
        reader.startReading()
        let times = readAll(video).map { $0.presentationTimeStamp.seconds }
        XCTAssertEqual(times.count, 30, "one second at 30 fps")
        XCTAssertEqual(times.first ?? 0, 1.0, accuracy: 0.001)
        XCTAssertEqual(times.last ?? 0, 1.0 + 29.0 / 30, accuracy: 0.001)
        let sound = readAll(audio)
        let first = sound.first!.presentationTimeStamp.seconds
        let end = sound.last!.presentationTimeStamp.seconds + Double(sound.last!.numSamples) / 48_000
        XCTAssertEqual(first, 1.0, accuracy: 0.03, "sound from the block that holds the start")
        XCTAssertEqual(end, 2.0, accuracy: 0.03, "to the block that holds the end")
        XCTAssertEqual(reader.status, .completed)
    }

    func testCancellingStopsEveryOutput() throws {
        let url = makeScratchFolder().appendingPathComponent("movie.mp4")
        try TestMovies.picturesAndTone(url, seconds: 2)
        let asset = AVURLAsset(url: url)
        let reader = try AVAssetReader(asset: asset)
        let output = AVAssetReaderTrackOutput(track: asset.tracks(withMediaType: .video)[0], outputSettings: nil)
        reader.add(output)
        reader.startReading()
        XCTAssertNotNil(output.copyNextSampleBuffer())
        reader.cancelReading()
        XCTAssertEqual(reader.status, .cancelled)
        XCTAssertNil(output.copyNextSampleBuffer())
        XCTAssertFalse(reader.canAdd(AVAssetReaderTrackOutput(track: asset.tracks[0], outputSettings: nil)), "no outputs once reading started")
    }

    func testDamagedAndTruncatedMoviesEndInAnErrorOrTheirLastGoodFrameNeverACrash() throws {
        let folder = makeScratchFolder()
        let url = folder.appendingPathComponent("good.mp4")
        try TestMovies.picturesAndTone(url, seconds: 2, extra: ["-movflags", "+faststart"])
        let bytes = try Data(contentsOf: url)
        // Garbage over a quarter of the media data, and the file cut in half.
        var damaged = bytes
        var generator = SystemRandomNumberGenerator()
        let start = bytes.count / 3
        for index in start..<(start + bytes.count / 4) { damaged[index] = UInt8.random(in: 0...255, using: &generator) }
        let damagedURL = folder.appendingPathComponent("damaged.mp4")
        try damaged.write(to: damagedURL)
        let truncatedURL = folder.appendingPathComponent("truncated.mp4")
        try bytes.prefix(bytes.count / 2).write(to: truncatedURL)

        for file in [damagedURL, truncatedURL] {
            let asset = AVURLAsset(url: file)
            guard let reader = try? AVAssetReader(asset: asset) else { continue }
            var outputs: [AVAssetReaderTrackOutput] = []
            for track in asset.tracks {
                let settings: [String: Any] =
                    track.mediaType == .video
                    ? [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA]
                    : [AVFormatIDKey: kAudioFormatLinearPCM]
                let output = AVAssetReaderTrackOutput(track: track, outputSettings: settings)
                reader.add(output)
                outputs.append(output)
            }
            reader.startReading()
            let started = Date()
            var count = 0
            for output in outputs { count += readAll(output).count }
            XCTAssertLessThan(Date().timeIntervalSince(started), 20, "\(file.lastPathComponent) reads to an end")
            XCTAssertTrue(reader.status == .completed || reader.status == .failed, "\(file.lastPathComponent): \(reader.status)")
            if reader.status == .failed { XCTAssertTrue(reader.error is AVError, "\(String(describing: reader.error))") }
            XCTAssertGreaterThan(count, 0, "\(file.lastPathComponent): what is whole is read")
        }
    }
}

private func XCTAssertEqual(_ a: [Double], _ b: [Double], accuracy: Double, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(a.count, b.count, file: file, line: line)
    for (x, y) in zip(a, b) where abs(x - y) > accuracy {
        XCTFail("\(x) is not \(y)", file: file, line: line)
        return
    }
}
