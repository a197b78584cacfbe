import CoreVideo
import Foundation

/// Options for a buffer a player node schedules.
public struct AVAudioPlayerNodeBufferOptions: OptionSet, Sendable {
    /// The value's raw representation.
    public let rawValue: UInt
    /// Creates options from their raw representation.
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// The buffer plays again and again, until another interrupts it or the player stops.
    public static let loops = AVAudioPlayerNodeBufferOptions(rawValue: 1 << 0)
    /// The buffer replaces what is scheduled, at once.
    public static let interrupts = AVAudioPlayerNodeBufferOptions(rawValue: 1 << 1)
    /// The buffer replaces a looping buffer at the end of its current loop.
    public static let interruptsAtLoop = AVAudioPlayerNodeBufferOptions(rawValue: 1 << 2)
}

/// When a player node's completion handler is called.
public enum AVAudioPlayerNodeCompletionCallbackType: Int, @unchecked Sendable {
    /// When the player has consumed the data.
    case dataConsumed = 0
    /// When the player has rendered the data.
    case dataRendered = 1
    /// When the data has been played (rendered, and through the output's latency).
    case dataPlayedBack = 2
}

/// A block called with the kind of completion a player node reached.
public typealias AVAudioPlayerNodeCompletionHandler = (AVAudioPlayerNodeCompletionCallbackType) -> Void

/// A node that plays buffers and file segments, scheduled in order, with loops.
///
/// Thread ownership: scheduling and transport come from any thread, under the node's lock; the
/// render thread plays the schedule. Files are read on the render thread, a block at a time;
/// completion handlers run on a queue of their own.
open class AVAudioPlayerNode: AVAudioNode, AVAudioMixing, @unchecked Sendable {
    /// One thing scheduled.
    private struct Item {
        enum Source {
            case buffer(AVAudioPCMBuffer)
            case file(AVAudioFile, start: AVAudioFramePosition, frames: Int64)
        }
        var source: Source
        var loops: Bool
        /// The player sample time it starts at, if given.
        var at: AVAudioFramePosition?
        var handler: (@Sendable () -> Void)?
        /// Frames played of the current pass.
        var played: Int64 = 0
        var length: Int64 {
            switch source {
            case .buffer(let buffer): Int64(buffer.frameLength)
            case .file(_, _, let frames): frames
            }
        }
    }

    private struct State {
        var items: [Item] = []
        var playing = false
        /// Frames rendered since play(); the player's timeline.
        var playerTime: AVAudioFramePosition = 0
        /// The node sample time of the first frame played, once playing has rendered.
        var startNodeTime: AVAudioFramePosition?
        var playAt: AVAudioFramePosition?
        var loopEndsPending = false
    }

    private let state = LockedValue(State())
    private let mixing = MixingSettings()
    private let completions = DispatchQueue(label: "AVAudioPlayerNode completions")

    /// Creates a player node.
    public override init() { super.init() }

    /// A player takes no input.
    open override var numberOfInputs: Int { 0 }

    /// The volume the player plays into a mixer at.
    open var volume: Float {
        get { mixing.volume }
        set { mixing.volume = newValue }
    }

    /// The player's place in a mixer's stereo field.
    open var pan: Float {
        get { mixing.pan }
        set { mixing.pan = newValue }
    }

    // MARK: Scheduling

    /// Schedules a buffer after what is scheduled; the handler is called when it has been played.
    open func scheduleBuffer(_ buffer: AVAudioPCMBuffer, completionHandler: AVAudioNodeCompletionHandler? = nil) {
        scheduleBuffer(buffer, at: nil, options: [], completionHandler: completionHandler)
    }

    /// Schedules a buffer at a time (nil: after what is scheduled), with options.
    open func scheduleBuffer(
        _ buffer: AVAudioPCMBuffer, at when: AVAudioTime?, options: AVAudioPlayerNodeBufferOptions = [],
        completionHandler: AVAudioNodeCompletionHandler? = nil
    ) {
        checkFormat(buffer.format)
        let handler = Self.sendable(completionHandler)
        add(Item(source: .buffer(buffer), loops: options.contains(.loops), at: when.flatMap(sampleTime), handler: handler), options: options)
    }

    /// Schedules a buffer, with a handler told which kind of completion it reached.
    open func scheduleBuffer(
        _ buffer: AVAudioPCMBuffer, completionCallbackType callbackType: AVAudioPlayerNodeCompletionCallbackType,
        completionHandler: AVAudioPlayerNodeCompletionHandler? = nil
    ) {
        scheduleBuffer(buffer, at: nil, options: [], completionCallbackType: callbackType, completionHandler: completionHandler)
    }

