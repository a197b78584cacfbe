import AVFoundation
import Foundation

/// Sound through a hall reverb as an effects app handles it: heard live through the engine (a tap
/// on the main mixer collects it), and exported offline with the same graph, which must sound the
/// same, shifted only by the latency the reverb says it has live.
public final class ReverbExporter {
    private let sound: AVAudioPCMBuffer

    /// An exporter of a buffer of sound.
    public init(sound: AVAudioPCMBuffer) { self.sound = sound }

    private func makeGraph() -> (AVAudioEngine, AVAudioPlayerNode, AVAudioUnitReverb) {
        let engine = AVAudioEngine()
        let player = AVAudioPlayerNode()
        let reverb = AVAudioUnitReverb()
        reverb.loadFactoryPreset(.largeHall)
        reverb.wetDryMix = 50
        engine.attach(player)
        engine.attach(reverb)
        engine.connect(player, to: reverb, format: sound.format)
        engine.connect(reverb, to: engine.mainMixerNode, format: sound.format)
        return (engine, player, reverb)
    }

    /// The sound exported offline: `frames` frames of the first channel.
    public func export(frames: Int) throws -> [Float] {
        let (engine, player, _) = makeGraph()
        try engine.enableManualRenderingMode(.offline, format: sound.format, maximumFrameCount: 512)
        player.scheduleBuffer(sound, completionHandler: nil)
        try engine.start()
        player.play()
        let buffer = AVAudioPCMBuffer(pcmFormat: engine.manualRenderingFormat, frameCapacity: 512)!
        var samples: [Float] = []
        while samples.count < frames {
            guard try engine.renderOffline(AVAudioFrameCount(min(512, frames - samples.count)), to: buffer) == .success else { break }
            samples += UnsafeBufferPointer(start: buffer.floatChannelData![0], count: Int(buffer.frameLength))
        }
        engine.stop()
        return samples
    }

    /// The sound as heard live: at least `frames` frames of the first channel from a tap on the
    /// main mixer, and the reverb's latency in frames while it played; nil if it did not come in `timeout` seconds.
    public func listen(frames: Int, timeout: TimeInterval) throws -> (samples: [Float], latencyFrames: Int)? {
        let (engine, player, reverb) = makeGraph()
        let heard = HeardSamples()
        engine.mainMixerNode.installTap(onBus: 0, bufferSize: 4096, format: nil) { buffer, _ in
            heard.append(UnsafeBufferPointer(start: buffer.floatChannelData![0], count: Int(buffer.frameLength)))
        }
        player.scheduleBuffer(sound, completionHandler: nil)
        player.play()
        try engine.start()
        defer { engine.stop() }
        let latency = Int((reverb.latency * sound.format.sampleRate).rounded())
        let deadline = Date().addingTimeInterval(timeout)
        while heard.count < frames, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        guard heard.count >= frames else { return nil }
        return (heard.samples, latency)
    }
}

/// Samples a tap collects on its queue, read from another thread.
private final class HeardSamples: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Float] = []
    func append(_ samples: UnsafeBufferPointer<Float>) { lock.withLock { stored += samples } }
    var count: Int { lock.withLock { stored.count } }
    var samples: [Float] { lock.withLock { stored } }
}
