import CaptureTestSupport
import XCTest
@testable import AVFoundation
import TestSupport

/// Video composition instructions as editors use them (the AV Foundation Programming Guide,
/// "Editing": instructions and layer instructions): their ramps, and the frames they compose, read
/// back from exported movies by ffmpeg on known colours.
final class VideoCompositionInstructionTests: XCTestCase {
    override func setUpWithError() throws {
        try XCTSkipUnless(MediaProbe.isAvailable, "ffmpeg is needed: apt-get install ffmpeg")
    }

    private func seconds(_ value: Double) -> CMTime { CMTime(seconds: value, preferredTimescale: 600) }

    /// A 320x240 30 fps clip of one colour, with a tone.
    private func clip(_ colour: String, seconds: Int, in folder: URL) throws -> AVURLAsset {
        let url = folder.appendingPathComponent("\(colour).mp4")
        try TestMovies.picturesAndTone(url, seconds: seconds, colour: colour)
        return AVURLAsset(url: url)
    }

    /// The red, green and blue of a movie's pixel at a time, as ffmpeg decodes it.
    private func rgb(_ url: URL, at time: Double, x: Int, y: Int, width: Int = 320) -> [Int]? {
        guard
            let data = runTool(
                "/usr/bin/ffmpeg", ["-v", "error", "-ss", "\(time)", "-i", url.path, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]),
            data.count >= (y * width + x + 1) * 3
        else { return nil }
        let at = (y * width + x) * 3
        return [Int(data[at]), Int(data[at + 1]), Int(data[at + 2])]
    }

    private func assertColour(_ seen: [Int]?, _ expected: [Int], tolerance: Int = 24, _ message: String, file: StaticString = #filePath, line: UInt = #line) {
        guard let seen else { return XCTFail("no frame: \(message)", file: file, line: line) }
        XCTAssertTrue(zip(seen, expected).allSatisfy { abs($0 - $1) <= tolerance }, "\(message): \(seen), not \(expected)", file: file, line: line)
    }

    func testLayerInstructionsRampTheirValuesAndSayWhichRampHoldsATime() {
        let layer = AVMutableVideoCompositionLayerInstruction()
        layer.trackID = 2
        XCTAssertEqual(layer.trackID, 2)
        var start: Float = -1, end: Float = -1
        var range = CMTimeRange.invalid
        XCTAssertFalse(layer.getOpacityRamp(for: seconds(1), startOpacity: &start, endOpacity: &end, timeRange: &range), "nothing set")
        XCTAssertEqual(layer.opacity(at: seconds(1)), 1, "opaque by default")
        layer.setOpacity(0.25, at: seconds(0))
        layer.setOpacityRamp(fromStartOpacity: 1, toEndOpacity: 0, timeRange: CMTimeRange(start: seconds(2), duration: seconds(2)))
        XCTAssertTrue(layer.getOpacityRamp(for: seconds(1), startOpacity: &start, endOpacity: &end, timeRange: &range))
        XCTAssertEqual([start, end], [0.25, 0.25])
        XCTAssertEqual(range, CMTimeRange(start: seconds(0), end: seconds(2)), "a value set at a time holds until the next")
        XCTAssertTrue(layer.getOpacityRamp(for: seconds(3), startOpacity: &start, endOpacity: &end, timeRange: &range))
        XCTAssertEqual([start, end], [1, 0])
        XCTAssertEqual(range, CMTimeRange(start: seconds(2), duration: seconds(2)))
        XCTAssertEqual(layer.opacity(at: seconds(3)), 0.5, accuracy: 1e-6, "halfway down the ramp")
        XCTAssertEqual(layer.opacity(at: seconds(9)), 0, "the end value after the ramp")
        layer.setOpacity(7, at: seconds(10))
        XCTAssertEqual(layer.opacity(at: seconds(10)), 1, "opacities are kept from 0 to 1")
        layer.setTransformRamp(
            fromStart: .identity, toEnd: CGAffineTransform(translationX: 100, y: 0), timeRange: CMTimeRange(start: .zero, duration: seconds(1)))
        XCTAssertEqual(layer.transform(at: seconds(0.5)).tx, 50, accuracy: 1e-6)
        var transform = CGAffineTransform.identity
        XCTAssertTrue(layer.getTransformRamp(for: seconds(0.5), start: nil, end: &transform, timeRange: nil))
        XCTAssertEqual(transform.tx, 100)
        XCTAssertNil(layer.crop(at: seconds(0.5)), "the whole picture")
        layer.setCropRectangle(CGRect(x: 0, y: 0, width: 10, height: 10), at: .zero)
        XCTAssertEqual(layer.crop(at: seconds(5)), CGRect(x: 0, y: 0, width: 10, height: 10))
        let frozen = try! XCTUnwrap(layer.copy() as? AVVideoCompositionLayerInstruction)
        layer.setOpacity(0, at: seconds(20))
        XCTAssertEqual(frozen.opacity(at: seconds(20)), 1, "a copy keeps the ramps it was made with")

        let instruction = AVMutableVideoCompositionInstruction()
        XCTAssertEqual(instruction.timeRange, .zero)
        XCTAssertNil(instruction.backgroundColor)
        XCTAssertFalse(instruction.containsTweening)
        let still = AVMutableVideoCompositionLayerInstruction()
        still.setOpacity(0.5, at: .zero)
        instruction.layerInstructions = [still]
        XCTAssertFalse(instruction.containsTweening, "values set at times hold still")
        instruction.layerInstructions = [layer, still]
        XCTAssertTrue(instruction.containsTweening)
        XCTAssertEqual(instruction.requiredSourceTrackIDs?.count, 2)
        XCTAssertEqual(instruction.passthroughTrackID, kCMPersistentTrackID_Invalid)
    }

