import Foundation

/// The sound's offset from the pictures of a movie played in a window: a 1920x1080 60 fps movie,
/// black with a white flash and a 1 kHz tone burst starting together at each whole second, played
/// by `avcapture play`, `ffplay` and `mpv --vo=x11` with their sound to a private PulseAudio
/// server's null sink. One `ffmpeg` process records the middle of the screen (x11grab, 250
/// grabs a second) and the sink's monitor at once, both stamped on the wall clock; each flash's
/// first bright grab is paired with the tone's first loud millisecond. A positive offset is sound
/// after its picture. The same measurement of every player in one run: what the method itself
/// adds (the monitor's latency estimate, the grab's 4 ms) is common to all.
enum WindowSyncBenchmark {
    static let seconds = 10

    static func run(display: String, folder: URL, avcapture: URL?) throws {
        print("  the sound's offset from the pictures (flash and tone each second, 1080p60, sound to a private PulseAudio null sink):")
        let movie = folder.appendingPathComponent("flashes.mp4")
        let flash = "lt(mod(t\\,1)\\,0.1)*gte(t\\,1)"
        guard
            shell([
                "/usr/bin/ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i",
                "color=c=black:s=1920x1080:r=60:d=\(seconds),drawbox=x=0:y=0:w=1920:h=1080:color=white:t=fill:enable='\(flash)'",
                "-f", "lavfi", "-i", "sine=f=1000:sample_rate=48000:d=\(seconds),volume=volume=0:enable='not(\(flash))'",
                "-c:v", "libx264", "-preset", "veryfast", "-g", "60", "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "128k", "-shortest", movie.path,
            ]).status == 0
        else { return print("    could not make the movie") }
        guard let server = BenchmarkPulseServer(folder: folder.appendingPathComponent("sync-pulse")) else {
            return print("    pulseaudio is not installed (scripts/install-deps.sh --with-servers): the offset is not measured")
        }
        defer { server.stop() }
        var players: [(String, [String])] = []
        if let avcapture { players.append(("avcapture play", [avcapture.path, "play", movie.path])) }
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/ffplay") {
            players.append(("ffplay", ["/usr/bin/ffplay", "-autoexit", "-loglevel", "error", movie.path]))
        }
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/mpv") {
            players.append(("mpv --vo=x11", ["/usr/bin/mpv", "--vo=x11", "--ao=pulse", "--no-config", "--really-quiet", movie.path]))
        }
        for (name, command) in players {
            guard let offsets = measure(command, display: display, folder: folder) else {
                print(String(format: "    %-15@ not measured: the recording found no flash or no tone", name as NSString))
                continue
            }
            let sorted = offsets.sorted()
            let median = sorted[sorted.count / 2]
            let worst = sorted.map(abs).max() ?? 0
            print(
                String(
                    format: "    %-15@ %+.1f ms median over %d flashes (from %+.1f to %+.1f ms; at most %.1f ms either way)", name as NSString, median,
                    sorted.count, sorted.first!, sorted.last!, worst))
        }
    }

    /// Plays the movie with a recording of the screen's middle and the sink's monitor running; the
    /// offset at each flash, in milliseconds, or nil when the recording saw no flash or no tone.
    private static func measure(_ command: [String], display: String, folder: URL) -> [Double]? {
        let pictures = folder.appendingPathComponent("sync-pictures.txt"), sound = folder.appendingPathComponent("sync-sound.txt")
        try? FileManager.default.removeItem(at: pictures)
        try? FileManager.default.removeItem(at: sound)
        let recorder = Process()
        recorder.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        recorder.arguments = [
            "-v", "error", "-y", "-t", "\(seconds + 20)", "-f", "x11grab", "-framerate", "250", "-video_size", "16x16", "-i", "\(display)+952,532",
            "-t", "\(seconds + 20)", "-f", "pulse", "-fragment_size", "384", "-i", "bench.monitor", "-copyts", "-filter_complex",
            "[0:v]signalstats,metadata=print:key=lavfi.signalstats.YAVG:file=\(pictures.path)[v];"
                + "[1:a]asetnsamples=n=48:p=0,astats=metadata=1:reset=1,ametadata=print:key=lavfi.astats.Overall.RMS_level:file=\(sound.path)[a]",
            "-map", "[v]", "-f", "null", "-", "-map", "[a]", "-f", "null", "-",
        ]
        recorder.environment = ProcessInfo.processInfo.environment.merging(["DISPLAY": display]) { $1 }
        recorder.standardOutput = FileHandle.nullDevice
        recorder.standardError = FileHandle.nullDevice
        guard (try? recorder.run()) != nil else { return nil }
        // The recording runs before the player opens its window.
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, (try? FileManager.default.attributesOfItem(atPath: sound.path)[.size] as? Int) ?? 0 == 0 { usleep(20_000) }
        _ = WindowBenchmark.run(command, environment: ["DISPLAY": display, "WAYLAND_DISPLAY": ""])
        usleep(500_000)
        recorder.interrupt()
        recorder.waitUntilExit()
        let flashes = onsets(pictures, ticksPerSecond: 1_000_000, key: "lavfi.signalstats.YAVG", above: 100)
        let tones = onsets(sound, ticksPerSecond: 48_000, key: "lavfi.astats.Overall.RMS_level", above: -40)
        let offsets = flashes.compactMap { flash -> Double? in
            guard let tone = tones.min(by: { abs($0 - flash) < abs($1 - flash) }), abs(tone - flash) < 0.5 else { return nil }
            return (tone - flash) * 1000
        }
        return offsets.isEmpty ? nil : offsets
    }

    /// The times, in seconds, at which a `metadata=print` file's value first goes above a level
    /// after being at or below it, at least half a second apart. x11grab stamps in microseconds of
    /// the wall clock; the sound, cut into 48-sample frames, in samples of the same clock.
    private static func onsets(_ file: URL, ticksPerSecond: Double, key: String, above level: Double) -> [Double] {
        guard let text = try? String(contentsOf: file, encoding: .utf8) else { return [] }
        var times: [Double] = [], time: Double?, wasAbove = true, last = -Double.infinity
        for line in text.split(separator: "\n") {
            if let range = line.range(of: "pts:") {
                time = Double(line[range.upperBound...].prefix { $0.isNumber }).map { $0 / ticksPerSecond }
            } else if line.hasPrefix(key + "="), let time {
                let value = Double(line.dropFirst(key.count + 1)) ?? -.infinity
                let isAbove = value > level
                if isAbove, !wasAbove, time - last > 0.5 {
                    times.append(time)
                    last = time
                }
                wasAbove = isAbove
            }
        }
        return times
    }
}
