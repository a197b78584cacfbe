import CoreVideo
import Foundation

/// The rooms a reverb imitates.
public enum AVAudioUnitReverbPreset: Int, @unchecked Sendable {
    /// A small room.
    case smallRoom = 0
    /// A medium room.
    case mediumRoom = 1
    /// A large room.
    case largeRoom = 2
    /// A medium hall.
    case mediumHall = 3
    /// A large hall.
    case largeHall = 4
    /// A plate.
    case plate = 5
    /// A medium chamber.
    case mediumChamber = 6
    /// A large chamber.
    case largeChamber = 7
    /// A cathedral.
    case cathedral = 8
    /// Another large room.
    case largeRoom2 = 9
    /// Another medium hall.
    case mediumHall2 = 10
    /// A third medium hall.
    case mediumHall3 = 11
    /// Another large hall.
    case largeHall2 = 12

    /// The time the room takes to fall 60 dB, in seconds, and the delay before its first reflections.
    var decay: (seconds: Double, predelay: Double) {
        switch self {
        case .smallRoom: (0.4, 0.005)
        case .mediumRoom: (0.7, 0.010)
        case .largeRoom: (1.0, 0.015)
        case .mediumHall: (1.5, 0.020)
        case .largeHall: (2.0, 0.030)
        case .plate: (1.2, 0.0)
        case .mediumChamber: (1.0, 0.010)
        case .largeChamber: (1.4, 0.015)
        case .cathedral: (4.0, 0.040)
        case .largeRoom2: (1.2, 0.020)
        case .mediumHall2: (1.6, 0.020)
        case .mediumHall3: (1.7, 0.025)
        case .largeHall2: (2.4, 0.035)
        }
    }
}

/// A reverb: the sound convolved (FFmpeg's partitioned FFT convolution, `afir`) with a room's
/// impulse response, decorrelated noise falling off as the preset's room does, mixed with the dry sound.
open class AVAudioUnitReverb: AVAudioUnitEffect, @unchecked Sendable {
    private let settings = LockedValue((preset: AVAudioUnitReverbPreset.mediumHall, wetDryMix: Float(100)))

    /// Creates a reverb in a medium hall, all wet.
    public override init() { super.init() }

    /// Chooses the room.
    open func loadFactoryPreset(_ preset: AVAudioUnitReverbPreset) {
        settings.withLock { $0.preset = preset }
        parametersChanged()
    }

    /// The wet share of the output, in percent (0 all dry, 100 all wet).
    open var wetDryMix: Float {
        get { settings.withLock { $0.wetDryMix } }
        set {
            settings.withLock { $0.wetDryMix = clamped(newValue, 0...100, else: $0.wetDryMix) }
            parametersChanged()
        }
    }

    package override func filterDescription(sampleRate: Double, channels: Int) -> String {
        let (preset, mix) = settings.withLock { ($0.preset, $0.wetDryMix / 100) }
        let (seconds, predelay) = preset.decay
        let length = min(seconds, 4)
        // One noise per channel (random's seed index), silent for the predelay, falling 60 dB over the decay time.
        let expressions = (0..<min(channels, 10)).map { "if(lt(t,\(predelay)),0,(random(\($0))*2-1)*exp(-6.91*(t-\(predelay))/\(seconds)))" }
        let response = (0..<channels).map { expressions[min($0, expressions.count - 1)] }.joined(separator: "|")
        let layout = channels == 1 ? "mono" : channels == 2 ? "stereo" : "\(channels)c"
        return Self.wetDry(
            "aevalsrc=exprs='\(response)':d=\(length + predelay):s=\(Int(sampleRate)):c=\(layout)[ir];[wetin][ir]afir=irfmt=input:gtype=gn:minp=512:maxp=8192[wet]",
            mix: Double(mix))
    }
}
