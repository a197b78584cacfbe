import CoreVideo
import Foundation
import Synchronization

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
/// Thread ownership: scheduling and transport come from any thread and reach the renderer as
/// commands through an inbox, which the renderer takes at each cycle when no one else holds it
/// (never waiting for it); unless a real-time renderer runs, the calling thread applies them at
/// once. The schedule itself belongs to the renderer. Files are read ahead on a queue of their
/// own (`PlayerFileFeeder`); finished items go back through a lock-free ring to the completion
/// queue, which calls their handlers and lets go of them there, so that in steady state the
/// renderer neither locks nor allocates nor frees.
open class AVAudioPlayerNode: AVAudioNode, AVAudioMixing, @unchecked Sendable {
    /// One thing scheduled.
    private struct Item {
        enum Source {
            case buffer(AVAudioPCMBuffer)
            case file(PlayerFileFeeder)
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
            case .file(let feeder): feeder.frames
            }
        }
    }

    /// What a scheduling or transport call asks of the renderer.
    private enum Command {
        case add(Item, AVAudioPlayerNodeBufferOptions)
        case play(at: AVAudioFramePosition?)
        case pause
        case stop
    }

    /// Commands waiting for the renderer.
    private let inbox = Mutex<[Command]>([])
    /// Held by whoever plays the schedule: the renderer for a cycle, or a caller applying commands while nothing renders.
    private let scheduleHolder = Atomic(false)
    /// Whether the player plays, as the caller last said.
    private let playingFlag = Atomic(false)
    /// The node sample time of the first frame played, once playing has rendered (`Int64.min` before).
    private let startNodeTime = Atomic<AVAudioFramePosition>(.min)
    /// Items done with, on their way from the renderer to the completion queue.
    private let finished = HandoffRing<Item>(capacity: 256)
    private let finishedWake: DispatchSourceUserDataAdd
    /// Schedule holder: the schedule and the transport.
    private var schedule: [Item] = []
    private var playing = false
    /// Frames rendered since play(); the player's timeline.
    private var playerTime: AVAudioFramePosition = 0
    private var playAt: AVAudioFramePosition?
    private var loopEndsPending = false

    private let mixing = MixingSettings()
    private let completions = DispatchQueue(label: "AVAudioPlayerNode completions")

    /// Creates a player node.
    public override init() {
        finishedWake = DispatchSource.makeUserDataAddSource(queue: completions)
        schedule.reserveCapacity(64)
        super.init()
        finishedWake.setEventHandler { [weak self] in self?.completeFinishedItems() }
        finishedWake.activate()
    }

    deinit { finishedWake.cancel() }

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
        let feeder = PlayerFileFeeder(file: file, start: start, frames: frames)
        add(Item(source: .file(feeder), loops: false, at: when.flatMap(sampleTime), handler: Self.sendable(completionHandler)), options: [])
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
        guard !playingFlag.exchange(true, ordering: .relaxed) else { return }
        perform(.play(at: when.flatMap { $0.isSampleTimeValid ? $0.sampleTime : nil }))
    }

    /// Pauses; `play()` resumes where it was.
    open func pause() {
        playingFlag.store(false, ordering: .relaxed)
        perform(.pause)
    }

    /// Stops, clearing the schedule: every handler of what was scheduled is called.
    open func stop() {
        playingFlag.store(false, ordering: .relaxed)
        perform(.stop)
    }

    /// Whether the player is playing.
    open var isPlaying: Bool { playingFlag.load(ordering: .relaxed) }

    /// Makes ready to play the first frames of the schedule.
    open func prepare(withFrameCount frameCount: AVAudioFrameCount) {}

    /// Clears the schedule, as `stop()` does.
    open override func reset() { stop() }

    /// A time on the engine's timeline as a time on the player's (from when it started playing); nil before it has.
    open func playerTime(forNodeTime nodeTime: AVAudioTime) -> AVAudioTime? {
        let start = startNodeTime.load(ordering: .relaxed)
        guard nodeTime.isSampleTimeValid, start != .min else { return nil }
        return AVAudioTime(sampleTime: nodeTime.sampleTime - start, atRate: outputFormat(forBus: 0).sampleRate)
    }

    /// A time on the player's timeline as a time on the engine's; nil before it has started playing.
    open func nodeTime(forPlayerTime playerTime: AVAudioTime) -> AVAudioTime? {
        let start = startNodeTime.load(ordering: .relaxed)
        guard playerTime.isSampleTimeValid, start != .min else { return nil }
        return AVAudioTime(sampleTime: playerTime.sampleTime + start, atRate: outputFormat(forBus: 0).sampleRate)
    }

    // MARK: Commands

    /// Hands a command to the renderer. Unless a real-time renderer runs (which takes it within a
    /// cycle), the command is applied at once, so that a stopped player's handlers are called and its
    /// schedule is cleared whether or not anything renders again.
    private func perform(_ command: Command) {
        inbox.withLock { $0.append(command) }
        guard engine?.rendersInRealTime != true else { return }
        applyWaitingCommands()
    }

    /// The engine stopped rendering: commands the renderer had not taken are applied now.
    override func renderingStopped() { applyWaitingCommands() }

    /// Applies the commands waiting in the inbox, holding the schedule (waiting for a cycle that holds it to end).
    private func applyWaitingCommands() {
        while !scheduleHolder.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {
            // A last cycle is finishing.
            Thread.sleep(forTimeInterval: 0.0005)
        }
        inbox.withLock { takeCommands(&$0) }
        scheduleHolder.store(false, ordering: .releasing)
    }

    /// Schedule holder: applies the waiting commands in order and empties the inbox (keeping its memory).
    private func takeCommands(_ commands: inout [Command]) {
        guard !commands.isEmpty else { return }
        for command in commands { apply(command) }
        commands.removeAll(keepingCapacity: true)
    }

    /// Schedule holder: applies one command.
    private func apply(_ command: Command) {
        switch command {
        case .add(let item, let options):
            if options.contains(.interrupts) {
                retireAll(from: 0)
            } else if options.contains(.interruptsAtLoop), schedule.first?.loops == true {
                // The loop plays to its end, then this replaces it and what followed.
                retireAll(from: 1)
                loopEndsPending = true
            }
            schedule.append(item)
        case .play(let at):
            guard !playing else { return }
            playing = true
            playAt = at
        case .pause:
            playing = false
        case .stop:
            retireAll(from: 0)
            playing = false
            playAt = nil
            playerTime = 0
            loopEndsPending = false
            startNodeTime.store(.min, ordering: .relaxed)
        }
    }

    /// Schedule holder: the items from `index` on leave the schedule, in order, for the completion queue.
    private func retireAll(from index: Int) {
        guard index < schedule.count else { return }
        for position in index..<schedule.count { retire(schedule[position]) }
        schedule.removeSubrange(index...)
    }

    /// Schedule holder: an item is done with; the completion queue calls its handler and lets go of it.
    private func retire(_ item: Item) {
        if !finished.push(item) {
            // More than the ring holds finished at once: handed over by a block of its own.
            completions.async { [self] in complete(item) }
        }
        finishedWake.add(data: 1)
    }

    /// On the completion queue: the finished items' handlers, in order.
    private func completeFinishedItems() {
        while let item = finished.pop() { complete(item) }
    }

    private func complete(_ item: Item) {
        if case .file(let feeder) = item.source { feeder.cancel() }
        item.handler?()
    }

    // MARK: Rendering

    override func render(into buffer: AVAudioPCMBuffer, frames: Int, context: RenderContext) -> Bool {
        guard scheduleHolder.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else { return false }
        defer { scheduleHolder.store(false, ordering: .releasing) }
        // Commands wait a cycle when a caller is adding one this instant.
        inbox.withLockIfAvailable { takeCommands(&$0) }
        guard playing else { return false }
        var done = 0
        if let playAt {
            // Waiting for its start time on the engine's timeline.
            let wait = playAt - context.sampleTime
            if wait >= AVAudioFramePosition(frames) { return false }
            done = Int(max(0, wait))
            self.playAt = nil
        }
        if startNodeTime.load(ordering: .relaxed) == .min { startNodeTime.store(context.sampleTime + AVAudioFramePosition(done), ordering: .relaxed) }
        AVAudioNode.silence(buffer, frames: frames)
        var sound = false
        while done < frames, !schedule.isEmpty {
            let position = playerTime + AVAudioFramePosition(done)
            if let at = schedule[0].at, position < at {
                // Silence until the item's time on the player's timeline.
                done = min(frames, done + Int(at - position))
                continue
            }
            let count = min(frames - done, Int(schedule[0].length - schedule[0].played))
            if count > 0 {
                let given = copy(frames: count, into: buffer, at: done, context: context)
                schedule[0].played += Int64(given)
                sound = sound || given > 0
            }
            done += count
            if schedule[0].played >= schedule[0].length || isExhaustedFile(schedule[0]) {
                if schedule[0].loops, schedule[0].length > 0, !loopEndsPending {
                    schedule[0].played = 0
                } else {
                    loopEndsPending = false
                    retire(schedule.removeFirst())
                }
            }
        }
        playerTime += AVAudioFramePosition(frames)
        return sound
    }

    /// Renderer: copies `frames` frames of the first item, from where it has played to, into the
    /// buffer at `position`; the frames given (fewer when a file's frames are late, in real time).
    private func copy(frames: Int, into buffer: AVAudioPCMBuffer, at position: Int, context: RenderContext) -> Int {
        switch schedule[0].source {
        case .buffer(let source):
            buffer.copyFrames(from: source, at: Int(schedule[0].played), to: position, count: frames)
            return frames
        case .file(let feeder):
            return feeder.take(into: buffer, at: position, frames: frames, waiting: !context.realTime)
        }
    }

    /// Whether an item is a file whose every frame has been read and played (one that ended early, or failed).
    private func isExhaustedFile(_ item: Item) -> Bool {
        if case .file(let feeder) = item.source { return feeder.isExhausted }
        return false
    }

    /// Adds an item to the schedule, as its options say.
    private func add(_ item: Item, options: AVAudioPlayerNodeBufferOptions) { perform(.add(item, options)) }

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
