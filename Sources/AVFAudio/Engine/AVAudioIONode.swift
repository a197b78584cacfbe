import CaptureDevices
import CoreVideo
import Foundation
import Synchronization

/// The block that gives the input node its frames in manual rendering mode: the frames asked for,
/// in the format given with it, or nil when it has none.
public typealias AVAudioIONodeInputBlock = (AVAudioFrameCount) -> UnsafePointer<AudioBufferList>?

/// A node that joins the engine to an audio device: the input node or the output node.
open class AVAudioIONode: AVAudioNode, @unchecked Sendable {
    /// How long audio takes through the device, in seconds.
    open var presentationLatency: TimeInterval { 0 }
    /// Whether voice processing (echo cancellation, noise suppression, automatic gain) is on, for
    /// the input and output nodes alike.
    open var isVoiceProcessingEnabled: Bool { engine?.voiceProcessing.withLock { $0 != nil } ?? false }

    /// Turns voice processing on or off for the engine's input and output, with the engine stopped:
    /// WebRTC's audio processing module takes the echo of what the engine plays out of what the
    /// microphone hears, lowers steady noise, and evens out the level, as for a call.
    open func setVoiceProcessingEnabled(_ enabled: Bool) throws {
        guard let engine else { throw AVAudioConverter.error(.paramErr, "the node belongs to no engine") }
        try engine.setVoiceProcessing(enabled)
    }
}

/// The node the engine's output leaves by: the sound server, or the caller in manual rendering mode.
open class AVAudioOutputNode: AVAudioIONode, @unchecked Sendable {
    /// The output node has no output bus to connect.
    open override var numberOfOutputs: Int { 0 }

    /// The device's format: 48 kHz stereo, the sound server's usual rate (or the manual rendering format).
    override var defaultFormat: AVAudioFormat { AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 2)! }

    /// Renderer: the output's sample rate and the voice processing, from the plan it adopted.
    private(set) var renderRate: Double = 48_000
    private var renderVoice: VoiceProcessor?

    override func adopt(_ entry: RenderPlan.Entry, plan: RenderPlan) {
        super.adopt(entry, plan: plan)
        renderRate = outputFormat(forBus: 0).sampleRate
        renderVoice = plan.voice
    }

    override func render(into buffer: AVAudioPCMBuffer, frames: Int, context: RenderContext) -> Bool {
        guard let feed = renderInputs.first, feed.bus == 0, feed.format.isEqual(buffer.format),
            let input = feed.source.pull(frames: frames, context: context)
        else { return false }
        buffer.copyFrames(from: input, at: 0, to: 0, count: frames)
        // What the engine plays is the echo voice processing listens for.
        if let voice = renderVoice, let channels = buffer.floatChannelData {
            voice.processRender(channels, count: Int(buffer.format.channelCount), frames: frames)
        }
        return true
    }
}

/// The node audio from the microphone enters by: the audio session's preferred input, or the
/// first microphone (the virtual one on a machine without one), in its own rate and channels.
open class AVAudioInputNode: AVAudioIONode, AVAudioMixing, @unchecked Sendable {
    private let mixing = MixingSettings()
    /// The microphone's format, as the node delivers it.
    private let deviceFormat: AVAudioFormat
    /// Frames from the microphone waiting for the render thread (one second's worth at most).
    let ring: SampleRing
    /// The format and block the node takes its input from in manual rendering mode, instead of the microphone.
    let manualInput = LockedValue<(format: AVAudioFormat, block: AVAudioIONodeInputBlock)?>(nil)
    /// Whether the last render asked the manual input block for frames and got none.
    let inputStarved = Atomic(false)
    /// Renderer: the manual rendering input block, from the plan it adopted.
    private var renderManualInput: AVAudioIONodeInputBlock?
    /// Whether the node feeds other nodes, so that the microphone's frames go to the render thread (set by the engine).
    let feedsOtherNodes = LockedValue(false)

    override init() {
        let asbd = Microphones.current()?.audioFormat
        let rate = asbd.map { $0.mSampleRate } ?? 44_100
        // The microphone's channels (at most two), or fewer as the audio session prefers.
        let preferred = AudioPreferences.preferredInputChannels.map { UInt32(max(1, $0)) } ?? .max
        let channels = max(1, min(2, preferred, asbd.map { $0.mChannelsPerFrame } ?? 1))
        deviceFormat = AVAudioFormat(standardFormatWithSampleRate: rate, channels: channels)!
        ring = SampleRing(channels: Int(channels), capacity: Int(rate))
        super.init()
    }

