import CoreGraphics
import Foundation
import ImageIO
import TestSupport
import XCTest

/// HEIF image sequences (`public.heics`): frames written with their delays and loop count, read back
/// frame by frame under Apple's HEICS keys, and checked against FFmpeg and Debian's libheif, which
/// read the file on their own (FFmpeg its sequence track, libheif 1.15 its still picture).
final class HEIFSequenceTests: XCTestCase {
    static let childVariable = "IMAGEIO_TESTS_NO_SEQUENCE_LIBHEIF"

    /// A `width` x `height` picture of one colour.
    private func solid(_ red: CGFloat, _ green: CGFloat, _ blue: CGFloat, _ width: Int = 64, _ height: Int = 48) throws -> CGImage {
        let context = try XCTUnwrap(
            CGContext(
                data: nil, width: width, height: height, bitsPerComponent: 8, bytesPerRow: 0, space: CGColorSpaceCreateDeviceRGB(),
                bitmapInfo: CGImageAlphaInfo.noneSkipLast.rawValue))
        context.setFillColor(red: red, green: green, blue: blue, alpha: 1)
        context.fill(CGRect(x: 0, y: 0, width: width, height: height))
        return try XCTUnwrap(context.makeImage())
    }

    /// The red, green and blue of an image's middle pixel.
    private func colour(_ image: CGImage) throws -> [Int] {
        let data = try XCTUnwrap(image.dataProvider?.data)
        let offset = image.height / 2 * image.bytesPerRow + image.width / 2 * 4
        let p = data[offset..<offset + 4].map(Int.init)
        return image.byteOrderInfo == .order32Little ? [p[2], p[1], p[0]] : [p[0], p[1], p[2]]
    }

    private func heics(_ properties: CFDictionary?) -> [String: Any]? {
        (properties as? [String: Any])?[kCGImagePropertyHEICSDictionary as String] as? [String: Any]
    }

    private let colours: [[CGFloat]] = [[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0]]

    /// A sequence of the four colours at `delays`, played `loop` times (nil: the loop count not given).
    private func sequence(delays: [Double], loop: Int?) throws -> Data {
        let data = NSMutableData()
        let destination = try XCTUnwrap(CGImageDestinationCreateWithData(data as CFMutableData, "public.heics" as CFString, delays.count, nil))
        if let loop { CGImageDestinationSetProperties(destination, [kCGImagePropertyHEICSDictionary: [kCGImagePropertyHEICSLoopCount: loop]] as CFDictionary) }
        for (colour, delay) in zip(colours, delays) {
            CGImageDestinationAddImage(
                destination, try solid(colour[0], colour[1], colour[2]),
                [kCGImagePropertyHEICSDictionary: [kCGImagePropertyHEICSUnclampedDelayTime: delay]] as CFDictionary)
        }
        XCTAssertTrue(CGImageDestinationFinalize(destination))
        return data as Data
    }

