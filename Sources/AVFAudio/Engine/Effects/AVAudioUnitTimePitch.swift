import CoreVideo
import Foundation

/// A time effect that changes the speed and the pitch apart: Rubber Band (through FFmpeg's
/// `rubberband` filter), as the player's spectral time-pitch algorithm.
open class AVAudioUnitTimePitch: AVAudioUnitTimeEffect, @unchecked Sendable {
    private let settings = LockedValue((rate: Float(1), pitch: Float(0), overlap: Float(8)))

    /// Creates a time-pitch effect that changes nothing until set.
    public override init() { super.init() }

    /// The speed, from 1/32 to 32 times.
    open var rate: Float {
        get { settings.withLock { $0.rate } }
        set {
            speed = settings.withLock { settings in
                settings.rate = clamped(newValue, (1.0 / 32)...32, else: settings.rate)
                return settings.rate
            }
            parametersChanged()
        }
    }

    /// The pitch shift, in cents (-2400 to 2400: two octaves either way).
    open var pitch: Float {
        get { settings.withLock { $0.pitch } }
        set {
            settings.withLock { $0.pitch = clamped(newValue, -2400...2400, else: $0.pitch) }
            parametersChanged()
        }
    }

    /// The analysis windows' overlap (3 to 32): kept, as Rubber Band chooses its own windows.
    open var overlap: Float {
        get { settings.withLock { $0.overlap } }
        set { settings.withLock { $0.overlap = clamped(newValue, 3...32, else: $0.overlap) } }
    }

    package override func filterDescription(sampleRate: Double, channels: Int) -> String {
        let (rate, pitch) = settings.withLock { ($0.rate, $0.pitch) }
        guard rate != 1 || pitch != 0 else { return "[in]anull[out]" }
        return "[in]rubberband=tempo=\(rate):pitch=\(pow(2, Double(pitch) / 1200)):transients=smooth[out]"
    }
}

/// A time effect that plays faster or slower with the pitch following, as a tape does:
/// resampled with libswresample (FFmpeg's `asetrate` and `aresample`).
open class AVAudioUnitVarispeed: AVAudioUnitTimeEffect, @unchecked Sendable {
    private let playbackRate = LockedValue<Float>(1)

    /// Creates a varispeed at normal speed.
    public override init() { super.init() }

    /// The speed, from 0.25 to 4 times; the pitch follows it.
    open var rate: Float {
        get { playbackRate.withLock { $0 } }
        set {
            speed = playbackRate.withLock { rate in
                rate = clamped(newValue, 0.25...4, else: rate)
                return rate
            }
            parametersChanged()
        }
    }

    package override func filterDescription(sampleRate: Double, channels: Int) -> String {
        let rate = self.rate
        guard rate != 1 else { return "[in]anull[out]" }
        let rounded = Int(sampleRate.rounded())
        return "[in]asetrate=r=\(Int((sampleRate * Double(rate)).rounded())),aresample=\(rounded)[out]"
    }
}
