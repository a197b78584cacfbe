import Foundation

/// A moment in audio: a host time, a sample time at a sample rate, or both.
///
/// Host time is the host clock's: `CLOCK_MONOTONIC` in nanoseconds on Linux (Core Media's
/// host time clock). Immutable.
open class AVAudioTime: NSObject, @unchecked Sendable {
    /// The time as a Core Audio time stamp.
    public let audioTimeStamp: AudioTimeStamp
    /// The sample rate the sample time counts at.
    public let sampleRate: Double

    /// Creates a time from a Core Audio time stamp and the rate its sample time counts at.
    public init(audioTimeStamp ts: UnsafePointer<AudioTimeStamp>, sampleRate: Double) {
        audioTimeStamp = ts.pointee
        self.sampleRate = sampleRate
        super.init()
    }

    /// Creates a time from a host time alone.
    public convenience init(hostTime: UInt64) {
        var stamp = AudioTimeStamp()
        stamp.mHostTime = hostTime
        stamp.mFlags = .hostTimeValid
        self.init(audioTimeStamp: &stamp, sampleRate: 0)
    }

    /// Creates a time from a sample time at a rate alone.
    public convenience init(sampleTime: AVAudioFramePosition, atRate sampleRate: Double) {
        var stamp = AudioTimeStamp()
        stamp.mSampleTime = Double(sampleTime)
        stamp.mFlags = .sampleTimeValid
        self.init(audioTimeStamp: &stamp, sampleRate: sampleRate)
    }

    /// Creates a time that is both a host time and a sample time at a rate.
    public convenience init(hostTime: UInt64, sampleTime: AVAudioFramePosition, atRate sampleRate: Double) {
        var stamp = AudioTimeStamp()
        stamp.mHostTime = hostTime
        stamp.mSampleTime = Double(sampleTime)
        stamp.mFlags = [.hostTimeValid, .sampleTimeValid]
        self.init(audioTimeStamp: &stamp, sampleRate: sampleRate)
    }

    /// Whether the host time is valid.
    open var isHostTimeValid: Bool { audioTimeStamp.mFlags.contains(.hostTimeValid) }
    /// The host time.
    open var hostTime: UInt64 { audioTimeStamp.mHostTime }
    /// Whether the sample time is valid.
    open var isSampleTimeValid: Bool { audioTimeStamp.mFlags.contains(.sampleTimeValid) }
    /// The sample time, in frames at `sampleRate`.
    open var sampleTime: AVAudioFramePosition { AVAudioFramePosition(audioTimeStamp.mSampleTime) }

    /// The host time of a number of seconds.
    open class func hostTime(forSeconds seconds: TimeInterval) -> UInt64 {
        guard seconds.isFinite, seconds > 0 else { return 0 }
        return seconds >= Double(UInt64.max) / 1e9 ? UInt64.max : UInt64((seconds * 1e9).rounded())
    }

    /// The seconds a host time is.
    open class func seconds(forHostTime hostTime: UInt64) -> TimeInterval { Double(hostTime) / 1e9 }

    /// This time made complete from an anchor that has both host and sample times: the missing
    /// one is worked out from the anchor at this time's rate (or the anchor's). Nil when the
    /// anchor lacks either time, or this time has neither.
    open func extrapolateTime(fromAnchor anchorTime: AVAudioTime) -> AVAudioTime? {
        guard anchorTime.isHostTimeValid, anchorTime.isSampleTimeValid, anchorTime.sampleRate > 0 else { return nil }
        let rate = sampleRate > 0 ? sampleRate : anchorTime.sampleRate
        // The anchor's sample time, counted at this time's rate.
        let anchorSamples = anchorTime.audioTimeStamp.mSampleTime * rate / anchorTime.sampleRate
        let anchorSeconds = Self.seconds(forHostTime: anchorTime.hostTime)
        switch (isHostTimeValid, isSampleTimeValid) {
        case (true, true):
            return self
        case (true, false):
            let seconds = Self.seconds(forHostTime: hostTime) - anchorSeconds
            let samples = (anchorSamples + seconds * rate).rounded()
            return AVAudioTime(hostTime: hostTime, sampleTime: AVAudioFramePosition(samples), atRate: rate)
        case (false, true):
            let seconds = anchorSeconds + (audioTimeStamp.mSampleTime - anchorSamples) / rate
            return AVAudioTime(hostTime: Self.hostTime(forSeconds: seconds), sampleTime: sampleTime, atRate: rate)
        case (false, false):
            return nil
        }
    }

    /// The time in words.
    open override var description: String {
        var parts: [String] = []
        if isHostTimeValid { parts.append("host time \(hostTime)") }
        if isSampleTimeValid { parts.append("sample time \(sampleTime) at \(sampleRate) Hz") }
        return "<AVAudioTime: \(parts.isEmpty ? "invalid" : parts.joined(separator: ", "))>"
    }
}
