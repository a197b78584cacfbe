import CoreMedia
import Foundation

/// The player's engine: the clock each item moves by, the sound and pictures that follow it,
/// the outputs that render it, and what happens at an item's end. Runs under the player's lock
/// and on its engine queue; the API in AVPlayer.swift calls in.
extension AVPlayer {
    /// The clock rate an item moves at for a player rate: the low-quality algorithm snaps to its rates (the AV Foundation Programming Guide).
    static func clockRate(_ rate: Float, algorithm: AVAudioTimePitchAlgorithm) -> Double {
        let rate = Double(rate)
        guard algorithm == .snapping, (0.5...2).contains(abs(rate)) else { return rate }
        let snapped = ComposedReading.snappedRates.min { abs($0 - abs(rate)) < abs($1 - abs(rate)) } ?? abs(rate)
        return rate < 0 ? -snapped : snapped
    }

    /// Brings status, the current item's clock and its media up to date after a change of rate,
    /// item, readiness or time (`jumped`: the media start again from the item's time); periodic
    /// observers hear of it when playback starts or stops, or when `timeJumped`.
    func update(jumped: Bool, timeJumped: Bool? = nil) {
        var changed: [PartialKeyPath<AVPlayer>] = []
        // Decided under one lock, so that of two updates racing, the later one's sound and
        // pictures are the ones that stay: the sound is made here, and outputs ignore moves older
        // than the last they followed.
        let plan = state.withLock {
            state -> (
                item: AVPlayerItem?, rate: Double, time: CMTime, newSound: PlayerSound?, oldSound: PlayerSound?,
                startedOrStopped: Bool, move: Int
            ) in
            let item = state.items.first
            let status: TimeControlStatus
            var reason: WaitingReason?
            if state.rate == 0 {
                status = .paused
            } else if let item, item.status == .readyToPlay {
                status = .playing
            } else {
                status = .waitingToPlayAtSpecifiedRate
                reason = item == nil || item?.status == .failed ? .noItemToPlay : .evaluatingBufferingRate
            }
            if status != state.timeControlStatus { state.timeControlStatus = status; changed.append(\AVPlayer.timeControlStatus) }
            if reason != state.waitingReason { state.waitingReason = reason; changed.append(\AVPlayer.reasonForWaitingToPlay) }
            state.moves += 1
            guard let item else {
                let old = state.sound
                state.sound = nil
                return (nil, 0, .zero, nil, old, false, state.moves)
            }
            var effective = status == .playing ? Self.clockRate(state.rate, algorithm: item.audioTimePitchAlgorithm) : 0
            if state.endReported, state.actionAtItemEnd == .none { effective = 0 }
            let (old, time) = item.state.withLock { itemState -> (Double, CMTime) in
                let old = itemState.clock.rate
                itemState.clock.set(rate: effective)
                return (old, AVPlayerItem.clamped(itemState.clock.now, itemState))
            }
            if jumped || state.lastEvaluated == .invalid { state.lastEvaluated = time }
            let key = (rate: effective, item: Optional(ObjectIdentifier(item)))
            let soundChanged = jumped || state.soundKey == nil || state.soundKey!.rate != key.rate || state.soundKey!.item != key.item
            guard soundChanged else { return (item, effective, time, nil, nil, old != effective, state.moves) }
            let oldSound = state.sound
            state.sound = nil
            state.soundKey = key
            if effective != 0, let track = item.assetTracks(.audio).first {
                state.sound = PlayerSound(
                    asset: item.asset, track: track, from: time, end: effective > 0 ? item.forwardEnd : item.reverseEnd,
                    rate: effective, algorithm: item.audioTimePitchAlgorithm, mix: item.audioMix
                ) { [weak self] in self?.gain ?? 0 }
            }
            return (item, effective, time, state.sound, oldSound, old != effective, state.moves)
        }
        plan.oldSound?.stop()
        plan.newSound?.start(after: plan.oldSound)
        if let item = plan.item {
            for output in renderingOutputs(of: item) {
                output.playerMoved(time: plan.time, rate: plan.rate, jumped: jumped, timeJumped: timeJumped ?? jumped, move: plan.move)
            }
        }
        if plan.startedOrStopped || (timeJumped ?? jumped) { firePeriodicObservers(at: plan.time) }
        notify(changed)
        engine.async { [weak self] in self?.evaluate() }
    }

    /// The item's settings changed (algorithm, end times): its clock and sound follow.
    func itemSettingsChanged(_ item: AVPlayerItem) {
        guard currentItem === item else { return }
        state.withLock { $0.soundKey = nil }
        update(jumped: false)
    }

    /// The outputs that take an item's media: its own and, while it is current, the layers'.
    func renderingOutputs(of item: AVPlayerItem) -> [AVPlayerItemOutput] {
        let layers = state.withLock { $0.items.first === item ? $0.layerOutputs : [] }
        return item.outputs + layers
    }

    /// A layer began showing the player: its output follows the current item from now on.
    func addLayerOutput(_ output: AVPlayerItemVideoOutput) {
        let item = state.withLock { state -> AVPlayerItem? in
            state.layerOutputs.append(output)
            return state.items.first
        }
        if let item { outputAdded(output, to: item) }
    }