    /// Two 2 s clips, red then blue, the second starting at 1 s, and the instructions that fade
    /// red out over blue in the second between.
    private func crossfade(in folder: URL) throws -> (AVMutableComposition, AVMutableVideoComposition) {
        let red = try clip("red", seconds: 2, in: folder), blue = try clip("blue", seconds: 2, in: folder)
        let composition = AVMutableComposition()
        let first = try XCTUnwrap(composition.addMutableTrack(withMediaType: .video, preferredTrackID: kCMPersistentTrackID_Invalid))
        let second = try XCTUnwrap(composition.addMutableTrack(withMediaType: .video, preferredTrackID: kCMPersistentTrackID_Invalid))
        try first.insertTimeRange(CMTimeRange(start: .zero, duration: seconds(2)), of: try XCTUnwrap(red.tracks(withMediaType: .video).first), at: .zero)
        try second.insertTimeRange(CMTimeRange(start: .zero, duration: seconds(2)), of: try XCTUnwrap(blue.tracks(withMediaType: .video).first), at: seconds(1))
        // Red alone, red fading out over blue, blue alone.
        let redAlone = AVMutableVideoCompositionInstruction()
        redAlone.timeRange = CMTimeRange(start: .zero, duration: seconds(1))
        redAlone.layerInstructions = [AVMutableVideoCompositionLayerInstruction(assetTrack: first)]
        let fading = AVMutableVideoCompositionLayerInstruction(assetTrack: first)
        fading.setOpacityRamp(fromStartOpacity: 1, toEndOpacity: 0, timeRange: CMTimeRange(start: seconds(1), duration: seconds(1)))
        let crossfade = AVMutableVideoCompositionInstruction()
        crossfade.timeRange = CMTimeRange(start: seconds(1), duration: seconds(1))
        crossfade.layerInstructions = [fading, AVMutableVideoCompositionLayerInstruction(assetTrack: second)]
        let blueAlone = AVMutableVideoCompositionInstruction()
        blueAlone.timeRange = CMTimeRange(start: seconds(2), duration: seconds(1))
        blueAlone.layerInstructions = [AVMutableVideoCompositionLayerInstruction(assetTrack: second)]
        let video = AVMutableVideoComposition()
        video.frameDuration = CMTime(value: 1, timescale: 30)
        video.renderSize = CGSize(width: 320, height: 240)
        video.instructions = [redAlone, crossfade, blueAlone]
        XCTAssertEqual(video.instructions.count, 3)
        return (composition, video)
    }

