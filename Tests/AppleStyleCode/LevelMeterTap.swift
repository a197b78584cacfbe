// An audio processing tap as equaliser and visualiser code writes one: a class that makes an
// MTAudioProcessingTap with C-style callbacks, its own instance as the client information kept in
// the tap's storage (retained by the tap and released in its finalize callback, since a player may
// unprepare the tap after its maker has let go of it), the source sound pulled in the process
// callback, metered, and scaled by a gain; attached to a track through an audio mix's input
// parameters. It imports AVFoundation alone.
import AVFoundation

/// Meters a track's sound and scales it by a gain, through an audio processing tap.
public final class LevelMeterTap: @unchecked Sendable {
    private let lock = NSLock()
    private var peakLevel: Float = 0
    private var lifecycle: [String] = []
    private var framesProcessed = 0
    private var preparedFormat = AudioStreamBasicDescription()
    /// The factor the sound is multiplied by.
    public let gain: Float

    /// A tap that scales the sound by `gain`.
    public init(gain: Float) { self.gain = gain }

    /// The loudest sample the tap has seen, before its gain.
    public var peak: Float { lock.withLock { peakLevel } }
    /// The callbacks in the order they came: init, prepare, process (once), unprepare, finalize.
    public var events: [String] { lock.withLock { lifecycle } }
    /// The frames the tap has processed.
    public var frames: Int { lock.withLock { framesProcessed } }
    /// The processing format prepare was told.
    public var format: AudioStreamBasicDescription { lock.withLock { preparedFormat } }

    fileprivate func record(_ event: String) { lock.withLock { if event != "process" || lifecycle.last != "process" { lifecycle.append(event) } } }
    fileprivate func prepared(_ format: AudioStreamBasicDescription) { lock.withLock { preparedFormat = format } }
    fileprivate func measured(_ peak: Float, frames: Int) {
        lock.withLock {
            peakLevel = max(peakLevel, peak)
            framesProcessed += frames
        }
    }

    /// Makes the tap to put in `AVMutableAudioMixInputParameters.audioTapProcessor`, after the mix's effects.
    public func makeTap() -> MTAudioProcessingTap? {
        var callbacks = MTAudioProcessingTapCallbacks(
            version: kMTAudioProcessingTapCallbacksVersion_0, clientInfo: UnsafeMutableRawPointer(Unmanaged.passRetained(self).toOpaque()),
            init: tapInit, finalize: tapFinalize, prepare: tapPrepare, unprepare: tapUnprepare, process: tapProcess)
        var tap: MTAudioProcessingTap?
        guard MTAudioProcessingTapCreate(kCFAllocatorDefault, &callbacks, kMTAudioProcessingTapCreationFlag_PostEffects, &tap) == noErr else {
            Unmanaged.passUnretained(self).release()
            return nil
        }
        return tap
    }

    /// An audio mix that sends `track` through a new tap.
    public func audioMix(for track: AVAssetTrack) -> AVAudioMix? {
        guard let tap = makeTap() else { return nil }
        let parameters = AVMutableAudioMixInputParameters(track: track)
        parameters.audioTapProcessor = tap
        let mix = AVMutableAudioMix()
        mix.inputParameters = [parameters]
        return mix
    }
}

private func meter(_ tap: MTAudioProcessingTap) -> LevelMeterTap {
    Unmanaged<LevelMeterTap>.fromOpaque(MTAudioProcessingTapGetStorage(tap)).takeUnretainedValue()
}

private let tapInit: MTAudioProcessingTapInitCallback = { tap, clientInfo, tapStorageOut in
    tapStorageOut.pointee = clientInfo
    if let clientInfo { Unmanaged<LevelMeterTap>.fromOpaque(clientInfo).takeUnretainedValue().record("init") }
}

private let tapFinalize: MTAudioProcessingTapFinalizeCallback = { tap in
    let owner = Unmanaged<LevelMeterTap>.fromOpaque(MTAudioProcessingTapGetStorage(tap))
    owner.takeUnretainedValue().record("finalize")
    owner.release()
}

private let tapPrepare: MTAudioProcessingTapPrepareCallback = { tap, maxFrames, processingFormat in
    meter(tap).record("prepare")
    meter(tap).prepared(processingFormat.pointee)
}

private let tapUnprepare: MTAudioProcessingTapUnprepareCallback = { tap in meter(tap).record("unprepare") }

private let tapProcess: MTAudioProcessingTapProcessCallback = { tap, numberFrames, flags, bufferListInOut, numberFramesOut, flagsOut in
    guard MTAudioProcessingTapGetSourceAudio(tap, numberFrames, bufferListInOut, flagsOut, nil, numberFramesOut) == noErr else { return }
    let owner = meter(tap)
    owner.record("process")
    var peak: Float = 0
    for buffer in UnsafeMutableAudioBufferListPointer(bufferListInOut) {
        guard let data = buffer.mData?.assumingMemoryBound(to: Float.self) else { continue }
        let samples = UnsafeMutableBufferPointer(start: data, count: Int(buffer.mDataByteSize) / MemoryLayout<Float>.size)
        for index in samples.indices {
            peak = max(peak, abs(samples[index]))
            samples[index] *= owner.gain
        }
    }
    owner.measured(peak, frames: numberFramesOut.pointee)
}
