import CaptureTestSupport
import XCTest
@testable import AVFoundation
import TestSupport

/// AVPlayerLayer: a player's pictures as the layer shows them, for whoever draws them; its
/// readiness, video rect and displayed picture; the track's preferred transform and the layer's
/// gravity applied; the layer following a queue player from item to item; a slow drawer.
final class AVPlayerLayerTests: CaptureTestCase {
    override func setUpWithError() throws {
        try XCTSkipUnless(MediaProbe.isAvailable, "ffmpeg is needed: apt-get install ffmpeg")
        unsetenv("PULSE_SERVER")
    }

    /// A 320x240 movie whose left half is `left` and right half `right`, turned clockwise by `rotate` degrees for display.
    private func halves(_ left: String, _ right: String, rotate: Int = 0, seconds: Int = 3, _ name: String = #function) throws -> URL {
        let folder = makeScratchFolder(name)
        let plain = folder.appendingPathComponent("\(left)-\(right).mp4")
        try TestMovies.make(
            plain, inputs: ["color=c=\(left):s=320x240:r=30:d=\(seconds),drawbox=x=160:y=0:w=160:h=240:color=\(right):t=fill"],
            arguments: ["-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p"])
        guard rotate != 0 else { return plain }
        let turned = folder.appendingPathComponent("\(left)-\(right)-turned.mp4")
        // FFmpeg's rotate tag counts counterclockwise; ffprobe, which shares no code with the reader,
        // reads the display matrix back (clockwise negative).
        guard
            runTool("/usr/bin/ffmpeg", ["-v", "error", "-y", "-i", plain.path, "-c", "copy", "-metadata:s:v:0", "rotate=\((360 - rotate) % 360)", turned.path])
                != nil
        else {
            throw XCTSkip("ffmpeg could not tag the rotation")
        }
        XCTAssertEqual(MediaProbe.probe(turned)?.video?.rotation, -Double(rotate), "ffprobe reads the turn")
        return turned
    }

