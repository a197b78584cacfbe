import CSpeech
import Foundation

/// How good a voice is.
public enum AVSpeechSynthesisVoiceQuality: Int, @unchecked Sendable {
    /// The basic quality.
    case `default` = 1
    /// A better quality.
    case enhanced = 2
    /// The best quality.
    case premium = 3
}

/// A voice's gender.
public enum AVSpeechSynthesisVoiceGender: Int, @unchecked Sendable {
    /// Not said.
    case unspecified = 0
    /// A male voice.
    case male = 1
    /// A female voice.
    case female = 2
}

/// A voice speech is synthesised in: one of espeak-ng's, by its BCP 47 language.
open class AVSpeechSynthesisVoice: NSObject, @unchecked Sendable {
    /// The voice's language, as a BCP 47 code such as "en-US".
    public let language: String
    /// The voice's identifier: espeak-ng's, such as "gmw/en-US".
    public let identifier: String
    /// The voice's name.
    public let name: String
    /// The voice's gender.
    public let gender: AVSpeechSynthesisVoiceGender
    /// How good the voice is: espeak-ng's formant voices are the basic quality.
    public let quality: AVSpeechSynthesisVoiceQuality = .default

    init(language: String, identifier: String, name: String, gender: AVSpeechSynthesisVoiceGender) {
        self.language = language
        self.identifier = identifier
        self.name = name
        self.gender = gender
        super.init()
    }

    /// The voice for a language ("en-US", "fr"; nil: the user's); nil when no voice speaks it.
    public convenience init?(language languageCode: String?) {
        let wanted = (languageCode ?? Self.currentLanguageCode()).lowercased().replacingOccurrences(of: "_", with: "-")
        let voices = Self.speechVoices()
        let primary = wanted.split(separator: "-").first.map(String.init) ?? wanted
        guard
            let voice = voices.first(where: { $0.language.lowercased() == wanted })
                ?? voices.first(where: { $0.language.lowercased() == primary })
                ?? voices.first(where: { $0.language.lowercased().hasPrefix(primary + "-") })
        else { return nil }
        self.init(language: voice.language, identifier: voice.identifier, name: voice.name, gender: voice.gender)
    }

    /// The voice with an identifier; nil when there is none.
    public convenience init?(identifier: String) {
        guard let voice = Self.speechVoices().first(where: { $0.identifier == identifier }) else { return nil }
        self.init(language: voice.language, identifier: voice.identifier, name: voice.name, gender: voice.gender)
    }

    /// Every voice there is; none when espeak-ng is not installed.
    open class func speechVoices() -> [AVSpeechSynthesisVoice] { all }

    /// The user's language, as a BCP 47 code (from the locale), such as "en-US".
    open class func currentLanguageCode() -> String {
        let identifier = Locale.current.identifier.replacingOccurrences(of: "_", with: "-")
        return identifier.isEmpty || identifier == "en-US-POSIX" ? "en-US" : identifier
    }

    /// The settings of the audio a voice's speech is written in: mono 32-bit floats at espeak-ng's rate.
    open var audioFileSettings: [String: Any] {
        [
            AVFormatIDKey: kAudioFormatLinearPCM, AVSampleRateKey: Double(csp_sample_rate()), AVNumberOfChannelsKey: 1, AVLinearPCMBitDepthKey: 32,
            AVLinearPCMIsFloatKey: true, AVLinearPCMIsNonInterleaved: true,
        ]
    }

    private static let all: [AVSpeechSynthesisVoice] = {
        var voices: [AVSpeechSynthesisVoice] = []
        for index in 0..<Int(csp_voice_count()) {
            var voice = csp_voice()
            guard csp_voice_at(Int32(index), &voice) == 0, let name = voice.name, let identifier = voice.identifier, let language = voice.language else {
                continue
            }
            voices.append(
                AVSpeechSynthesisVoice(
                    language: bcp47(String(cString: language)), identifier: String(cString: identifier), name: String(cString: name),
                    gender: AVSpeechSynthesisVoiceGender(rawValue: Int(voice.gender)) ?? .unspecified))
        }
        return voices
    }()

    /// espeak-ng's language ("en-us") as BCP 47 ("en-US").
    private static func bcp47(_ language: String) -> String {
        let parts = language.split(separator: "-")
        guard parts.count >= 2 else { return language }
        return parts.enumerated().map { index, part in index > 0 && part.count == 2 ? part.uppercased() : String(part) }.joined(separator: "-")
    }
}