    /// Schedules a buffer at a time with options, with a handler told which kind of completion it reached.
    open func scheduleBuffer(
        _ buffer: AVAudioPCMBuffer, at when: AVAudioTime?, options: AVAudioPlayerNodeBufferOptions = [],
        completionCallbackType callbackType: AVAudioPlayerNodeCompletionCallbackType, completionHandler: AVAudioPlayerNodeCompletionHandler? = nil
    ) {
        let handler = completionHandler.map { handler in { handler(callbackType) } }
        scheduleBuffer(buffer, at: when, options: options, completionHandler: handler)
    }

    /// Schedules a whole file after what is scheduled (or at a time); the handler is called when it has been played.
    open func scheduleFile(_ file: AVAudioFile, at when: AVAudioTime?, completionHandler: AVAudioNodeCompletionHandler? = nil) {
        scheduleSegment(file, startingFrame: 0, frameCount: AVAudioFrameCount(clamping: file.length), at: when, completionHandler: completionHandler)
    }

    /// Schedules a whole file, with a handler told which kind of completion it reached.
    open func scheduleFile(
        _ file: AVAudioFile, at when: AVAudioTime?, completionCallbackType callbackType: AVAudioPlayerNodeCompletionCallbackType,
        completionHandler: AVAudioPlayerNodeCompletionHandler? = nil
    ) {
        scheduleFile(file, at: when, completionHandler: completionHandler.map { handler in { handler(callbackType) } })
    }

    /// Schedules part of a file: `frameCount` frames from `startingFrame`.
    open func scheduleSegment(
        _ file: AVAudioFile, startingFrame startFrame: AVAudioFramePosition, frameCount numberFrames: AVAudioFrameCount, at when: AVAudioTime?,
        completionHandler: AVAudioNodeCompletionHandler? = nil
    ) {
        checkFormat(file.processingFormat)
        let start = max(0, min(startFrame, file.length))
        let frames = max(0, min(Int64(numberFrames), file.length - start))
        add(
            Item(source: .file(file, start: start, frames: frames), loops: false, at: when.flatMap(sampleTime), handler: Self.sendable(completionHandler)),
            options: [])
    }

    /// Schedules part of a file, with a handler told which kind of completion it reached.
    open func scheduleSegment(
        _ file: AVAudioFile, startingFrame startFrame: AVAudioFramePosition, frameCount numberFrames: AVAudioFrameCount, at when: AVAudioTime?,
        completionCallbackType callbackType: AVAudioPlayerNodeCompletionCallbackType, completionHandler: AVAudioPlayerNodeCompletionHandler? = nil
    ) {
        scheduleSegment(
            file, startingFrame: startFrame, frameCount: numberFrames, at: when,
            completionHandler: completionHandler.map { handler in { handler(callbackType) } })
    }

    // MARK: Transport

    /// Starts playing what is scheduled, at once.
    open func play() { play(at: nil) }

    /// Starts playing at a time on the node's timeline (nil: at once).
    open func play(at when: AVAudioTime?) {
        state.withLock { state in
            guard !state.playing else { return }
            state.playing = true
            state.playAt = when.flatMap { $0.isSampleTimeValid ? $0.sampleTime : nil }
        }
    }

    /// Pauses; `play()` resumes where it was.
    open func pause() { state.withLock { $0.playing = false } }

    /// Stops, clearing the schedule: every handler of what was scheduled is called.
    open func stop() {
        let handlers = state.withLock { state -> [@Sendable () -> Void] in
            defer {
                state.items = []
                state.playing = false
                state.playerTime = 0
                state.startNodeTime = nil
            }
            return state.items.compactMap(\.handler)
        }
        for handler in handlers { completions.async(execute: handler) }
    }

    /// Whether the player is playing.
    open var isPlaying: Bool { state.withLock { $0.playing } }

    /// Makes ready to play the first frames of the schedule.
    open func prepare(withFrameCount frameCount: AVAudioFrameCount) {}

    /// Clears the schedule, as `stop()` does.
    open override func reset() { stop() }

    /// A time on the engine's timeline as a time on the player's (from when it started playing); nil before it has.
    open func playerTime(forNodeTime nodeTime: AVAudioTime) -> AVAudioTime? {
        guard nodeTime.isSampleTimeValid, let start = state.withLock({ $0.startNodeTime }) else { return nil }
        return AVAudioTime(sampleTime: nodeTime.sampleTime - start, atRate: outputFormat(forBus: 0).sampleRate)
    }

    /// A time on the player's timeline as a time on the engine's; nil before it has started playing.
    open func nodeTime(forPlayerTime playerTime: AVAudioTime) -> AVAudioTime? {
        guard playerTime.isSampleTimeValid, let start = state.withLock({ $0.startNodeTime }) else { return nil }
        return AVAudioTime(sampleTime: playerTime.sampleTime + start, atRate: outputFormat(forBus: 0).sampleRate)
    }

