import CaptureTestSupport
import XCTest
@testable import AVFoundation
import TestSupport

/// The output settings export code passes to AVAssetWriter (issue: "What real export code passes
/// to the writer"): scaling modes, profiles and levels, entropy coding, frame reordering, droppable
/// frames, colour properties with 10-bit HEVC, and ProRes; each checked in the written file.
final class AVAssetWriterSettingsTests: CaptureTestCase {
    override func setUpWithError() throws {
        try XCTSkipUnless(MediaProbe.isAvailable, "ffprobe is needed: apt-get install ffmpeg")
    }

    /// Writes `count` BGRA frames of `width` x `height` (the left `darkColumns` black, the rest `fill`, white by default)
    /// with `settings` into a new file of `fileType`; the file's URL.
    private func write(
        _ settings: [String: Any], width: Int = 320, height: Int = 240, darkColumns: Int = 0, fill: UInt32 = 0xFFFF_FFFF, count: Int = 30,
        fileType: AVFileType = .mp4, adaptorGivesSize: Bool = true, tags: [String: String] = [:], optimize: Bool = false, name: String = #function
    ) async throws -> URL {
        let url = makeScratchFolder(name).appendingPathComponent(fileType == .mov ? "written.mov" : "written.mp4")
        let writer = try AVAssetWriter(outputURL: url, fileType: fileType)
        let input = AVAssetWriterInput(mediaType: .video, outputSettings: settings)
        var attributes: [String: Any] = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA]
        if adaptorGivesSize {
            attributes[kCVPixelBufferWidthKey as String] = width
            attributes[kCVPixelBufferHeightKey as String] = height
        }
        let adaptor = AVAssetWriterInputPixelBufferAdaptor(assetWriterInput: input, sourcePixelBufferAttributes: attributes)
        XCTAssertTrue(writer.canAdd(input))
        writer.add(input)
        writer.shouldOptimizeForNetworkUse = optimize
        XCTAssertTrue(writer.startWriting(), "\(String(describing: writer.error))")
        writer.startSession(atSourceTime: .zero)
        var buffer: CVPixelBuffer?
        CVPixelBufferCreate(nil, width, height, kCVPixelFormatType_32BGRA, nil, &buffer)
        let frame = try XCTUnwrap(buffer)
        CVPixelBufferLockBaseAddress(frame, [])
        let rowPixels = CVPixelBufferGetBytesPerRow(frame) / 4
        let base = CVPixelBufferGetBaseAddress(frame)!.assumingMemoryBound(to: UInt32.self)
        for y in 0..<height {
            for x in 0..<width { base[y * rowPixels + x] = x < darkColumns ? 0xFF00_0000 : fill }
        }
        CVPixelBufferUnlockBaseAddress(frame, [])
        for (key, value) in tags { CVBufferSetAttachment(frame, key as CFString, value as CFString, .shouldPropagate) }
        for index in 0..<count {
            while !input.isReadyForMoreMediaData { try await Task.sleep(nanoseconds: 1_000_000) }
            XCTAssertTrue(adaptor.append(frame, withPresentationTime: CMTime(value: CMTimeValue(index), timescale: 30)))
        }
        input.markAsFinished()
        await writer.finishWriting()
        XCTAssertEqual(writer.status, .completed, "\(String(describing: writer.error))")
        return url
    }

    private func settings(_ width: Int, _ height: Int, codec: AVVideoCodecType = .h264, _ extra: [String: Any] = [:], compression: [String: Any] = [:])
        -> [String: Any]
    {
        var settings: [String: Any] = [AVVideoCodecKey: codec, AVVideoWidthKey: width, AVVideoHeightKey: height]
        if !compression.isEmpty { settings[AVVideoCompressionPropertiesKey] = compression }
        return settings.merging(extra) { $1 }
    }

    /// The grey level of the first frame's pixel, as ffmpeg decodes it.
    private func luma(_ url: URL, x: Int, y: Int, width: Int) -> Int? {
        guard let data = runTool("/usr/bin/ffmpeg", ["-v", "error", "-i", url.path, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "gray", "-"]),
            data.count > y * width + x
        else { return nil }
        return Int(data[y * width + x])
    }

    func testScalingModesFitFillLetterboxAndStretchAsApplesDo() async throws {
        // A 320x240 picture whose left 40 columns are black, into 320x320.
        let stretched = try await write(settings(320, 320), darkColumns: 40)
        XCTAssertLessThan(try XCTUnwrap(luma(stretched, x: 10, y: 160, width: 320)), 40, "Resize, the default, keeps the dark columns")
        XCTAssertGreaterThan(try XCTUnwrap(luma(stretched, x: 160, y: 5, width: 320)), 200, "and stretches to the top")

        let letterboxed = try await write(settings(320, 320, [AVVideoScalingModeKey: AVVideoScalingModeResizeAspect]), darkColumns: 40)
        XCTAssertLessThan(try XCTUnwrap(luma(letterboxed, x: 160, y: 5, width: 320)), 40, "ResizeAspect: a black bar above")
        XCTAssertLessThan(try XCTUnwrap(luma(letterboxed, x: 160, y: 315, width: 320)), 40, "and below")
        XCTAssertGreaterThan(try XCTUnwrap(luma(letterboxed, x: 160, y: 160, width: 320)), 200, "the picture between")

        let filled = try await write(settings(320, 320, [AVVideoScalingModeKey: AVVideoScalingModeResizeAspectFill]), darkColumns: 40)
        XCTAssertGreaterThan(try XCTUnwrap(luma(filled, x: 4, y: 160, width: 320)), 200, "ResizeAspectFill crops the sides: the dark columns are cut")
        XCTAssertGreaterThan(try XCTUnwrap(luma(filled, x: 160, y: 5, width: 320)), 200, "and the picture reaches the top")

        // Fit reduces the size asked for to the source's aspect ratio and never scales up.
        let fitted = try await write(settings(640, 640, [AVVideoScalingModeKey: AVVideoScalingModeFit]), width: 320, height: 240)
        XCTAssertEqual(MediaProbe.probe(fitted)?.video?.width, 320)
        XCTAssertEqual(MediaProbe.probe(fitted)?.video?.height, 240)
        let reduced = try await write(settings(160, 160, [AVVideoScalingModeKey: AVVideoScalingModeFit]), width: 320, height: 240)
        XCTAssertEqual(MediaProbe.probe(reduced)?.video?.width, 160)
        XCTAssertEqual(MediaProbe.probe(reduced)?.video?.height, 120)

        let writer = try AVAssetWriter(outputURL: makeScratchFolder().appendingPathComponent("x.mp4"), fileType: .mp4)
        XCTAssertFalse(writer.canApply(outputSettings: settings(320, 240, [AVVideoScalingModeKey: "Squash"]), forMediaType: .video))
    }

    func testProfileLevelAndEntropyModeAreWrittenAsAsked() async throws {
        let baseline = try await write(
            settings(
                320, 240, compression: [AVVideoProfileLevelKey: AVVideoProfileLevelH264Baseline31, AVVideoH264EntropyModeKey: AVVideoH264EntropyModeCAVLC]))
        let probe = try XCTUnwrap(MediaProbe.probe(baseline)?.video)
        XCTAssertTrue(probe.profile?.contains("Baseline") ?? false, "\(String(describing: probe.profile))")
        XCTAssertEqual(probe.level, 31)
        XCTAssertTrue(try Data(contentsOf: baseline).range(of: Data("cabac=0".utf8)) != nil, "CAVLC, as x264's settings record says")

        let high = try await write(
            settings(320, 240, compression: [AVVideoProfileLevelKey: AVVideoProfileLevelH264High41, AVVideoH264EntropyModeKey: AVVideoH264EntropyModeCABAC]))
        XCTAssertEqual(MediaProbe.probe(high)?.video?.profile, "High")
        XCTAssertEqual(MediaProbe.probe(high)?.video?.level, 41)
        XCTAssertTrue(try Data(contentsOf: high).range(of: Data("cabac=1".utf8)) != nil)

        let main = try await write(settings(320, 240, compression: [AVVideoProfileLevelKey: AVVideoProfileLevelH264MainAutoLevel]))
        XCTAssertEqual(MediaProbe.probe(main)?.video?.profile, "Main")

        let writer = try AVAssetWriter(outputURL: makeScratchFolder().appendingPathComponent("x.mp4"), fileType: .mp4)
        XCTAssertFalse(writer.canApply(outputSettings: settings(320, 240, compression: [AVVideoProfileLevelKey: "H264_Turbo_9_9"]), forMediaType: .video))
        XCTAssertFalse(
            writer.canApply(
                outputSettings: settings(320, 240, codec: .hevc, compression: [AVVideoProfileLevelKey: AVVideoProfileLevelH264HighAutoLevel]),
                forMediaType: .video),
            "an H.264 profile for HEVC")
        XCTAssertFalse(
            writer.canApply(
                outputSettings: settings(
                    320, 240,
                    compression: [AVVideoProfileLevelKey: AVVideoProfileLevelH264BaselineAutoLevel, AVVideoH264EntropyModeKey: AVVideoH264EntropyModeCABAC]),
                forMediaType: .video), "Baseline has no CABAC")
        XCTAssertFalse(writer.canApply(outputSettings: settings(320, 240, compression: [AVVideoH264EntropyModeKey: "Huffman"]), forMediaType: .video))
    }

    func testFramesAreReorderedOnlyWhenAllowedAndDroppableFramesFollowTheRate() async throws {
        let inOrder = try await write(settings(320, 240), count: 60)
        XCTAssertEqual(MediaProbe.probe(inOrder)?.video?.reorderedFrames, 0, "display order unless reordering is allowed")
        XCTAssertFalse(MediaProbe.pictureTypes(inOrder).contains("B"))

        let reordered = try await write(settings(320, 240, compression: [AVVideoAllowFrameReorderingKey: true]), count: 60)
        XCTAssertGreaterThan(MediaProbe.probe(reordered)?.video?.reorderedFrames ?? 0, 0)
        XCTAssertEqual(MediaProbe.probe(reordered)?.video?.frames, 60)

        // 30 frames a second of which 10 may not be dropped: two droppable B-frames after each reference frame.
        let droppable = try await write(
            settings(
                320, 240, compression: [AVVideoAllowFrameReorderingKey: true, AVVideoAverageNonDroppableFrameRateKey: 10, AVVideoMaxKeyFrameIntervalKey: 60]),
            count: 60)
        let types = MediaProbe.pictureTypes(droppable)
        XCTAssertEqual(types.count, 60)
        let references = types.filter { $0 != "B" }.count
        XCTAssertEqual(Double(references), 20, accuracy: 2, "a third of the frames are references: \(types.joined())")

        let forbidden = try await write(settings(320, 240, compression: [AVVideoAllowFrameReorderingKey: false, AVVideoAverageNonDroppableFrameRateKey: 10]))
        XCTAssertFalse(MediaProbe.pictureTypes(forbidden).contains("B"), "no reordering when it is not allowed")
    }

    func testColourPropertiesAreWrittenAndHDRHEVCIsTenBit() async throws {
        let hd = try await write(
            settings(
                320, 240,
                [
                    AVVideoColorPropertiesKey: [
                        AVVideoColorPrimariesKey: AVVideoColorPrimaries_ITU_R_709_2, AVVideoTransferFunctionKey: AVVideoTransferFunction_ITU_R_709_2,
                        AVVideoYCbCrMatrixKey: AVVideoYCbCrMatrix_ITU_R_709_2,
                    ]
                ]))
        let hdProbe = try XCTUnwrap(MediaProbe.probe(hd)?.video)
        XCTAssertEqual(hdProbe.colorPrimaries, "bt709", "a 320x240 movie is tagged SD unless the settings say otherwise")
        XCTAssertEqual(hdProbe.colorTransfer, "bt709")
        XCTAssertEqual(hdProbe.colorSpace, "bt709")

        // R'G'B' frames are turned into Y'CbCr with the matrix the stream is tagged with: green comes back green.
        for (matrix, name) in [(AVVideoYCbCrMatrix_ITU_R_709_2, "bt709"), (AVVideoYCbCrMatrix_ITU_R_601_4, "bt601")] {
            let green = try await write(
                settings(320, 240, [AVVideoColorPropertiesKey: [AVVideoYCbCrMatrixKey: matrix]]), fill: 0xFF00_FF00, count: 5, name: "green\(name)")
            let decoded = try XCTUnwrap(
                runTool("/usr/bin/ffmpeg", ["-v", "error", "-i", green.path, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]))
            let at = (120 * 320 + 160) * 3
            let rgb = [Int(decoded[at]), Int(decoded[at + 1]), Int(decoded[at + 2])]
            XCTAssertTrue(rgb[0] < 20 && rgb[1] > 240 && rgb[2] < 20, "\(name): \(rgb)")
        }

        let hlg = try await write(
            settings(
                320, 240, codec: .hevc,
                [
                    AVVideoColorPropertiesKey: [
                        AVVideoColorPrimariesKey: AVVideoColorPrimaries_ITU_R_2020, AVVideoTransferFunctionKey: AVVideoTransferFunction_ITU_R_2100_HLG,
                        AVVideoYCbCrMatrixKey: AVVideoYCbCrMatrix_ITU_R_2020,
                    ]
                ]), count: 10)
        let hlgProbe = try XCTUnwrap(MediaProbe.probe(hlg)?.video)
        XCTAssertEqual(hlgProbe.codec, "hevc")
        XCTAssertEqual(hlgProbe.profile, "Main 10", "HDR HEVC is 10-bit")
        XCTAssertEqual(hlgProbe.pixelFormat, "yuv420p10le")
        XCTAssertEqual(hlgProbe.colorPrimaries, "bt2020")
        XCTAssertEqual(hlgProbe.colorTransfer, "arib-std-b67")
        XCTAssertEqual(hlgProbe.colorSpace, "bt2020nc")
        XCTAssertEqual(hlgProbe.frames, 10)

        let main10 = try await write(settings(320, 240, codec: .hevc, compression: [AVVideoProfileLevelKey: "HEVC_Main10_AutoLevel"]), count: 10)
        XCTAssertEqual(MediaProbe.probe(main10)?.video?.pixelFormat, "yuv420p10le")
        XCTAssertGreaterThan(try XCTUnwrap(luma(main10, x: 160, y: 120, width: 320)), 200, "white stays white through 10 bits")

        let writer = try AVAssetWriter(outputURL: makeScratchFolder().appendingPathComponent("x.mp4"), fileType: .mp4)
        XCTAssertFalse(
            writer.canApply(outputSettings: settings(320, 240, [AVVideoColorPropertiesKey: [AVVideoColorPrimariesKey: "Martian"]]), forMediaType: .video))
    }

    /// Writes five 320x240 two-plane 4:2:0 frames of one Y'CbCr colour, tagged with `matrix`, into
    /// a stream whose settings name `streamMatrix`; the first frame's middle pixel as ffmpeg decodes it.
    private func writeYCbCr(_ colour: (y: UInt8, cb: UInt8, cr: UInt8), tagged matrix: String, into streamMatrix: String, name: String) async throws -> [Int] {
        let url = makeScratchFolder(name).appendingPathComponent("written.mp4")
        let writer = try AVAssetWriter(outputURL: url, fileType: .mp4)
        let input = AVAssetWriterInput(
            mediaType: .video, outputSettings: settings(320, 240, [AVVideoColorPropertiesKey: [AVVideoYCbCrMatrixKey: streamMatrix]]))
        let adaptor = AVAssetWriterInputPixelBufferAdaptor(
            assetWriterInput: input, sourcePixelBufferAttributes: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange])
        writer.add(input)
        XCTAssertTrue(writer.startWriting(), "\(String(describing: writer.error))")
        writer.startSession(atSourceTime: .zero)
        var buffer: CVPixelBuffer?
        CVPixelBufferCreate(nil, 320, 240, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, nil, &buffer)
        let frame = try XCTUnwrap(buffer)
        CVPixelBufferLockBaseAddress(frame, [])
        for row in 0..<240 {
            let luma = CVPixelBufferGetBaseAddressOfPlane(frame, 0)!.assumingMemoryBound(to: UInt8.self) + row * CVPixelBufferGetBytesPerRowOfPlane(frame, 0)
            for x in 0..<320 { luma[x] = colour.y }
        }
        for row in 0..<120 {
            let chroma = CVPixelBufferGetBaseAddressOfPlane(frame, 1)!.assumingMemoryBound(to: UInt8.self) + row * CVPixelBufferGetBytesPerRowOfPlane(frame, 1)
            for x in 0..<160 { (chroma[2 * x], chroma[2 * x + 1]) = (colour.cb, colour.cr) }
        }
        CVPixelBufferUnlockBaseAddress(frame, [])
        CVBufferSetAttachment(frame, kCVImageBufferYCbCrMatrixKey, matrix as CFString, .shouldPropagate)
        for index in 0..<5 {
            while !input.isReadyForMoreMediaData { try await Task.sleep(nanoseconds: 1_000_000) }
            XCTAssertTrue(adaptor.append(frame, withPresentationTime: CMTime(value: CMTimeValue(index), timescale: 30)))
        }
        input.markAsFinished()
        await writer.finishWriting()
        XCTAssertEqual(writer.status, .completed, "\(String(describing: writer.error))")
        XCTAssertEqual(MediaProbe.probe(url)?.video?.colorSpace, streamMatrix == AVVideoYCbCrMatrix_ITU_R_709_2 ? "bt709" : "smpte170m")
        let decoded = try XCTUnwrap(runTool("/usr/bin/ffmpeg", ["-v", "error", "-i", url.path, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]))
        let at = (120 * 320 + 160) * 3
        return [Int(decoded[at]), Int(decoded[at + 1]), Int(decoded[at + 2])]
    }

    func testYCbCrFramesInAnotherMatrixAreConvertedToTheStreams() async throws {
        // Green in each matrix's video-range Y'CbCr.
        let green601: (y: UInt8, cb: UInt8, cr: UInt8) = (145, 54, 34), green709: (y: UInt8, cb: UInt8, cr: UInt8) = (173, 42, 26)
        for (colour, tag, stream, name) in [
            (green601, AVVideoYCbCrMatrix_ITU_R_601_4, AVVideoYCbCrMatrix_ITU_R_709_2, "601into709"),
            (green709, AVVideoYCbCrMatrix_ITU_R_709_2, AVVideoYCbCrMatrix_ITU_R_601_4, "709into601"),
            (green709, AVVideoYCbCrMatrix_ITU_R_709_2, AVVideoYCbCrMatrix_ITU_R_709_2, "709into709"),
        ] {
            let rgb = try await writeYCbCr(colour, tagged: tag, into: stream, name: name)
            XCTAssertTrue(rgb[0] < 16 && rgb[1] > 240 && rgb[2] < 16, "\(name): green comes back green, not \(rgb)")
        }
    }

    /// The first frame's middle pixel as ffmpeg decodes it, after `filter` when given.
    private func decodedColour(_ url: URL, filter: String? = nil) throws -> [Int] {
        let decoded = try XCTUnwrap(
            runTool(
                "/usr/bin/ffmpeg",
                ["-v", "error", "-i", url.path] + (filter.map { ["-vf", $0] } ?? []) + ["-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]))
        let at = (120 * 320 + 160) * 3
        return [Int(decoded[at]), Int(decoded[at + 1]), Int(decoded[at + 2])]
    }

    func testFramesInOtherPrimariesOrTransferAreMatchedToTheSettingsColour() async throws {
        let hd: [String: String] = [
            kCVImageBufferColorPrimariesKey as String: kCVImageBufferColorPrimaries_ITU_R_709_2 as String,
            kCVImageBufferTransferFunctionKey as String: kCVImageBufferTransferFunction_ITU_R_709_2 as String,
        ]
        // BT.709 red into a BT.2020 stream (SDR): the same colour, so smaller numbers in the wider gamut.
        let wide = try await write(
            settings(
                320, 240,
                [
                    AVVideoColorPropertiesKey: [
                        AVVideoColorPrimariesKey: AVVideoColorPrimaries_ITU_R_2020, AVVideoTransferFunctionKey: AVVideoTransferFunction_ITU_R_709_2,
                        AVVideoYCbCrMatrixKey: AVVideoYCbCrMatrix_ITU_R_2020,
                    ]
                ]), fill: 0xFFFF_0000, count: 5, tags: hd, name: "wide")
        XCTAssertEqual(MediaProbe.probe(wide)?.video?.colorPrimaries, "bt2020")
        let asStored = try decodedColour(wide)
        XCTAssertTrue((185...230).contains(asStored[0]) && (30...110).contains(asStored[1]) && asStored[2] < 70, "red in BT.2020's terms: \(asStored)")
        let back = try decodedColour(wide, filter: "zscale=p=709:t=709:m=709:r=limited,format=rgb24")
        assertNear(back, [255, 0, 0], 20, "converted back to BT.709 by ffmpeg: the same red")
        // Untagged frames are taken to be in the stream's colour.
        let untagged = try await write(
            settings(
                320, 240,
                [
                    AVVideoColorPropertiesKey: [
                        AVVideoColorPrimariesKey: AVVideoColorPrimaries_ITU_R_2020, AVVideoTransferFunctionKey: AVVideoTransferFunction_ITU_R_709_2,
                        AVVideoYCbCrMatrixKey: AVVideoYCbCrMatrix_ITU_R_2020,
                    ]
                ]), fill: 0xFFFF_0000, count: 5, name: "untagged")
        assertNear(try decodedColour(untagged), [255, 0, 0], 20, "untagged frames keep their numbers")
        // BT.709 SDR into HLG HEVC, 10-bit: ffmpeg brings it back to the same red.
        let hlg = try await write(
            settings(
                320, 240, codec: .hevc,
                [
                    AVVideoColorPropertiesKey: [
                        AVVideoColorPrimariesKey: AVVideoColorPrimaries_ITU_R_2020, AVVideoTransferFunctionKey: AVVideoTransferFunction_ITU_R_2100_HLG,
                        AVVideoYCbCrMatrixKey: AVVideoYCbCrMatrix_ITU_R_2020,
                    ]
                ]), fill: 0xFFFF_0000, count: 5, tags: hd, name: "hlg")
        XCTAssertEqual(MediaProbe.probe(hlg)?.video?.pixelFormat, "yuv420p10le")
        XCTAssertNotEqual(try decodedColour(hlg), try decodedColour(untagged), "converted, not relabelled")
        assertNear(try decodedColour(hlg, filter: "zscale=p=709:t=709:m=709:r=limited,format=rgb24"), [255, 0, 0], 25, "HLG back to BT.709: the same red")
    }

    private func assertNear(_ seen: [Int], _ expected: [Int], _ tolerance: Int, _ message: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(zip(seen, expected).allSatisfy { abs($0 - $1) <= tolerance }, "\(message): \(seen), not \(expected)", file: file, line: line)
    }

    func testProResIsWrittenInQuickTimeMoviesWithItsProfile() async throws {
        try XCTSkipUnless(ValidatedSettings.writerVideoCodecs.contains(.proRes422HQ), "this FFmpeg has no ProRes encoder")
        // FFmpeg's decoder gives 4444 back in 12 bits a sample, as ProRes 4444 is specified.
        for (codec, tag, format) in [
            (AVVideoCodecType.proRes422HQ, "apch", "yuv422p10le"), (.proRes422Proxy, "apco", "yuv422p10le"), (.proRes4444, "ap4h", "yuv444p12le"),
        ] {
            let url = try await write(settings(320, 240, codec: codec), count: 5, fileType: .mov, name: "prores\(tag)")
            let probe = try XCTUnwrap(MediaProbe.probe(url)?.video)
            XCTAssertEqual(probe.codec, "prores")
            XCTAssertEqual(probe.codecTag, tag)
            XCTAssertEqual(probe.pixelFormat, format)
            XCTAssertEqual(probe.frames, 5)
            XCTAssertGreaterThan(try XCTUnwrap(luma(url, x: 160, y: 120, width: 320)), 200)
            // Read back under Core Media's code for the profile.
            let tracks = try await AVURLAsset(url: url).loadTracks(withMediaType: .video)
            let formats = try await XCTUnwrap(tracks.first).load(.formatDescriptions)
            let expected = [
                "apch": kCMVideoCodecType_AppleProRes422HQ, "apco": kCMVideoCodecType_AppleProRes422Proxy, "ap4h": kCMVideoCodecType_AppleProRes4444,
            ][tag]
            XCTAssertEqual(formats.first.map(CMFormatDescriptionGetMediaSubType), expected, tag)
        }
        let mp4 = try AVAssetWriter(outputURL: makeScratchFolder().appendingPathComponent("x.mp4"), fileType: .mp4)
        XCTAssertFalse(mp4.canApply(outputSettings: settings(320, 240, codec: .proRes422), forMediaType: .video), "ProRes goes in QuickTime movies only")
        XCTAssertFalse(mp4.canAdd(AVAssetWriterInput(mediaType: .video, outputSettings: settings(320, 240, codec: .proRes422))))
        let mov = try AVAssetWriter(outputURL: makeScratchFolder().appendingPathComponent("x.mov"), fileType: .mov)
        XCTAssertTrue(mov.canApply(outputSettings: settings(320, 240, codec: .proRes422), forMediaType: .video))
        XCTAssertFalse(mov.canApply(outputSettings: settings(320, 240, codec: .hevcWithAlpha), forMediaType: .video), "x265 here encodes no alpha")
    }

    /// Interleaved 16-bit samples at 48 kHz with a 1 kHz tone in channel `toned` of `channels` and silence in the others.
    private func tone(channels: Int, toned: Int, first: Int, count: Int) -> CMSampleBuffer {
        var samples = [Int16](repeating: 0, count: count * channels)
        for frame in 0..<count { samples[frame * channels + toned] = Int16(sin(Double(first + frame) * 2 * .pi * 1000 / 48_000) * 12_000) }
        return PCMSampleBuffers.make(samples, channels: channels, sampleRate: 48_000, firstFrame: first)
    }

    /// Settings for AAC at 48 kHz in a channel layout.
    private func aac(_ tag: AudioChannelLayoutTag) -> [String: Any] {
        var layout = AudioChannelLayout()
        layout.mChannelLayoutTag = tag
        return [
            AVFormatIDKey: kAudioFormatMPEG4AAC, AVSampleRateKey: 48_000, AVNumberOfChannelsKey: Int(AudioChannelLayoutTag_GetNumberOfChannels(tag)),
            AVChannelLayoutKey: Data(bytes: &layout, count: MemoryLayout<AudioChannelLayout>.size),
        ]
    }

    func testChannelLayoutsAreWrittenWithEachChannelInItsPlace() async throws {
        // 5.1 in MPEG 5.1 C order (L C R Ls Rs LFE), the tone in the centre (index 1): FFmpeg's 5.1 has the centre third.
        let url = makeScratchFolder().appendingPathComponent("surround.m4a")
        let writer = try AVAssetWriter(outputURL: url, fileType: .m4a)
        let input = AVAssetWriterInput(mediaType: .audio, outputSettings: aac(kAudioChannelLayoutTag_MPEG_5_1_C))
        writer.add(input)
        XCTAssertTrue(writer.startWriting(), "\(String(describing: writer.error))")
        writer.startSession(atSourceTime: .zero)
        for first in stride(from: 0, to: 48_000, by: 1024) {
            while !input.isReadyForMoreMediaData { try await Task.sleep(nanoseconds: 1_000_000) }
            XCTAssertTrue(input.append(tone(channels: 6, toned: 1, first: first, count: 1024)))
        }
        input.markAsFinished()
        await writer.finishWriting()
        XCTAssertEqual(writer.status, .completed, "\(String(describing: writer.error))")
        let probe = try XCTUnwrap(MediaProbe.probe(url)?.audio)
        XCTAssertEqual(probe.channels, 6)
        XCTAssertEqual(probe.channelLayout, "5.1")
        let decoded = try XCTUnwrap(runTool("/usr/bin/ffmpeg", ["-v", "error", "-i", url.path, "-f", "f32le", "-ac", "6", "-"]))
        let floats = decoded.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let energy = (0..<6).map { channel in stride(from: channel, to: floats.count, by: 6).reduce(0.0) { $0 + Double(floats[$1] * floats[$1]) } }
        let loudest = energy.indices.max { energy[$0] < energy[$1] }
        XCTAssertEqual(loudest, 2, "the centre is FFmpeg's third channel: \(energy)")
        XCTAssertLessThan(energy.enumerated().filter { $0.offset != 2 }.map(\.element).max() ?? 1, energy[2] / 100, "the others stay quiet: \(energy)")

        let stereo = try AVAssetWriter(outputURL: makeScratchFolder().appendingPathComponent("s.m4a"), fileType: .m4a)
        XCTAssertTrue(stereo.canApply(outputSettings: aac(kAudioChannelLayoutTag_Stereo), forMediaType: .audio))
        var six = aac(kAudioChannelLayoutTag_MPEG_5_1_A)
        six[AVChannelLayoutKey] = nil
        XCTAssertFalse(stereo.canApply(outputSettings: six, forMediaType: .audio), "six channels need a layout to say which is which")
        var mismatched = aac(kAudioChannelLayoutTag_Stereo)
        mismatched[AVNumberOfChannelsKey] = 1
        XCTAssertFalse(stereo.canApply(outputSettings: mismatched, forMediaType: .audio))
    }

    /// Anamorphic video, as DV and broadcast recordings are: the writer records the pixel aspect
    /// ratio it is given in the stream and the container, and the reader gives it back in the
    /// track's format description, its natural size and the attachments of every frame.
    func testThePixelAspectRatioIsWrittenAndReadBack() async throws {
        let aspect = [AVVideoPixelAspectRatioHorizontalSpacingKey: 64, AVVideoPixelAspectRatioVerticalSpacingKey: 45]
        let url = try await write(settings(320, 240, [AVVideoPixelAspectRatioKey: aspect]), count: 5)
        XCTAssertEqual(MediaProbe.entries(url, "stream=sample_aspect_ratio", stream: "v:0"), "64:45", "in the stream and the container")

        let asset = AVURLAsset(url: url)
        let tracks = try await asset.loadTracks(withMediaType: .video)
        let track = try XCTUnwrap(tracks.first)
        let naturalSize = try await track.load(.naturalSize)
        XCTAssertEqual(naturalSize.width, 320 * 64 / 45, accuracy: 0.5, "the natural size is in square pixels")
        XCTAssertEqual(naturalSize.height, 240)
        let formats = try await track.load(.formatDescriptions)
        let format = try XCTUnwrap(formats.first)
        let spacing = try XCTUnwrap(CMFormatDescriptionGetExtension(format, extensionKey: kCMFormatDescriptionExtension_PixelAspectRatio) as? [String: Any])
        XCTAssertEqual(spacing[kCMFormatDescriptionKey_PixelAspectRatioHorizontalSpacing as String] as? Int, 64)
        XCTAssertEqual(spacing[kCMFormatDescriptionKey_PixelAspectRatioVerticalSpacing as String] as? Int, 45)
        XCTAssertEqual(format.dimensions.width, 320, "the encoded size is unchanged")
        XCTAssertEqual(format.presentationDimensions().width, 320 * 64 / 45, accuracy: 0.5)
        XCTAssertEqual(format.presentationDimensions(usePixelAspectRatio: false).width, 320)

        let reader = try AVAssetReader(asset: asset)
        let output = AVAssetReaderTrackOutput(track: track, outputSettings: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA])
        reader.add(output)
        XCTAssertTrue(reader.startReading())
        var frames = 0
        while let sample = output.copyNextSampleBuffer(), let pixels = sample.imageBuffer {
            frames += 1
            let attached = CVBufferCopyAttachment(pixels, kCVImageBufferPixelAspectRatioKey, nil) as? [String: Any]
            XCTAssertEqual(attached?[kCVImageBufferPixelAspectRatioHorizontalSpacingKey as String] as? Int, 64, "frame \(frames)")
            XCTAssertEqual(CVImageBufferGetDisplaySize(pixels).width, 320 * 64 / 45, accuracy: 0.5)
            XCTAssertEqual(CVImageBufferGetEncodedSize(pixels).width, 320)
        }
        XCTAssertEqual(frames, 5)

        // Square pixels are written as none, and nonsense is refused before anything is written.
        let square = try await write(settings(320, 240), count: 2, name: "square")
        XCTAssertTrue(["", "0:1", "1:1", "N/A"].contains(MediaProbe.entries(square, "stream=sample_aspect_ratio", stream: "v:0")))
        let squareTracks = try await AVURLAsset(url: square).loadTracks(withMediaType: .video)
        let squareFormats = try await XCTUnwrap(squareTracks.first).load(.formatDescriptions)
        let squareFormat = try XCTUnwrap(squareFormats.first)
        XCTAssertNil(CMFormatDescriptionGetExtension(squareFormat, extensionKey: kCMFormatDescriptionExtension_PixelAspectRatio))
        let writer = try AVAssetWriter(outputURL: makeScratchFolder("refused").appendingPathComponent("bad.mp4"), fileType: .mp4)
        for bad: Any in [[AVVideoPixelAspectRatioHorizontalSpacingKey: 0, AVVideoPixelAspectRatioVerticalSpacingKey: 1], "wide"] {
            XCTAssertFalse(writer.canApply(outputSettings: settings(320, 240, [AVVideoPixelAspectRatioKey: bad]), forMediaType: .video))
        }
    }

    /// The `clap` box's eight numbers as the file holds them, found by its bytes alone.
    private func clapNumbers(_ url: URL) throws -> [Int32]? {
        let bytes = [UInt8](try Data(contentsOf: url))
        guard let at = (4..<(bytes.count - 36)).first(where: { bytes[$0..<($0 + 4)].elementsEqual("clap".utf8) }) else { return nil }
        return (0..<8).map { index in
            Int32(bitPattern: bytes[(at + 4 + index * 4)..<(at + 8 + index * 4)].reduce(0) { $0 << 8 | UInt32($1) })
        }
    }

    /// A clean aperture, as broadcast and cropped recordings carry: the writer records it in the
    /// video's sample entry (FFmpeg's muxer writes none for compressed video), and the reader gives
    /// it back in the track's format description and every frame's attachments.
    func testTheCleanApertureIsWrittenIntoTheMovieAndReadBack() async throws {
        let aperture: [String: Any] = [
            AVVideoCleanApertureWidthKey: 300, AVVideoCleanApertureHeightKey: 220, AVVideoCleanApertureHorizontalOffsetKey: 4,
            AVVideoCleanApertureVerticalOffsetKey: -6,
        ]
        let url = try await write(settings(320, 240, [AVVideoCleanApertureKey: aperture]), count: 5)
        XCTAssertEqual(try clapNumbers(url), [300, 1, 220, 1, 4, 1, -6, 1], "width, height and offsets, each over 1")
        XCTAssertTrue(MediaProbe.decodesCleanly(url))

        let asset = AVURLAsset(url: url)
        let tracks = try await asset.loadTracks(withMediaType: .video)
        let track = try XCTUnwrap(tracks.first)
        let formats = try await track.load(.formatDescriptions)
        let format = try XCTUnwrap(formats.first)
        let clean = CMVideoFormatDescriptionGetCleanAperture(format, originIsAtTopLeft: true)
        XCTAssertEqual(clean, CGRect(x: 14, y: 4, width: 300, height: 220), "centred, then moved right 4 and up 6")
        XCTAssertEqual(format.presentationDimensions(usePixelAspectRatio: false, useCleanAperture: true), CGSize(width: 300, height: 220))
        let reader = try AVAssetReader(asset: asset)
        let output = AVAssetReaderTrackOutput(track: track, outputSettings: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA])
        reader.add(output)
        XCTAssertTrue(reader.startReading())
        var frames = 0
        while let sample = output.copyNextSampleBuffer(), let pixels = sample.imageBuffer {
            frames += 1
            XCTAssertEqual(CVImageBufferGetCleanRect(pixels).size, CGSize(width: 300, height: 220), "frame \(frames)")
            XCTAssertEqual(CVImageBufferGetEncodedSize(pixels), CGSize(width: 320, height: 240))
        }
        XCTAssertEqual(frames, 5)

        // With the index first, the media moves along and its chunk offsets with it.
        let first = try await write(settings(320, 240, [AVVideoCleanApertureKey: aperture]), count: 40, optimize: true, name: "indexFirst")
        XCTAssertEqual(try clapNumbers(first), [300, 1, 220, 1, 4, 1, -6, 1])
        let layout = [UInt8](try Data(contentsOf: first))
        func offset(of type: String) -> Int? { (4..<(layout.count - 4)).first { layout[$0..<($0 + 4)].elementsEqual(type.utf8) } }
        XCTAssertLessThan(try XCTUnwrap(offset(of: "moov")), try XCTUnwrap(offset(of: "mdat")), "the index is first")
        XCTAssertTrue(MediaProbe.decodesCleanly(first), "every packet where the index says")
        XCTAssertEqual(TestMovies.packets(first, stream: "v:0").count, 40)

        // A passthrough copy keeps it, as its source's format description says it.
        let copy = makeScratchFolder("copy").appendingPathComponent("copy.mov")
        let copyReader = try AVAssetReader(asset: asset)
        let packets = AVAssetReaderTrackOutput(track: track, outputSettings: nil)
        copyReader.add(packets)
        copyReader.startReading()
        let writer = try AVAssetWriter(outputURL: copy, fileType: .mov)
        let input = AVAssetWriterInput(mediaType: .video, outputSettings: nil, sourceFormatHint: format)
        writer.add(input)
        XCTAssertTrue(writer.startWriting())
        writer.startSession(atSourceTime: .zero)
        while let sample = packets.copyNextSampleBuffer() {
            while !input.isReadyForMoreMediaData { try await Task.sleep(nanoseconds: 1_000_000) }
            XCTAssertTrue(input.append(sample))
        }
        input.markAsFinished()
        await writer.finishWriting()
        XCTAssertEqual(writer.status, .completed, "\(String(describing: writer.error))")
        XCTAssertEqual(try clapNumbers(copy), [300, 1, 220, 1, 4, 1, -6, 1])

        // None is written without one, and an aperture that leaves the frame is refused before anything is written.
        let whole = try await write(settings(320, 240), count: 2, name: "whole")
        XCTAssertNil(try clapNumbers(whole))
        let refusing = try AVAssetWriter(outputURL: makeScratchFolder("refused").appendingPathComponent("bad.mp4"), fileType: .mp4)
        let bad: [[String: Any]] = [
            [AVVideoCleanApertureWidthKey: 321, AVVideoCleanApertureHeightKey: 240],
            [AVVideoCleanApertureWidthKey: 300, AVVideoCleanApertureHeightKey: 240, AVVideoCleanApertureHorizontalOffsetKey: 11],
            [AVVideoCleanApertureWidthKey: Double.nan, AVVideoCleanApertureHeightKey: 240],
            [AVVideoCleanApertureWidthKey: 300, AVVideoCleanApertureHeightKey: 200, AVVideoCleanApertureVerticalOffsetKey: Double.infinity],
            [AVVideoCleanApertureWidthKey: 0, AVVideoCleanApertureHeightKey: 200],
        ]
        for aperture in bad {
            XCTAssertFalse(refusing.canApply(outputSettings: settings(320, 240, [AVVideoCleanApertureKey: aperture]), forMediaType: .video), "\(aperture)")
        }
        XCTAssertFalse(refusing.canApply(outputSettings: settings(320, 240, [AVVideoCleanApertureKey: "wide"]), forMediaType: .video))
    }
}
