import Foundation

/// The methods a recorder's delegate implements to hear when recording finishes or fails.
/// Every method has a default that does nothing. Called on the main queue.
public protocol AVAudioRecorderDelegate: NSObjectProtocol {
    /// Recording stopped, or reached its duration; `flag` says whether the file was completed.
    func audioRecorderDidFinishRecording(_ recorder: AVAudioRecorder, successfully flag: Bool)
    /// Encoding or writing failed while recording.
    func audioRecorderEncodeErrorDidOccur(_ recorder: AVAudioRecorder, error: (any Error)?)
}

extension AVAudioRecorderDelegate {
    /// Does nothing.
    public func audioRecorderDidFinishRecording(_ recorder: AVAudioRecorder, successfully flag: Bool) {}
    /// Does nothing.
    public func audioRecorderEncodeErrorDidOccur(_ recorder: AVAudioRecorder, error: (any Error)?) {}
}
