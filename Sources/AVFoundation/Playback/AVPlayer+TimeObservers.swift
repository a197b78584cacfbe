import CoreMedia
import Foundation

/// The token a time observer is removed with.
final class PlayerTimeObserverToken: NSObject, @unchecked Sendable {}

/// A block called at regular intervals of item time while the player plays, and whenever time
/// jumps or playback starts or stops.
struct PeriodicTimeObserver {
    let token: PlayerTimeObserverToken
    let interval: Double
    let queue: DispatchQueue
    let block: @Sendable (CMTime) -> Void
    /// The item time, in seconds, of the next call during playback.
    var nextDue: Double

    /// The next multiple of the interval past a time, in the direction of play.
    func next(after time: Double, forward: Bool) -> Double {
        let steps = time / interval
        return forward ? (steps.rounded(.down) + 1) * interval : (steps.rounded(.up) - 1) * interval
    }

    /// Calls the block on its queue.
    func fire(_ time: CMTime) {
        let block = self.block
        queue.async { block(time) }
    }
}

/// A block called when playback crosses one of its times.
struct BoundaryTimeObserver {
    let token: PlayerTimeObserverToken
    let times: [CMTime]
    let queue: DispatchQueue
    let block: @Sendable () -> Void

    /// Calls the block on its queue.
    func fire() {
        let block = self.block
        queue.async { block() }
    }
}

extension AVPlayer {
    /// Calls a block at an interval of the current item's time during playback, and whenever
    /// time jumps or playback starts or stops; returns the observer to remove it with.
    /// A nil queue is the main queue.
    public func addPeriodicTimeObserver(forInterval interval: CMTime, queue: DispatchQueue?, using block: @escaping @Sendable (CMTime) -> Void) -> Any {
        guard interval.isNumeric, interval > .zero else {
            ProgrammingError.invalidArgument("-[AVPlayer addPeriodicTimeObserverForInterval:queue:usingBlock:] the interval must be numeric and positive")
        }
        let token = PlayerTimeObserverToken()
        let now = currentTime()
        var observer = PeriodicTimeObserver(token: token, interval: interval.seconds, queue: queue ?? .main, block: block, nextDue: 0)
        let forward = (currentItem?.state.withLock { $0.clock.rate } ?? 0) >= 0
        observer.nextDue = observer.next(after: now.seconds, forward: forward)
        state.withLock { $0.periodic.append(observer) }
        observer.fire(now)
        engine.async { [weak self] in self?.evaluate() }
        return token
    }

    /// Calls a block whenever playback crosses one of the times (`NSValue`s holding `CMTime`s);
    /// returns the observer to remove it with. A nil queue is the main queue.
    public func addBoundaryTimeObserver(forTimes times: [NSValue], queue: DispatchQueue?, using block: @escaping @Sendable () -> Void) -> Any {
        guard !times.isEmpty else {
            ProgrammingError.invalidArgument("-[AVPlayer addBoundaryTimeObserverForTimes:queue:usingBlock:] times must not be empty")
        }
        let token = PlayerTimeObserverToken()
        let observer = BoundaryTimeObserver(token: token, times: times.map(\.timeValue).filter(\.isNumeric), queue: queue ?? .main, block: block)
        state.withLock { $0.boundary.append(observer) }
        engine.async { [weak self] in self?.evaluate() }
        return token
    }

    /// Removes a time observer; its block is not called after this returns, except for calls already queued.
    public func removeTimeObserver(_ observer: Any) {
        guard let token = observer as? PlayerTimeObserverToken else {
            ProgrammingError.invalidArgument("-[AVPlayer removeTimeObserver:] the observer was not returned by this player")
        }
        state.withLock { state in
            state.periodic.removeAll { $0.token === token }
            state.boundary.removeAll { $0.token === token }
        }
    }

    /// Calls every periodic observer now (time jumped, or playback started or stopped), and sets their next times.
    func firePeriodicObservers(at time: CMTime) {
        let forward = (currentItem?.state.withLock { $0.clock.rate } ?? 0) >= 0
        let observers = state.withLock { state -> [PeriodicTimeObserver] in
            for index in state.periodic.indices {
                state.periodic[index].nextDue = state.periodic[index].next(after: time.seconds, forward: forward)
            }
            return state.periodic
        }
        for observer in observers { observer.fire(time) }
    }
}
