import Combine
import CaptureTestSupport
import XCTest
@testable import AVFoundation
import TestSupport

/// AVPlayer on a clock the tests move (the AV Foundation Programming Guide, "Playback": the rate is a multiplier of playback speed;
/// the item's time-pitch algorithm): rates, seeking, time observers, items' ends, queues,
/// observation, and pictures through AVPlayerItemVideoOutput. No sound server is needed here;
/// the sound itself is tested against a real server in `AVPlayerSoundTests`.
final class AVPlayerTests: CaptureTestCase {
    override func setUpWithError() throws {
        try XCTSkipUnless(MediaProbe.isAvailable, "ffmpeg is needed: apt-get install ffmpeg")
        // A sound server left by another test must not be used here.
        unsetenv("PULSE_SERVER")
    }

    private func movie(seconds: Int = 4, _ name: String = #function) throws -> URL {
        let url = makeScratchFolder(name).appendingPathComponent("movie.mp4")
        try TestMovies.picturesAndTone(url, seconds: seconds)
        return url
    }

    /// A player of a movie whose item is ready to play.
    private func readyPlayer(seconds: Int = 4, _ name: String = #function) throws -> (AVPlayer, AVPlayerItem) {
        let item = AVPlayerItem(url: try movie(seconds: seconds, name))
        let player = AVPlayer(playerItem: item)
        XCTAssertTrue(waitUntil { item.status == .readyToPlay }, "a local movie loads: \(String(describing: item.error))")
        return (player, item)
    }

    func testAnItemLoadsWhenAPlayerTakesItAndTellsItsDuration() throws {
        let item = AVPlayerItem(url: try movie())
        XCTAssertEqual(item.status, .unknown)
        XCTAssertFalse(item.duration.isNumeric, "indefinite until loaded")
        let statuses = Recorder<AVPlayerItem.Status>()
        let observation = item.observe(\.status, options: [.new]) { _, change in if let new = change.newValue { statuses.append(new) } }
        let player = AVPlayer(playerItem: item)
        XCTAssertTrue(waitUntil { item.status == .readyToPlay })
        // The observer hears the change on the loading thread just after it is made.
        XCTAssertTrue(waitUntil { !statuses.values.isEmpty }, "the status change is observable")
        XCTAssertEqual(statuses.values, [.readyToPlay])
        XCTAssertEqual(item.duration.seconds, 4, accuracy: 0.05)
        XCTAssertEqual(item.presentationSize, CGSize(width: 320, height: 240))
        XCTAssertEqual(item.tracks.count, 2)
        XCTAssertEqual(player.status, .readyToPlay)
        XCTAssertEqual(player.currentTime(), .zero)
        XCTAssertEqual(item.seekableTimeRanges.first?.timeRangeValue.duration.seconds ?? 0, 4, accuracy: 0.05)
        XCTAssertTrue(player.allowsExternalPlayback, "allowed by default")
        player.allowsExternalPlayback = false
        XCTAssertFalse(player.allowsExternalPlayback)
        XCTAssertFalse(player.isExternalPlaybackActive, "there is no external playback to be in")
        observation.invalidate()
    }

    /// A player of a movie whose item is ready to play, its time on a manual clock the test moves.
    private func clockedPlayer(seconds: Int = 4, _ name: String = #function) throws -> (AVPlayer, AVPlayerItem, CMClock) {
        let (player, item) = try readyPlayer(seconds: seconds, name)
        let clock = CMClock.manual()
        player.sourceClock = clock
        return (player, item, clock)
    }

    /// Moves `clock` on by `seconds` in steps of `step` (5 ms by default), waiting after each for
    /// the player's engine to look at the time and for `queues` (its observers') to run what it gave them.
    private func pass(_ seconds: Double, step: Double = 0.005, clock: CMClock, player: AVPlayer, queues: [DispatchQueue] = []) {
        let nanoseconds = Int64((step * 1_000_000_000).rounded())
        for _ in 0..<Int((seconds / step).rounded()) {
            clock.advance(by: CMTime(value: nanoseconds, timescale: 1_000_000_000))
            player.engine.sync {}
            for queue in queues { queue.sync {} }
        }
    }