    /// The colour of a BGRA picture at a point, as red, green and blue.
    private static func colour(_ buffer: CVPixelBuffer, x: Int, y: Int) -> (r: Int, g: Int, b: Int) {
        CVPixelBufferLockBaseAddress(buffer, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
        let row = CVPixelBufferGetBaseAddress(buffer)!.advanced(by: y * CVPixelBufferGetBytesPerRow(buffer)).assumingMemoryBound(to: UInt8.self)
        let pixel = row + x * 4
        return (Int(pixel[2]), Int(pixel[1]), Int(pixel[0]))
    }

    private static func isRed(_ c: (r: Int, g: Int, b: Int)) -> Bool { c.r > 180 && c.g < 80 && c.b < 80 }
    private static func isBlue(_ c: (r: Int, g: Int, b: Int)) -> Bool { c.b > 180 && c.r < 80 && c.g < 80 }

    func testThePlayersPicturesComeShapedForTheBoundsAndGravityAtTheMoviesRate() throws {
        let item = AVPlayerItem(url: try halves("red", "blue"))
        let player = AVPlayer(playerItem: item)
        let layer = AVPlayerLayer(player: player)
        XCTAssertTrue(layer.player === player)
        XCTAssertEqual(layer.videoGravity, .resizeAspect)
        layer.frame = CGRect(x: 0, y: 0, width: 640, height: 640)
        let ready = Recorder<Bool>()
        let seenWhenReady = Recorder<Int>()
        let observation = layer.observe(\.isReadyForDisplay, options: [.new]) { layer, change in
            change.newValue.map(ready.append)
            // The picture is there for an observer to take at once.
            if change.newValue == true, let picture = layer.displayedPixelBuffer() { seenWhenReady.append(CVPixelBufferGetWidth(picture)) }
        }
        XCTAssertTrue(waitUntil { layer.isReadyForDisplay }, "the first picture, while paused")
        XCTAssertEqual(ready.values, [true], "readiness is observable")
        XCTAssertEqual(seenWhenReady.values, [320], "the observer took the displayed picture")
        XCTAssertEqual(layer.videoRect, CGRect(x: 0, y: 80, width: 640, height: 480), "aspect fit, centred")
        let displayed = try XCTUnwrap(layer.displayedPixelBuffer())
        XCTAssertEqual(CVPixelBufferGetPixelFormatType(displayed), kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, "the player's own '420v'")
        XCTAssertEqual([CVPixelBufferGetWidth(displayed), CVPixelBufferGetHeight(displayed)], [320, 240])

        // Counted, and only the last kept: a drawer holding every picture would empty the layer's pool.
        let drawn = Recorder<Int>()
        let last = LockedBox<CVPixelBuffer?>(nil)
        let lateness = Recorder<Double>()
        layer.setLinuxPreviewFrameHandler(
            { frame in
                let value = (CVBufferCopyAttachment(frame, kCVBufferTimeValueKey, nil) as? NSNumber)?.int64Value ?? 0
                let scale = (CVBufferCopyAttachment(frame, kCVBufferTimeScaleKey, nil) as? NSNumber)?.int32Value ?? 1
                lateness.append(CACurrentMediaTime() - CMTime(value: value, timescale: scale).seconds)
                drawn.append(CVPixelBufferGetWidth(frame))
                last.value = frame
            }, queue: DispatchQueue(label: "drawer"))
        player.play()
        spin(1.5)
        player.pause()
        layer.setLinuxPreviewFrameHandler(nil)
        XCTAssertEqual(Double(drawn.values.count), 45, accuracy: 6, "every picture of 30 fps, once each")
        let fit = try XCTUnwrap(last.value)
        XCTAssertEqual(CVPixelBufferGetPixelFormatType(fit), kCVPixelFormatType_32BGRA)
        XCTAssertEqual([CVPixelBufferGetWidth(fit), CVPixelBufferGetHeight(fit)], [640, 480], "aspect fit: the picture's part of the layer")
        XCTAssertTrue(Self.isRed(Self.colour(fit, x: 100, y: 240)), "\(Self.colour(fit, x: 100, y: 240))")
        XCTAssertTrue(Self.isBlue(Self.colour(fit, x: 540, y: 240)), "\(Self.colour(fit, x: 540, y: 240))")
        let late = lateness.values.sorted()
        XCTAssertLessThan(late[late.count / 2], 0.05, "drawn within a refresh or two of the time it was due: \(late)")
        XCTAssertGreaterThanOrEqual(late.first ?? -1, 0, "never before it was due")

        // Aspect fill of a square layer: the picture's middle, the whole layer; a seek shows the new time's picture.
        layer.videoGravity = .resizeAspectFill
        let filledRect = layer.videoRect
        XCTAssertEqual(filledRect.minX, -320.0 / 3, accuracy: 1e-9)
        XCTAssertEqual(filledRect.width, 2560.0 / 3, accuracy: 1e-9)
        XCTAssertEqual([filledRect.minY, filledRect.height], [0, 640], "aspect fill: 4:3 over the square, overflowing left and right")
        var frames = layer.linuxPreviewFrames.makeAsyncIterator()
        let seeked = expectation(description: "seek")
        player.seek(to: CMTime(value: 2, timescale: 1), toleranceBefore: .zero, toleranceAfter: .zero) { _ in seeked.fulfill() }
        wait(for: [seeked], timeout: 5)
        let filled = try XCTUnwrap(waitForFrame(&frames))
        XCTAssertEqual([CVPixelBufferGetWidth(filled), CVPixelBufferGetHeight(filled)], [640, 640])
        XCTAssertTrue(Self.isRed(Self.colour(filled, x: 200, y: 320)) && Self.isBlue(Self.colour(filled, x: 440, y: 320)))

        // Other attributes: the displayed picture in the format they ask for.
        layer.pixelBufferAttributes = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA]
        XCTAssertTrue(waitUntil { layer.displayedPixelBuffer().map(CVPixelBufferGetPixelFormatType) == kCVPixelFormatType_32BGRA })
        observation.invalidate()
    }

    func testAPausedPlayersPictureIsDrawnAgainForANewViewerAndForANewGravityOrSize() throws {
        let player = AVPlayer(playerItem: AVPlayerItem(url: try halves("red", "blue")))
        let layer = AVPlayerLayer(player: player)
        layer.frame = CGRect(x: 0, y: 0, width: 640, height: 640)
        XCTAssertTrue(waitUntil { layer.isReadyForDisplay }, "the first picture, while paused")

        // A viewer who comes while the player stands still sees the picture the layer shows.
        var frames = layer.linuxPreviewFrames.makeAsyncIterator()
        let fit = try XCTUnwrap(waitForFrame(&frames), "the shown picture, drawn for the new viewer")
        XCTAssertEqual([CVPixelBufferGetWidth(fit), CVPixelBufferGetHeight(fit)], [640, 480], "aspect fit")

        // A new gravity, and then a new size, reshape it with no new picture from the player.
        layer.videoGravity = .resizeAspectFill
        let filled = try XCTUnwrap(waitForFrame(&frames), "drawn again for the new gravity")
        XCTAssertEqual([CVPixelBufferGetWidth(filled), CVPixelBufferGetHeight(filled)], [640, 640], "aspect fill")
        XCTAssertTrue(Self.isRed(Self.colour(filled, x: 200, y: 320)) && Self.isBlue(Self.colour(filled, x: 440, y: 320)))
        layer.frame = CGRect(x: 0, y: 0, width: 320, height: 320)
        let smaller = try XCTUnwrap(waitForFrame(&frames), "drawn again for the new size")
        XCTAssertEqual([CVPixelBufferGetWidth(smaller), CVPixelBufferGetHeight(smaller)], [320, 320])
        XCTAssertEqual(player.rate, 0, "still paused")
    }

