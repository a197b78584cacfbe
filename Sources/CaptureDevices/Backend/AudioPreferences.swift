import CoreVideo
import Foundation

/// The application's audio preferences, which microphones capture with: a sample rate, an I/O
/// buffer duration and a number of input channels (AVAudioSession's preferences, on Linux). Thread-safe.
package enum AudioPreferences {
    private static let values = LockedValue<(rate: Double?, bufferDuration: Double?, input: String?, channels: Int?)>((nil, nil, nil, nil))
    private static let routing = LockedValue<(toSpeaker: Bool, inputMuted: Bool)>((false, false))

    /// Whether the application's playback goes to the speaker rather than the default output
    /// (the audio session's speaker override, or its default-to-speaker option).
    package static var routesToSpeaker: Bool {
        get { routing.withLock { $0.toSpeaker } }
        set { routing.withLock { $0.toSpeaker = newValue } }
    }

    /// Whether the application's input is muted: whatever records hears silence.
    package static var isInputMuted: Bool {
        get { routing.withLock { $0.inputMuted } }
        set { routing.withLock { $0.inputMuted = newValue } }
    }

    /// The preferred sample rate in hertz, or nil for each device's own.
    package static var preferredSampleRate: Double? {
        get { values.withLock { $0.rate } }
        set { values.withLock { $0.rate = newValue } }
    }

    /// The unique ID of the microphone the application prefers, or nil for the system's choice.
    package static var preferredInputUID: String? {
        get { values.withLock { $0.input } }
        set { values.withLock { $0.input = newValue } }
    }

    /// The number of input channels the application prefers, or nil for each device's own.
    package static var preferredInputChannels: Int? {
        get { values.withLock { $0.channels } }
        set { values.withLock { $0.channels = newValue } }
    }

    /// The preferred time each buffer of samples covers, in seconds, or nil for each device's own.
    package static var preferredIOBufferDuration: Double? {
        get { values.withLock { $0.bufferDuration } }
        set { values.withLock { $0.bufferDuration = newValue } }
    }

    /// The rate a device whose own rate is `native` captures at: the preferred one where set, within 8 kHz to 192 kHz.
    package static func sampleRate(native: Double) -> Double {
        preferredSampleRate.map { min(192_000, max(8_000, $0)) } ?? native
    }

    /// Frames per buffer at `rate`: the preferred duration's worth where set, else `standard`; 64 to 16384.
    package static func framesPerBuffer(rate: Double, standard: Int) -> Int {
        guard let duration = preferredIOBufferDuration else { return standard }
        return min(16_384, max(64, Int((duration * rate).rounded())))
    }
}

/// A microphone whose input gain can be read and perhaps set.
package protocol AudioInputGainControl: AnyObject {
    /// The gain applied to the input, from 0 (silence) to 1 (the device's full level), as a linear factor.
    var inputGain: Float { get }
    /// Whether `setInputGain` can change the gain.
    var isInputGainSettable: Bool { get }
    /// Sets the gain, from 0 to 1.
    func setInputGain(_ gain: Float) throws(CaptureBackendError)
}