    func testAtRateHalfTimeAdvancesHalfASecondPerSecondAndStopsWhenPaused() throws {
        let (player, item, clock) = try clockedPlayer()
        XCTAssertEqual(player.timeControlStatus, .paused)
        player.rate = 0.5
        XCTAssertEqual(player.rate, 0.5)
        XCTAssertEqual(player.timeControlStatus, .playing)
        XCTAssertTrue(player.sourceClock === clock)
        clock.advance(by: CMTime(value: 1, timescale: 1))
        XCTAssertEqual(player.currentTime().seconds, 0.5, accuracy: 1e-6, "half a second of item time per second")
        XCTAssertEqual(item.currentTime().seconds, player.currentTime().seconds, accuracy: 1e-9)
        player.pause()
        XCTAssertEqual(player.rate, 0)
        XCTAssertEqual(player.timeControlStatus, .paused)
        let stopped = player.currentTime()
        clock.advance(by: CMTime(value: 3, timescale: 10))
        XCTAssertEqual(player.currentTime(), stopped, "paused time stands still")
        player.playImmediately(atRate: 2)
        clock.advance(by: CMTime(value: 1, timescale: 2))
        XCTAssertEqual(player.currentTime().seconds, stopped.seconds + 1.0, accuracy: 1e-6, "twice as fast from where it stopped")
        // Back on the host clock, time goes on from where the manual clock left it.
        let reached = player.currentTime()
        player.sourceClock = nil
        XCTAssertEqual(player.currentTime().seconds, reached.seconds, accuracy: 0.05)
        XCTAssertTrue(waitUntil { player.currentTime() > reached + CMTime(value: 1, timescale: 10) }, "the host clock moves it")
        player.pause()
    }

    func testLowQualityZeroLatencySnapsTheRateAsSeed000Says() throws {
        let (player, item, clock) = try clockedPlayer()
        item.audioTimePitchAlgorithm = .snapping
        player.rate = 0.7
        XCTAssertEqual(player.rate, 0.7, "the rate asked for is kept")
        clock.advance(by: CMTime(value: 3, timescale: 2))
        let snapped = player.currentTime().seconds
        player.pause()
        XCTAssertEqual(snapped, 1.5 * AVPlayer.clockRate(0.7, algorithm: .snapping), accuracy: 1e-6, "0.7 plays at 0.666667")
        XCTAssertEqual(AVPlayer.clockRate(0.7, algorithm: .snapping), 0.666667, accuracy: 1e-6)
        XCTAssertEqual(AVPlayer.clockRate(1.1, algorithm: .snapping), 1.0)
        XCTAssertEqual(AVPlayer.clockRate(1.4, algorithm: .snapping), 1.5)
        XCTAssertEqual(AVPlayer.clockRate(0.7, algorithm: .timeDomain), 0.7, accuracy: 1e-6, "other algorithms play the rate asked for")
        XCTAssertEqual(AVPlayer.clockRate(4, algorithm: .snapping), 4, "outside its range nothing snaps (the sound is silent)")
        // The same rate with the spectral algorithm is not snapped.
        item.audioTimePitchAlgorithm = .spectral
        player.seek(to: .zero, toleranceBefore: .zero, toleranceAfter: .zero)
        player.rate = 0.7
        clock.advance(by: CMTime(value: 3, timescale: 2))
        XCTAssertEqual(player.currentTime().seconds, 1.5 * 0.7, accuracy: 1e-6)
    }

    func testRateAndTimeControlStatusAreObservableAndTheEndPausesAndIsPosted() throws {
        let (player, item, clock) = try clockedPlayer(seconds: 1)
        let rates = Recorder<Float>(), statuses = Recorder<AVPlayer.TimeControlStatus>(), ends = Recorder<Double>()
        let a = player.observe(\.rate, options: [.new]) { _, change in rates.append(change.newValue ?? -99) }
        let b = player.observe(\.timeControlStatus, options: [.initial, .new]) { _, change in statuses.append(change.newValue ?? .waitingToPlayAtSpecifiedRate)
        }
        let ended = NotificationCenter.default.addObserver(forName: .AVPlayerItemDidPlayToEndTime, object: item, queue: nil) { _ in
            ends.append(player.currentTime().seconds)
        }
        defer { NotificationCenter.default.removeObserver(ended) }
        player.rate = 4
        pass(0.24, clock: clock, player: player)
        XCTAssertEqual(ends.values, [], "not before a second of movie at four times the speed")
        pass(0.01, clock: clock, player: player)
        XCTAssertEqual(ends.values, [1], "posted as the end is reached, at the end")
        XCTAssertEqual(rates.values, [4, 0], "actionAtItemEnd .pause sets the rate to 0")
        XCTAssertEqual(player.timeControlStatus, .paused)
        pass(0.1, clock: clock, player: player)
        XCTAssertEqual(player.currentTime(), item.duration, "time stops at the end")
        XCTAssertEqual(statuses.values, [.paused, .playing, .paused])
        XCTAssertEqual(ends.values.count, 1, "posted once")
        a.invalidate()
        b.invalidate()
    }

