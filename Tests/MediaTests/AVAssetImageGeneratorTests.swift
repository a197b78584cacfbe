import CaptureTestSupport
import XCTest
@testable import AVFoundation
import TestSupport

/// Images of a movie's pictures at times: the exact frame, scaled, turned upright, asynchronously.
final class AVAssetImageGeneratorTests: XCTestCase {
    /// A second of red then a second of blue, 320x240 at 30 frames a second; with `halves`, the left half red and the right blue for two seconds instead.
    private func movie(halves: Bool = false, rotate: Int? = nil) throws -> URL {
        let url = makeScratchFolder().appendingPathComponent(halves ? "halves.mov" : "red-then-blue.mov")
        let inputs = ["color=c=red:s=160x240:r=30:d=2", "color=c=blue:s=160x240:r=30:d=2"]
        let graph =
            halves
            ? "[0][1]hstack=inputs=2" : "[0]scale=320:240,trim=duration=1[a];[1]scale=320:240,trim=duration=1,setpts=PTS-STARTPTS[b];[a][b]concat=n=2:v=1:a=0"
        let arguments = ["-filter_complex", graph, "-c:v", "libx264", "-preset", "veryfast", "-g", "30", "-bf", "2", "-pix_fmt", "yuv420p"]
        try TestMovies.make(url, inputs: inputs, arguments: arguments)
        guard let rotate else { return url }
        // FFmpeg 5 writes a display matrix from the rotate tag when it copies a stream.
        let turned = url.deletingLastPathComponent().appendingPathComponent("turned.mov")
        guard runTool("/usr/bin/ffmpeg", ["-v", "error", "-y", "-i", url.path, "-c", "copy", "-metadata:s:v:0", "rotate=\(rotate)", turned.path]) != nil else {
            throw XCTSkip("ffmpeg could not turn the movie")
        }
        return turned
    }

    /// The red, green and blue of pixel (x, y) from the top left of a BGRA image.
    private func rgb(_ image: CGImage, _ x: Int, _ y: Int) -> [Int] {
        guard let data = image.dataProvider?.data, x >= 0, y >= 0, x < image.width, y < image.height else { return [-1, -1, -1] }
        let at = y * image.bytesPerRow + x * 4
        return [Int(data[at + 2]), Int(data[at + 1]), Int(data[at])]
    }

    private func isRed(_ c: [Int]) -> Bool { c[0] > 200 && c[1] < 60 && c[2] < 60 }
    private func isBlue(_ c: [Int]) -> Bool { c[2] > 200 && c[0] < 60 && c[1] < 60 }

    override func setUpWithError() throws {
        try XCTSkipUnless(MediaProbe.isAvailable, "ffmpeg makes the movies: apt-get install ffmpeg")
    }

    func testTheImageAtATimeIsTheFrameShownThen() throws {
        let generator = AVAssetImageGenerator(asset: AVURLAsset(url: try movie()))
        generator.requestedTimeToleranceBefore = .zero
        generator.requestedTimeToleranceAfter = .zero
        var actual = CMTime.invalid
        let early = try generator.copyCGImage(at: CMTime(value: 29, timescale: 30), actualTime: &actual)
        XCTAssertEqual([early.width, early.height], [320, 240])
        XCTAssertTrue(isRed(rgb(early, 160, 120)), "the last red frame: \(rgb(early, 160, 120))")
        XCTAssertEqual(actual, CMTime(value: 29, timescale: 30), "the time of the picture shown")
        let late = try generator.copyCGImage(at: CMTime(value: 1, timescale: 1), actualTime: &actual)
        XCTAssertTrue(isBlue(rgb(late, 160, 120)), "the first blue frame, a B-frame's distance from a keyframe")
        XCTAssertEqual(actual.seconds, 1, accuracy: 1e-6)
        let past = try generator.copyCGImage(at: CMTime(value: 10, timescale: 1), actualTime: &actual)
        XCTAssertTrue(isBlue(rgb(past, 10, 10)), "a time past the end shows the last picture")
        XCTAssertLessThan(actual.seconds, 2)
        XCTAssertThrowsError(try generator.copyCGImage(at: .invalid, actualTime: nil)) { error in
            XCTAssertEqual((error as? AVError)?.code, .noImageAtTime)
        }
    }