    /// The next frame from an async iterator, waited for on a task while the test's run loop turns.
    private func waitForFrame(_ frames: inout AsyncStream<CVPixelBuffer>.Iterator) throws -> CVPixelBuffer? {
        nonisolated(unsafe) var iterator = frames
        let got = Recorder<CVPixelBuffer>()
        let done = expectation(description: "frame")
        Task {
            if let frame = await iterator.next() { got.append(frame) }
            done.fulfill()
        }
        wait(for: [done], timeout: 5)
        frames = iterator
        return got.values.first
    }

    func testTheTracksPreferredTransformTurnsThePicture() throws {
        let item = AVPlayerItem(url: try halves("red", "blue", rotate: 90))
        let player = AVPlayer(playerItem: item)
        let layer = AVPlayerLayer(player: player)
        layer.frame = CGRect(x: 0, y: 0, width: 480, height: 640)
        var frames = layer.linuxPreviewFrames.makeAsyncIterator()
        let frame = try XCTUnwrap(waitForFrame(&frames))
        // A quarter turn clockwise: the picture stands 240x320, scaled to fill the portrait layer; its left half is now on top.
        XCTAssertEqual([CVPixelBufferGetWidth(frame), CVPixelBufferGetHeight(frame)], [480, 640])
        XCTAssertEqual(layer.videoRect, CGRect(x: 0, y: 0, width: 480, height: 640))
        XCTAssertTrue(Self.isRed(Self.colour(frame, x: 240, y: 160)), "the left half on top: \(Self.colour(frame, x: 240, y: 160))")
        XCTAssertTrue(Self.isBlue(Self.colour(frame, x: 240, y: 480)), "the right half below: \(Self.colour(frame, x: 240, y: 480))")
        XCTAssertEqual(layer.videoGravity, .resizeAspect)
    }

    func testTheLayerFollowsAQueuePlayerFromItemToItem() throws {
        let first = AVPlayerItem(url: try halves("red", "red", seconds: 1))
        let second = AVPlayerItem(url: try halves("blue", "blue", seconds: 2, "second"))
        let player = AVQueuePlayer(items: [first, second])
        let layer = AVPlayerLayer(player: player)
        XCTAssertTrue(first.outputs.isEmpty, "the layer's output is none of the item's")
        let colours = Recorder<String>()
        layer.setLinuxPreviewFrameHandler(
            { frame in
                let c = AVPlayerLayerTests.colour(frame, x: 160, y: 120)
                colours.append(AVPlayerLayerTests.isRed(c) ? "red" : AVPlayerLayerTests.isBlue(c) ? "blue" : "other")
            }, queue: DispatchQueue(label: "drawer"))
        XCTAssertTrue(waitUntil { layer.isReadyForDisplay })
        player.play()
        XCTAssertTrue(waitUntil(timeout: 4) { player.currentItem === second && colours.values.last == "blue" }, "the second item's pictures")
        player.pause()
        layer.setLinuxPreviewFrameHandler(nil)
        let seen = colours.values
        XCTAssertEqual(seen.first, "red")
        XCTAssertFalse(seen.contains("other"), "\(seen)")
        XCTAssertEqual(seen.drop { $0 == "red" }.allSatisfy { $0 == "blue" }, true, "red, then blue: \(seen)")
        layer.player = nil
        XCTAssertFalse(layer.isReadyForDisplay)
        XCTAssertEqual(layer.videoRect, .zero, "no picture, no video rect")
        XCTAssertNil(layer.displayedPixelBuffer())
    }

    func testASlowDrawerMissesPicturesWithoutSlowingThePlayer() throws {
        let item = AVPlayerItem(url: try halves("red", "blue"))
        let player = AVPlayer(playerItem: item)
        let layer = AVPlayerLayer(player: player)
        let drawn = Recorder<Int>()
        layer.setLinuxPreviewFrameHandler(
            { frame in
                Thread.sleep(forTimeInterval: 0.25)  // a drawer that takes a quarter of a second a picture
                drawn.append(CVPixelBufferGetWidth(frame))
            }, queue: DispatchQueue(label: "slow drawer"))
        XCTAssertTrue(waitUntil { item.status == .readyToPlay })
        let started = Date()
        player.play()
        spin(2)
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertEqual(player.currentTime().seconds, elapsed, accuracy: 0.05, "the player keeps the host clock")
        player.pause()
        layer.setLinuxPreviewFrameHandler(nil)
        XCTAssertLessThan(drawn.values.count, 11, "the slow drawer drew only what it could")
        // Given a newer picture once it was free again: how many more a busy machine's player
        // decodes in time for it in two seconds is not the test's (4 of a possible 8 under
        // ThreadSanitizer on a loaded machine).
        XCTAssertGreaterThan(drawn.values.count, 1, "the slow drawer is given the next picture when it is free")
    }
}
