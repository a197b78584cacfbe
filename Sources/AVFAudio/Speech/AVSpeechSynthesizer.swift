import CaptureDevices
import CSpeech
import CoreVideo
import Foundation

/// Where a synthesizer stops or pauses.
public enum AVSpeechBoundary: Int, @unchecked Sendable {
    /// At once.
    case immediate = 0
    /// At the end of the word being spoken.
    case word = 1
}

/// Speaks utterances one after another with espeak-ng's voices, to the sound server (or, where
/// none runs, silently in real time), or writes their audio to buffers.
///
/// Utterances are synthesised on a queue of the synthesizer's own and played as they are made;
/// the delegate hears on the main queue. espeak-ng makes one speech at a time in a process, so
/// synthesizers take turns. Thread-safe.
open class AVSpeechSynthesizer: NSObject, @unchecked Sendable {
    /// A block that receives the audio of an utterance being written, then an empty buffer at its end.
    public typealias BufferCallback = (AVAudioBuffer) -> Void

    /// The object told how speech goes.
    open weak var delegate: (any AVSpeechSynthesizerDelegate)? {
        get { state.withLock { $0.delegate } }
        set { state.withLock { $0.delegate = newValue } }
    }
    /// Whether speech uses the application's audio session; on Linux there is one route either way.
    open var usesApplicationAudioSession = true
    /// Whether speech is mixed into a phone call's uplink; there are none on Linux.
    open var mixToTelephonyUplink = false

    private struct State {
        weak var delegate: (any AVSpeechSynthesizerDelegate)?
        var pending = 0
        var paused = false
        var stop: AVSpeechBoundary?
        var pause: AVSpeechBoundary?
        /// Bumped by each stop, so that utterances queued before it are dropped.
        var generation = 0
    }
    private let state = LockedValue(State())
    private let resumed = NSCondition()
    private let queue = DispatchQueue(label: "AVSpeechSynthesizer")

    /// Creates a synthesizer.
    public override init() { super.init() }

    /// Whether an utterance is being spoken or waits to be.
    open var isSpeaking: Bool { state.withLock { $0.pending > 0 } }
    /// Whether speech is paused.
    open var isPaused: Bool { state.withLock { $0.paused } }

    /// Why speech cannot be made here (espeak-ng or its voices missing), or nil.
    public static var speechProblem: String? { csp_load().map { String(cString: $0) } }

    // MARK: Speaking

    /// Queues an utterance to be spoken after those before it.
    open func speak(_ utterance: AVSpeechUtterance) {
        let generation = enqueue()
        queue.async { [self] in run(utterance, generation: generation, buffers: nil) }
    }

    /// Synthesises an utterance into buffers (mono 32-bit floats at the voice's rate) handed to a
    /// block on the synthesizer's queue, ending with an empty buffer, instead of speaking it.
    open func write(_ utterance: AVSpeechUtterance, toBufferCallback bufferCallback: @escaping BufferCallback) {
        let generation = enqueue()
        nonisolated(unsafe) let callback = bufferCallback
        queue.async { [self] in run(utterance, generation: generation, buffers: callback) }
    }

    /// Stops speaking, at once or at the end of the word, and drops what is queued; false when not speaking.
    @discardableResult
    open func stopSpeaking(at boundary: AVSpeechBoundary) -> Bool {
        let speaking = state.withLock { state -> Bool in
            guard state.pending > 0 else { return false }
            state.stop = boundary
            state.generation += 1
            state.paused = false
            return true
        }
        resumed.broadcast()
        return speaking
    }

    /// Pauses speaking, at once or at the end of the word; false when not speaking.
    @discardableResult
    open func pauseSpeaking(at boundary: AVSpeechBoundary) -> Bool {
        state.withLock { state -> Bool in
            guard state.pending > 0, !state.paused else { return false }
            state.pause = boundary
            return true
        }
    }