    func testThePlayersAndItemsPropertiesArePublishedToCombine() throws {
        let (player, item, clock) = try clockedPlayer(seconds: 1)
        let statuses = Recorder<AVPlayer.TimeControlStatus>(), rates = Recorder<Float>(), itemStatuses = Recorder<AVPlayerItem.Status>()
        let subscriptions = [
            player.publisher(for: \.timeControlStatus).sink { statuses.append($0) },
            player.publisher(for: \.rate, options: [.new]).sink { rates.append($0) },
            item.publisher(for: \.status).sink { itemStatuses.append($0) },
        ]
        player.rate = 4
        pass(0.3, clock: clock, player: player)
        XCTAssertEqual(statuses.values, [.paused, .playing, .paused], "the current status, then each change")
        XCTAssertEqual(rates.values, [4, 0], "changes only, without .initial")
        XCTAssertEqual(itemStatuses.values.last, .readyToPlay)
        for subscription in subscriptions { subscription.cancel() }
        player.rate = 1
        XCTAssertEqual(rates.values, [4, 0], "nothing once cancelled")
    }

    func testActionAtItemEndNoneKeepsTheRate() throws {
        let (player, item, clock) = try clockedPlayer(seconds: 1)
        player.actionAtItemEnd = .none
        let ends = Recorder<Bool>()
        let ended = NotificationCenter.default.addObserver(forName: .AVPlayerItemDidPlayToEndTime, object: item, queue: nil) { _ in ends.append(true) }
        defer { NotificationCenter.default.removeObserver(ended) }
        player.rate = 4
        pass(0.3, clock: clock, player: player)
        XCTAssertEqual(ends.values, [true])
        XCTAssertEqual(player.rate, 4, "nothing is done at the end")
        XCTAssertEqual(player.currentTime(), item.duration)
    }

    func testSeeksLandExactlyAndAnInterruptedSeekIsToldItDidNotFinish() async throws {
        let (player, item) = try readyPlayer()
        let first = Recorder<Bool>(), second = Recorder<Bool>()
        let target = CMTime(value: 3, timescale: 2)
        // The player's queue is held, so the first seek cannot finish before the second starts.
        let held = DispatchSemaphore(value: 0)
        player.engine.async { held.wait() }
        player.seek(to: CMTime(value: 3, timescale: 1), toleranceBefore: .zero, toleranceAfter: .zero) { first.append($0) }
        player.seek(to: target, toleranceBefore: .zero, toleranceAfter: .zero) { second.append($0) }
        held.signal()
        XCTAssertTrue(waitUntil { first.values.count == 1 && second.values.count == 1 })
        XCTAssertEqual(first.values, [false], "the first seek was interrupted")
        XCTAssertEqual(second.values, [true])
        XCTAssertEqual(player.currentTime(), target, "exactly the time asked for while paused")
        let finished = await player.seek(to: CMTime(value: 1, timescale: 4))
        XCTAssertTrue(finished)
        XCTAssertEqual(item.currentTime().seconds, 0.25, accuracy: 1e-9)
        let clamped = await item.seek(to: CMTime(value: 60, timescale: 1), toleranceBefore: .zero, toleranceAfter: .zero)
        XCTAssertTrue(clamped)
        XCTAssertEqual(item.currentTime(), item.duration, "a seek past the end stops at the end")
        let detached = AVPlayerItem(url: try movie(seconds: 1, "detached"))
        let result = await detached.seek(to: .zero)
        XCTAssertFalse(result, "an item in no player cannot seek")
    }

