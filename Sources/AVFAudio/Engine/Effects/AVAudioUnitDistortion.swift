import CoreVideo
import Foundation

/// The sounds a distortion imitates.
public enum AVAudioUnitDistortionPreset: Int, @unchecked Sendable {
    /// Drums through a bit crusher.
    case drumsBitBrush = 0
    /// Drums through a buffer stutter.
    case drumsBufferBeats = 1
    /// Lo-fi drums.
    case drumsLoFi = 2
    /// A broken speaker.
    case multiBrokenSpeaker = 3
    /// A phone held up at a concert.
    case multiCellphoneConcert = 4
    /// Decimation, lightly.
    case multiDecimated1 = 5
    /// Decimation, more.
    case multiDecimated2 = 6
    /// Decimation, heavily.
    case multiDecimated3 = 7
    /// Decimation, most.
    case multiDecimated4 = 8
    /// A funky overdrive.
    case multiDistortedFunk = 9
    /// Cubic clipping.
    case multiDistortedCubed = 10
    /// Squared clipping.
    case multiDistortedSquared = 11
    /// An echo.
    case multiEcho1 = 12
    /// Another echo.
    case multiEcho2 = 13
    /// A tight echo.
    case multiEchoTight1 = 14
    /// Another tight echo.
    case multiEchoTight2 = 15
    /// Everything broken at once.
    case multiEverythingIsBroken = 16
    /// Alien chatter.
    case speechAlienChatter = 17
    /// Cosmic interference.
    case speechCosmicInterference = 18
    /// A voice through a golden pi.
    case speechGoldenPi = 19
    /// A voice from a radio tower.
    case speechRadioTower = 20
    /// A voice in waves.
    case speechWaves = 21

    /// FFmpeg's filters for the preset (bit crushing, clipping, band limits, echoes, modulation).
    var filters: String {
        switch self {
        case .drumsBitBrush: "acrusher=bits=6:mode=log:aa=0.5"
        case .drumsBufferBeats: "acrusher=bits=8:samples=4"
        case .drumsLoFi: "acrusher=bits=10:samples=2,lowpass=f=5000"
        case .multiBrokenSpeaker: "highpass=f=400,asoftclip=type=hard:threshold=0.3,lowpass=f=4000"
        case .multiCellphoneConcert: "highpass=f=300,lowpass=f=3400,asoftclip=type=tanh"
        case .multiDecimated1: "acrusher=samples=2"
        case .multiDecimated2: "acrusher=samples=4"
        case .multiDecimated3: "acrusher=samples=8"
        case .multiDecimated4: "acrusher=samples=16"
        case .multiDistortedFunk: "volume=12dB,asoftclip=type=atan"
        case .multiDistortedCubed: "volume=9dB,asoftclip=type=cubic"
        case .multiDistortedSquared: "volume=9dB,asoftclip=type=quintic"
        case .multiEcho1: "aecho=in_gain=1:out_gain=0.7:delays=250:decays=0.5"
        case .multiEcho2: "aecho=in_gain=1:out_gain=0.6:delays=400|800:decays=0.5|0.25"
        case .multiEchoTight1: "aecho=in_gain=1:out_gain=0.7:delays=60:decays=0.5"
        case .multiEchoTight2: "aecho=in_gain=1:out_gain=0.7:delays=30|60:decays=0.5|0.3"
        case .multiEverythingIsBroken:
            "acrusher=bits=5:samples=6,volume=12dB,asoftclip=type=hard:threshold=0.4,aecho=in_gain=1:out_gain=0.6:delays=90:decays=0.4"
        case .speechAlienChatter: "afreqshift=shift=300,aecho=in_gain=1:out_gain=0.7:delays=40:decays=0.4"
        case .speechCosmicInterference: "aphaser=speed=0.5,afreqshift=shift=-150"
        case .speechGoldenPi: "afreqshift=shift=120"
        case .speechRadioTower: "highpass=f=500,lowpass=f=3000,volume=6dB,asoftclip=type=tanh"
        case .speechWaves: "aphaser=speed=0.3:decay=0.6"
        }
    }
}

/// A distortion: the preset's processing (FFmpeg's crushers, clippers and filters) after a pre-gain, mixed with the dry sound.
open class AVAudioUnitDistortion: AVAudioUnitEffect, @unchecked Sendable {
    private let settings = LockedValue((preset: AVAudioUnitDistortionPreset.drumsBitBrush, wetDryMix: Float(50), preGain: Float(-6)))

    /// Creates a distortion.
    public override init() { super.init() }

    /// Chooses the sound.
    open func loadFactoryPreset(_ preset: AVAudioUnitDistortionPreset) {
        settings.withLock { $0.preset = preset }
        parametersChanged()
    }

    /// The wet share of the output, in percent.
    open var wetDryMix: Float {
        get { settings.withLock { $0.wetDryMix } }
        set {
            settings.withLock { $0.wetDryMix = clamped(newValue, 0...100, else: $0.wetDryMix) }
            parametersChanged()
        }
    }

    /// The gain before the distortion, in decibels (-80 to 20).
    open var preGain: Float {
        get { settings.withLock { $0.preGain } }
        set {
            settings.withLock { $0.preGain = clamped(newValue, -80...20, else: $0.preGain) }
            parametersChanged()
        }
    }

    package override func filterDescription(sampleRate: Double, channels: Int) -> String {
        let (preset, mix, gain) = settings.withLock { ($0.preset, $0.wetDryMix / 100, $0.preGain) }
        return Self.wetDry("[wetin]volume=\(gain)dB,\(preset.filters)[wet]", mix: Double(mix))
    }
}
