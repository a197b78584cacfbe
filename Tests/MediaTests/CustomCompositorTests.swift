import CaptureTestSupport
import XCTest
@testable import AVFoundation
import MovieEngine
import TestSupport

/// `customVideoCompositorClass`: the class is made with its own `init()` as Apple's engine makes
/// it, told its render context, and asked for each frame; its errors and cancellations end reading.
final class CustomCompositorTests: XCTestCase {
    override func setUpWithError() throws {
        try XCTSkipUnless(MediaProbe.isAvailable, "ffmpeg is needed: apt-get install ffmpeg")
    }

    class Defaulted: NSObject {
        var words = ["made", "by", "init"]
        var count = 3
    }
    class Explicit: NSObject {
        let made: Date
        override init() {
            made = Date()
            super.init()
        }
    }
    final class Final: NSObject {}
    class Plain {}

    func testAnInstanceIsMadeFromAClassObjectAsObjectiveCMakesIt() throws {
        XCTAssertNotNil(
            ObjectCreation.initializerSlot,
            "the toolchain's class metadata layout moved: init()'s entry in a class's method table can no longer be found (Sources/MovieEngine/ObjectCreation.swift says what it assumes)"
        )
        let defaulted = try XCTUnwrap(ObjectCreation.instance(of: Defaulted.self) as? Defaulted)
        XCTAssertEqual(defaulted.words, ["made", "by", "init"], "stored properties are initialised")
        XCTAssertEqual(defaulted.count, 3)
        XCTAssertNotNil((ObjectCreation.instance(of: Explicit.self) as? Explicit)?.made, "an explicit init() runs")
        XCTAssertTrue(ObjectCreation.instance(of: Final.self) is Final)
        XCTAssertNil(ObjectCreation.instance(of: Plain.self), "only NSObject subclasses")
        weak var released: NSObject?
        do {
            let object = ObjectCreation.instance(of: Defaulted.self)
            released = object
            XCTAssertNotNil(released)
        }
        XCTAssertNil(released, "the instance is owned once, not leaked")
    }

    /// Records each request; fills the frame with the source's own first pixel, or fails or
    /// waits for cancelling as `mode` says.
    final class Recording: NSObject, AVVideoCompositing, @unchecked Sendable {
        enum Mode { case compose, fail, hang }
        nonisolated(unsafe) static var mode = Mode.compose
        nonisolated(unsafe) static var last: Recording?
        let lock = NSLock()
        var times: [CMTime] = []
        var trackIDs: [[NSNumber]] = []
        var contextSize: CGSize?
        private var pending: [AVAsynchronousVideoCompositionRequest] = []

        override init() {
            super.init()
            Recording.last = self
        }

        var sourcePixelBufferAttributes: [String: any Sendable]? { [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA] }
        var requiredPixelBufferAttributesForRenderContext: [String: any Sendable] {
            [kCVPixelBufferPixelFormatTypeKey as String: [kCVPixelFormatType_32BGRA]]
        }
        func renderContextChanged(_ newRenderContext: AVVideoCompositionRenderContext) { lock.withLock { contextSize = newRenderContext.size } }

        func startRequest(_ request: AVAsynchronousVideoCompositionRequest) {
            lock.withLock {
                times.append(request.compositionTime)
                trackIDs.append(request.sourceTrackIDs)
            }
            switch Recording.mode {
            case .fail: request.finish(with: NSError(domain: "Recording", code: 7))
            case .hang: lock.withLock { pending.append(request) }
            case .compose:
                guard let id = request.sourceTrackIDs.first?.int32Value, let source = request.sourceFrame(byTrackID: id),
                    let frame = request.renderContext.newPixelBuffer()
                else { return request.finish(with: NSError(domain: "Recording", code: 1)) }
                CVPixelBufferLockBaseAddress(source, .readOnly)
                CVPixelBufferLockBaseAddress(frame, [])
                let pixel = CVPixelBufferGetBaseAddress(source)!.load(as: UInt32.self)
                let rowPixels = CVPixelBufferGetBytesPerRow(frame) / 4
                CVPixelBufferGetBaseAddress(frame)!.assumingMemoryBound(to: UInt32.self)
                    .update(repeating: ~pixel | 0xFF00_0000, count: rowPixels * CVPixelBufferGetHeight(frame))
                CVPixelBufferUnlockBaseAddress(frame, [])
                CVPixelBufferUnlockBaseAddress(source, .readOnly)
                request.finish(withComposedVideoFrame: frame)
            }
        }