    /// A layer stopped showing the player.
    func removeLayerOutput(_ output: AVPlayerItemVideoOutput) {
        state.withLock { $0.layerOutputs.removeAll { $0 === output } }
        output.detach()
    }

    /// An output was added to an item the player holds.
    func outputAdded(_ output: AVPlayerItemOutput, to item: AVPlayerItem) {
        guard currentItem === item else { return }
        output.attach(to: item)
        let (time, rate, move) = state.withLock { state in
            state.moves += 1
            return item.state.withLock { (AVPlayerItem.clamped($0.clock.now, $0), $0.clock.rate, state.moves) }
        }
        output.playerMoved(time: time, rate: rate, jumped: true, timeJumped: true, move: move)
    }

    /// On the engine queue: reports crossed boundaries, due periodic times and the item's end, and
    /// sets the timer for the next of them (a manual source clock calls again each time it moves).
    func evaluate() {
        guard let item = currentItem, item.status == .readyToPlay else {
            timer.schedule(deadline: .distantFuture)
            return
        }
        let clock = item.state.withLock { $0.clock }
        let forwardEnd = item.forwardEnd, reverseEnd = item.reverseEnd
        let now = clock.now
        let forward = clock.rate > 0
        var deadlines: [Double] = []
        var fires: [() -> Void] = []
        var reachedEnd = false
        let outputs = renderingOutputs(of: item)
        var crossed: (last: CMTime, now: CMTime)?
        state.withLock { state in
            guard clock.rate != 0 else { return }
            let last = state.lastEvaluated.isNumeric ? state.lastEvaluated : now
            let endTime = forward ? forwardEnd : reverseEnd
            let clampedNow = forward ? min(now, endTime) : max(now, endTime)
            crossed = (last, clampedNow)
            for observer in state.boundary {
                for time in observer.times {
                    let crossed = forward ? (time > last && time <= clampedNow) : (time < last && time >= clampedNow)
                    if crossed { fires.append(observer.fire) }
                    let ahead = forward ? time > clampedNow : time < clampedNow
                    if ahead, let host = clock.host(reaching: time) { deadlines.append(host) }
                }
            }
            state.lastEvaluated = clampedNow
            for index in state.periodic.indices {
                let observer = state.periodic[index]
                let due = forward ? observer.nextDue <= clampedNow.seconds + 0.0005 : observer.nextDue >= clampedNow.seconds - 0.0005
                if due {
                    fires.append { observer.fire(clampedNow) }
                    state.periodic[index].nextDue = observer.next(after: clampedNow.seconds, forward: forward)
                }
                if let host = clock.host(reaching: CMTime(seconds: state.periodic[index].nextDue, preferredTimescale: 1_000_000_000)) { deadlines.append(host) }
            }
            if forward ? now >= forwardEnd : now <= reverseEnd {
                if !state.endReported { reachedEnd = true }
            } else if let host = clock.host(reaching: endTime) {
                deadlines.append(host)
            }
        }
        for fire in fires { fire() }
        // Outputs that deliver at item times (timed metadata) hear what playback crossed, and say when next.
        if let crossed {
            for output in outputs {
                output.playbackCrossed(from: crossed.last, to: crossed.now, forward: forward)
                if let next = output.nextEventTime(after: crossed.now, forward: forward), let host = clock.host(reaching: next) { deadlines.append(host) }
            }
        }
        if reachedEnd {
            itemReachedEnd(item, at: forward ? forwardEnd : reverseEnd)
            return
        }
        if let next = deadlines.min(), !clock.source.isManuallyAdvanced {
            let wait = max(0, next - clock.hostNow)
            timer.schedule(deadline: .now() + .nanoseconds(Int(min(wait, 3600) * 1_000_000_000)), leeway: .microseconds(500))
        } else {
            timer.schedule(deadline: .distantFuture)
        }
    }

    /// An output has new item times to be told of (its timed metadata was read): the timer is set again.
    func outputEventsChanged() {
        engine.async { [weak self] in self?.evaluate() }
    }

    /// On the engine queue: the current item reached its end; tells observers and does `actionAtItemEnd`.
    func itemReachedEnd(_ item: AVPlayerItem, at end: CMTime) {
        let action = state.withLock { state -> ActionAtItemEnd in
            state.endReported = true
            state.lastEvaluated = end
            return state.actionAtItemEnd
        }
        item.state.withLock {
            $0.clock.jump(to: end); $0.clock.set(rate: 0)
        }
        NotificationCenter.default.post(name: AVPlayerItem.didPlayToEndTimeNotification, object: item)
        switch action {
        case .pause:
            setRate(0)
        case .advance:
            if let queue = self as? AVQueuePlayer, queue.currentItem === item { queue.advanceToNextItem() } else { setRate(0) }
        case .none:
            update(jumped: false)
        }
    }
}

extension AVPlayer {
    /// Why the latest sound could not be played (no sound server, for one); nil when it was.
    package static var soundProblem: String? { PlayerSound.lastProblem.withLock { $0 } }

    /// Whether an algorithm plays sound at a player rate (the AV Foundation Programming Guide's ranges, after snapping).
    package static func playsSound(atRate rate: Float, algorithm: AVAudioTimePitchAlgorithm) -> Bool {
        PlayerSound.plays(rate: clockRate(rate, algorithm: algorithm), algorithm: algorithm)
    }
}