    func testAnItemBecomingReadyDoesNotCallPeriodicObserversAgain() throws {
        let item = AVPlayerItem(url: try movie(seconds: 1))
        let player = AVPlayer()
        let times = Recorder<Double>()
        let queue = DispatchQueue(label: "observer")
        let token = player.addPeriodicTimeObserver(forInterval: CMTime(value: 1, timescale: 4), queue: queue) { times.append($0.seconds) }
        defer { player.removeTimeObserver(token) }
        queue.sync {}
        XCTAssertEqual(times.values, [0], "called at once with the current time")
        player.replaceCurrentItem(with: item)
        XCTAssertTrue(waitUntil { item.status == .readyToPlay })
        player.engine.sync {}
        queue.sync {}
        XCTAssertEqual(times.values, [0, 0], "once more for the new item's time, not again when it has loaded: time did not move")
    }

    func testPeriodicObserversFollowItemTimeAndStopWhenRemoved() throws {
        let (player, _, clock) = try clockedPlayer()
        let times = Recorder<Double>()
        let queue = DispatchQueue(label: "observer")
        let token = player.addPeriodicTimeObserver(forInterval: CMTime(value: 1, timescale: 4), queue: queue) { times.append($0.seconds) }
        XCTAssertTrue(waitUntil { !times.values.isEmpty }, "called at once with the current time")
        XCTAssertEqual(times.values, [0])
        pass(0.2, clock: clock, player: player, queues: [queue])
        XCTAssertEqual(times.values, [0], "not while paused")
        times.removeAll()
        player.rate = 2
        pass(1.0, clock: clock, player: player, queues: [queue])
        player.pause()
        queue.sync {}
        let values = times.values
        // On starting (at 0), at 0.25 ... 2.0 (item time at twice the speed), and on stopping (at 2.0).
        XCTAssertEqual(values.count, 10, "\(values)")
        XCTAssertEqual(values.first ?? -1, 0, accuracy: 1e-6, "called when playback starts: \(values)")
        for (index, time) in values.dropFirst().dropLast().enumerated() {
            XCTAssertEqual(time, Double(index + 1) * 0.25, accuracy: 1e-6, "each multiple of the interval, once: \(values)")
        }
        XCTAssertEqual(values.last ?? -1, 2, accuracy: 1e-6, "called when playback stops: \(values)")
        player.removeTimeObserver(token)
        let count = times.values.count
        player.rate = 2
        pass(0.6, clock: clock, player: player, queues: [queue])
        player.pause()
        queue.sync {}
        XCTAssertEqual(times.values.count, count, "no calls after removal")
    }

    func testBoundaryObserversFireWhenPlaybackCrossesATimeNotWhenASeekJumpsOverIt() throws {
        let (player, _, clock) = try clockedPlayer()
        let crossed = Recorder<Double>()
        let queue = DispatchQueue(label: "boundary")
        _ = player.addBoundaryTimeObserver(
            forTimes: [NSValue(time: CMTime(value: 1, timescale: 2)), NSValue(time: CMTime(value: 5, timescale: 2))], queue: queue
        ) { crossed.append(player.currentTime().seconds) }
        player.rate = 2
        pass(0.2, clock: clock, player: player, queues: [queue])
        XCTAssertEqual(crossed.values, [], "not before 0.5 s")
        pass(0.05, clock: clock, player: player, queues: [queue])
        XCTAssertEqual(crossed.values.count, 1)
        XCTAssertEqual(crossed.values.first ?? 0, 0.5, accuracy: 1e-6, "called as 0.5 s is crossed")
        pass(0.25, clock: clock, player: player, queues: [queue])
        player.pause()
        XCTAssertEqual(crossed.values.count, 1, "once")
        player.seek(to: CMTime(value: 3, timescale: 1), toleranceBefore: .zero, toleranceAfter: .zero)
        player.rate = 2
        pass(0.1, clock: clock, player: player, queues: [queue])
        player.pause()
        XCTAssertEqual(crossed.values.count, 1, "a seek over 2.5 s crosses nothing")
        XCTAssertEqual(NSValue(time: CMTime(value: 5, timescale: 2)).timeValue, CMTime(value: 5, timescale: 2))
    }

