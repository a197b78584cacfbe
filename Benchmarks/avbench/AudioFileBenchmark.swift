import AVFoundation
import Foundation

/// Converting sound files with AVAudioFile and AVAudioConverter, next to ffmpeg doing the same
/// conversion of the same file in the same run: five minutes of 48 kHz stereo WAV to AAC in
/// M4A at 128 kbit/s, and the same WAV resampled to 44.1 kHz 16-bit WAV.
enum AudioFileBenchmark {
    static let seconds = 300

    static func run() throws {
        print("")
        print("Converting \(seconds) s of 48 kHz stereo WAV:")
        try BenchmarkMusic.with(seconds: seconds, name: "audiofile") { folder, source in
            let cases: [(String, String, [String: Any], [String])] = [
                (
                    "to AAC in M4A", "m4a",
                    [AVFormatIDKey: kAudioFormatMPEG4AAC, AVSampleRateKey: 48_000, AVNumberOfChannelsKey: 2, AVEncoderBitRateKey: 128_000],
                    ["-c:a", "aac", "-b:a", "128k"]
                ),
                (
                    "resampled to 44.1 kHz 16-bit WAV", "wav",
                    [AVFormatIDKey: kAudioFormatLinearPCM, AVSampleRateKey: 44_100, AVNumberOfChannelsKey: 2, AVLinearPCMBitDepthKey: 16],
                    ["-ar", "44100", "-c:a", "pcm_s16le"]
                ),
            ]
            for (name, kind, settings, peer) in cases {
                let ours = folder.appendingPathComponent("ours.\(kind)"), theirs = folder.appendingPathComponent("ffmpeg.\(kind)")
                let (oursSeconds, oursCPU) = try EncodeBenchmark.measure { try convert(source, to: ours, settings: settings) }
                let (peerSeconds, peerCPU) = try EncodeBenchmark.measure {
                    guard shell(["/usr/bin/ffmpeg", "-v", "error", "-y", "-i", source.path] + peer + [theirs.path]).status == 0 else {
                        throw CocoaError(.fileWriteUnknown)
                    }
                }
                print(
                    String(
                        format: "  %@: AVAudioFile %.2f s (CPU %.2f s); ffmpeg %.2f s (CPU %.2f s); ratio %.2fx throughput, %.2fx CPU",
                        name, oursSeconds, oursCPU, peerSeconds, peerCPU, peerSeconds / oursSeconds, oursCPU / peerCPU))
            }
        }
    }

    /// Reads a file in buffers of 4096 frames and writes them to another file, converting the
    /// rate with an AVAudioConverter where the two differ, as apps convert files.
    static func convert(_ source: URL, to destination: URL, settings: [String: Any]) throws {
        let input = try AVAudioFile(forReading: source)
        let output = try AVAudioFile(forWriting: destination, settings: settings)
        let buffer = AVAudioPCMBuffer(pcmFormat: input.processingFormat, frameCapacity: 4096)!
        guard input.processingFormat.sampleRate != output.processingFormat.sampleRate else {
            while true {
                try input.read(into: buffer)
                if buffer.frameLength == 0 { break }
                try output.write(from: buffer)
            }
            output.close()
            return
        }
        let converter = AVAudioConverter(from: input.processingFormat, to: output.processingFormat)!
        let converted = AVAudioPCMBuffer(pcmFormat: output.processingFormat, frameCapacity: 4096)!
        var failure: Error?
        while true {
            var error: NSError?
            let status = converter.convert(to: converted, error: &error) { _, status in
                do { try input.read(into: buffer) } catch {
                    failure = error
                    status.pointee = .endOfStream
                    return nil
                }
                status.pointee = buffer.frameLength > 0 ? .haveData : .endOfStream
                return buffer.frameLength > 0 ? buffer : nil
            }
            if let error { throw error }
            if let failure { throw failure }
            if converted.frameLength > 0 { try output.write(from: converted) }
            if status == .endOfStream { break }
        }
        output.close()
    }
}