    /// Continues paused speech; false when not paused.
    @discardableResult
    open func continueSpeaking() -> Bool {
        let continued = state.withLock { state -> Bool in
            guard state.paused || state.pause != nil else { return false }
            state.paused = false
            state.pause = nil
            return true
        }
        resumed.broadcast()
        return continued
    }

    // MARK: Synthesis

    private func enqueue() -> Int {
        state.withLock { state in
            state.pending += 1
            return state.generation
        }
    }

    /// The speech of one utterance, on the synthesizer's queue.
    private final class Speech {
        let synthesizer: AVSpeechSynthesizer
        let utterance: AVSpeechUtterance
        let sampleRate: Int
        let volume: Float
        var output: PacedSoundOutput?
        let buffers: BufferCallback?
        let scalars: [Int]
        var floats: [Float] = []
        var cancelled = false

        init(_ synthesizer: AVSpeechSynthesizer, _ utterance: AVSpeechUtterance, sampleRate: Int, buffers: BufferCallback?) {
            self.synthesizer = synthesizer
            self.utterance = utterance
            self.sampleRate = sampleRate
            self.buffers = buffers
            volume = utterance.volume.isFinite ? max(0, min(1, utterance.volume)) : 1
            // Each Unicode scalar's offset in UTF-16, for the words' ranges.
            var offsets: [Int] = []
            var offset = 0
            for scalar in utterance.speechString.unicodeScalars {
                offsets.append(offset)
                offset += scalar.utf16.count
            }
            offsets.append(offset)
            scalars = offsets
        }
    }

