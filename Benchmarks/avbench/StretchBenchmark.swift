import AVFoundation
import Foundation

/// Stretching a minute of stereo sound to 1.5 times its length, keeping its pitch: a composition
/// scaled and read as linear PCM, next to Rubber Band's and SoundTouch's own commands stretching
/// the same WAV file in the same run (each with the same engine the composition uses).
enum StretchBenchmark {
    static let seconds = 60, ratio = 1.5

    static func run() throws {
        print("")
        print("Stretching \(seconds) s of 48 kHz stereo to \(ratio)x its length, pitch kept:")
        // Two tones and noise: something for a stretcher to keep apart.
        try BenchmarkMusic.with(seconds: seconds, name: "stretch", tones: [440, 660], noise: 0.05) { folder, source in
            for (algorithm, name, peer) in [
                (AVAudioTimePitchAlgorithm.spectral, "spectral", ["/usr/bin/rubberband", "-3", "-t", "\(ratio)"]),
                (.timeDomain, "time domain", ["/usr/bin/soundstretch"]),
            ] {
                let (oursSeconds, oursCPU) = try EncodeBenchmark.measure { try stretch(source, algorithm: algorithm) }
                let output = folder.appendingPathComponent("peer-\(name.filter(\.isLetter)).wav")
                guard FileManager.default.isExecutableFile(atPath: peer[0]) else {
                    print("  \(peer[0]) not available: scripts/install-deps.sh --with-peers"); continue
                }
                let arguments =
                    peer[0].hasSuffix("soundstretch")
                    ? [peer[0], source.path, output.path, String(format: "-tempo=%.4f", (1 / ratio - 1) * 100)]
                    : peer + [source.path, output.path]
                let (peerSeconds, peerCPU) = try EncodeBenchmark.measure {
                    guard shell(arguments).status == 0 else { throw CocoaError(.fileWriteUnknown) }
                }
                print(
                    String(
                        format: "  %@: composition %.2f s (CPU %.2f s); %@ %.2f s (CPU %.2f s); ratio %.2fx throughput, %.2fx CPU",
                        name, oursSeconds, oursCPU, URL(fileURLWithPath: peer[0]).lastPathComponent, peerSeconds, peerCPU,
                        peerSeconds / oursSeconds, oursCPU / peerCPU))
            }
        }
    }

    /// Reads the whole sound through a composition scaled to `ratio`, as 16-bit PCM.
    static func stretch(_ url: URL, algorithm: AVAudioTimePitchAlgorithm) throws {
        let asset = AVURLAsset(url: url)
        let composition = AVMutableComposition()
        let whole = CMTimeRange(start: .zero, duration: asset.duration)
        try composition.insertTimeRange(whole, of: asset, at: .zero)
        composition.scaleTimeRange(whole, toDuration: CMTime(seconds: whole.duration.seconds * ratio, preferredTimescale: 48_000))
        let reader = try AVAssetReader(asset: composition)
        let output = AVAssetReaderTrackOutput(track: composition.tracks[0], outputSettings: [AVFormatIDKey: kAudioFormatLinearPCM])
        output.audioTimePitchAlgorithm = algorithm
        reader.add(output)
        reader.startReading()
        var frames = 0
        while let buffer = output.copyNextSampleBuffer() { frames += buffer.numSamples }
        guard reader.status == .completed, abs(Double(frames) / 48_000 - Double(seconds) * ratio) < 0.1 else {
            throw reader.error ?? CocoaError(.fileReadCorruptFile)
        }
    }
}
