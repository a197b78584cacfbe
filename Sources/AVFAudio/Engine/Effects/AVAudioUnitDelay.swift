import CoreVideo
import Foundation

/// A delay: echoes of the sound, each `delayTime` after the last and softer by the feedback
/// (FFmpeg's `aecho`, one tap per echo until they fall below -60 dB), mixed with the dry sound.
open class AVAudioUnitDelay: AVAudioUnitEffect, @unchecked Sendable {
    private struct Settings {
        var delayTime: TimeInterval = 1
        var feedback: Float = 50
        var lowPassCutoff: Float = 15_000
        var wetDryMix: Float = 100
    }
    private let settings = LockedValue(Settings())

    /// Creates a delay of one second with 50% feedback, all wet.
    public override init() { super.init() }

    private func set(_ change: (inout Settings) -> Void) {
        settings.withLock(change)
        parametersChanged()
    }

    /// The time between echoes, in seconds (0 to 2).
    open var delayTime: TimeInterval {
        get { settings.withLock { $0.delayTime } }
        set { set { $0.delayTime = newValue.isFinite ? min(2, max(0, newValue)) : $0.delayTime } }
    }
    /// How much of each echo comes back as the next, in percent (-100 to 100; the sign is not kept here).
    open var feedback: Float {
        get { settings.withLock { $0.feedback } }
        set { set { $0.feedback = clamped(newValue, -100...100, else: $0.feedback) } }
    }
    /// The cutoff of the low-pass filter on the echoes, in hertz.
    open var lowPassCutoff: Float {
        get { settings.withLock { $0.lowPassCutoff } }
        set { set { $0.lowPassCutoff = clamped(newValue, 10...96_000, else: $0.lowPassCutoff) } }
    }
    /// The wet share of the output, in percent.
    open var wetDryMix: Float {
        get { settings.withLock { $0.wetDryMix } }
        set { set { $0.wetDryMix = clamped(newValue, 0...100, else: $0.wetDryMix) } }
    }

    package override func filterDescription(sampleRate: Double, channels: Int) -> String {
        let values = settings.withLock { $0 }
        let mix = Double(values.wetDryMix) / 100, feedback = Double(abs(values.feedback)) / 100
        guard values.delayTime > 0 else { return "[in]anull[out]" }
        var delays: [String] = [], decays: [String] = []
        var level = 1.0, echo = 1
        while level > 0.001, echo <= 32, Double(echo) * values.delayTime <= 90 {
            delays.append(String(format: "%.3f", Double(echo) * values.delayTime * 1000))
            decays.append(String(format: "%.6f", max(0.000001, level)))
            level *= feedback
            echo += 1
            if feedback == 0 { break }
        }
        let cutoff = min(Double(values.lowPassCutoff), sampleRate / 2 - 1)
        return Self.wetDry(
            "[wetin]aecho=in_gain=0:out_gain=1:delays=\(delays.joined(separator: "|")):decays=\(decays.joined(separator: "|")),lowpass=f=\(cutoff)[wet]",
            mix: mix)
    }
}
