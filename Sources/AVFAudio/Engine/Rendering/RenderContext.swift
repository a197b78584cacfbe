import CoreAudioTypes
import Foundation

/// What a render cycle tells every node it pulls: the cycle's number (a node renders once a
/// cycle, whoever asks), the engine sample time of its first frame, and whether it runs under
/// real-time constraints (the render thread, realtime manual rendering) or offline.
///
/// A value made on the stack each cycle; making it allocates nothing.
struct RenderContext {
    /// The cycle's number; a node asked again within the same cycle gives what it rendered.
    var cycle: Int
    /// The engine sample time of the cycle's first frame.
    var sampleTime: AVAudioFramePosition
    /// The rate the sample time counts at: the output's.
    var sampleRate: Double
    /// Whether the cycle may not wait (for a file's frames, say): false only when rendering offline.
    var realTime: Bool

    /// The same cycle's time under another cycle number: a pull outside the cycle's own.
    func renumbered(_ cycle: Int) -> RenderContext {
        var copy = self
        copy.cycle = cycle
        return copy
    }

    /// The cycle's time as a Core Audio time stamp: its sample time, valid.
    var audioTimeStamp: AudioTimeStamp {
        var stamp = AudioTimeStamp()
        stamp.mSampleTime = Double(sampleTime)
        stamp.mFlags = .sampleTimeValid
        return stamp
    }
}
