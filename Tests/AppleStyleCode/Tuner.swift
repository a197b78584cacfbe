import AVFoundation

/// A guitar tuner as iOS apps write one: the audio session set for measurement, a tap on the
/// engine's input node, and the pitch found in each buffer by autocorrelation, published as a note.
public final class Tuner: @unchecked Sendable {
    public private(set) var frequencies: [Double] = []
    private let audioEngine = AVAudioEngine()
    private let lock = NSLock()

    public init() {}

    public func start() throws {
        let session = AVAudioSession.sharedInstance()
        try session.setCategory(.record, mode: .measurement, options: [])
        try session.setActive(true)
        let inputNode = audioEngine.inputNode
        let format = inputNode.outputFormat(forBus: 0)
        inputNode.installTap(onBus: 0, bufferSize: 4096, format: format) { [weak self] buffer, _ in
            guard let self, let channelData = buffer.floatChannelData?[0] else { return }
            let frameLength = Int(buffer.frameLength)
            let samples = Array(UnsafeBufferPointer(start: channelData, count: frameLength))
            if let pitch = self.detectPitch(samples, sampleRate: format.sampleRate) {
                self.lock.lock()
                self.frequencies.append(pitch)
                self.lock.unlock()
            }
        }
        audioEngine.prepare()
        try audioEngine.start()
    }

    public func stop() {
        audioEngine.inputNode.removeTap(onBus: 0)
        audioEngine.stop()
    }

    public var latestFrequencies: [Double] {
        lock.lock()
        defer { lock.unlock() }
        return frequencies
    }

    public static func noteName(for frequency: Double) -> String {
        let names = ["C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B"]
        let midi = Int((12 * log2(frequency / 440) + 69).rounded())
        return names[midi % 12] + String(midi / 12 - 1)
    }

    private func detectPitch(_ samples: [Float], sampleRate: Double) -> Double? {
        let minLag = Int(sampleRate / 1000), maxLag = Int(sampleRate / 60)
        guard samples.count > maxLag * 2 else { return nil }
        var bestLag = 0
        var bestCorrelation: Float = 0
        for lag in minLag...maxLag {
            var correlation: Float = 0
            for index in 0..<(samples.count - lag) { correlation += samples[index] * samples[index + lag] }
            if correlation > bestCorrelation {
                bestCorrelation = correlation
                bestLag = lag
            }
        }
        return bestLag > 0 ? sampleRate / Double(bestLag) : nil
    }
}
