import CoreMedia
import Foundation

/// A microphone that hears a tone with speech-like variation: 16-bit interleaved PCM at 44.1 kHz,
/// or at the application's preferred rate and buffer duration, scaled by its input gain.
///
/// Thread ownership: it synthesises and delivers on a thread of its own while streaming.
package final class VirtualMicrophone: VirtualDeviceBase, CaptureDeviceBackend, AudioInputGainControl, @unchecked Sendable {
    package let videoFormats: [CaptureVideoFormat] = []
    package let capabilities = ImagingCapabilities.none
    /// Frames per second.
    package static let sampleRate = 44_100
    /// Frames in each sample buffer.
    package static let framesPerBuffer = 1024
    /// The stream's format at `rate`.
    package static func streamDescription(rate: Double) -> AudioStreamBasicDescription {
        AudioStreamBasicDescription(
            mSampleRate: rate, mFormatID: kAudioFormatLinearPCM, mFormatFlags: kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked,
            mBytesPerPacket: 2, mFramesPerPacket: 1, mBytesPerFrame: 2, mChannelsPerFrame: 1, mBitsPerChannel: 16, mReserved: 0)
    }

    /// The format of the samples: 44.1 kHz, or the preferred rate.
    package var audioFormat: AudioStreamBasicDescription? {
        Self.streamDescription(rate: AudioPreferences.sampleRate(native: Double(Self.sampleRate)).rounded())
    }

    private let gain = LockedValue<Float>(1)
    package var inputGain: Float { gain.withLock { $0 } }
    package var isInputGainSettable: Bool { true }
    package func setInputGain(_ gain: Float) throws(CaptureBackendError) {
        guard (0...1).contains(gain) else { throw .unsupportedConfiguration("an input gain is between 0 and 1") }
        self.gain.withLock { $0 = gain }
    }

    init(descriptor: CaptureDeviceDescriptor) {
        super.init(descriptor: descriptor, imaging: ImagingModel())
    }

    /// Samples still to be lost, as a sound card's overrun loses them: their time passes and
    /// nothing of it is delivered.
    private let samplesToLose = LockedValue<Int64>(0)

    /// Loses the next `seconds` of sound, as an overrun of a busy machine's sound card does.
    package func loseSound(seconds: Double) {
        let rate = audioFormat?.mSampleRate ?? Double(Self.sampleRate)
        samplesToLose.withLock { $0 = Int64((seconds * rate).rounded()) }
    }

    package func start(_ configuration: VideoStreamConfiguration?, sink: CaptureSampleSink) throws(CaptureBackendError) -> Int {
        return try startStream(nil, sink: sink, name: "\(descriptor.localizedName) samples")
    }

    override func produce(thread token: Int) {
        let description = audioFormat!
        let rate = Int64(description.mSampleRate)
        let framesPerBuffer = AudioPreferences.framesPerBuffer(rate: description.mSampleRate, standard: Self.framesPerBuffer)
        let pool = AudioBufferPool(description: description, framesPerBuffer: framesPerBuffer)
        let (clock, start) = streamOrigin
        let startTicks = start * rate / 1_000_000_000
        var sampleIndex: Int64 = 0
        var phase = 0.0

        while let generation = currentGeneration(token: token) {
            let nextIndex = sampleIndex + Int64(framesPerBuffer)
            guard clock.sleep(untilNanoseconds: start + nextIndex * 1_000_000_000 / rate, while: { currentGeneration(token: token) != nil }) else { continue }
            let time = CMTime(value: startTicks + sampleIndex, timescale: Int32(rate))
            let content = scene.content.withLock { $0 }
            defer { sampleIndex = nextIndex }
            if content.isInterrupted { continue }
            let lost = samplesToLose.withLock { remaining -> Bool in
                guard remaining > 0 else { return false }
                remaining -= Int64(framesPerBuffer)
                return true
            }
            if lost { continue }
            guard let slot = pool.dequeue() else {
                drop(at: time, duration: CMTime(value: CMTimeValue(framesPerBuffer), timescale: Int32(rate)), reason: .discontinuity, generation: generation)
                continue
            }
            let samples = pool.samples(slot)
            let amplitude = content.toneAmplitude * Double(inputGain) * 32767
            for frame in 0..<framesPerBuffer {
                let t = Double(sampleIndex + Int64(frame)) / Double(rate)
                // A voice-like tone: vibrato, and syllables about four times a second with pauses.
                let frequency = content.toneFrequency * (1 + 0.02 * sin(2 * .pi * 5 * t))
                phase += 2 * .pi * frequency / Double(rate)
                if phase > 2 * .pi { phase -= 2 * .pi }
                let syllable = max(0, sin(2 * .pi * 3.7 * t))
                let envelope = 0.35 + 0.65 * syllable.squareRoot()
                samples[frame] = Int16(max(-32767, min(32767, sin(phase) * envelope * amplitude)))
            }
            deliver(pool.finish(slot, at: time), generation: generation)
        }
    }
}
