import Foundation

/// The methods a player's delegate implements to hear when playing finishes or fails. Every
/// method has a default that does nothing. Called on the main queue.
public protocol AVAudioPlayerDelegate: NSObjectProtocol {
    /// The sound played to its end (after its loops); `flag` is false when decoding failed.
    func audioPlayerDidFinishPlaying(_ player: AVAudioPlayer, successfully flag: Bool)
    /// Decoding failed while playing.
    func audioPlayerDecodeErrorDidOccur(_ player: AVAudioPlayer, error: (any Error)?)
}

extension AVAudioPlayerDelegate {
    /// Does nothing.
    public func audioPlayerDidFinishPlaying(_ player: AVAudioPlayer, successfully flag: Bool) {}
    /// Does nothing.
    public func audioPlayerDecodeErrorDidOccur(_ player: AVAudioPlayer, error: (any Error)?) {}
}
