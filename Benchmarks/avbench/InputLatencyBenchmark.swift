import AVFoundation
import Foundation

/// The engine's input tap against `parec` and GStreamer's `pulsesrc`, each recording the same
/// source of a private PulseAudio server, a pipe source this process feeds in real time with
/// silence and clicks: from writing a click to the recorder's handing it over (the tap's
/// callback; the first bytes holding it read from the peer's pipe). The source's own delay is in
/// every figure alike; the ratio between recorders is what compares them.
enum InputLatencyBenchmark {
    static let rate = 48_000, chunk = 480, clicks = 12, spacing = 0.4

    /// Detections of clicks: when each was written and when a recorder first handed it over.
    final class Clicks: @unchecked Sendable {
        private let lock = NSLock()
        private var written: [Double] = []
        private var heard: [Double?] = []
        private var armed = false

        func wrote(at time: Double) {
            lock.withLock {
                written.append(time)
                heard.append(nil)
                armed = true
            }
        }

        /// Samples handed over at `time`: a loud one is the click last written, if not heard yet.
        func handed(_ samples: UnsafeBufferPointer<Float>, at time: Double) {
            guard samples.contains(where: { abs($0) > 0.5 }) else { return }
            lock.withLock {
                guard armed, let last = heard.indices.last else { return }
                heard[last] = time
                armed = false
            }
        }

        /// Each heard click's delay, in milliseconds.
        var delays: [Double] { lock.withLock { zip(written, heard).compactMap { written, heard in heard.map { ($0 - written) * 1000 } } } }
    }

