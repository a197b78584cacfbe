import AVFoundation
import CaptureTestSupport
import Combine
import TestSupport
import XCTest

/// `publisher(for:)` on capture objects, as Combine code observes them: the current value, then
/// each change, while the subscriber has demand.
final class KeyValueObservingPublisherTests: CaptureTestCase {
    func testASessionsRunningStateIsPublished() throws {
        let (session, _) = try makeVideoSession(preset: .low, collector: FrameCollector())
        let values = Recorder<Bool>()
        let subscription = session.publisher(for: \.isRunning).sink { values.append($0) }
        XCTAssertEqual(values.values, [false], "the current value first")
        session.startRunning()
        session.stopRunning()
        XCTAssertEqual(values.values, [false, true, false])
        subscription.cancel()
        session.startRunning()
        XCTAssertEqual(values.values, [false, true, false], "nothing once cancelled")
        session.stopRunning()

        let newOnly = Recorder<Bool>()
        let changes = session.publisher(for: \.isRunning, options: [.new]).sink { newOnly.append($0) }
        session.startRunning()
        XCTAssertEqual(newOnly.values, [true], "without .initial, changes only")
        session.stopRunning()
        changes.cancel()
        XCTAssertEqual(session.publisher(for: \.isRunning), session.publisher(for: \.isRunning))
        XCTAssertNotEqual(session.publisher(for: \.isRunning), session.publisher(for: \.isRunning, options: [.new]))
    }

    func testADevicesZoomIsPublishedAndASubscriberGetsOnlyWhatItAsksFor() throws {
        let camera = backCamera
        final class One: Subscriber, @unchecked Sendable {
            typealias Input = CGFloat
            typealias Failure = Never
            let values = Recorder<CGFloat>()
            var subscription: (any Subscription)?
            func receive(subscription: any Subscription) {
                self.subscription = subscription
                subscription.request(.max(2))
            }
            func receive(_ input: CGFloat) -> Subscribers.Demand {
                values.append(input)
                return .none
            }
            func receive(completion: Subscribers.Completion<Never>) {}
        }
        let two = One()
        camera.publisher(for: \.videoZoomFactor).subscribe(two)
        let all = Recorder<CGFloat>()
        let changed = Recorder<Bool>()
        let subscription = camera.publisher(for: \.videoZoomFactor).sink { all.append($0) }
        let didChange = camera.publisher(for: \.videoZoomFactor, options: [.new]).didChange().sink { changed.append(true) }
        for zoom: CGFloat in [2, 3, 1.5] {
            try camera.lockForConfiguration()
            camera.videoZoomFactor = zoom
            camera.unlockForConfiguration()
        }
        XCTAssertEqual(all.values, [1, 2, 3, 1.5])
        XCTAssertEqual(two.values.values, [1, 2], "a subscriber that asked for two gets two")
        XCTAssertEqual(changed.values.count, 3, "didChange: one event a change")
        subscription.cancel()
        didChange.cancel()
        two.subscription?.cancel()
    }

    func testTheMovieOutputsRecordingStateIsPublished() throws {
        let session = AVCaptureSession()
        sessions.append(session)
        session.sessionPreset = .low
        session.addInput(try AVCaptureDeviceInput(device: backCamera))
        let movie = AVCaptureMovieFileOutput()
        session.addOutput(movie)
        session.startRunning()
        let recording = Recorder<Bool>()
        let urls = Recorder<URL?>()
        let subscriptions = [
            movie.publisher(for: \.isRecording).sink { recording.append($0) },
            movie.publisher(for: \.outputFileURL, options: [.new]).sink { urls.append($0) },
        ]
        let url = makeScratchFolder().appendingPathComponent("observed.mov")
        let log = RecordingLog()
        movie.startRecording(to: url, recordingDelegate: log)
        XCTAssertEqual(recording.values, [false, true], "recording as soon as it is asked to")
        XCTAssertTrue(waitUntil(timeout: 15) { log.calls.contains("start") })
        movie.stopRecording()
        XCTAssertTrue(waitUntil(timeout: 15) { log.finished })
        XCTAssertTrue(waitUntil { recording.values == [false, true, false] }, "\(recording.values)")
        XCTAssertEqual(urls.values.first ?? nil, url)
        XCTAssertEqual(urls.values.last ?? url, nil, "no file once it is finished")
        for subscription in subscriptions { subscription.cancel() }
    }
}
