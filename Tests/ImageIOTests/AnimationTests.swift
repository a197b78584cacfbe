import CoreGraphics
import Foundation
import ImageIO
import TestSupport
import UniformTypeIdentifiers
import XCTest

/// Animated GIFs, PNGs and WebPs: written frame by frame with their delays and loop count (GIFs and
/// PNGs), read back frame by frame under Apple's keys, and checked against FFmpeg, which reads and
/// writes them on its own.
final class AnimationTests: XCTestCase {
    /// A `width` x `height` picture of one colour.
    private func solid(_ red: CGFloat, _ green: CGFloat, _ blue: CGFloat, _ width: Int = 16, _ height: Int = 8) throws -> CGImage {
        let context = try XCTUnwrap(
            CGContext(
                data: nil, width: width, height: height, bitsPerComponent: 8, bytesPerRow: 0, space: CGColorSpaceCreateDeviceRGB(),
                bitmapInfo: CGImageAlphaInfo.noneSkipLast.rawValue))
        context.setFillColor(red: red, green: green, blue: blue, alpha: 1)
        context.fill(CGRect(x: 0, y: 0, width: width, height: height))
        return try XCTUnwrap(context.makeImage())
    }

    /// The red, green and blue of an image's top-left pixel.
    private func colour(_ image: CGImage) throws -> [Int] {
        let data = try XCTUnwrap(image.dataProvider?.data)
        let p = data[0..<4].map(Int.init)
        return image.byteOrderInfo == .order32Little ? [p[2], p[1], p[0]] : [p[0], p[1], p[2]]
    }

    private func gif(_ properties: CFDictionary?, at index: Int) -> [String: Any]? {
        (properties as? [String: Any])?[kCGImagePropertyGIFDictionary as String] as? [String: Any]
    }

    func testFramesDelaysAndLoopCountAreWrittenAndReadBack() throws {
        let data = NSMutableData()
        let destination = try XCTUnwrap(CGImageDestinationCreateWithData(data as CFMutableData, "com.compuserve.gif" as CFString, 3, nil))
        CGImageDestinationSetProperties(destination, [kCGImagePropertyGIFDictionary: [kCGImagePropertyGIFLoopCount: 3]] as CFDictionary)
        let frames = [try solid(1, 0, 0), try solid(0, 1, 0), try solid(0, 0, 1)]
        for (frame, delay) in zip(frames, [0.05, 0.2, 0.3]) {
            CGImageDestinationAddImage(destination, frame, [kCGImagePropertyGIFDictionary: [kCGImagePropertyGIFDelayTime: delay]] as CFDictionary)
        }
        CGImageDestinationAddImage(destination, try solid(1, 1, 1), nil)  // a fourth: more than the destination was made for
        XCTAssertTrue(CGImageDestinationFinalize(destination))

        let source = try XCTUnwrap(CGImageSourceCreateWithData(data as CFData, nil))
        XCTAssertEqual(CGImageSourceGetType(source) as String?, "com.compuserve.gif")
        XCTAssertEqual(CGImageSourceGetCount(source), 3)
        let file = try XCTUnwrap(gif(CGImageSourceCopyProperties(source, nil), at: 0))
        XCTAssertEqual(file[kCGImagePropertyGIFLoopCount as String] as? Int, 3)
        XCTAssertEqual(file[kCGImagePropertyGIFCanvasPixelWidth as String] as? Int, 16)
        XCTAssertEqual(file[kCGImagePropertyGIFCanvasPixelHeight as String] as? Int, 8)
        for (index, (expected, delay)) in zip([[255, 0, 0], [0, 255, 0], [0, 0, 255]], [0.05, 0.2, 0.3]).enumerated() {
            let image = try XCTUnwrap(CGImageSourceCreateImageAtIndex(source, index, nil), "frame \(index)")
            for (value, want) in zip(try colour(image), expected) { XCTAssertEqual(value, want, accuracy: 4, "frame \(index)") }
            let frame = try XCTUnwrap(gif(CGImageSourceCopyPropertiesAtIndex(source, index, nil), at: index))
            XCTAssertEqual(try XCTUnwrap(frame[kCGImagePropertyGIFUnclampedDelayTime as String] as? Double), delay, accuracy: 0.001, "frame \(index)")
            XCTAssertEqual(try XCTUnwrap(frame[kCGImagePropertyGIFDelayTime as String] as? Double), max(0.1, delay), accuracy: 0.001, "clamped, frame \(index)")
        }
        XCTAssertNil(CGImageSourceCreateImageAtIndex(source, 3, nil), "no fourth frame")
        XCTAssertNil(CGImageSourceCopyPropertiesAtIndex(source, -1, nil))

        // FFmpeg's own GIF reader sees the three frames.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("animation-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let written = folder.appendingPathComponent("ours.gif")
        try (data as Data).write(to: written)
        let frameCount = MediaProbe.entries(written, "stream=nb_read_frames", stream: "v:0", countFrames: true).trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(frameCount, "3")
    }