    // MARK: Rendering

    override func render(into buffer: AVAudioPCMBuffer, frames: Int, cycle: Int, time: AVAudioTime) -> Bool {
        var done = 0
        var sound = false
        var finished: [@Sendable () -> Void] = []
        state.withLock { state in
            guard state.playing else { return }
            if let playAt = state.playAt {
                // Waiting for its start time on the engine's timeline.
                let wait = Int(playAt - time.sampleTime)
                if wait >= frames { return }
                done = max(0, wait)
                state.playAt = nil
            }
            if state.startNodeTime == nil { state.startNodeTime = time.sampleTime + AVAudioFramePosition(done) }
            while done < frames, !state.items.isEmpty {
                var item = state.items[0]
                if let at = item.at, state.playerTime + AVAudioFramePosition(done) < at {
                    // Silence until the item's time on the player's timeline.
                    done = min(frames, done + Int(at - (state.playerTime + AVAudioFramePosition(done))))
                    continue
                }
                let count = min(frames - done, Int(item.length - item.played))
                if count > 0 {
                    copy(item, from: item.played, frames: count, into: buffer, at: done)
                    sound = true
                }
                item.played += Int64(count)
                done += count
                if item.played >= item.length {
                    if item.loops, item.length > 0, !state.loopEndsPending {
                        item.played = 0
                        state.items[0] = item
                    } else {
                        state.loopEndsPending = false
                        state.items.removeFirst()
                        if let handler = item.handler { finished.append(handler) }
                    }
                } else {
                    state.items[0] = item
                }
            }
            state.playerTime += AVAudioFramePosition(frames)
        }
        if sound, done < frames {
            for channel in 0..<Int(buffer.format.channelCount) { (buffer.floatChannelData![channel] + done).initialize(repeating: 0, count: frames - done) }
        }
        for handler in finished { completions.async(execute: handler) }
        return sound
    }

    /// Copies `frames` frames of an item, from its frame `offset`, into the buffer at `position`.
    private func copy(_ item: Item, from offset: Int64, frames: Int, into buffer: AVAudioPCMBuffer, at position: Int) {
        switch item.source {
        case .buffer(let source):
            buffer.copyFrames(from: source, at: Int(offset), to: position, count: frames)
        case .file(let file, let start, _):
            guard let scratch = fileScratch(for: file.processingFormat, frames: frames) else { return }
            if file.framePosition != start + offset { file.framePosition = start + offset }
            scratch.frameLength = 0
            try? file.read(into: scratch, frameCount: AVAudioFrameCount(frames))
            buffer.copyFrames(from: scratch, at: 0, to: position, count: Int(scratch.frameLength))
        }
    }

    private var scratch: AVAudioPCMBuffer?

    /// A buffer the render thread reads files into, made once (again only for a larger block).
    private func fileScratch(for format: AVAudioFormat, frames: Int) -> AVAudioPCMBuffer? {
        if let scratch, scratch.frameCapacity >= AVAudioFrameCount(frames), scratch.format.isEqual(format) { return scratch }
        scratch = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: AVAudioFrameCount(max(frames, 4096)))
        return scratch
    }

    /// Adds an item to the schedule, as its options say.
    private func add(_ item: Item, options: AVAudioPlayerNodeBufferOptions) {
        let dropped = state.withLock { state -> [@Sendable () -> Void] in
            if options.contains(.interrupts) {
                let handlers = state.items.compactMap(\.handler)
                state.items = [item]
                return handlers
            }
            if options.contains(.interruptsAtLoop), state.items.first?.loops == true {
                // The loop plays to its end, then this replaces it and what followed.
                let handlers = state.items.dropFirst().compactMap(\.handler)
                state.items = [state.items[0], item]
                state.loopEndsPending = true
                return handlers
            }
            state.items.append(item)
            return []
        }
        for handler in dropped { completions.async(execute: handler) }
    }

    /// A scheduled buffer or file must match the player's output format's rate and channels, as Apple's player requires.
    private func checkFormat(_ format: AVAudioFormat) {
        let output = outputFormat(forBus: 0)
        precondition(
            format.channelCount == output.channelCount && format.sampleRate == output.sampleRate,
            "AVAudioPlayerNode: required condition is false: the buffer's format (\(format)) has the player's output format's rate and channels (\(output))")
    }

    /// A time's sample time, when it has one.
    private func sampleTime(_ time: AVAudioTime) -> AVAudioFramePosition? { time.isSampleTimeValid ? time.sampleTime : nil }

    /// A completion handler, to be called on the completions queue.
    private static func sendable(_ handler: AVAudioNodeCompletionHandler?) -> (@Sendable () -> Void)? {
        guard let handler else { return nil }
        nonisolated(unsafe) let held = handler
        return { held() }
    }
}