        func cancelAllPendingVideoCompositionRequests() {
            for request in lock.withLock({ pending }) { request.finishCancelledRequest() }
        }
    }

    /// A reader of a red clip's frames through a composition whose compositor is `Recording`.
    private func reader() throws -> (AVAssetReader, AVAssetReaderVideoCompositionOutput, CMPersistentTrackID) {
        let url = makeScratchFolder().appendingPathComponent("red.mp4")
        try TestMovies.picturesAndTone(url, seconds: 1, colour: "red")
        let asset = AVURLAsset(url: url)
        let track = try XCTUnwrap(asset.tracks(withMediaType: .video).first)
        let composition = AVMutableVideoComposition(propertiesOf: asset)
        composition.customVideoCompositorClass = Recording.self
        let reader = try AVAssetReader(asset: asset)
        let output = AVAssetReaderVideoCompositionOutput(
            videoTracks: [track], videoSettings: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA])
        output.videoComposition = composition
        reader.add(output)
        return (reader, output, track.trackID)
    }

    func testEachFrameIsARequestAtItsTimeWithItsSourcesAndTheComposedFrameIsRead() throws {
        Recording.mode = .compose
        let (reader, output, trackID) = try reader()
        XCTAssertNil(output.customVideoCompositor, "made when reading starts")
        XCTAssertTrue(reader.startReading())
        var frames = 0
        var inverted: [UInt8] = []
        while let sample = output.copyNextSampleBuffer() {
            let buffer = try XCTUnwrap(CMSampleBufferGetImageBuffer(sample))
            CVPixelBufferLockBaseAddress(buffer, .readOnly)
            let bytes = CVPixelBufferGetBaseAddress(buffer)!.assumingMemoryBound(to: UInt8.self)
            inverted = [bytes[0], bytes[1], bytes[2]]
            CVPixelBufferUnlockBaseAddress(buffer, .readOnly)
            frames += 1
        }
        XCTAssertEqual(reader.status, .completed, "\(String(describing: reader.error))")
        XCTAssertEqual(frames, 30)
        let compositor = try XCTUnwrap(output.customVideoCompositor as? Recording)
        XCTAssertTrue(compositor === Recording.last, "the instance the engine made")
        XCTAssertEqual(compositor.contextSize, CGSize(width: 320, height: 240))
        XCTAssertEqual(compositor.times, (0..<30).map { CMTime(value: CMTimeValue($0), timescale: 30) })
        XCTAssertTrue(compositor.trackIDs.allSatisfy { $0 == [NSNumber(value: trackID)] })
        // Red, inverted: cyan, in BGRA order.
        XCTAssertTrue(inverted[0] > 200 && inverted[1] > 200 && inverted[2] < 60, "the compositor's frame is what is read: \(inverted)")
    }

    func testAFailedRequestFailsReadingAndCancellingEndsAWaitingOne() throws {
        Recording.mode = .fail
        let (failing, failingOutput, _) = try reader()
        XCTAssertTrue(failing.startReading())
        XCTAssertNil(failingOutput.copyNextSampleBuffer())
        XCTAssertEqual(failing.status, .failed)
        XCTAssertEqual((failing.error as NSError?)?.code, 7, "the compositor's own error")

        Recording.mode = .hang
        let (hanging, hangingOutput, _) = try reader()
        XCTAssertTrue(hanging.startReading())
        let read = expectation(description: "reading ends")
        let waiting = UncheckedSendable(hangingOutput)
        DispatchQueue.global().async {
            XCTAssertNil(waiting.value.copyNextSampleBuffer())
            read.fulfill()
        }
        XCTAssertTrue(waitUntil { Recording.last?.lock.withLock({ Recording.last?.times.count ?? 0 }) == 1 }, "the first request waits")
        hanging.cancelReading()
        wait(for: [read], timeout: 10)
        XCTAssertEqual(hanging.status, .cancelled)
    }
}