    static func run() throws {
        print("")
        print("Input tap latency: \(clicks) clicks through a pipe source of a private PulseAudio server, each recorder on its own:")
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/pactl"), FileManager.default.isExecutableFile(atPath: "/usr/bin/parec") else {
            return print("  pulseaudio-utils not available: install it for this comparison")
        }
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("avbench-latency-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        guard let server = BenchmarkPulseServer(folder: folder) else { return print("  no private PulseAudio server could start") }
        defer { server.stop() }
        fifo = folder.appendingPathComponent("clicks.fifo").path
        let loaded = shell([
            "/usr/bin/pactl", "load-module", "module-pipe-source", "source_name=clicks", "file=\(fifo)", "format=float32le", "rate=\(rate)", "channels=1",
        ])
        guard loaded.status == 0 else { return print("  the pipe source could not be made: \(loaded.output)") }
        _ = shell(["/usr/bin/pactl", "set-default-source", "clicks"])
        // Sound server sources are looked up at most once a second: the next look finds the new one.
        usleep(1_200_000)
        let session = AVAudioSession.sharedInstance()
        guard let source = session.availableInputs?.first(where: { $0.portName.contains("clicks") || $0.uid.contains("clicks") }) else {
            return print("  the engine does not see the pipe source: \(session.availableInputs?.map(\.portName) ?? [])")
        }
        try session.setPreferredInput(source)
        defer { try? session.setPreferredInput(nil) }

        let ours = try measureEngine()
        // As a latency-sensitive app asks: 5 ms buffers from the sound server.
        try session.setPreferredIOBufferDuration(0.005)
        let small = try measureEngine()
        try session.setPreferredIOBufferDuration(0)
        let parec = measurePeer([
            "/usr/bin/parec", "--device=clicks", "--format=float32le", "--rate=\(rate)", "--channels=1", "--latency-msec=10", "--raw",
        ])
        var gstreamer: [Double] = []
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/gst-launch-1.0") {
            gstreamer = measurePeer([
                "/usr/bin/gst-launch-1.0", "-q", "pulsesrc", "device=clicks", "buffer-time=20000", "latency-time=10000", "!",
                "audio/x-raw,format=F32LE,rate=\(rate),channels=1", "!", "fdsink", "fd=1", "sync=false",
            ])
        }
        func median(_ values: [Double]) -> Double { values.isEmpty ? .nan : values.sorted()[values.count / 2] }
        let (a, b, c) = (median(ours), median(parec), median(gstreamer))
        print(
            String(
                format: "  AVAudioEngine input tap: median %.1f ms (%d of %d clicks); with a preferred I/O buffer of 5 ms: %.1f ms (%d)", a, ours.count, clicks,
                median(small), small.count))
        print(
            String(format: "  parec --latency-msec=10: median %.1f ms (%d clicks); ratio %.2fx (ours at 5 ms over parec's)", b, parec.count, median(small) / b))
        if !gstreamer.isEmpty {
            print(
                String(
                    format: "  gst-launch-1.0 pulsesrc latency-time=10 ms: median %.1f ms (%d clicks); ratio %.2fx (ours at 5 ms over GStreamer's)", c,
                    gstreamer.count, median(small) / c))
        } else {
            print("  gst-launch-1.0 not available: install gstreamer1.0-tools and gstreamer1.0-pulseaudio for its figure")
        }
    }

    /// Where the pipe source reads from.
    nonisolated(unsafe) static var fifo = ""

    /// Feeds the pipe source silence with `clicks` clicks in real time, telling `heard` when each is written.
    static func playClicks(into heard: Clicks) {
        guard let pipe = FileHandle(forWritingAtPath: fifo) else { return }
        let silence = Data(count: chunk * 4)
        var click = Data(count: chunk * 4)
        click.withUnsafeMutableBytes { bytes in
            let samples = bytes.bindMemory(to: Float.self)
            for index in 0..<240 { samples[index] = index % 2 == 0 ? 0.9 : -0.9 }
        }
        let start = now(), chunkSeconds = Double(chunk) / Double(rate)
        var written = 0, nextClick = 1.0
        while written < Int((1 + Double(clicks) * spacing + 0.5) / chunkSeconds) {
            let elapsed = Double(written) * chunkSeconds
            if elapsed >= nextClick, nextClick < 1 + Double(clicks) * spacing {
                heard.wrote(at: now())
                pipe.write(click)
                nextClick += spacing
            } else {
                pipe.write(silence)
            }
            written += 1
            let due = start + Double(written) * chunkSeconds
            let wait = due - now()
            if wait > 0 { usleep(useconds_t(wait * 1_000_000)) }
        }
        try? pipe.close()
    }

    /// The engine recording the source through an input tap of small buffers.
    static func measureEngine() throws -> [Double] {
        let heard = Clicks()
        let engine = AVAudioEngine()
        let input = engine.inputNode
        input.installTap(onBus: 0, bufferSize: 480, format: input.outputFormat(forBus: 0)) { buffer, _ in
            let time = now()
            guard let samples = buffer.floatChannelData?[0] else { return }
            heard.handed(UnsafeBufferPointer(start: samples, count: Int(buffer.frameLength)), at: time)
        }
        try engine.start()
        usleep(500_000)
        playClicks(into: heard)
        engine.stop()
        input.removeTap(onBus: 0)
        return heard.delays
    }

    /// A peer recording the source to its standard output, read as it comes.
    static func measurePeer(_ command: [String]) -> [Double] {
        let heard = Clicks()
        let recorder = Process()
        recorder.executableURL = URL(fileURLWithPath: command[0])
        recorder.arguments = Array(command.dropFirst())
        let pipe = Pipe()
        recorder.standardOutput = pipe
        recorder.standardError = FileHandle.nullDevice
        guard (try? recorder.run()) != nil else { return [] }
        let reader = Thread {
            let handle = pipe.fileHandleForReading
            var pending = Data()
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                let time = now()
                pending.append(data)
                let whole = pending.count / 4 * 4
                pending.prefix(whole).withUnsafeBytes { heard.handed($0.bindMemory(to: Float.self), at: time) }
                pending.removeFirst(whole)
            }
        }
        reader.start()
        usleep(500_000)
        playClicks(into: heard)
        recorder.terminate()
        recorder.waitUntilExit()
        return heard.delays
    }
}
