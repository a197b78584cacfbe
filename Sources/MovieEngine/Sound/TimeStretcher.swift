import CTimePitch

/// Sound stretched in time with its pitch kept: Rubber Band for speech and music, SoundTouch for
/// a cheaper time-domain stretch.
///
/// Thread ownership: one thread at a time.
package final class TimeStretcher {
    /// How the sound is stretched.
    package enum Method: Sendable {
        /// Rubber Band's phase vocoder: the best quality.
        case spectral
        /// SoundTouch's time-domain stretch: cheaper, for speech.
        case timeDomain
    }

    private let stretcher: OpaquePointer

    /// Why Rubber Band and SoundTouch cannot be used, loading them the first time this is asked; nil when they are loaded.
    package static var libraryProblem: String? { ctp_load().map { String(cString: $0) } }

    /// Creates a stretcher for interleaved float sound that makes it last `ratio` times as long;
    /// nil when the libraries cannot be loaded (`libraryProblem`) or refuse the rate, channels or ratio.
    package init?(_ method: Method, sampleRate: Int, channels: Int, ratio: Double) {
        let kind = Int32(method == .spectral ? CTP_SPECTRAL : CTP_TIME_DOMAIN)
        guard let made = ctp_new(kind, Int32(sampleRate), Int32(channels), ratio) else { return nil }
        stretcher = made
    }

    deinit { ctp_free(stretcher) }

    /// Gives the stretcher `frames` frames of interleaved samples.
    package func process(_ samples: UnsafePointer<Float>, frames: Int) { _ = ctp_process(stretcher, samples, Int32(frames), 0) }

    /// Tells the stretcher no more sound comes, so that it gives what it holds.
    package func finish() { _ = ctp_process(stretcher, nil, 0, 1) }

    /// Takes up to `capacity` frames of stretched sound into `samples`; the frames taken.
    package func retrieve(into samples: UnsafeMutablePointer<Float>, capacity: Int) -> Int { Int(ctp_retrieve(stretcher, samples, Int32(capacity))) }
}