    func testACrossfadeExportBlendsOneClipIntoTheNext() async throws {
        let folder = makeScratchFolder()
        let (composition, video) = try crossfade(in: folder)
        let session = try XCTUnwrap(AVAssetExportSession(asset: composition, presetName: AVAssetExportPresetHighestQuality))
        session.videoComposition = video
        let output = folder.appendingPathComponent("crossfade.mp4")
        try await session.export(to: output, as: .mp4)
        XCTAssertEqual(MediaProbe.probe(output)?.duration ?? 0, 3, accuracy: 0.1)
        XCTAssertEqual(TestMovies.packets(output, stream: "v:0").count, 90, "3 s at 30 fps")
        assertColour(rgb(output, at: 0.5, x: 160, y: 120), [255, 0, 0], "red alone")
        assertColour(rgb(output, at: 1.5, x: 160, y: 120), [128, 0, 128], tolerance: 30, "halfway through the crossfade")
        let early = try XCTUnwrap(rgb(output, at: 1.1, x: 160, y: 120)), late = try XCTUnwrap(rgb(output, at: 1.9, x: 160, y: 120))
        XCTAssertGreaterThan(early[0], late[0], "red fades: \(early) then \(late)")
        XCTAssertLessThan(early[2], late[2], "blue comes through")
        assertColour(rgb(output, at: 2.5, x: 160, y: 120), [0, 0, 255], "blue alone")
    }

    /// A composition of two one-second clips over the same time, the first on the track below.
    private func stacked(_ first: AVAsset, under second: AVAsset) throws -> (AVMutableComposition, AVMutableCompositionTrack, AVMutableCompositionTrack) {
        let composition = AVMutableComposition()
        let under = try XCTUnwrap(composition.addMutableTrack(withMediaType: .video, preferredTrackID: kCMPersistentTrackID_Invalid))
        let over = try XCTUnwrap(composition.addMutableTrack(withMediaType: .video, preferredTrackID: kCMPersistentTrackID_Invalid))
        try under.insertTimeRange(CMTimeRange(start: .zero, duration: seconds(1)), of: try XCTUnwrap(first.tracks(withMediaType: .video).first), at: .zero)
        try over.insertTimeRange(CMTimeRange(start: .zero, duration: seconds(1)), of: try XCTUnwrap(second.tracks(withMediaType: .video).first), at: .zero)
        return (composition, under, over)
    }

    /// The lower track at half size in the bottom-left quarter; the upper track's left half at half
    /// size in the top-right quarter (a picture in picture), in a 320x240 render.
    private func quarterLayers(_ under: AVAssetTrack, _ over: AVAssetTrack) -> (
        AVMutableVideoCompositionLayerInstruction, AVMutableVideoCompositionLayerInstruction
    ) {
        let lower = AVMutableVideoCompositionLayerInstruction(assetTrack: under)
        lower.setTransform(CGAffineTransform(scaleX: 0.5, y: 0.5).concatenating(CGAffineTransform(translationX: 0, y: 120)), at: .zero)
        let upper = AVMutableVideoCompositionLayerInstruction(assetTrack: over)
        upper.setCropRectangle(CGRect(x: 0, y: 0, width: 160, height: 240), at: .zero)
        upper.setTransform(CGAffineTransform(scaleX: 0.5, y: 0.5).concatenating(CGAffineTransform(translationX: 160, y: 0)), at: .zero)
        return (lower, upper)
    }

    /// A second of red at half size in the bottom-left quarter and blue's left half at half size in
    /// the top-right quarter (a picture in picture), over green where nothing is, at 320x240 30 fps.
    private func quarters() throws -> (AVMutableComposition, AVMutableVideoComposition) {
        let folder = makeScratchFolder()
        let red = try clip("red", seconds: 1, in: folder), blue = try clip("blue", seconds: 1, in: folder)
        let (composition, under, over) = try stacked(red, under: blue)
        let (redLayer, blueLayer) = quarterLayers(under, over)
        let instruction = AVMutableVideoCompositionInstruction()
        instruction.timeRange = CMTimeRange(start: .zero, duration: seconds(1))
        instruction.backgroundColor = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
        instruction.layerInstructions = [blueLayer, redLayer]
        let video = AVMutableVideoComposition()
        video.frameDuration = CMTime(value: 1, timescale: 30)
        video.renderSize = CGSize(width: 320, height: 240)
        video.instructions = [instruction]
        return (composition, video)
    }