    func testAnAnimationFFmpegWroteIsReadFrameByFrame() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("animation-ffmpeg-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("counter.gif")
        // Five frames at 4 frames a second: a delay of a quarter of a second each.
        let made = runTool("/usr/bin/ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=32x24:rate=4", "-frames:v", "5", "-y", file.path])
        XCTAssertNotNil(made, "ffmpeg wrote the GIF")
        let source = try XCTUnwrap(CGImageSourceCreateWithURL(file as CFURL, nil))
        XCTAssertEqual(CGImageSourceGetCount(source), 5)
        for index in 0..<5 {
            let image = try XCTUnwrap(CGImageSourceCreateImageAtIndex(source, index, nil), "frame \(index)")
            XCTAssertEqual([image.width, image.height], [32, 24])
            let frame = try XCTUnwrap(gif(CGImageSourceCopyPropertiesAtIndex(source, index, nil), at: index))
            XCTAssertEqual(try XCTUnwrap(frame[kCGImagePropertyGIFUnclampedDelayTime as String] as? Double), 0.25, accuracy: 0.011, "frame \(index)")
        }
    }

    func testAnAnimatedWebPIsReadFrameByFrameWithItsDelaysAndLoopCount() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("animation-webp-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // Red, green and blue frames as PNGs, made into a lossless WebP by FFmpeg (libwebp), five frames a second, looped twice.
        for (index, frame) in [try solid(1, 0, 0), try solid(0, 1, 0), try solid(0, 0, 1)].enumerated() {
            let url = folder.appendingPathComponent("frame\(index).png")
            let destination = try XCTUnwrap(CGImageDestinationCreateWithURL(url as CFURL, "public.png" as CFString, 1, nil))
            CGImageDestinationAddImage(destination, frame, nil)
            XCTAssertTrue(CGImageDestinationFinalize(destination))
        }
        let file = folder.appendingPathComponent("colours.webp")
        let made = runTool(
            "/usr/bin/ffmpeg",
            [
                "-v", "error", "-framerate", "5", "-i", folder.appendingPathComponent("frame%d.png").path, "-c:v", "libwebp_anim", "-lossless", "1", "-loop",
                "2", "-y", file.path,
            ])
        XCTAssertNotNil(made, "ffmpeg wrote the WebP")
        let source = try XCTUnwrap(CGImageSourceCreateWithURL(file as CFURL, nil))
        XCTAssertEqual(CGImageSourceGetType(source) as String?, "org.webmproject.webp")
        XCTAssertEqual(CGImageSourceGetCount(source), 3)
        let properties = try XCTUnwrap(CGImageSourceCopyProperties(source, nil) as? [String: Any])
        let whole = try XCTUnwrap(properties[kCGImagePropertyWebPDictionary as String] as? [String: Any])
        XCTAssertNil(properties[kCGImagePropertyGIFDictionary as String], "a WebP's properties are under WebP's key")
        XCTAssertEqual(whole[kCGImagePropertyWebPLoopCount as String] as? Int, 2)
        XCTAssertEqual(whole[kCGImagePropertyWebPCanvasPixelWidth as String] as? Int, 16)
        XCTAssertEqual(whole[kCGImagePropertyWebPCanvasPixelHeight as String] as? Int, 8)
        let frames = try XCTUnwrap(whole[kCGImagePropertyWebPFrameInfoArray as String] as? [NSDictionary])
        XCTAssertEqual(frames.count, 3)
        for (index, expected) in [[255, 0, 0], [0, 255, 0], [0, 0, 255]].enumerated() {
            let image = try XCTUnwrap(CGImageSourceCreateImageAtIndex(source, index, nil), "frame \(index)")
            XCTAssertEqual([image.width, image.height], [16, 8])
            XCTAssertEqual(try colour(image), expected, "lossless, frame \(index)")
            let frame = try XCTUnwrap(
                (CGImageSourceCopyPropertiesAtIndex(source, index, nil) as? [String: Any])?[kCGImagePropertyWebPDictionary as String] as? [String: Any])
            XCTAssertEqual(try XCTUnwrap(frame[kCGImagePropertyWebPUnclampedDelayTime as String] as? Double), 0.2, accuracy: 0.001, "frame \(index)")
            XCTAssertEqual(try XCTUnwrap(frame[kCGImagePropertyWebPDelayTime as String] as? Double), 0.2, accuracy: 0.001, "frame \(index)")
            XCTAssertEqual(try XCTUnwrap(frames[index][kCGImagePropertyWebPDelayTime as String] as? Double), 0.2, accuracy: 0.001, "frame \(index)")
        }
        XCTAssertNil(CGImageSourceCreateImageAtIndex(source, 3, nil), "no fourth frame")
        XCTAssertTrue((CGImageSourceCopyTypeIdentifiers() as? [String])?.contains("org.webmproject.webp") == true)
        XCTAssertEqual(UTType.webP.preferredFilenameExtension, "webp")
        XCTAssertEqual(UTType(filenameExtension: "webp"), .webP)
    }

    func testAStillWebPIsOnePictureWithItsSizeAndNoDelay() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("still-webp-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("still.webp")
        let made = runTool(
            "/usr/bin/ffmpeg",
            ["-v", "error", "-f", "lavfi", "-i", "color=c=0x00ff00:size=40x30", "-frames:v", "1", "-c:v", "libwebp", "-lossless", "1", "-y", file.path])
        XCTAssertNotNil(made, "ffmpeg wrote the WebP")
        let source = try XCTUnwrap(CGImageSourceCreateWithURL(file as CFURL, nil))
        XCTAssertEqual(CGImageSourceGetCount(source), 1)
        let properties = try XCTUnwrap(CGImageSourceCopyPropertiesAtIndex(source, 0, nil) as? [String: Any])
        XCTAssertEqual(properties[kCGImagePropertyPixelWidth as String] as? Int, 40)
        XCTAssertEqual(properties[kCGImagePropertyPixelHeight as String] as? Int, 30)
        XCTAssertNil((properties[kCGImagePropertyWebPDictionary as String] as? [String: Any])?[kCGImagePropertyWebPDelayTime as String], "a still has no delay")
        let image = try XCTUnwrap(CGImageSourceCreateImageAtIndex(source, 0, nil))
        // FFmpeg's colour source is Y'CbCr: green comes back within a step or two.
        for (value, want) in zip(try colour(image), [0, 255, 0]) { XCTAssertEqual(value, want, accuracy: 2) }
    }

    func testAStillGIFIsOneFrameAndOtherTypesTakeTheFirstImage() throws {
        let data = NSMutableData()
        let destination = try XCTUnwrap(CGImageDestinationCreateWithData(data as CFMutableData, "public.jpeg" as CFString, 2, nil))
        CGImageDestinationAddImage(destination, try solid(1, 0, 0), nil)
        CGImageDestinationAddImage(destination, try solid(0, 1, 0), nil)
        XCTAssertTrue(CGImageDestinationFinalize(destination))
        let source = try XCTUnwrap(CGImageSourceCreateWithData(data as CFData, nil))
        XCTAssertEqual(CGImageSourceGetCount(source), 1)
        for (value, want) in zip(try colour(try XCTUnwrap(CGImageSourceCreateImageAtIndex(source, 0, nil))), [255, 0, 0]) {
            XCTAssertEqual(value, want, accuracy: 6)
        }
    }

    private func png(_ properties: CFDictionary?) -> [String: Any]? {
        (properties as? [String: Any])?[kCGImagePropertyPNGDictionary as String] as? [String: Any]
    }

    /// Red, green and blue as an animated PNG shown for 20 ms, 0.2 s and 0.5 s, played twice.
    private func animatedPNG() throws -> Data {
        let data = NSMutableData()
        let destination = try XCTUnwrap(CGImageDestinationCreateWithData(data as CFMutableData, "public.png" as CFString, 3, nil))
        CGImageDestinationSetProperties(destination, [kCGImagePropertyPNGDictionary: [kCGImagePropertyAPNGLoopCount: 2]] as CFDictionary)
        for (frame, delay) in zip([try solid(1, 0, 0), try solid(0, 1, 0), try solid(0, 0, 1)], [0.02, 0.2, 0.5]) {
            CGImageDestinationAddImage(destination, frame, [kCGImagePropertyPNGDictionary: [kCGImagePropertyAPNGUnclampedDelayTime: delay]] as CFDictionary)
        }
        XCTAssertTrue(CGImageDestinationFinalize(destination))
        return data as Data
    }

    func testAnAnimatedPNGIsWrittenAndReadBackWithItsDelaysAndPlays() throws {
        let data = try animatedPNG()
        let source = try XCTUnwrap(CGImageSourceCreateWithData(data as CFData, nil))
        XCTAssertEqual(CGImageSourceGetType(source) as String?, "public.png")
        XCTAssertEqual(CGImageSourceGetCount(source), 3)
        let whole = try XCTUnwrap(png(CGImageSourceCopyProperties(source, nil)))
        XCTAssertEqual(whole[kCGImagePropertyAPNGLoopCount as String] as? Int, 2)
        XCTAssertEqual(whole[kCGImagePropertyAPNGCanvasPixelWidth as String] as? Int, 16)
        XCTAssertEqual(whole[kCGImagePropertyAPNGCanvasPixelHeight as String] as? Int, 8)
        let infos = try XCTUnwrap(whole[kCGImagePropertyAPNGFrameInfoArray as String] as? [NSDictionary])
        XCTAssertEqual(infos.count, 3)
        for (index, (expected, delay)) in zip([[255, 0, 0], [0, 255, 0], [0, 0, 255]], [0.02, 0.2, 0.5]).enumerated() {
            let image = try XCTUnwrap(CGImageSourceCreateImageAtIndex(source, index, nil), "frame \(index)")
            XCTAssertEqual([image.width, image.height], [16, 8])
            XCTAssertEqual(try colour(image), expected, "lossless, frame \(index)")
            let frame = try XCTUnwrap(png(CGImageSourceCopyPropertiesAtIndex(source, index, nil)), "frame \(index)")
            XCTAssertEqual(try XCTUnwrap(frame[kCGImagePropertyAPNGUnclampedDelayTime as String] as? Double), delay, accuracy: 0.0005, "frame \(index)")
            // Apple's clamped delay is never under 50 milliseconds.
            XCTAssertEqual(try XCTUnwrap(frame[kCGImagePropertyAPNGDelayTime as String] as? Double), max(0.05, delay), accuracy: 0.0005, "frame \(index)")
            XCTAssertEqual(try XCTUnwrap(infos[index][kCGImagePropertyAPNGUnclampedDelayTime as String] as? Double), delay, accuracy: 0.0005)
        }
        XCTAssertNil(CGImageSourceCreateImageAtIndex(source, 3, nil), "no fourth frame")

        // FFmpeg's own APNG reader sees three frames of its codec.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apng-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let written = folder.appendingPathComponent("ours.png")
        try data.write(to: written)
        let facts = MediaProbe.entries(written, "stream=codec_name,nb_read_frames", stream: "v:0", countFrames: true, csv: true)
        XCTAssertEqual(facts.trimmingCharacters(in: .whitespacesAndNewlines), "apng,3")
    }

    func testAnAnimatedPNGFFmpegWroteIsReadFrameByFrameAsFFmpegComposesIt() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apng-ffmpeg-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("counter.png")
        // Five frames at 4 a second (a quarter of a second each), played for ever.
        let made = runTool(
            "/usr/bin/ffmpeg",
            ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=32x24:rate=4", "-frames:v", "5", "-plays", "0", "-f", "apng", "-y", file.path])
        XCTAssertNotNil(made, "ffmpeg wrote the APNG")
        let source = try XCTUnwrap(CGImageSourceCreateWithURL(file as CFURL, nil))
        XCTAssertEqual(CGImageSourceGetCount(source), 5)
        XCTAssertEqual(png(CGImageSourceCopyProperties(source, nil))?[kCGImagePropertyAPNGLoopCount as String] as? Int, 0, "for ever")
        for index in 0..<5 {
            let frame = try XCTUnwrap(png(CGImageSourceCopyPropertiesAtIndex(source, index, nil)), "frame \(index)")
            XCTAssertEqual(try XCTUnwrap(frame[kCGImagePropertyAPNGUnclampedDelayTime as String] as? Double), 0.25, accuracy: 0.001, "frame \(index)")
        }
        // Frame 3, every pixel, against FFmpeg's own decoding of it.
        let image = try XCTUnwrap(CGImageSourceCreateImageAtIndex(source, 3, nil))
        XCTAssertEqual([image.width, image.height], [32, 24])
        let theirs = try XCTUnwrap(
            runTool(
                "/usr/bin/ffmpeg",
                ["-v", "error", "-i", file.path, "-vf", "select=eq(n\\,3)", "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]))
        XCTAssertEqual(theirs.count, 32 * 24 * 3)
        let ours = try XCTUnwrap(image.dataProvider?.data) as Data
        var differences = 0
        for y in 0..<24 {
            for x in 0..<32 {
                let at = y * image.bytesPerRow + x * 4, their = (y * 32 + x) * 3
                if [ours[at + 2], ours[at + 1], ours[at]] != [theirs[their], theirs[their + 1], theirs[their + 2]] { differences += 1 }
            }
        }
        XCTAssertEqual(differences, 0, "frame 3 as FFmpeg decodes it")
    }

    func testADamagedAnimatedPNGFailsItsMissingFramesOnly() throws {
        let data = try animatedPNG()
        // Cut inside the last frame's data: the chunks before it are whole.
        let cut = data.prefix(data.count - 30)
        let source = try XCTUnwrap(CGImageSourceCreateWithData(cut as CFData, nil))
        XCTAssertNotNil(CGImageSourceCreateImageAtIndex(source, 0, nil), "the first frame is whole")
        XCTAssertEqual(CGImageSourceGetCount(source), 3, "the last frame's control chunk is whole")
        XCTAssertNil(CGImageSourceCreateImageAtIndex(source, 2, nil), "the last frame's data is not")
        // A still PNG has no animation dictionary.
        let still = NSMutableData()
        let destination = try XCTUnwrap(CGImageDestinationCreateWithData(still as CFMutableData, "public.png" as CFString, 1, nil))
        CGImageDestinationAddImage(destination, try solid(1, 0, 0), nil)
        XCTAssertTrue(CGImageDestinationFinalize(destination))
        let stillSource = try XCTUnwrap(CGImageSourceCreateWithData(still as CFData, nil))
        XCTAssertEqual(CGImageSourceGetCount(stillSource), 1)
        XCTAssertNil(png(CGImageSourceCopyProperties(stillSource, nil))?[kCGImagePropertyAPNGLoopCount as String])
        XCTAssertNil(png(CGImageSourceCopyPropertiesAtIndex(stillSource, 0, nil))?[kCGImagePropertyAPNGDelayTime as String])
    }

    /// Three frames, red, green and blue, as an animated GIF looping for ever.
    private func threeFrames() throws -> Data {
        let data = NSMutableData()
        let destination = try XCTUnwrap(CGImageDestinationCreateWithData(data as CFMutableData, "com.compuserve.gif" as CFString, 3, nil))
        for frame in [try solid(1, 0, 0), try solid(0, 1, 0), try solid(0, 0, 1)] { CGImageDestinationAddImage(destination, frame, nil) }
        XCTAssertTrue(CGImageDestinationFinalize(destination))
        return data as Data
    }

    /// Runs the main queue for `seconds`, so that frames due in that time are handed over.
    private func runMainQueue(for seconds: Double) { RunLoop.main.run(until: Date().addingTimeInterval(seconds)) }

    func testAnAnimationHandsEachFrameToTheBlockInTurnForItsLoops() throws {
        var seen: [Int] = []
        var colours: [[Int]] = []
        let done = expectation(description: "two plays of three frames")
        let status = CGAnimateImageDataWithBlock(
            try threeFrames() as CFData, [kCGImageAnimationDelayTime: 0.01, kCGImageAnimationLoopCount: 2] as CFDictionary
        ) { index, image, _ in
            XCTAssertTrue(Thread.isMainThread, "frames are handed over on the main queue")
            seen.append(index)
            colours.append((try? self.colour(image)) ?? [])
            if seen.count == 6 { done.fulfill() }
        }
        XCTAssertEqual(status, 0)
        wait(for: [done], timeout: 30)
        runMainQueue(for: 0.2)
        XCTAssertEqual(seen, [0, 1, 2, 0, 1, 2], "each frame in turn, twice, then no more")
        XCTAssertEqual(colours.prefix(3).map { $0.map { $0 > 128 } }, [[true, false, false], [false, true, false], [false, false, true]])
    }

    func testAnAnimatedPNGPlaysForItsLoopCountAtItsDelays() throws {
        var seen: [(index: Int, time: Date)] = []
        let done = expectation(description: "the file's two plays of three frames")
        let status = CGAnimateImageDataWithBlock(try animatedPNG() as CFData, nil) { index, _, _ in
            seen.append((index, Date()))
            if seen.count == 6 { done.fulfill() }
        }
        XCTAssertEqual(status, 0)
        wait(for: [done], timeout: 30)
        runMainQueue(for: 0.7)
        XCTAssertEqual(seen.map(\.index), [0, 1, 2, 0, 1, 2], "played twice, as the file says, then no more")
        // A play lasts at least its frames' clamped delays: 50 ms, 0.2 s and 0.5 s (never sooner; a busy machine may be later).
        XCTAssertGreaterThanOrEqual(seen[3].time.timeIntervalSince(seen[0].time), 0.75 - 0.01)
    }

    func testTheBlockStopsTheAnimationAndTheStartIndexIsWhereItBegins() throws {
        var seen: [Int] = []
        let stopped = expectation(description: "stopped")
        let status = CGAnimateImageDataWithBlock(
            try threeFrames() as CFData, [kCGImageAnimationDelayTime: 0.01, kCGImageAnimationStartIndex: 1] as CFDictionary
        ) {
            index, _, stop in
            seen.append(index)
            if seen.count == 3 {
                stop.pointee = true
                stopped.fulfill()
            }
        }
        XCTAssertEqual(status, 0)
        wait(for: [stopped], timeout: 30)
        runMainQueue(for: 0.2)
        XCTAssertEqual(seen, [1, 2, 0], "from the start index, until the block says stop")
    }

    func testAnAnimationThatCannotStartSaysWhy() throws {
        let frames = try threeFrames() as CFData
        XCTAssertEqual(
            CGAnimateImageDataWithBlock(frames, [kCGImageAnimationStartIndex: 3] as CFDictionary) { _, _, _ in }, CGImageAnimationStatus.parameterError.rawValue
        )
        XCTAssertEqual(
            CGAnimateImageDataWithBlock(frames, [kCGImageAnimationDelayTime: Double.nan] as CFDictionary) { _, _, _ in },
            CGImageAnimationStatus.parameterError.rawValue)
        XCTAssertEqual(CGAnimateImageDataWithBlock(Data("no picture".utf8) as CFData, nil) { _, _, _ in }, CGImageAnimationStatus.unsupportedFormat.rawValue)
        let missing = URL(fileURLWithPath: "/nonexistent/animation.gif") as CFURL
        XCTAssertEqual(CGAnimateImageAtURLWithBlock(missing, nil) { _, _, _ in }, CGImageAnimationStatus.unsupportedFormat.rawValue)
    }
}
