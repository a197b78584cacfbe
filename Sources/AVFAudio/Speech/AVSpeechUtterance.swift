import Foundation

/// The slowest speech rate.
public let AVSpeechUtteranceMinimumSpeechRate: Float = 0
/// The fastest speech rate.
public let AVSpeechUtteranceMaximumSpeechRate: Float = 1
/// The usual speech rate.
public let AVSpeechUtteranceDefaultSpeechRate: Float = 0.5

/// Text to speak, with the voice, rate, pitch, volume and pauses to speak it with.
open class AVSpeechUtterance: NSObject, @unchecked Sendable {
    /// The text.
    public let speechString: String
    /// The text, as an attributed string.
    public let attributedSpeechString: NSAttributedString
    /// The voice; nil for the user's language's.
    open var voice: AVSpeechSynthesisVoice?
    /// The rate, from `AVSpeechUtteranceMinimumSpeechRate` to `AVSpeechUtteranceMaximumSpeechRate`.
    open var rate: Float = AVSpeechUtteranceDefaultSpeechRate
    /// The pitch, from 0.5 (an octave lower) to 2 (an octave higher).
    open var pitchMultiplier: Float = 1
    /// The volume, from 0 to 1.
    open var volume: Float = 1
    /// Whether the user's accessibility speech settings replace these; there are none on Linux.
    open var prefersAssistiveTechnologySettings = false
    /// Silence before the speech, in seconds.
    open var preUtteranceDelay: TimeInterval = 0
    /// Silence after the speech, in seconds.
    open var postUtteranceDelay: TimeInterval = 0

    /// Creates an utterance of text.
    public init(string: String) {
        speechString = string
        attributedSpeechString = NSAttributedString(string: string)
        super.init()
    }

    /// Creates an utterance of an attributed string's text.
    public init(attributedString string: NSAttributedString) {
        speechString = string.string
        attributedSpeechString = string
        super.init()
    }

    /// espeak-ng's words a minute for the rate: 80 at the slowest, 175 at the default, 450 at the fastest.
    var wordsPerMinute: Int {
        let rate = rate.isFinite ? max(0, min(1, rate)) : AVSpeechUtteranceDefaultSpeechRate
        return rate <= 0.5 ? Int(80 + rate / 0.5 * 95) : Int(175 + (rate - 0.5) / 0.5 * 275)
    }

    /// espeak-ng's pitch (0 to 100, 50 normal) for the multiplier: 25 steps an octave.
    var espeakPitch: Int {
        let multiplier = pitchMultiplier.isFinite ? max(0.5, min(2, pitchMultiplier)) : 1
        return Int((50 + 50 * log2(Double(multiplier))).rounded())
    }
}