    func testLayersAreTransformedCroppedAndPlacedOverTheBackground() async throws {
        let (composition, video) = try quarters()

        // Read through the composition output, as an editor's preview does.
        let reader = try AVAssetReader(asset: composition)
        let composed = AVAssetReaderVideoCompositionOutput(videoTracks: composition.tracks(withMediaType: .video), videoSettings: nil)
        composed.videoComposition = video
        reader.add(composed)
        XCTAssertTrue(reader.startReading())
        var frames = 0
        var firstPicture: CVPixelBuffer?
        var times: [Double] = []
        while let sample = composed.copyNextSampleBuffer() {
            frames += 1
            times.append(sample.presentationTimeStamp.seconds)
            if firstPicture == nil { firstPicture = CMSampleBufferGetImageBuffer(sample) }
        }
        XCTAssertEqual(reader.status, .completed, String(describing: reader.error))
        XCTAssertEqual(frames, 30)
        XCTAssertEqual(times.first ?? -1, 0)
        XCTAssertEqual(times.last ?? 0, 29.0 / 30, accuracy: 1e-6, "one frame each frame duration")
        let picture = try XCTUnwrap(firstPicture)
        XCTAssertEqual(CVPixelBufferGetPixelFormatType(picture), kCVPixelFormatType_32BGRA, "BGRA when no format is asked for")
        func colour(_ x: Int, _ y: Int) -> [Int] {
            let base = CVPixelBufferGetBaseAddress(picture)!.assumingMemoryBound(to: UInt8.self) + y * CVPixelBufferGetBytesPerRow(picture) + x * 4
            return [Int(base[2]), Int(base[1]), Int(base[0])]
        }
        assertColour(colour(80, 180), [255, 0, 0], "red in the bottom-left quarter")
        assertColour(colour(200, 60), [0, 0, 255], "blue's left half in the top right")
        assertColour(colour(280, 60), [0, 255, 0], "its right half cropped away: the background")
        assertColour(colour(80, 60), [0, 255, 0], "the background where no layer is")
        assertColour(colour(240, 180), [0, 255, 0], "the background where no layer is")
    }

    func testComposedSampleBuffersLetGoAreUsedAgainAndOnesHeldAreKeptAsTheyAre() throws {
        let (composition, video) = try quarters()
        for format in [kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_32BGRA] {
            let reader = try AVAssetReader(asset: composition)
            let composed = AVAssetReaderVideoCompositionOutput(
                videoTracks: composition.tracks(withMediaType: .video), videoSettings: [kCVPixelBufferPixelFormatTypeKey as String: format])
            composed.videoComposition = video
            reader.add(composed)
            XCTAssertTrue(reader.startReading())
            XCTAssertEqual(try assertLetGoSampleBuffersAreUsedAgain(composed).count, 30)
            XCTAssertEqual(reader.status, .completed, String(describing: reader.error))
        }
    }

    /// The first frame a video composition composes of `composition`, read in `pixelFormat`.
    private func firstComposedFrame(_ composition: AVComposition, _ video: AVVideoComposition, pixelFormat: OSType) throws -> CVPixelBuffer {
        let reader = try AVAssetReader(asset: composition)
        let composed = AVAssetReaderVideoCompositionOutput(
            videoTracks: composition.tracks(withMediaType: .video), videoSettings: [kCVPixelBufferPixelFormatTypeKey as String: pixelFormat])
        composed.videoComposition = video
        reader.add(composed)
        XCTAssertTrue(reader.startReading())
        let sample = try XCTUnwrap(composed.copyNextSampleBuffer(), String(describing: reader.error))
        reader.cancelReading()
        return try XCTUnwrap(CMSampleBufferGetImageBuffer(sample))
    }