    func testWithApplesDefaultTolerancesTheKeyframeBeforeTheTimeDoes() throws {
        // A keyframe every 30 frames: at 0 s and 1 s.
        let generator = AVAssetImageGenerator(asset: AVURLAsset(url: try movie()))
        XCTAssertEqual(generator.requestedTimeToleranceBefore, .positiveInfinity, "Apple's default")
        var actual = CMTime.invalid
        _ = try generator.copyCGImage(at: CMTime(value: 57, timescale: 30), actualTime: &actual)
        XCTAssertEqual(actual, CMTime(value: 1, timescale: 1), "the keyframe decoding starts at")
        generator.requestedTimeToleranceBefore = CMTime(value: 1, timescale: 2)
        _ = try generator.copyCGImage(at: CMTime(value: 57, timescale: 30), actualTime: &actual)
        XCTAssertEqual(actual, CMTime(value: 42, timescale: 30), "the first picture within half a second before")
        generator.requestedTimeToleranceBefore = .zero
        _ = try generator.copyCGImage(at: CMTime(value: 57, timescale: 30), actualTime: &actual)
        XCTAssertEqual(actual, CMTime(value: 57, timescale: 30), "the exact frame")
    }

    func testImagesFitTheMaximumSizeAndTurnUprightWhenAsked() throws {
        let url = try movie(halves: true, rotate: 90)
        let generator = AVAssetImageGenerator(asset: AVURLAsset(url: url))
        generator.maximumSize = CGSize(width: 160, height: 160)
        let stored = try generator.copyCGImage(at: .zero, actualTime: nil)
        XCTAssertEqual([stored.width, stored.height], [160, 120], "as stored, within 160x160, its aspect kept")
        XCTAssertTrue(isRed(rgb(stored, 20, 60)) && isBlue(rgb(stored, 140, 60)), "red left, blue right")
        generator.appliesPreferredTrackTransform = true
        let upright = try generator.copyCGImage(at: .zero, actualTime: nil)
        XCTAssertEqual([upright.width, upright.height], [120, 160], "turned a quarter as the track shows it, within 160x160")
        // Where the track's transform takes a point of each half (in the scaled picture's coordinates, y downwards).
        let transform = try XCTUnwrap(AVURLAsset(url: url).tracks(withMediaType: .video).first).preferredTransform
        XCTAssertNotEqual(transform, .identity)
        let scale = 160.0 / 320
        func shown(_ point: CGPoint) -> (Int, Int) {
            let moved = point.applying(
                CGAffineTransform(a: transform.a, b: transform.b, c: transform.c, d: transform.d, tx: transform.tx * scale, ty: transform.ty * scale))
            return (Int(moved.x), Int(moved.y))
        }
        let (rx, ry) = shown(CGPoint(x: 40, y: 60)), (bx, by) = shown(CGPoint(x: 120, y: 60))
        XCTAssertTrue(isRed(rgb(upright, rx, ry)), "the left half where the transform shows it: \(rgb(upright, rx, ry)) at \(rx), \(ry)")
        XCTAssertTrue(isBlue(rgb(upright, bx, by)), "the right half where the transform shows it: \(rgb(upright, bx, by)) at \(bx), \(by)")
    }

    func testAsynchronousRequestsAnswerEachTimeInOrderAndCancelledOnesSaySo() async throws {
        let generator = AVAssetImageGenerator(asset: AVURLAsset(url: try movie()))
        generator.requestedTimeToleranceBefore = .zero
        let answers = Recorder<(CMTime, AVAssetImageGenerator.Result, Bool)>()
        let done = expectation(description: "three answers")
        done.expectedFulfillmentCount = 3
        let times = [0.2, 1.2, 1.5].map { NSValue(time: CMTime(seconds: $0, preferredTimescale: 600)) }
        generator.generateCGImagesAsynchronously(forTimes: times) { requested, image, _, result, _ in
            answers.append((requested, result, image != nil))
            done.fulfill()
        }
        await fulfillment(of: [done], timeout: 60)
        XCTAssertEqual(answers.values.map { $0.0.seconds }, [0.2, 1.2, 1.5], "in the order asked")
        XCTAssertEqual(answers.values.map(\.1), [.succeeded, .succeeded, .succeeded])
        // Cancelled before the queue reaches them.
        let cancelled = Recorder<AVAssetImageGenerator.Result>()
        let answered = expectation(description: "answered")
        answered.expectedFulfillmentCount = 2
        generator.generateCGImagesAsynchronously(forTimes: Array(times.prefix(2))) { _, _, _, result, _ in
            cancelled.append(result)
            answered.fulfill()
        }
        generator.cancelAllCGImageGeneration()
        await fulfillment(of: [answered], timeout: 60)
        XCTAssertTrue(cancelled.values.contains(.cancelled), "\(cancelled.values)")
        var colours: [Bool] = []
        for await result in generator.images(for: [CMTime(value: 1, timescale: 2), CMTime(value: 3, timescale: 2)]) {
            colours.append(isRed(rgb(try result.image, 5, 5)))
        }
        XCTAssertEqual(colours, [true, false], "red, then blue")
        let (image, actual) = try await generator.image(at: CMTime(value: 3, timescale: 2))
        XCTAssertTrue(isBlue(rgb(image, 5, 5)))
        XCTAssertEqual(actual.seconds, 1.5, accuracy: 1.0 / 30)
    }
}