    private func run(_ utterance: AVSpeechUtterance, generation: Int, buffers: BufferCallback?) {
        defer { state.withLock { $0.pending -= 1 } }
        let current = state.withLock { state -> Bool in
            guard state.generation == generation else { return false }
            // A stop asked for earlier was for speech queued before this one (the queue is serial).
            state.stop = nil
            return true
        }
        guard current else {
            tell { $0.speechSynthesizer(self, didCancel: utterance) }
            return
        }
        let rate = Int(csp_sample_rate())
        guard rate > 0 else {
            tell { $0.speechSynthesizer(self, didCancel: utterance) }
            return
        }
        let speech = Speech(self, utterance, sampleRate: rate, buffers: buffers)
        if buffers == nil { speech.output = PacedSoundOutput(name: "AVSpeechSynthesizer", rate: rate, channels: 1) }
        defer {
            speech.output?.drain()
            speech.output?.close()
        }
        tell { $0.speechSynthesizer(self, didStart: utterance) }
        if utterance.preUtteranceDelay > 0, utterance.preUtteranceDelay.isFinite { silence(speech, seconds: utterance.preUtteranceDelay) }
        let context = Unmanaged.passUnretained(speech).toOpaque()
        let result = csp_speak(
            utterance.speechString, utterance.voice?.identifier, Int32(utterance.wordsPerMinute), Int32(utterance.espeakPitch),
            { samples, count, context in
                let speech = Unmanaged<Speech>.fromOpaque(context!).takeUnretainedValue()
                return speech.synthesizer.deliver(samples!, count: Int(count), speech) ? 0 : 1
            },
            { position, length, _, context in
                let speech = Unmanaged<Speech>.fromOpaque(context!).takeUnretainedValue()
                speech.synthesizer.word(at: Int(position), length: Int(length), speech)
            }, context)
        if !speech.cancelled, utterance.postUtteranceDelay > 0, utterance.postUtteranceDelay.isFinite { silence(speech, seconds: utterance.postUtteranceDelay) }
        if let buffers, let format = AVAudioFormat(standardFormatWithSampleRate: Double(rate), channels: 1),
            let end = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 0)
        {
            buffers(end)
        }
        if speech.cancelled || result != 0 {
            state.withLock { $0.stop = nil }
            tell { $0.speechSynthesizer(self, didCancel: utterance) }
        } else {
            tell { $0.speechSynthesizer(self, didFinish: utterance) }
        }
    }

    /// Inside espeak-ng: plays or hands over a block of samples; false to stop the speech.
    private func deliver(_ samples: UnsafePointer<Int16>, count: Int, _ speech: Speech) -> Bool {
        if shouldStop(.immediate, speech) { return false }
        waitWhilePaused(.immediate, speech)
        if shouldStop(.immediate, speech) { return false }
        if speech.floats.count < count { speech.floats = [Float](repeating: 0, count: count) }
        for index in 0..<count { speech.floats[index] = Float(samples[index]) / 32_768 * speech.volume }
        speech.floats.withUnsafeBufferPointer { floats in write(UnsafeBufferPointer(rebasing: floats[0..<count]), speech) }
        return true
    }

    /// Inside espeak-ng: a word is about to be spoken.
    private func word(at position: Int, length: Int, _ speech: Speech) {
        if shouldStop(.word, speech) { return }
        waitWhilePaused(.word, speech)
        let scalars = speech.scalars
        let start = max(0, min(position, scalars.count - 1)), end = max(start, min(position + length, scalars.count - 1))
        let range = NSRange(location: scalars[start], length: scalars[end] - scalars[start])
        let utterance = speech.utterance
        tell { $0.speechSynthesizer(self, willSpeakRangeOfSpeechString: range, utterance: utterance) }
    }

    /// Plays samples (or hands them to the buffer block), keeping real time where no server paces them.
    private func write(_ samples: UnsafeBufferPointer<Float>, _ speech: Speech) {
        if let buffers = speech.buffers {
            guard let format = AVAudioFormat(standardFormatWithSampleRate: Double(speech.sampleRate), channels: 1),
                let buffer = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: AVAudioFrameCount(samples.count))
            else { return }
            buffer.frameLength = AVAudioFrameCount(samples.count)
            if let base = samples.baseAddress { buffer.floatChannelData![0].update(from: base, count: samples.count) }
            buffers(buffer)
            return
        }
        speech.output?.write(samples) { !shouldStop(.immediate, speech) }
    }

    /// Silence of a number of seconds (at most a minute), as a pre- or post-utterance delay.
    private func silence(_ speech: Speech, seconds: TimeInterval) {
        let zeros = [Float](repeating: 0, count: Int(min(60, seconds) * Double(speech.sampleRate)))
        zeros.withUnsafeBufferPointer { write($0, speech) }
    }

    /// Whether a stop asked for at `boundary` (or at once) applies now; marks the speech cancelled.
    private func shouldStop(_ boundary: AVSpeechBoundary, _ speech: Speech) -> Bool {
        let stop = state.withLock { $0.stop }
        guard let stop, stop == .immediate || stop == boundary else { return false }
        speech.cancelled = true
        return true
    }

    /// Waits while paused, pausing first if a pause was asked for at `boundary` (or at once).
    private func waitWhilePaused(_ boundary: AVSpeechBoundary, _ speech: Speech) {
        let paused = state.withLock { state -> Bool in
            if let pause = state.pause, pause == .immediate || pause == boundary {
                state.pause = nil
                state.paused = true
                return true
            }
            return false
        }
        guard paused else { return }
        let utterance = speech.utterance
        tell { $0.speechSynthesizer(self, didPause: utterance) }
        resumed.lock()
        while state.withLock({ $0.paused }) { _ = resumed.wait(until: Date().addingTimeInterval(0.1)) }
        resumed.unlock()
        if state.withLock({ $0.stop }) == nil { tell { $0.speechSynthesizer(self, didContinue: utterance) } }
        speech.output?.restartClock()
    }

    /// Tells the delegate, on the main queue.
    private func tell(_ message: @escaping (any AVSpeechSynthesizerDelegate) -> Void) {
        guard let delegate = self.delegate else { return }
        nonisolated(unsafe) let send = message
        nonisolated(unsafe) let receiver = delegate
        DispatchQueue.main.async { send(receiver) }
    }
}
