import Foundation

/// The sound the audio benchmarks work on: 48 kHz stereo WAV made by ffmpeg in a scratch folder
/// of the benchmark's own, removed when the benchmark is done.
enum BenchmarkMusic {
    /// Makes `seconds` of tones and pink noise in a new folder and runs `body` with the folder and
    /// the file; says why and skips `body` when ffmpeg is missing or fails.
    static func with(seconds: Int, name: String, tones: [Int] = [440], noise: Double = 0.1, _ body: (URL, URL) throws -> Void) throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg") else {
            print("  ffmpeg not available: it makes the sound")
            return
        }
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("avbench-\(name)-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = folder.appendingPathComponent("music.wav")
        var command = ["/usr/bin/ffmpeg", "-v", "error"]
        for frequency in tones { command += ["-f", "lavfi", "-i", "sine=frequency=\(frequency):sample_rate=48000:duration=\(seconds)"] }
        command += ["-f", "lavfi", "-i", "anoisesrc=color=pink:amplitude=\(noise):sample_rate=48000:duration=\(seconds)"]
        let inputs = (0...tones.count).map { "[\($0)]" }.joined()
        command += ["-filter_complex", "\(inputs)amix=inputs=\(tones.count + 1),aformat=channel_layouts=stereo", "-c:a", "pcm_s16le", "-y", source.path]
        guard shell(command).status == 0 else {
            print("  could not make the sound")
            return
        }
        try body(folder, source)
    }
}