    /// The input node takes no input from other nodes.
    open override var numberOfInputs: Int { 0 }

    override var defaultFormat: AVAudioFormat { manualInput.withLock { $0?.format } ?? deviceFormat }

    /// The microphone's format (or the manual rendering input's), on the input side as on the output side.
    open override func inputFormat(forBus bus: AVAudioNodeBus) -> AVAudioFormat { defaultFormat }

    /// In manual rendering mode, takes the node's input from `block` (asked for the frames each render
    /// needs) in `format`, instead of from the microphone; false when the format is not deinterleaved
    /// 32-bit floats or the engine is not in manual rendering mode.
    open func setManualRenderingInputPCMFormat(_ format: AVAudioFormat, inputBlock block: @escaping AVAudioIONodeInputBlock) -> Bool {
        guard let engine, engine.isInManualRenderingMode, format.commonFormat == .pcmFormatFloat32, !format.isInterleaved else { return false }
        manualInput.withLock { $0 = (format, block) }
        outputFormats.withLock { $0[0] = format }
        engine.publishPlan()
        return true
    }

    /// The volume the input plays into a mixer at.
    open var volume: Float {
        get { mixing.volume }
        set { mixing.volume = newValue }
    }

    /// The input's place in a mixer's stereo field.
    open var pan: Float {
        get { mixing.pan }
        set { mixing.pan = newValue }
    }

    override func adopt(_ entry: RenderPlan.Entry, plan: RenderPlan) {
        super.adopt(entry, plan: plan)
        renderManualInput = plan.manualInput
    }

    override func render(into buffer: AVAudioPCMBuffer, frames: Int, context: RenderContext) -> Bool {
        guard let block = renderManualInput else { return ring.read(into: buffer, frames: frames) }
        // Manual rendering: the caller's block gives the frames, one buffer a channel.
        guard let given = block(AVAudioFrameCount(frames)) else {
            inputStarved.store(true, ordering: .relaxed)
            return false
        }
        let from = UnsafeMutableAudioBufferListPointer(UnsafeMutablePointer(mutating: given)), to = buffer.list
        for channel in 0..<min(from.count, to.count) {
            guard let source = from[channel].mData, let target = to[channel].mData else { continue }
            let bytes = min(Int(from[channel].mDataByteSize), frames * 4)
            target.copyMemory(from: source, byteCount: bytes)
            if bytes < frames * 4 { (target + bytes).initializeMemory(as: UInt8.self, repeating: 0, count: frames * 4 - bytes) }
        }
        return true
    }

    /// The microphone's buffers reach the tap as they arrive, not through the render cycle.
    override func feedTap(_ buffer: AVAudioPCMBuffer, frames: Int, sampleTime: AVAudioFramePosition) {}

    /// Whether voice processing lets the microphone's sound through untouched.
    open var isVoiceProcessingBypassed: Bool {
        get { voiceSettings.withLock { $0.bypassed } }
        set { voiceSettings.withLock { $0.bypassed = newValue } }
    }

    /// Whether voice processing evens out the microphone's level.
    open var isVoiceProcessingAGCEnabled: Bool {
        get { voiceSettings.withLock { $0.automaticGain } }
        set {
            voiceSettings.withLock { $0.automaticGain = newValue }
            engine?.voiceProcessing.withLock { $0 }?.configure(echoCancellation: true, noiseSuppression: true, automaticGain: newValue)
        }
    }

    /// Whether voice processing silences the microphone.
    open var isVoiceProcessingInputMuted: Bool {
        get { voiceSettings.withLock { $0.muted } }
        set { voiceSettings.withLock { $0.muted = newValue } }
    }

    /// The voice processing settings the input node keeps.
    let voiceSettings = LockedValue((bypassed: false, automaticGain: true, muted: false))

    /// On the microphone's thread: a buffer of the microphone's sound in the node's format.
    func deviceDelivered(_ buffer: AVAudioPCMBuffer, sampleTime: AVAudioFramePosition, connected: Bool) {
        if let voice = engine?.voiceProcessing.withLock({ $0 }), let channels = buffer.floatChannelData {
            let settings = voiceSettings.withLock { $0 }
            let (count, frames) = (Int(buffer.format.channelCount), Int(buffer.frameLength))
            if !settings.bypassed { voice.processCapture(channels, count: count, frames: frames) }
            if settings.muted { for channel in 0..<count { channels[channel].update(repeating: 0, count: frames) } }
        }
        tap(onBus: 0)?.take(buffer, frames: Int(buffer.frameLength), sampleTime: sampleTime)
        if connected { ring.write(buffer) }
    }
}
