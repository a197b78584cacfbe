import CoreVideo
import Foundation

/// The kind of filter an equaliser band is.
public enum AVAudioUnitEQFilterType: Int, @unchecked Sendable {
    /// A peak or dip around the frequency, `bandwidth` octaves wide.
    case parametric = 0
    /// Frequencies above the cutoff removed.
    case lowPass = 1
    /// Frequencies below the cutoff removed.
    case highPass = 2
    /// A low-pass filter with a resonant peak at the cutoff.
    case resonantLowPass = 3
    /// A high-pass filter with a resonant peak at the cutoff.
    case resonantHighPass = 4
    /// Only frequencies around the centre kept.
    case bandPass = 5
    /// Frequencies around the centre removed.
    case bandStop = 6
    /// Frequencies below the cutoff raised or lowered.
    case lowShelf = 7
    /// Frequencies above the cutoff raised or lowered.
    case highShelf = 8
    /// A low shelf with a resonant peak at the cutoff.
    case resonantLowShelf = 9
    /// A high shelf with a resonant peak at the cutoff.
    case resonantHighShelf = 10
}

/// One band of an equaliser: a filter with its frequency, bandwidth and gain.
open class AVAudioUnitEQFilterParameters: NSObject, @unchecked Sendable {
    private struct Values {
        var filterType = AVAudioUnitEQFilterType.parametric
        var frequency: Float = 1000
        var bandwidth: Float = 0.5
        var gain: Float = 0
        var bypass = true
    }
    private let values = LockedValue(Values())
    /// Told when a value changes (the equaliser rebuilds its filters).
    private let changed: @Sendable () -> Void

    init(changed: @escaping @Sendable () -> Void) {
        self.changed = changed
        super.init()
    }

    private func set(_ change: (inout Values) -> Void) {
        values.withLock(change)
        changed()
    }

    /// The kind of filter.
    open var filterType: AVAudioUnitEQFilterType {
        get { values.withLock { $0.filterType } }
        set { set { $0.filterType = newValue } }
    }
    /// The centre or cutoff frequency, in hertz (10 Hz to half the sample rate).
    open var frequency: Float {
        get { values.withLock { $0.frequency } }
        set { set { $0.frequency = clamped(newValue, 10...96_000, else: $0.frequency) } }
    }
    /// The width in octaves (0.05 to 5), for the kinds that have one.
    open var bandwidth: Float {
        get { values.withLock { $0.bandwidth } }
        set { set { $0.bandwidth = clamped(newValue, 0.05...5, else: $0.bandwidth) } }
    }
    /// The gain in decibels (-96 to 24), for peaks and shelves.
    open var gain: Float {
        get { values.withLock { $0.gain } }
        set { set { $0.gain = clamped(newValue, -96...24, else: $0.gain) } }
    }
    /// Whether the band is left out; bands start bypassed, as Apple's do.
    open var bypass: Bool {
        get { values.withLock { $0.bypass } }
        set { set { $0.bypass = newValue } }
    }

    /// FFmpeg's filter for the band at a sample rate; nil when bypassed.
    func filter(sampleRate: Double) -> String? {
        let band = values.withLock { $0 }
        guard !band.bypass else { return nil }
        let frequency = min(Double(band.frequency), sampleRate / 2 - 1)
        // A bandwidth in octaves as a quality factor.
        let octaves = Double(band.bandwidth)
        let q = 1 / (2 * sinh(log(2) / 2 * octaves))
        switch band.filterType {
        case .parametric: return "equalizer=f=\(frequency):t=o:w=\(octaves):g=\(band.gain)"
        case .lowPass: return "lowpass=f=\(frequency):p=2"
        case .highPass: return "highpass=f=\(frequency):p=2"
        case .resonantLowPass: return "lowpass=f=\(frequency):p=2:t=q:w=\(q)"
        case .resonantHighPass: return "highpass=f=\(frequency):p=2:t=q:w=\(q)"
        case .bandPass: return "bandpass=f=\(frequency):t=o:w=\(octaves)"
        case .bandStop: return "bandreject=f=\(frequency):t=o:w=\(octaves)"
        case .lowShelf: return "lowshelf=f=\(frequency):g=\(band.gain)"
        case .highShelf: return "highshelf=f=\(frequency):g=\(band.gain)"
        case .resonantLowShelf: return "lowshelf=f=\(frequency):g=\(band.gain):t=q:w=\(q)"
        case .resonantHighShelf: return "highshelf=f=\(frequency):g=\(band.gain):t=q:w=\(q)"
        }
    }
}

/// An equaliser: bands of filters (FFmpeg's biquads) and a global gain.
open class AVAudioUnitEQ: AVAudioUnitEffect, @unchecked Sendable {
    /// The bands, in the order they filter.
    public private(set) var bands: [AVAudioUnitEQFilterParameters] = []
    private let global = LockedValue<Float>(0)

    /// Creates an equaliser with one band.
    public override init() {
        super.init()
        bands = makeBands(1)
    }

    /// Creates an equaliser with a number of bands, each bypassed until set.
    public init(numberOfBands: Int) {
        super.init()
        bands = makeBands(numberOfBands)
    }

    private func makeBands(_ count: Int) -> [AVAudioUnitEQFilterParameters] {
        (0..<max(0, count)).map { _ in AVAudioUnitEQFilterParameters { [weak self] in self?.parametersChanged() } }
    }

    /// The gain applied after the bands, in decibels (-96 to 24).
    open var globalGain: Float {
        get { global.withLock { $0 } }
        set {
            global.withLock { $0 = clamped(newValue, -96...24, else: $0) }
            parametersChanged()
        }
    }

    package override func filterDescription(sampleRate: Double, channels: Int) -> String {
        var filters = bands.compactMap { $0.filter(sampleRate: sampleRate) }
        let gain = globalGain
        if gain != 0 { filters.append("volume=\(gain)dB") }
        return "[in]" + (filters.isEmpty ? "anull" : filters.joined(separator: ",")) + "[out]"
    }
}