    func testPlainLayersAreComposedInTheirOwnYCbCrAsCoreImageComposesThem() throws {
        let folder = makeScratchFolder()
        // Clips in BT.709 (as HD video is), which Core Image's own Y'CbCr output (BT.601) is not.
        func clip709(_ colour: String) throws -> AVURLAsset {
            let url = folder.appendingPathComponent("\(colour)709.mp4")
            XCTAssertNotNil(
                runTool(
                    "/usr/bin/ffmpeg",
                    [
                        "-v", "error", "-f", "lavfi", "-i", "color=\(colour):size=320x240:rate=30:duration=1", "-vf",
                        "scale=out_color_matrix=bt709,format=yuv420p", "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709",
                        "-c:v", "libx264", "-y", url.path,
                    ]))
            return AVURLAsset(url: url)
        }
        let red = try clip709("red"), blue = try clip709("blue")
        let (composition, under, over) = try stacked(red, under: blue)
        // Red at half size in the bottom-left quarter; blue's left half, scaled to half and half
        // faded, in the top-right quarter; grey where nothing is.
        let (redLayer, blueLayer) = quarterLayers(under, over)
        blueLayer.setOpacity(0.5, at: .zero)
        let instruction = AVMutableVideoCompositionInstruction()
        instruction.timeRange = CMTimeRange(start: .zero, duration: seconds(1))
        instruction.backgroundColor = CGColor(red: 0.5, green: 0.5, blue: 0.5, alpha: 1)
        instruction.layerInstructions = [blueLayer, redLayer]
        let video = AVMutableVideoComposition()
        video.frameDuration = CMTime(value: 1, timescale: 30)
        video.renderSize = CGSize(width: 320, height: 240)
        video.instructions = [instruction]

        // In two-plane 4:2:0 the frames' own Y'CbCr is composed; in BGRA Core Image composes.
        let ycbcr = try firstComposedFrame(composition, video, pixelFormat: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange)
        let bgra = try firstComposedFrame(composition, video, pixelFormat: kCVPixelFormatType_32BGRA)
        let sourceReader = try AVAssetReader(asset: red)
        let sourceOutput = AVAssetReaderTrackOutput(
            track: try XCTUnwrap(red.tracks(withMediaType: .video).first),
            outputSettings: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange])
        sourceReader.add(sourceOutput)
        XCTAssertTrue(sourceReader.startReading())
        let source = try XCTUnwrap(sourceOutput.copyNextSampleBuffer().flatMap(CMSampleBufferGetImageBuffer))
        sourceReader.cancelReading()
        let sourceMatrix = CVBufferCopyAttachment(source, kCVImageBufferYCbCrMatrixKey, nil) as? NSString
        XCTAssertEqual(sourceMatrix.map(String.init), kCVImageBufferYCbCrMatrix_ITU_R_709_2 as String, "decoded frames say their matrix")
        XCTAssertEqual(
            CVBufferCopyAttachment(ycbcr, kCVImageBufferYCbCrMatrixKey, nil) as? NSString, sourceMatrix, "the composed frame is in its layers' matrix")
        // Both read back as R'G'B' through Core Image, which decodes with the tagged matrix.
        var converted: CVPixelBuffer?
        CVPixelBufferCreate(nil, 320, 240, kCVPixelFormatType_32BGRA, nil, &converted)
        let rgb = try XCTUnwrap(converted)
        CIContext().render(CIImage(cvPixelBuffer: ycbcr), to: rgb)
        func colour(_ buffer: CVPixelBuffer, _ x: Int, _ y: Int) -> [Int] {
            let base = CVPixelBufferGetBaseAddress(buffer)!.assumingMemoryBound(to: UInt8.self) + y * CVPixelBufferGetBytesPerRow(buffer) + x * 4
            return [Int(base[2]), Int(base[1]), Int(base[0])]
        }
        for (x, y, expected, place) in [
            (80, 180, [255, 0, 0], "red in the bottom-left quarter"), (200, 60, [64, 64, 191], "blue half faded over grey in the top right"),
            (280, 60, [128, 128, 128], "its right half cropped away: the background"), (80, 60, [128, 128, 128], "the background where no layer is"),
        ] {
            assertColour(colour(rgb, x, y), expected, tolerance: 12, "Y'CbCr: \(place)")
            assertColour(colour(bgra, x, y), expected, tolerance: 12, "Core Image: \(place)")
            assertColour(colour(rgb, x, y), colour(bgra, x, y), tolerance: 8, "the two agree: \(place)")
        }
    }

    func testQuarterTurnsAndMirrorsAreComposedInYCbCrAsCoreImageTurnsThem() throws {
        let folder = makeScratchFolder()
        // Four coloured quarters in BT.709, so that each turn puts each colour somewhere else.
        let url = folder.appendingPathComponent("quarters.mp4")
        XCTAssertNotNil(
            runTool(
                "/usr/bin/ffmpeg",
                [
                    "-v", "error", "-f", "lavfi", "-i", "color=red:size=160x120:rate=30:duration=1", "-f", "lavfi", "-i",
                    "color=lime:size=160x120:rate=30:duration=1", "-f", "lavfi", "-i", "color=blue:size=160x120:rate=30:duration=1", "-f", "lavfi",
                    "-i", "color=yellow:size=160x120:rate=30:duration=1", "-filter_complex",
                    "[0][1][2][3]xstack=inputs=4:layout=0_0|w0_0|0_h0|w0_h0,scale=out_color_matrix=bt709,format=yuv420p", "-colorspace", "bt709",
                    "-color_primaries", "bt709", "-color_trc", "bt709", "-c:v", "libx264", "-y", url.path,
                ]))
        let asset = AVURLAsset(url: url)
        let composition = AVMutableComposition()
        let track = try XCTUnwrap(composition.addMutableTrack(withMediaType: .video, preferredTrackID: kCMPersistentTrackID_Invalid))
        try track.insertTimeRange(CMTimeRange(start: .zero, duration: seconds(1)), of: try XCTUnwrap(asset.tracks(withMediaType: .video).first), at: .zero)
        // Each of the eight turns and mirrors, placed in a 320x320 picture over black.
        let linears: [(CGFloat, CGFloat, CGFloat, CGFloat)] = [
            (1, 0, 0, 1), (-1, 0, 0, -1), (-1, 0, 0, 1), (1, 0, 0, -1), (0, 1, -1, 0), (0, -1, 1, 0), (0, 1, 1, 0), (0, -1, -1, 0),
        ]
        for (a, b, c, d) in linears {
            let linear = CGAffineTransform(a: a, b: b, c: c, d: d, tx: 0, ty: 0)
            let box = CGRect(x: 0, y: 0, width: 320, height: 240).applying(linear)
            let target = box.width == 240 ? CGPoint(x: 40, y: 0) : CGPoint(x: 0, y: 40)
            let layer = AVMutableVideoCompositionLayerInstruction(assetTrack: track)
            layer.setTransform(linear.concatenating(CGAffineTransform(translationX: target.x - box.minX, y: target.y - box.minY)), at: .zero)
            let instruction = AVMutableVideoCompositionInstruction()
            instruction.timeRange = CMTimeRange(start: .zero, duration: seconds(1))
            instruction.layerInstructions = [layer]
            let video = AVMutableVideoComposition()
            video.frameDuration = CMTime(value: 1, timescale: 30)
            video.renderSize = CGSize(width: 320, height: 320)
            video.instructions = [instruction]
            let ycbcr = try firstComposedFrame(composition, video, pixelFormat: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange)
            let bgra = try firstComposedFrame(composition, video, pixelFormat: kCVPixelFormatType_32BGRA)
            XCTAssertEqual(
                (CVBufferCopyAttachment(ycbcr, kCVImageBufferYCbCrMatrixKey, nil) as? NSString).map(String.init),
                kCVImageBufferYCbCrMatrix_ITU_R_709_2 as String,
                "\(linear): turned in the clip's own Y'CbCr")
            var converted: CVPixelBuffer?
            CVPixelBufferCreate(nil, 320, 320, kCVPixelFormatType_32BGRA, nil, &converted)
            let rgb = try XCTUnwrap(converted)
            CIContext().render(CIImage(cvPixelBuffer: ycbcr), to: rgb)
            func colour(_ buffer: CVPixelBuffer, _ x: Int, _ y: Int) -> [Int] {
                let base = CVPixelBufferGetBaseAddress(buffer)!.assumingMemoryBound(to: UInt8.self) + y * CVPixelBufferGetBytesPerRow(buffer) + x * 4
                return [Int(base[2]), Int(base[1]), Int(base[0])]
            }
            let (x0, y0, w, h) = (Int(target.x), Int(target.y), Int(box.width), Int(box.height))
            var seen: Set<[Int]> = []
            for (x, y) in [(x0 + w / 4, y0 + h / 4), (x0 + 3 * w / 4, y0 + h / 4), (x0 + w / 4, y0 + 3 * h / 4), (x0 + 3 * w / 4, y0 + 3 * h / 4)] {
                // Core Image reads this clip through FFmpeg's decoder into BGRA; the Y'CbCr frame is read back here through
                // libyuv, whose BT.709 decoding falls up to 16 levels short on saturated blue.
                assertColour(colour(rgb, x, y), colour(bgra, x, y), tolerance: 16, "\(linear) at (\(x), \(y)): Y'CbCr and Core Image agree")
                seen.insert(colour(bgra, x, y).map { $0 > 128 ? 255 : 0 })
            }
            XCTAssertEqual(seen, [[255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 0]], "\(linear): each quarter somewhere")
            assertColour(colour(rgb, 2, 2), [0, 0, 0], tolerance: 12, "\(linear): black outside the picture")
        }
    }

    func testPropertiesOfAnAssetMakeOneInstructionTurningEachTrackUpright() async throws {
        let folder = makeScratchFolder()
        // Red on the left, blue on the right, stored as a phone stores a portrait clip: turned
        // clockwise for display (FFmpeg's rotate tag counts counterclockwise).
        let plain = folder.appendingPathComponent("halves.mp4"), url = folder.appendingPathComponent("turned.mp4")
        try TestMovies.make(
            plain, inputs: ["color=c=red:s=320x240:r=30:d=1,drawbox=x=160:y=0:w=160:h=240:color=blue:t=fill"],
            arguments: ["-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p"])
        guard runTool("/usr/bin/ffmpeg", ["-v", "error", "-y", "-i", plain.path, "-c", "copy", "-metadata:s:v:0", "rotate=270", url.path]) != nil else {
            throw XCTSkip("ffmpeg could not tag the rotation")
        }
        let asset = AVURLAsset(url: url)
        let video = AVMutableVideoComposition(propertiesOf: asset)
        XCTAssertEqual(video.renderSize, CGSize(width: 240, height: 320), "the size it is shown at")
        let instruction = try XCTUnwrap(video.instructions.first as? AVVideoCompositionInstruction)
        XCTAssertEqual(video.instructions.count, 1)
        XCTAssertEqual(instruction.timeRange.start, .zero)
        XCTAssertEqual(instruction.timeRange.duration.seconds, asset.duration.seconds, accuracy: 0.001)
        let track = try XCTUnwrap(asset.tracks(withMediaType: .video).first)
        XCTAssertEqual(instruction.layerInstructions.first?.trackID, track.trackID)
        XCTAssertEqual(instruction.layerInstructions.first?.transform(at: .zero), track.preferredTransform)
        XCTAssertTrue(video.onlyTurns(track), "nothing to compose: the fast path keeps the turn in the matrix")
        let layer = try XCTUnwrap(instruction.layerInstructions.first?.mutableCopy() as? AVMutableVideoCompositionLayerInstruction)
        layer.setOpacity(0.5, at: .zero)
        let faded = try XCTUnwrap(instruction.mutableCopy() as? AVMutableVideoCompositionInstruction)
        faded.layerInstructions = [layer]
        video.instructions = [faded]
        XCTAssertFalse(video.onlyTurns(track))
        // Composed, the pictures come out upright, with nothing left to turn.
        layer.setOpacity(1, at: .zero)
        layer.setCropRectangle(CGRect(x: 0, y: 0, width: 320, height: 240), at: .zero)
        XCTAssertFalse(video.onlyTurns(track), "a crop is composed")
        let session = try XCTUnwrap(AVAssetExportSession(asset: asset, presetName: AVAssetExportPresetHighestQuality))
        session.videoComposition = video
        let output = folder.appendingPathComponent("upright.mp4")
        try await session.export(to: output, as: .mp4)
        let exported = try XCTUnwrap(AVURLAsset(url: output).tracks(withMediaType: .video).first)
        XCTAssertEqual(exported.naturalSize, CGSize(width: 240, height: 320))
        XCTAssertTrue(exported.preferredTransform.isIdentity, "nothing left to turn")
        assertColour(rgb(output, at: 0.5, x: 120, y: 60, width: 240), [255, 0, 0], "the left half turned to the top")
        assertColour(rgb(output, at: 0.5, x: 120, y: 260, width: 240), [0, 0, 255], "the right half turned to the bottom")
    }

    func testCoreImageFiltersAppliedToEachFrameAsTheHandlerSays() async throws {
        let folder = makeScratchFolder()
        let red = try clip("red", seconds: 1, in: folder)
        let seen = Recorder<Double>()
        let video = try await AVVideoComposition.videoComposition(with: red) { request in
            seen.append(request.compositionTime.seconds)
            XCTAssertEqual(request.renderSize, CGSize(width: 320, height: 240))
            XCTAssertEqual(request.sourceImage.extent, CGRect(x: 0, y: 0, width: 320, height: 240))
            // Finished from another thread, as a handler that filters elsewhere does.
            DispatchQueue.global().async { request.finish(with: request.sourceImage.applyingFilter("CIColorInvert"), context: nil) }
        }
        XCTAssertFalse(video.onlyTurns(try XCTUnwrap(red.tracks(withMediaType: .video).first)), "filtered frames are composed")
        let session = try XCTUnwrap(AVAssetExportSession(asset: red, presetName: AVAssetExportPresetHighestQuality))
        session.videoComposition = video
        let output = folder.appendingPathComponent("inverted.mp4")
        try await session.export(to: output, as: .mp4)
        assertColour(rgb(output, at: 0.5, x: 160, y: 120), [0, 255, 255], "red inverted: cyan")
        XCTAssertEqual(seen.values.count, 30, "one request a frame")
        XCTAssertEqual(seen.values, seen.values.sorted())

        struct Refused: Error {}
        let refusing = AVVideoComposition(asset: red) { request in request.finish(with: Refused()) }
        let failing = try XCTUnwrap(AVAssetExportSession(asset: red, presetName: AVAssetExportPresetHighestQuality))
        failing.videoComposition = refusing
        let never = folder.appendingPathComponent("never.mp4")
        do {
            try await failing.export(to: never, as: .mp4)
            XCTFail("the handler's error stops the export")
        } catch {
            XCTAssertTrue(error is Refused, "the handler's own error: \(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: never.path), "no file is left")
    }

    func testAnImageGeneratorShowsTheComposedFrame() throws {
        let (composition, video) = try crossfade(in: makeScratchFolder())
        let generator = AVAssetImageGenerator(asset: composition)
        generator.videoComposition = video
        generator.requestedTimeToleranceBefore = .zero
        generator.requestedTimeToleranceAfter = .zero
        func colour(_ seconds: Double) throws -> [Int] {
            var actual = CMTime.invalid
            let image = try generator.copyCGImage(at: CMTime(seconds: seconds, preferredTimescale: 600), actualTime: &actual)
            XCTAssertEqual([image.width, image.height], [320, 240], "the render size")
            XCTAssertEqual(actual.seconds, seconds, accuracy: 1.0 / 30)
            let data = image.dataProvider!.data! as Data
            let at = 120 * image.bytesPerRow + 160 * 4
            return [Int(data[at + 2]), Int(data[at + 1]), Int(data[at])]
        }
        assertColour(try colour(0.5), [255, 0, 0], "red alone")
        assertColour(try colour(1.5), [128, 0, 128], tolerance: 30, "halfway through the crossfade")
        assertColour(try colour(2.5), [0, 0, 255], "blue alone")
        generator.maximumSize = CGSize(width: 160, height: 160)
        let small = try generator.copyCGImage(at: CMTime(seconds: 0.5, preferredTimescale: 600), actualTime: nil)
        XCTAssertEqual([small.width, small.height], [160, 120], "fitted into the maximum size")
    }

    func testAPlayerItemsVideoOutputShowsTheComposedPictures() throws {
        let (composition, video) = try crossfade(in: makeScratchFolder())
        let item = AVPlayerItem(asset: composition)
        item.videoComposition = video
        let player = AVPlayer(playerItem: item)
        player.sourceClock = CMClock.manual()
        XCTAssertTrue(waitUntil { item.status == .readyToPlay }, String(describing: item.error))
        let output = AVPlayerItemVideoOutput(pixelBufferAttributes: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA])
        item.add(output)
        func colour(at seconds: Double) throws -> [Int] {
            let time = CMTime(seconds: seconds, preferredTimescale: 600)
            let seeked = expectation(description: "seek to \(seconds)")
            player.seek(to: time, toleranceBefore: .zero, toleranceAfter: .zero) { _ in seeked.fulfill() }
            wait(for: [seeked], timeout: 10)
            XCTAssertTrue(waitUntil { output.hasNewPixelBuffer(forItemTime: time) }, "a picture at \(seconds) s")
            let picture = try XCTUnwrap(output.copyPixelBuffer(forItemTime: time, itemTimeForDisplay: nil))
            XCTAssertEqual([CVPixelBufferGetWidth(picture), CVPixelBufferGetHeight(picture)], [320, 240])
            let base = CVPixelBufferGetBaseAddress(picture)!.assumingMemoryBound(to: UInt8.self) + 120 * CVPixelBufferGetBytesPerRow(picture) + 160 * 4
            return [Int(base[2]), Int(base[1]), Int(base[0])]
        }
        assertColour(try colour(at: 0.5), [255, 0, 0], "red alone")
        assertColour(try colour(at: 1.5), [128, 0, 128], tolerance: 30, "halfway through the crossfade, as played")
        assertColour(try colour(at: 2.5), [0, 0, 255], "blue alone")
    }
}
