import AVFoundation
import Foundation

/// A minute of 48 kHz stereo music rendered offline through AVAudioEngine (a player node, an
/// equaliser band and a medium hall reverb at half wet, into a WAV file), next to ffmpeg running
/// the same filters and sox its own equaliser and reverb on the same file in the same run.
enum AudioEngineBenchmark {
    static let seconds = 60

    static func run() throws {
        print("")
        print("Rendering \(seconds) s of 48 kHz stereo offline through an equaliser band and a reverb:")
        try BenchmarkMusic.with(seconds: seconds, name: "engine") { folder, source in
            let ours = folder.appendingPathComponent("engine.wav")
            let (oursSeconds, oursCPU) = try EncodeBenchmark.measure { try render(source, to: ours) }
            print(String(format: "  AVAudioEngine: %.2f s (CPU %.2f s)", oursSeconds, oursCPU))
            // The same filters the engine's nodes build, as one ffmpeg command.
            let eq = AVAudioUnitEQ(numberOfBands: 1)
            configure(eq)
            let reverb = AVAudioUnitReverb()
            configure(reverb)
            let graph =
                eq.filterDescription(sampleRate: 48_000, channels: 2).replacingOccurrences(of: "[out]", with: "[eq]")
                + ";" + reverb.filterDescription(sampleRate: 48_000, channels: 2).replacingOccurrences(of: "[in]", with: "[eq]")
            let ffmpegGraph = graph.replacingOccurrences(of: "[in]", with: "[0:a]")
            let (peerSeconds, peerCPU) = try EncodeBenchmark.measure {
                guard
                    shell([
                        "/usr/bin/ffmpeg", "-v", "error", "-y", "-i", source.path, "-filter_complex", ffmpegGraph, "-map", "[out]", "-c:a", "pcm_s16le",
                        folder.appendingPathComponent("ffmpeg.wav").path,
                    ]).status == 0
                else { throw CocoaError(.fileWriteUnknown) }
            }
            print(
                String(
                    format: "  ffmpeg with the same filters: %.2f s (CPU %.2f s); ratio %.2fx throughput, %.2fx CPU", peerSeconds, peerCPU,
                    peerSeconds / oursSeconds, oursCPU / peerCPU))
            let (ourLength, ourLevel) = try measure(ours), (theirLength, theirLevel) = try measure(folder.appendingPathComponent("ffmpeg.wav"))
            print(
                String(
                    format: "  the same work: %.2f s at %.1f dBFS from the engine, %.2f s at %.1f dBFS from ffmpeg", ourLength, ourLevel, theirLength,
                    theirLevel))
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/sox") else {
                print("  sox not available: scripts/install-deps.sh --with-servers"); return
            }
            let (soxSeconds, soxCPU) = try EncodeBenchmark.measure {
                guard
                    shell(["/usr/bin/sox", source.path, folder.appendingPathComponent("sox.wav").path, "equalizer", "1000", "1o", "6", "reverb", "50"]).status
                        == 0
                else { throw CocoaError(.fileWriteUnknown) }
            }
            print(
                String(
                    format: "  sox equalizer and reverb: %.2f s (CPU %.2f s); ratio %.2fx throughput, %.2fx CPU", soxSeconds, soxCPU,
                    soxSeconds / oursSeconds, oursCPU / soxCPU))
        }
    }

    /// A WAV file's length in seconds and its level (RMS of its first channel) in dBFS.
    static func measure(_ url: URL) throws -> (Double, Double) {
        let file = try AVAudioFile(forReading: url)
        let buffer = AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: 48_000)!
        var sum = 0.0, count = 0
        while true {
            try file.read(into: buffer)
            if buffer.frameLength == 0 { break }
            for frame in 0..<Int(buffer.frameLength) { sum += Double(buffer.floatChannelData![0][frame] * buffer.floatChannelData![0][frame]) }
            count += Int(buffer.frameLength)
        }
        return (Double(file.length) / file.processingFormat.sampleRate, 10 * log10(max(1e-12, sum / Double(max(1, count)))))
    }

    static func configure(_ eq: AVAudioUnitEQ) {
        eq.bands[0].filterType = .parametric
        eq.bands[0].frequency = 1000
        eq.bands[0].bandwidth = 1
        eq.bands[0].gain = 6
        eq.bands[0].bypass = false
    }

    static func configure(_ reverb: AVAudioUnitReverb) {
        reverb.loadFactoryPreset(.mediumHall)
        reverb.wetDryMix = 50
    }

    /// The file through a player node, the equaliser and the reverb, rendered offline into a 16-bit WAV file.
    static func render(_ source: URL, to destination: URL) throws {
        let file = try AVAudioFile(forReading: source)
        let engine = AVAudioEngine()
        try engine.enableManualRenderingMode(.offline, format: file.processingFormat, maximumFrameCount: 4096)
        let player = AVAudioPlayerNode(), eq = AVAudioUnitEQ(numberOfBands: 1), reverb = AVAudioUnitReverb()
        configure(eq)
        configure(reverb)
        for node in [player, eq, reverb] { engine.attach(node) }
        engine.connect(player, to: eq, format: file.processingFormat)
        engine.connect(eq, to: reverb, format: file.processingFormat)
        engine.connect(reverb, to: engine.mainMixerNode, format: file.processingFormat)
        player.scheduleFile(file, at: nil)
        try engine.start()
        player.play()
        let output = try AVAudioFile(
            forWriting: destination,
            settings: [AVFormatIDKey: kAudioFormatLinearPCM, AVSampleRateKey: 48_000, AVNumberOfChannelsKey: 2, AVLinearPCMBitDepthKey: 16])
        let buffer = AVAudioPCMBuffer(pcmFormat: engine.manualRenderingFormat, frameCapacity: engine.manualRenderingMaximumFrameCount)!
        while engine.manualRenderingSampleTime < file.length {
            let frames = min(buffer.frameCapacity, AVAudioFrameCount(file.length - engine.manualRenderingSampleTime))
            guard try engine.renderOffline(frames, to: buffer) == .success else { break }
            try output.write(from: buffer)
        }
        output.close()
        engine.stop()
    }
}
