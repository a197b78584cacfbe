/// How sound is stretched when it plays at a rate other than 1 (the AV Foundation Programming Guide, "Playback").
public struct AVAudioTimePitchAlgorithm: RawRepresentable, Hashable, Sendable {
    /// The algorithm's name.
    public let rawValue: String
    /// Creates an algorithm from its name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Low quality and very inexpensive; suitable for brief fast-forward and rewind effects and
    /// low-quality voice. Rates snap to 0.5, 0.666667, 0.8, 1.0, 1.25, 1.5 and 2.0.
    @available(*, deprecated, message: "Use timeDomain instead.")
    public static let lowQualityZeroLatency = AVAudioTimePitchAlgorithm(rawValue: "LowQualityZeroLatency")
    /// Modest quality, less expensive; suitable for voice. Rates from 0.5 to 2x; pitch is kept.
    public static let timeDomain = AVAudioTimePitchAlgorithm(rawValue: "TimeDomain")
    /// Highest quality, most expensive; suitable for music. Rates from 1/32 to 32x; pitch is kept.
    public static let spectral = AVAudioTimePitchAlgorithm(rawValue: "Spectral")
    /// High-quality playback with no pitch correction: pitch follows the rate. Rates from 1/32 to 32x.
    public static let varispeed = AVAudioTimePitchAlgorithm(rawValue: "Varispeed")

    /// The low-quality algorithm, named without the deprecation its public constant carries.
    package static let snapping = AVAudioTimePitchAlgorithm(rawValue: "LowQualityZeroLatency")

    /// The rates the algorithm plays sound at (the AV Foundation Programming Guide's table): 1 alone for an algorithm it does not list.
    var rateRange: ClosedRange<Double> {
        switch self {
        case .timeDomain, .snapping: 0.5...2
        case .spectral, .varispeed: (1.0 / 32)...32
        default: 1...1
        }
    }
}
