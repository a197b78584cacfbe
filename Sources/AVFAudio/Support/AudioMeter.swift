import CoreVideo
import Foundation

/// Peak and average power per channel of the audio that passes, in decibels of full scale, as
/// recorders and players meter it: the levels of what passed since the last update.
///
/// Thread-safe: audio is measured on the thread that delivers it; levels are read on any thread.
final class AudioMeter: @unchecked Sendable {
    private struct Levels {
        var peaks: [Float]
        var squares: [Double]
        var frames = 0
        var peakPower: [Float]
        var averagePower: [Float]
    }
    /// The power of silence, as Apple's meters report it.
    static let silence: Float = -160
    private let levels: LockedValue<Levels>

    /// Creates a meter for a number of channels, reading silence.
    init(channels: Int) {
        levels = LockedValue(
            Levels(
                peaks: .init(repeating: 0, count: channels), squares: .init(repeating: 0, count: channels),
                peakPower: .init(repeating: Self.silence, count: channels), averagePower: .init(repeating: Self.silence, count: channels)))
    }

    /// Measures a buffer of 32-bit float samples.
    func measure(_ buffer: AVAudioPCMBuffer) {
        guard let channels = buffer.floatChannelData else { return }
        let frames = Int(buffer.frameLength), stride = buffer.stride
        levels.withLock { levels in
            for channel in 0..<min(levels.peaks.count, Int(buffer.format.channelCount)) {
                var peak = levels.peaks[channel]
                var square = 0.0
                let samples = channels[channel]
                for frame in 0..<frames {
                    let sample = samples[frame * stride]
                    peak = max(peak, abs(sample))
                    square += Double(sample) * Double(sample)
                }
                levels.peaks[channel] = peak
                levels.squares[channel] += square
            }
            levels.frames += frames
        }
    }

    /// Takes the levels of what passed since the last update as the ones reported.
    func update() {
        levels.withLock { levels in
            for channel in levels.peaks.indices {
                levels.peakPower[channel] = Self.decibels(amplitude: Double(levels.peaks[channel]))
                let mean = levels.frames > 0 ? levels.squares[channel] / Double(levels.frames) : 0
                levels.averagePower[channel] = Self.decibels(amplitude: mean.squareRoot())
                levels.peaks[channel] = 0
                levels.squares[channel] = 0
            }
            levels.frames = 0
        }
    }

    /// The peak power of a channel at the last update, in dBFS; silence for a channel there is not.
    func peakPower(_ channel: Int) -> Float { levels.withLock { $0.peakPower.indices.contains(channel) ? $0.peakPower[channel] : Self.silence } }

    /// The average power of a channel at the last update, in dBFS; silence for a channel there is not.
    func averagePower(_ channel: Int) -> Float { levels.withLock { $0.averagePower.indices.contains(channel) ? $0.averagePower[channel] : Self.silence } }

    /// An amplitude (1 is full scale) in decibels, no lower than silence.
    static func decibels(amplitude: Double) -> Float {
        guard amplitude > 0 else { return silence }
        return max(silence, Float(20 * log10(amplitude)))
    }
}
