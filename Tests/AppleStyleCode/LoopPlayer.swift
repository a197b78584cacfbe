import AVFoundation

/// A drum-loop player as music apps write one: the loop file read whole into a buffer, scheduled
/// on a player node with `.loops`, played through the main mixer; here rendered offline, as apps
/// bounce what they play into a file.
public final class LoopPlayer {
    private let engine = AVAudioEngine()
    private let player = AVAudioPlayerNode()
    private let loop: AVAudioPCMBuffer

    /// A player of the loop in a file.
    public init(loopURL: URL) throws {
        let file = try AVAudioFile(forReading: loopURL)
        guard let buffer = AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: AVAudioFrameCount(file.length)) else {
            throw NSError(domain: "LoopPlayer", code: 1)
        }
        try file.read(into: buffer)
        loop = buffer
        engine.attach(player)
        engine.connect(player, to: engine.mainMixerNode, format: buffer.format)
    }

    /// The loop played for `seconds`, rendered offline in the loop's format: one channel's samples.
    public func bounce(seconds: Double) throws -> [Float] {
        try engine.enableManualRenderingMode(.offline, format: loop.format, maximumFrameCount: 1024)
        player.scheduleBuffer(loop, at: nil, options: .loops, completionHandler: nil)
        try engine.start()
        player.play()
        let buffer = AVAudioPCMBuffer(pcmFormat: engine.manualRenderingFormat, frameCapacity: engine.manualRenderingMaximumFrameCount)!
        var samples: [Float] = []
        let total = Int(seconds * loop.format.sampleRate)
        while samples.count < total {
            let frames = AVAudioFrameCount(min(Int(buffer.frameCapacity), total - samples.count))
            guard try engine.renderOffline(frames, to: buffer) == .success else { break }
            samples += UnsafeBufferPointer(start: buffer.floatChannelData![0], count: Int(buffer.frameLength))
        }
        player.stop()
        engine.stop()
        return samples
    }
}