    func testASequenceIsWrittenAndReadBackWithItsDelaysAndLoopCount() throws {
        // libvips first, as in an app that shows a GIF before a sequence: its HEIF module brings
        // Debian's older libheif into the process, beside the one sequences are read with.
        let gif = NSMutableData()
        let gifDestination = try XCTUnwrap(CGImageDestinationCreateWithData(gif as CFMutableData, "com.compuserve.gif" as CFString, 1, nil))
        CGImageDestinationAddImage(gifDestination, try solid(1, 0, 0), nil)
        XCTAssertTrue(CGImageDestinationFinalize(gifDestination))
        XCTAssertNotNil(CGImageSourceCreateWithData(gif as CFData, nil).flatMap { CGImageSourceCreateImageAtIndex($0, 0, nil) })

        XCTAssertTrue((CGImageDestinationCopyTypeIdentifiers() as? [String])?.contains("public.heics") == true)
        XCTAssertTrue((CGImageSourceCopyTypeIdentifiers() as? [String])?.contains("public.heics") == true)
        let delays = [0.05, 0.2, 0.35, 1.5]
        let data = try sequence(delays: delays, loop: 2)
        let source = try XCTUnwrap(CGImageSourceCreateWithData(data as CFData, nil))
        XCTAssertEqual(CGImageSourceGetType(source) as String?, "public.heics")
        XCTAssertEqual(CGImageSourceGetCount(source), 4)
        let whole = try XCTUnwrap(heics(CGImageSourceCopyProperties(source, nil)))
        XCTAssertEqual(whole[kCGImagePropertyHEICSLoopCount as String] as? Int, 2)
        XCTAssertEqual(whole[kCGImagePropertyHEICSCanvasPixelWidth as String] as? Int, 64)
        XCTAssertEqual(whole[kCGImagePropertyHEICSCanvasPixelHeight as String] as? Int, 48)
        let infos = try XCTUnwrap(whole[kCGImagePropertyHEICSFrameInfoArray as String] as? [NSDictionary])
        XCTAssertEqual(infos.count, 4)
        for (index, delay) in delays.enumerated() {
            let image = try XCTUnwrap(CGImageSourceCreateImageAtIndex(source, index, nil), "frame \(index)")
            XCTAssertEqual([image.width, image.height], [64, 48])
            // HEVC is lossy: each colour within a few levels.
            for (value, want) in zip(try colour(image), colours[index].map { Int($0 * 255) }) {
                XCTAssertEqual(value, want, accuracy: 10, "frame \(index)")
            }
            let frame = try XCTUnwrap(heics(CGImageSourceCopyPropertiesAtIndex(source, index, nil)), "frame \(index)")
            XCTAssertEqual(try XCTUnwrap(frame[kCGImagePropertyHEICSUnclampedDelayTime as String] as? Double), delay, accuracy: 0.0005, "frame \(index)")
            // Apple's clamped delay is never under a tenth of a second.
            XCTAssertEqual(try XCTUnwrap(frame[kCGImagePropertyHEICSDelayTime as String] as? Double), max(0.1, delay), accuracy: 0.0005, "frame \(index)")
            XCTAssertEqual(try XCTUnwrap(infos[index][kCGImagePropertyHEICSUnclampedDelayTime as String] as? Double), delay, accuracy: 0.0005)
        }
        XCTAssertNil(CGImageSourceCreateImageAtIndex(source, 4, nil), "no fifth frame")
        XCTAssertNil(CGImageSourceCopyPropertiesAtIndex(source, -1, nil))

        // FFmpeg's own MP4 reader sees four HEVC frames in the sequence track, the colours in order
        // (coded 64 pixels high: FFmpeg does not apply the track's clean aperture, so it is cropped here).
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("heics-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let written = folder.appendingPathComponent("ours.heics")
        try data.write(to: written)
        let facts = MediaProbe.entries(written, "stream=codec_name,nb_read_frames", stream: "v:0", countFrames: true, csv: true)
        XCTAssertEqual(facts.trimmingCharacters(in: .whitespacesAndNewlines), "hevc,4")
        let rgb = folder.appendingPathComponent("frames.rgb")
        XCTAssertNotNil(
            runTool(
                "/usr/bin/ffmpeg",
                ["-v", "error", "-i", written.path, "-fps_mode", "passthrough", "-vf", "crop=64:48:0:0", "-f", "rawvideo", "-pix_fmt", "rgb24", "-y", rgb.path])
        )
        let pixels = try Data(contentsOf: rgb)
        XCTAssertEqual(pixels.count, 4 * 64 * 48 * 3)
        for index in 0..<min(4, pixels.count / (64 * 48 * 3)) {
            let middle = index * 64 * 48 * 3 + (24 * 64 + 32) * 3
            for (value, want) in zip(pixels[middle..<middle + 3].map(Int.init), colours[index].map { Int($0 * 255) }) {
                XCTAssertEqual(value, want, accuracy: 10, "FFmpeg's frame \(index)")
            }
        }
        // Debian's libheif (1.15, without sequences) finds the still picture and the sequence's brand
        // (the child process of the last test decodes that picture through it).
        let info = runCommand(["/usr/bin/heif-info", written.path])
        XCTAssertEqual(info.status, 0, info.text)
        XCTAssertTrue(info.text.contains("main brand: msf1"), info.text)
        XCTAssertTrue(info.text.contains("image: 64x48") && info.text.contains("primary"), info.text)
    }

    func testFramesAskedForInAnyOrderAreTheirOwn() throws {
        // The reader goes on from the last frame it decoded, and starts again for an earlier one.
        let source = try XCTUnwrap(CGImageSourceCreateWithData(try sequence(delays: [0.1, 0.1, 0.1, 0.1], loop: 0) as CFData, nil))
        for index in [3, 1, 2, 0, 0, 3, 2] {
            let image = try XCTUnwrap(CGImageSourceCreateImageAtIndex(source, index, nil), "frame \(index)")
            XCTAssertEqual(try colour(image).map { $0 > 128 }, colours[index].map { $0 > 0.5 }, "frame \(index)")
        }
    }

    func testASequenceWrittenWithoutALoopCountPlaysForEver() throws {
        let data = try sequence(delays: [0.1, 0.1], loop: nil)
        let source = try XCTUnwrap(CGImageSourceCreateWithData(data as CFData, nil))
        XCTAssertEqual(CGImageSourceGetCount(source), 2, "each frame once, however often the sequence repeats")
        XCTAssertEqual(heics(CGImageSourceCopyProperties(source, nil))?[kCGImagePropertyHEICSLoopCount as String] as? Int, 0)
        let once = try sequence(delays: [0.1, 0.1], loop: 1)
        let onceSource = try XCTUnwrap(CGImageSourceCreateWithData(once as CFData, nil))
        XCTAssertEqual(heics(CGImageSourceCopyProperties(onceSource, nil))?[kCGImagePropertyHEICSLoopCount as String] as? Int, 1)
    }

    func testASequencePlaysForItsLoopCountAtItsDelays() throws {
        var seen: [(index: Int, colour: [Int], time: Date)] = []
        let done = expectation(description: "the file's two plays of three frames")
        let status = CGAnimateImageDataWithBlock(try sequence(delays: [0.05, 0.2, 0.3], loop: 2) as CFData, nil) { index, image, _ in
            seen.append((index, (try? self.colour(image)) ?? [], Date()))
            if seen.count == 6 { done.fulfill() }
        }
        XCTAssertEqual(status, 0)
        wait(for: [done], timeout: 60)
        RunLoop.main.run(until: Date().addingTimeInterval(0.7))
        XCTAssertEqual(seen.map(\.index), [0, 1, 2, 0, 1, 2], "played twice, as the file says, then no more")
        XCTAssertEqual(seen.prefix(3).map { $0.colour.map { $0 > 128 } }, [[true, false, false], [false, true, false], [false, false, true]])
        // A play lasts at least its frames' clamped delays: 0.1, 0.2 and 0.3 s (never sooner; a busy machine may be later).
        XCTAssertGreaterThanOrEqual(seen[3].time.timeIntervalSince(seen[0].time), 0.6 - 0.01)
    }

    func testAStillHEICIsOnePictureAndADamagedSequenceLosesOnlyItsFrames() throws {
        let still = NSMutableData()
        let destination = try XCTUnwrap(CGImageDestinationCreateWithData(still as CFMutableData, "public.heic" as CFString, 1, nil))
        CGImageDestinationAddImage(destination, try solid(0, 1, 0), nil)
        XCTAssertTrue(CGImageDestinationFinalize(destination))
        let stillSource = try XCTUnwrap(CGImageSourceCreateWithData(still as CFData, nil))
        XCTAssertEqual(CGImageSourceGetType(stillSource) as String?, "public.heic")
        XCTAssertEqual(CGImageSourceGetCount(stillSource), 1)
        XCTAssertNil(heics(CGImageSourceCopyProperties(stillSource, nil)))

        // The sequence's frames cut off (the file's end, where the track's samples are): no frame is
        // made up, and nothing crashes.
        let data = try sequence(delays: [0.1, 0.1, 0.1], loop: 0)
        for length in [data.count * 3 / 4, data.count / 2, 40] {
            let cut = data.prefix(length)
            guard let source = CGImageSourceCreateWithData(cut as CFData, nil) else { continue }
            let count = CGImageSourceGetCount(source)
            XCTAssertLessThanOrEqual(count, 3, "cut at \(length)")
            for index in 0..<count { _ = CGImageSourceCreateImageAtIndex(source, index, nil) }
        }
    }

    func testWithoutALibheifThatHasSequencesTheTypeIsNotOfferedAndTheStillPictureIsRead() throws {
        try XCTSkipIf(ProcessInfo.processInfo.environment[Self.childVariable] != nil)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("no-sequence-libheif-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // A sequence written here, for the child to read.
        try sequence(delays: [0.1, 0.2], loop: 0).write(to: folder.appendingPathComponent("two.heics"))
        let result = runCommand([
            "/usr/bin/env", "LINUXAVFOUNDATION_LIBHEIF_DIR=\(folder.path)", "\(Self.childVariable)=\(folder.path)", CommandLine.arguments[0],
            "ImageIOTests.HEIFSequenceTests/testSequencesWithoutTheLibrary",
        ])
        XCTAssertEqual(result.status, 0, result.text)
        XCTAssertTrue(result.text.contains("Executed 1 test, with 0 failures"), result.text)
    }

    /// Run by the test above, in a process whose libheif folder is empty (Debian's libheif is older).
    func testSequencesWithoutTheLibrary() throws {
        guard let folder = ProcessInfo.processInfo.environment[Self.childVariable] else {
            throw XCTSkip("run by testWithoutALibheifThatHasSequencesTheTypeIsNotOfferedAndTheStillPictureIsRead, in a process of its own")
        }
        XCTAssertFalse((CGImageDestinationCopyTypeIdentifiers() as? [String])?.contains("public.heics") ?? true)
        XCTAssertFalse((CGImageSourceCopyTypeIdentifiers() as? [String])?.contains("public.heics") ?? true)
        XCTAssertNil(CGImageDestinationCreateWithData(NSMutableData() as CFMutableData, "public.heics" as CFString, 2, nil))
        // The file's still picture is still read, through Debian's libheif.
        let source = try XCTUnwrap(CGImageSourceCreateWithURL(URL(fileURLWithPath: folder).appendingPathComponent("two.heics") as CFURL, nil))
        XCTAssertEqual(CGImageSourceGetType(source) as String?, "public.heic")
        XCTAssertEqual(CGImageSourceGetCount(source), 1)
        let image = try XCTUnwrap(CGImageSourceCreateImageAtIndex(source, 0, nil))
        for (value, want) in zip(try colour(image), [255, 0, 0]) { XCTAssertEqual(value, want, accuracy: 10) }
    }
}