    func testTheVideoOutputGivesThePictureForEachItemTimeAndDropsWhatIsLate() throws {
        let (player, item, clock) = try clockedPlayer()
        let output = AVPlayerItemVideoOutput(pixelBufferAttributes: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA])
        item.add(output)
        XCTAssertTrue(waitUntil { output.hasNewPixelBuffer(forItemTime: .zero) }, "the first picture, while paused")
        var shown = CMTime.invalid
        let first = try XCTUnwrap(output.copyPixelBuffer(forItemTime: .zero, itemTimeForDisplay: &shown))
        XCTAssertEqual(shown, .zero)
        XCTAssertEqual(CVPixelBufferGetPixelFormatType(first), kCVPixelFormatType_32BGRA)
        XCTAssertEqual(CVPixelBufferGetWidth(first), 320)
        XCTAssertFalse(output.hasNewPixelBuffer(forItemTime: .zero), "nothing new at the same time")
        XCTAssertNil(output.copyPixelBuffer(forItemTime: .zero, itemTimeForDisplay: nil))

        let seeked = expectation(description: "seek")
        player.seek(to: CMTime(value: 2, timescale: 1), toleranceBefore: .zero, toleranceAfter: .zero) { finished in
            XCTAssertTrue(finished)
            seeked.fulfill()
        }
        wait(for: [seeked], timeout: 5)
        XCTAssertTrue(output.hasNewPixelBuffer(forItemTime: CMTime(value: 2, timescale: 1)), "the picture at the new time is ready when the seek finishes")
        XCTAssertNotNil(output.copyPixelBuffer(forItemTime: CMTime(value: 2, timescale: 1), itemTimeForDisplay: &shown))
        XCTAssertEqual(shown.seconds, 2, accuracy: 0.001)

