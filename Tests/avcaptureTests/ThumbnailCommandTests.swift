import CoreGraphics
import Foundation
import ImageIO
import TestSupport
import XCTest

/// `avcapture thumbnail MOVIE OUT.{jpg,png,heic} [--at SECONDS ...] [--size WxH] [--sheet] [--count N]`.
final class ThumbnailCommandTests: XCTestCase {
    func testAPictureAtATimeAndAContactSheetInEachFormat() throws {
        let folder = AVCaptureTool.folder("thumbnail")
        let source = try AVCaptureTool.movie(in: folder, seconds: 3, name: "source.mp4")
        let jpeg = folder.appendingPathComponent("at-one.jpg")
        let one = try AVCaptureTool.run(["thumbnail", source.path, jpeg.path, "--at", "1"])
        XCTAssertEqual(one.status, 0, one.output)
        XCTAssertTrue(one.standardOutput.contains("at 1.000 s"), "the exact frame's time: \(one.output)")
        XCTAssertEqual(MediaProbe.entries(jpeg, "stream=codec_name,width,height", csv: true), "mjpeg,320,240")
        let sheet = folder.appendingPathComponent("sheet.png")
        let laid = try AVCaptureTool.run(["thumbnail", source.path, sheet.path, "--sheet", "--count", "4", "--size", "160x120"])
        XCTAssertEqual(laid.status, 0, laid.output)
        // Two columns and two rows of 160x120 with 4-pixel gaps.
        XCTAssertEqual(MediaProbe.entries(sheet, "stream=codec_name,width,height", csv: true), "png,332,252")
        let keyframe = try AVCaptureTool.run(["thumbnail", source.path, folder.appendingPathComponent("keyframe.jpg").path, "--at", "2.5", "--keyframe"])
        XCTAssertEqual(keyframe.status, 0, keyframe.output)
        let shown = keyframe.standardOutput.split(separator: " ").dropLast().last.flatMap { Double($0) } ?? -1
        XCTAssertTrue(shown >= 0 && shown <= 2.5, "the keyframe at or before 2.5 s: \(keyframe.output)")
        let heic = folder.appendingPathComponent("middle.heic")
        let middle = try AVCaptureTool.run(["thumbnail", source.path, heic.path])
        XCTAssertEqual(middle.status, 0, middle.output)
        XCTAssertTrue(FileManager.default.fileExists(atPath: heic.path))
    }

    func testAClipIsAnAnimationOfThePicturesShownAtItsTicks() throws {
        let folder = AVCaptureTool.folder("thumbnail-clip")
        // Ten pictures a second whose red is six times the picture's number: the picture shown at a time says which it is.
        let movie = folder.appendingPathComponent("counting.mp4")
        XCTAssertNotNil(
            runTool(
                "/usr/bin/ffmpeg",
                [
                    "-v", "error", "-f", "lavfi", "-i", "color=c=black:s=64x48:r=10:d=4,format=rgb24,geq=r='N*6':g=0:b=0", "-c:v", "libx264", "-qp", "0",
                    "-pix_fmt", "yuv444p", "-y", movie.path,
                ]))
        for (name, type) in [("clip.gif", "com.compuserve.gif"), ("clip.png", "public.png")] {
            let output = folder.appendingPathComponent(name)
            let result = try AVCaptureTool.run(["thumbnail", movie.path, output.path, "--gif", "--at", "1", "--seconds", "2", "--fps", "5"])
            XCTAssertEqual(result.status, 0, result.output)
            XCTAssertTrue(result.standardOutput.contains("10 pictures from 1.000 s at 5 a second"), result.output)
            let source = try XCTUnwrap(CGImageSourceCreateWithURL(output as CFURL, nil))
            XCTAssertEqual(CGImageSourceGetType(source) as String?, type)
            XCTAssertEqual(CGImageSourceGetCount(source), 10)
            let dictionary = type == "public.png" ? kCGImagePropertyPNGDictionary : kCGImagePropertyGIFDictionary
            let whole = try XCTUnwrap((CGImageSourceCopyProperties(source, nil) as? [String: Any])?[dictionary as String] as? [String: Any])
            XCTAssertEqual(whole[kCGImagePropertyGIFLoopCount as String] as? Int, 0, "looping for ever")
            for index in 0..<10 {
                let frame = try XCTUnwrap((CGImageSourceCopyPropertiesAtIndex(source, index, nil) as? [String: Any])?[dictionary as String] as? [String: Any])
                XCTAssertEqual(try XCTUnwrap(frame[kCGImagePropertyGIFUnclampedDelayTime as String] as? Double), 0.2, accuracy: 0.001)
                // The tick at 1 + index / 5 s shows picture 10 + 2 * index.
                let image = try XCTUnwrap(CGImageSourceCreateImageAtIndex(source, index, nil))
                let pixels = try XCTUnwrap(image.dataProvider?.data) as Data
                let red = Int(image.byteOrderInfo == .order32Little ? pixels[2] : pixels[0])
                XCTAssertEqual(red, (10 + 2 * index) * 6, accuracy: 4, "\(name), picture \(index)")
            }
        }
        let refused = try AVCaptureTool.run(["thumbnail", movie.path, folder.appendingPathComponent("clip.jpg").path, "--gif"])
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.standardError.contains("--gif writes a .gif or .png"), refused.output)
        let tooFast = try AVCaptureTool.run(["thumbnail", movie.path, folder.appendingPathComponent("fast.gif").path, "--gif", "--fps", "500"])
        XCTAssertNotEqual(tooFast.status, 0)
        XCTAssertTrue(tooFast.standardError.contains("--fps"), tooFast.output)
    }

    func testItRefusesWhatItCannotDoAndOverwritesNothing() throws {
        let folder = AVCaptureTool.folder("thumbnail-refusals")
        let source = try AVCaptureTool.movie(in: folder, seconds: 2, name: "source.mp4")
        let existing = folder.appendingPathComponent("exists.jpg")
        try Data("keep".utf8).write(to: existing)
        let refused = try AVCaptureTool.run(["thumbnail", source.path, existing.path])
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.standardError.contains("never overwritten"), refused.output)
        XCTAssertEqual(try Data(contentsOf: existing), Data("keep".utf8))
        for (arguments, said) in [
            (["--at", "nan"], "--at is a time"), (["--at=-3"], "--at is a time"), (["--size", "0x0"], "--size is"),
            (["--at", "1", "--at", "2"], "add --sheet"), (["--count", "5"], "add --sheet"), (["--sheet", "--count", "1000"], "--count is"),
        ] {
            let result = try AVCaptureTool.run(["thumbnail", source.path, folder.appendingPathComponent("x.jpg").path] + arguments)
            XCTAssertNotEqual(result.status, 0, "\(arguments)")
            XCTAssertTrue(result.standardError.contains(said), "\(arguments): \(result.output)")
        }
        let gif = try AVCaptureTool.run(["thumbnail", source.path, folder.appendingPathComponent("x.gif").path])
        XCTAssertTrue(gif.standardError.contains("not a .jpg, .png or .heic"), gif.output)
        let notAMovie = try AVCaptureTool.run(["thumbnail", existing.path, folder.appendingPathComponent("y.jpg").path])
        XCTAssertNotEqual(notAMovie.status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("y.jpg").path), "no file from a failure")
    }
}
