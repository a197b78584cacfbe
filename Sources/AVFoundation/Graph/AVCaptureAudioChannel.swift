import Foundation
import Synchronization

/// One channel of audio flowing through a connection, with its levels for metering.
///
/// Levels are updated as audio flows; poll them as often as the meter redraws.
public final class AVCaptureAudioChannel: NSObject, @unchecked Sendable {
    private let averagePower = Atomic<UInt32>(Float(-160).bitPattern)
    private let peakHold = Atomic<UInt32>(Float(-160).bitPattern)
    private let meter = LockedValue(Meter())

    private struct Meter {
        var smoothedPower: Double = 0
        var peak: Double = 0
        var peakTime: Int64 = 0
    }

    override init() { super.init() }

    /// The average power of the channel's recent audio, in dBFS (0 is full scale, -160 silence).
    public var averagePowerLevel: Float { Float(bitPattern: averagePower.load(ordering: .relaxed)) }
    /// The highest recent peak, held for a second, in dBFS.
    public var peakHoldLevel: Float { Float(bitPattern: peakHold.load(ordering: .relaxed)) }
    /// The channel's volume, from 0 to 1.
    public var volume: Float = 1
    /// Whether the channel is enabled.
    public var isEnabled = true

    /// Measures one buffer of 16-bit samples: `stride` channels interleaved, this channel at `offset`.
    func measure(_ samples: UnsafePointer<Int16>, frames: Int, stride: Int, offset: Int, hostTime: Int64) {
        guard frames > 0 else { return }
        var sum = 0.0
        var peak: Int32 = 0
        var index = offset
        for _ in 0..<frames {
            let sample = Int32(samples[index])
            sum += Double(sample * sample)
            peak = max(peak, abs(sample))
            index += stride
        }
        let power = sum / Double(frames) / (32768.0 * 32768.0)
        let peakLinear = Double(peak) / 32768.0
        let (average, held) = meter.withLock { meter -> (Double, Double) in
            meter.smoothedPower = 0.6 * meter.smoothedPower + 0.4 * power
            if peakLinear >= meter.peak || hostTime - meter.peakTime > 1_000_000_000 {
                meter.peak = peakLinear
                meter.peakTime = hostTime
            }
            return (meter.smoothedPower, meter.peak)
        }
        averagePower.store(Float(Self.decibels(power: average)).bitPattern, ordering: .relaxed)
        peakHold.store(Float(Self.decibels(amplitude: held)).bitPattern, ordering: .relaxed)
    }

    static func decibels(power: Double) -> Double { power > 1e-16 ? max(-160, 10 * log10(power)) : -160 }
    static func decibels(amplitude: Double) -> Double { amplitude > 1e-8 ? max(-160, 20 * log10(amplitude)) : -160 }
}
