import CoreVideo
import Foundation
import MovieEngine

/// A node that processes audio: the effects and time effects, each run by FFmpeg's audio filters.
///
/// Thread ownership: parameters are set from any thread; the render thread rebuilds the filter
/// graph when they have changed since it last rendered (the graph's memory is made then, not per block).
open class AVAudioUnit: AVAudioNode, @unchecked Sendable {
    /// The unit's name.
    open var name: String { String(describing: type(of: self)) }
    /// The unit's maker.
    open var manufacturerName: String { "FFmpeg" }
    /// The unit's version.
    open var version: Int { 1 }

    /// Bumped whenever a parameter changes, so the render thread rebuilds its graph.
    let parameterVersion = LockedValue(0)
    private let bypassed = LockedValue(false)
    /// Render thread: the graph, the parameters and format it was built for, and scratch buffers.
    private var graph: AudioFilterGraph?
    private var builtFor: (version: Int, sampleRate: Double, channels: AVAudioChannelCount)?
    private var input: AVAudioPCMBuffer?
    private let inputPointers = UnsafeMutablePointer<UnsafePointer<Float>?>.allocate(capacity: 64)
    private let outputPointers = UnsafeMutablePointer<UnsafeMutablePointer<Float>?>.allocate(capacity: 64)

    override init() { super.init() }

    deinit {
        inputPointers.deallocate()
        outputPointers.deallocate()
    }

    /// Whether the unit passes its input through untouched.
    var isBypassed: Bool {
        get { bypassed.withLock { $0 } }
        set {
            bypassed.withLock { $0 = newValue }
            parametersChanged()
        }
    }

    /// A parameter changed: the graph is rebuilt before the next block.
    func parametersChanged() { parameterVersion.withLock { $0 += 1 } }

    /// FFmpeg's filter description for the current parameters, its input [in] and output [out], at a rate and channel count.
    package func filterDescription(sampleRate: Double, channels: Int) -> String { "[in]anull[out]" }

    /// A graph in which `wet` (filters reading [wetin] and writing [wet]) is mixed with the dry input, `mix` (0 to 1) of it wet.
    static func wetDry(_ wet: String, mix: Double) -> String {
        "[in]asplit=2[dry][wetin];\(wet);[dry][wet]amix=inputs=2:weights='\(1 - mix) \(mix)':normalize=0[out]"
    }

    override func prepareToRender(maximumFrames: AVAudioFrameCount) {
        super.prepareToRender(maximumFrames: maximumFrames)
        let format = outputFormat(forBus: 0)
        if input == nil || input!.frameCapacity < maximumFrames || !input!.format.isEqual(format) {
            input = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: maximumFrames)
        }
    }

    override func render(into buffer: AVAudioPCMBuffer, frames: Int, cycle: Int, time: AVAudioTime) -> Bool {
        guard let engine, let feed = engine.feed(into: self, bus: 0), let input, feed.format.sampleRate == buffer.format.sampleRate else { return false }
        let channels = Int(buffer.format.channelCount)
        if isBypassed {
            guard let source = feed.source.pull(frames: frames, cycle: cycle, time: time) else { return false }
            Self.map(source, into: buffer, frames: frames)
            return true
        }
        let version = parameterVersion.withLock { $0 }
        if graph == nil || builtFor?.version != version || builtFor?.sampleRate != buffer.format.sampleRate || builtFor?.channels != buffer.format.channelCount
        {
            graph = try? AudioFilterGraph(
                filterDescription(sampleRate: buffer.format.sampleRate, channels: channels), sampleRate: Int(buffer.format.sampleRate.rounded()),
                channels: channels)
            builtFor = (version, buffer.format.sampleRate, buffer.format.channelCount)
        }
        guard let graph else { return false }
        // Input until the graph has a block to give: one pull for effects, more for time effects and at a filter's start.
        var pulls = 0
        while graph.available < frames, pulls < 64 {
            let source = feed.source.pull(frames: frames, cycle: pulls == 0 ? cycle : engine.nextCycle(), time: time)
            input.frameLength = AVAudioFrameCount(frames)
            if let source { Self.map(source, into: input, frames: frames) } else { AVAudioNode.silence(input, frames: frames) }
            for channel in 0..<channels { inputPointers[channel] = UnsafePointer(input.floatChannelData![channel]) }
            guard graph.push(inputPointers, frames: frames) else { return false }
            pulls += 1
        }
        for channel in 0..<channels { outputPointers[channel] = buffer.floatChannelData![channel] }
        let made = graph.take(into: outputPointers, capacity: frames)
        if made < frames {
            for channel in 0..<channels { (buffer.floatChannelData![channel] + made).initialize(repeating: 0, count: frames - made) }
        }
        return made > 0
    }

    /// Copies a block into a buffer of the same rate: a single channel to every channel, others in order.
    static func map(_ source: AVAudioPCMBuffer, into destination: AVAudioPCMBuffer, frames: Int) {
        let inputs = Int(source.format.channelCount)
        for channel in 0..<Int(destination.format.channelCount) {
            let from = source.floatChannelData![min(channel, inputs - 1)]
            if channel < inputs || inputs == 1 {
                destination.floatChannelData![channel].update(from: from, count: frames)
            } else {
                destination.floatChannelData![channel].initialize(repeating: 0, count: frames)
            }
        }
    }
}

/// A unit that processes audio in real time, frame for frame.
open class AVAudioUnitEffect: AVAudioUnit, @unchecked Sendable {
    /// Whether the effect passes its input through untouched.
    open var bypass: Bool {
        get { isBypassed }
        set { isBypassed = newValue }
    }
}

/// A unit that changes audio's timing: its rate, and so the number of frames.
open class AVAudioUnitTimeEffect: AVAudioUnit, @unchecked Sendable {
    /// Whether the effect passes its input through untouched.
    open var bypass: Bool {
        get { isBypassed }
        set { isBypassed = newValue }
    }
}

/// A parameter value clamped to a range; values that are not numbers keep the old one.
func clamped(_ value: Float, _ range: ClosedRange<Float>, else old: Float) -> Float {
    value.isFinite ? min(range.upperBound, max(range.lowerBound, value)) : old
}