        // Asked at a display's 60 Hz while playing: every picture of a 30 fps movie, in order, each at its time.
        player.rate = 1
        var times: [Double] = []
        for _ in 0..<60 {
            clock.advance(by: CMTime(value: 1, timescale: 60))
            // The host time now, taken to the player's clock, is before its time by no more than the
            // host time that passed while the output took it there (the manual clock stands still).
            let now = player.currentTime()
            let asked = CACurrentMediaTime()
            let taken = output.itemTime(forHostTime: asked).seconds
            let passed = CACurrentMediaTime() - asked
            XCTAssertLessThanOrEqual(taken, now.seconds + 1e-6, "host time is taken to the player's clock")
            XCTAssertGreaterThanOrEqual(taken, now.seconds - passed - 1e-6, "host time is taken to the player's clock")
            XCTAssertTrue(waitUntil { output.hasDecodedEverythingDue(atItemTime: now) })
            if output.hasNewPixelBuffer(forItemTime: now), output.copyPixelBuffer(forItemTime: now, itemTimeForDisplay: &shown) != nil {
                XCTAssertLessThanOrEqual(shown, now, "never a picture before its time")
                XCTAssertEqual(shown.seconds, now.seconds, accuracy: 1.0 / 30 - 0.001, "the picture for now: \(shown.seconds) at \(now.seconds)")
                times.append(shown.seconds)
            }
        }
        player.pause()
        XCTAssertEqual(times.count, 30, "\(times)")
        for (index, time) in times.enumerated() { XCTAssertEqual(time, 2 + Double(index + 1) / 30, accuracy: 0.001, "\(times)") }
        // Asked once after half a second: the latest picture, the ones before it passed over.
        player.rate = 1
        clock.advance(by: CMTime(value: 1, timescale: 2))
        let now = player.currentTime()
        XCTAssertTrue(waitUntil { output.hasDecodedEverythingDue(atItemTime: now) })
        XCTAssertNotNil(output.copyPixelBuffer(forItemTime: now, itemTimeForDisplay: &shown))
        XCTAssertEqual(shown.seconds, 3.5, accuracy: 0.001, "the picture for now, not a late one")
        player.pause()
    }

    func testBackwardsPlayGivesPicturesLatestFirstAndEndsAtZero() throws {
        let (player, item, clock) = try clockedPlayer(seconds: 2)
        let output = AVPlayerItemVideoOutput(pixelBufferAttributes: nil)
        item.add(output)
        let seeked = expectation(description: "seek")
        player.seek(to: CMTime(value: 1, timescale: 1), toleranceBefore: .zero, toleranceAfter: .zero) { _ in seeked.fulfill() }
        wait(for: [seeked], timeout: 5)
        let ends = Recorder<Bool>()
        let ended = NotificationCenter.default.addObserver(forName: .AVPlayerItemDidPlayToEndTime, object: item, queue: nil) { _ in ends.append(true) }
        defer { NotificationCenter.default.removeObserver(ended) }
        player.rate = -1
        var times: [Double] = []
        var shown = CMTime.invalid
        for _ in 0..<72 {
            clock.advance(by: CMTime(value: 1, timescale: 60))
            player.engine.sync {}
            let now = player.currentTime()
            XCTAssertTrue(waitUntil { output.hasDecodedEverythingDue(atItemTime: now) })
            if output.copyPixelBuffer(forItemTime: now, itemTimeForDisplay: &shown) != nil { times.append(shown.seconds) }
        }
        XCTAssertEqual(ends.values, [true], "the start is backwards play's end")
        XCTAssertEqual(times, times.sorted(by: >), "latest first")
        XCTAssertEqual(times.count, 30, "every picture from 1 s down to 0: \(times)")
        XCTAssertEqual(times.first ?? 0, 1, accuracy: 1.0 / 30 + 0.001, "from the time it started at: \(times)")
        XCTAssertEqual(times.last ?? 1, 0, accuracy: 0.001)
        XCTAssertEqual(player.currentTime(), .zero, "backwards play ends at zero")
        XCTAssertEqual(player.rate, 0)
    }

    func testAQueuePlayerAdvancesThroughItsItems() throws {
        let first = AVPlayerItem(url: try movie(seconds: 1, "first"))
        let second = AVPlayerItem(url: try movie(seconds: 1, "second"))
        let player = AVQueuePlayer(items: [first, second])
        XCTAssertEqual(player.actionAtItemEnd, .advance)
        XCTAssertTrue(player.items() == [first, second])
        let items = Recorder<AVPlayerItem?>()
        let observation = player.observe(\.currentItem, options: [.new]) { _, change in items.append(change.newValue ?? nil) }
        XCTAssertTrue(waitUntil { first.status == .readyToPlay && second.status == .readyToPlay }, "queued items load ahead")
        let ends = [
            expectation(forNotification: .AVPlayerItemDidPlayToEndTime, object: first),
            expectation(forNotification: .AVPlayerItemDidPlayToEndTime, object: second),
        ]
        player.rate = 4
        wait(for: ends, timeout: 5, enforceOrder: true)
        XCTAssertTrue(waitUntil { player.currentItem == nil })
        XCTAssertTrue(player.items().isEmpty, "played items leave the queue")
        // The observer hears the last change on the player's thread just after it is readable.
        XCTAssertTrue(waitUntil { items.values.count == 2 }, "\(items.values)")
        XCTAssertEqual(items.values.count, 2)
        XCTAssertTrue(items.values.first! === second)
        XCTAssertEqual(player.timeControlStatus, .waitingToPlayAtSpecifiedRate)
        XCTAssertEqual(player.reasonForWaitingToPlay, .noItemToPlay)
        let third = AVPlayerItem(url: try movie(seconds: 1, "third"))
        XCTAssertTrue(player.canInsert(third, after: nil))
        player.insert(third, after: nil)
        XCTAssertTrue(player.currentItem === third)
        XCTAssertFalse(player.canInsert(third, after: nil), "an item is queued once")
        XCTAssertTrue(waitUntil { player.timeControlStatus == .playing }, "the rate carries on to the new item")
        player.removeAllItems()
        XCTAssertNil(player.currentItem)
        observation.invalidate()
    }

    func testALooperPlaysItsRangeAgainAndAgainUntilDisabled() throws {
        let player = AVQueuePlayer()
        let template = AVPlayerItem(url: try movie(seconds: 1))
        let range = CMTimeRange(start: CMTime(value: 1, timescale: 4), end: CMTime(value: 3, timescale: 4))
        let looper = AVPlayerLooper(player: player, templateItem: template, timeRange: range)
        XCTAssertEqual(looper.loopingPlayerItems.count, 3, "replicas queued ahead")
        XCTAssertTrue(player.items() == looper.loopingPlayerItems)
        XCTAssertFalse(player.items().contains { $0 === template }, "the template itself is not played")
        XCTAssertTrue(waitUntil { looper.status == .ready && player.currentItem?.status == .readyToPlay })
        XCTAssertEqual(player.currentTime().seconds, 0.25, accuracy: 0.001, "each replica starts at the range's start")
        let times = Recorder<Double>()
        _ = player.addPeriodicTimeObserver(forInterval: CMTime(value: 1, timescale: 20), queue: DispatchQueue(label: "loop")) { times.append($0.seconds) }
        player.rate = 2
        XCTAssertTrue(
            waitUntil(timeout: 5) { looper.loopCount >= 4 }, "a half-second range at twice the speed loops four times in a second: \(looper.loopCount)")
        // A replica that ends leaves the queue before the looper queues the next: the queue is
        // two long for that moment (a sanitizer's build, six times slower, caught it there).
        XCTAssertTrue(waitUntil(timeout: 5) { player.items().count == 3 }, "the queue is three long again: \(player.items().count)")
        XCTAssertTrue(times.values.allSatisfy { $0 >= 0.25 - 0.001 && $0 <= 0.75 + 0.001 }, "only the range plays: \(times.values)")
        looper.disableLooping()
        XCTAssertEqual(looper.status, .cancelled)
        XCTAssertTrue(waitUntil(timeout: 5) { player.currentItem == nil }, "the queued replicas play out")
    }

    func testPrerollTellsWhenTheItemCanPlayAndCancelTellsAtOnce() throws {
        let (player, _) = try readyPlayer()
        let told = Recorder<Bool>()
        player.preroll(atRate: 1) { told.append($0) }
        XCTAssertTrue(waitUntil { told.values == [true] })
        // The slow item's asset cannot open while the test holds its opening: it stays loading.
        let asset = AVURLAsset(url: try movie(seconds: 1, "slow"))
        let slowItem = AVPlayerItem(asset: asset)
        asset.opening.withLock { _ in
            let slow = AVPlayer(playerItem: slowItem)
            slow.preroll(atRate: 1) { told.append($0) }
            XCTAssertEqual(slowItem.status, .unknown)
            slow.cancelPendingPrerolls()
            XCTAssertTrue(waitUntil { told.values.count == 2 })
        }
        XCTAssertEqual(told.values.last, false, "cancelled before the item was ready")
        XCTAssertTrue(waitUntil { slowItem.status == .readyToPlay }, "the item loads once the opening is let go")
        XCTAssertEqual(told.values.count, 2, "a cancelled preroll is told once")
        AVPlayer().preroll(atRate: 1) { told.append($0) }
        XCTAssertTrue(waitUntil { told.values.count == 3 })
        XCTAssertEqual(told.values.last, false, "no item")
    }

    func testAnItemThatCannotBeOpenedFailsWithAnAVError() throws {
        let missing = makeScratchFolder().appendingPathComponent("missing.mov")
        let item = AVPlayerItem(url: missing)
        let player = AVPlayer(playerItem: item)
        XCTAssertTrue(waitUntil { item.status == .failed })
        XCTAssertTrue(item.error is AVError, "\(String(describing: item.error))")
        player.play()
        XCTAssertEqual(player.timeControlStatus, .waitingToPlayAtSpecifiedRate)
        XCTAssertEqual(player.reasonForWaitingToPlay, .noItemToPlay)
        let done = Recorder<Bool>()
        player.seek(to: .zero) { done.append($0) }
        XCTAssertEqual(done.values, [false])
        let garbage = makeScratchFolder("garbage").appendingPathComponent("garbage.mp4")
        try Data((0..<65536).map { UInt8(truncatingIfNeeded: $0 &* 7919) }).write(to: garbage)
        let bad = AVPlayerItem(url: garbage)
        player.replaceCurrentItem(with: bad)
        XCTAssertTrue(waitUntil { bad.status == .failed })
        XCTAssertNotNil(bad.error)
    }

    func testVolumeAndMutingAreKeptAndObservable() throws {
        let player = AVPlayer()
        let volumes = Recorder<Float>()
        let observation = player.observe(\.volume, options: [.new]) { _, change in volumes.append(change.newValue ?? -1) }
        player.volume = 0.25
        player.isMuted = true
        XCTAssertEqual(player.volume, 0.25)
        XCTAssertTrue(player.isMuted)
        XCTAssertEqual(player.gain, 0)
        player.isMuted = false
        XCTAssertEqual(player.gain, 0.25)
        player.volume = 3
        XCTAssertEqual(player.volume, 1, "volume stays within 0 to 1")
        XCTAssertEqual(volumes.values, [0.25, 1])
        observation.invalidate()
        XCTAssertNil(player.currentItem)
        player.play()
        XCTAssertEqual(player.reasonForWaitingToPlay, .noItemToPlay)
    }
}
