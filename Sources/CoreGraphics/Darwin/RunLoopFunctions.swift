import Foundation
import Synchronization

// Core Foundation's run loop functions, which command-line tools keep their main thread alive
// with, over Foundation's `RunLoop` (Swift on Linux does not expose Core Foundation's own).

/// A run loop: Foundation's `RunLoop`, which Core Foundation's functions here take and give.
public typealias CFRunLoop = RunLoop

/// The mode a run loop runs in.
public struct CFRunLoopMode: Hashable, RawRepresentable, @unchecked Sendable {
    /// The mode's name.
    public let rawValue: CFString

    /// The mode of the name given.
    public init(rawValue: CFString) { self.rawValue = rawValue }

    /// The mode of the name given.
    public init(_ rawValue: CFString) { self.rawValue = rawValue }

    /// The mode a run loop runs in unless told another.
    public static let defaultMode = CFRunLoopMode(rawValue: "kCFRunLoopDefaultMode" as NSString)
    /// The set of modes that sources are commonly added to.
    public static let commonModes = CFRunLoopMode(rawValue: "kCFRunLoopCommonModes" as NSString)

    /// Foundation's mode of the same meaning.
    var runLoopMode: RunLoop.Mode {
        switch self {
        case .defaultMode: .default
        case .commonModes: .common
        default: RunLoop.Mode(rawValue as String)
        }
    }
}

/// The mode a run loop runs in unless told another.
public let kCFRunLoopDefaultMode: CFRunLoopMode! = .defaultMode
/// The set of modes that sources are commonly added to.
public let kCFRunLoopCommonModes: CFRunLoopMode! = .commonModes

/// Why `CFRunLoopRunInMode(_:_:_:)` returned.
public enum CFRunLoopRunResult: Int32, Sendable {
    /// The mode has no sources or timers to wait for (here: asked to run for no time, with none).
    case finished = 1
    /// `CFRunLoopStop(_:)` stopped the run loop.
    case stopped = 2
    /// The time to run for passed.
    case timedOut = 3
    /// A source was handled, and the caller asked to return after one.
    case handledSource = 4
}

/// The run loops `CFRunLoopStop(_:)` has asked to stop, until their run notices.
private let stopsAsked = Mutex<Set<ObjectIdentifier>>([])

/// Whether `loop` was asked to stop; the request is taken.
private func takeStop(_ loop: RunLoop) -> Bool {
    stopsAsked.withLock { $0.remove(ObjectIdentifier(loop)) != nil }
}

/// How long a run waits for a source at a time before it looks whether it was asked to stop.
private let stopCheckInterval: TimeInterval = 0.05

/// The calling thread's run loop.
public func CFRunLoopGetCurrent() -> CFRunLoop! { RunLoop.current }

/// The main thread's run loop.
public func CFRunLoopGetMain() -> CFRunLoop! { RunLoop.main }

/// Runs the calling thread's run loop in the default mode until `CFRunLoopStop(_:)` stops it.
public func CFRunLoopRun() {
    while CFRunLoopRunInMode(.defaultMode, .greatestFiniteMagnitude, false) == .timedOut {}
}

/// Runs the calling thread's run loop in `mode` for at most `seconds`, or until one source has
/// been handled when `returnAfterSourceHandled`; says why it returned. Foundation's run loop on
/// Linux counts only sources, not timers, as something to wait for: a run here waits out its
/// time whatever the loop holds, and is `.finished` only when asked to run for no time at all.
@discardableResult
public func CFRunLoopRunInMode(_ mode: CFRunLoopMode!, _ seconds: CFTimeInterval, _ returnAfterSourceHandled: Bool) -> CFRunLoopRunResult {
    let loop = RunLoop.current
    let mode = (mode ?? .defaultMode).runLoopMode
    guard seconds > 0 else { return loop.run(mode: mode, before: Date()) ? .timedOut : .finished }
    let deadline = Date(timeIntervalSinceNow: seconds.isFinite ? min(seconds, 1e9) : 1e9)
    repeat {
        if takeStop(loop) { return .stopped }
        let slice = min(deadline, Date(timeIntervalSinceNow: stopCheckInterval))
        if loop.run(mode: mode, before: slice) {
            if returnAfterSourceHandled, Date() < slice { return .handledSource }
        } else {
            // Nothing Foundation counts to wait for: the slice is waited out all the same.
            Thread.sleep(until: slice)
        }
    } while Date() < deadline
    return takeStop(loop) ? .stopped : .timedOut
}

/// Stops `rl`'s current run: `CFRunLoopRun()` or `CFRunLoopRunInMode(_:_:_:)` returns.
public func CFRunLoopStop(_ rl: CFRunLoop!) {
    guard let rl else { return }
    _ = stopsAsked.withLock { $0.insert(ObjectIdentifier(rl)) }
    rl.perform {}
}

/// Wakes `rl` if it is waiting for a source.
public func CFRunLoopWakeUp(_ rl: CFRunLoop!) {
    rl?.perform {}
}
