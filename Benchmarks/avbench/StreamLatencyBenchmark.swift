import AVFoundation
import Foundation
import TestSupport
import Synchronization

/// Glass-to-receiver latency of a live stream over loopback RTMP (nginx's RTMP module) and SRT
/// (srt-live-transmit relaying), at 1280x720 30 fps and 3 Mbit/s with x264 veryfast and zero
/// latency tuning: `LiveStreamOutput` on the virtual camera, next to `ffmpeg` publishing
/// the same picture fed to it at 30 fps with the same settings. The picture turns from black to
/// white (and back) at a known time; a receiving `ffmpeg` decodes the stream from the server and
/// the time it shows the change is the latency (including the wait for the next frame, up to
/// 33 ms, the same on both sides).
enum StreamLatencyBenchmark {
    static let (width, height, rate, bitRate) = (1280, 720, 30, 3_000_000)
    static let transitions = 8

    static func run() throws {
        print("")
        guard FileManager.default.isExecutableFile(atPath: "/usr/sbin/nginx"),
            FileManager.default.fileExists(atPath: "/usr/lib/nginx/modules/ngx_rtmp_module.so"),
            FileManager.default.isExecutableFile(atPath: "/usr/bin/srt-live-transmit")
        else {
            print("Streaming latency: needs nginx-light, libnginx-mod-rtmp and srt-tools (scripts/install-deps.sh --with-servers)")
            return
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("avbench-stream-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let rtmpPort = freeLoopbackPort(), srtIn = freeLoopbackPort(), srtOut = freeLoopbackPort()
        try """
        load_module /usr/lib/nginx/modules/ngx_rtmp_module.so;
        daemon off;
        master_process off;
        pid \(folder.path)/nginx.pid;
        error_log \(folder.path)/error.log;
        events { worker_connections 64; }
        rtmp { server { listen 127.0.0.1:\(rtmpPort); application live { live on; } } }
        """.write(to: folder.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
        let nginx = try start(["/usr/sbin/nginx", "-c", folder.path + "/nginx.conf", "-p", folder.path])
        let relay = try start(["/usr/bin/srt-live-transmit", "-q", "srt://127.0.0.1:\(srtIn)?mode=listener", "srt://127.0.0.1:\(srtOut)?mode=listener"])
        defer { for server in [nginx, relay] where server.isRunning { server.terminate(); server.waitUntilExit() } }
        Thread.sleep(forTimeInterval: 0.5)
        print(
            "Streaming latency, glass to receiver over loopback, \(width)x\(height) \(rate) fps, \(bitRate / 1_000_000) Mbit/s, x264 veryfast zerolatency, \(transitions) changes each:"
        )
        for (name, publish, receive) in [
            ("RTMP", "rtmp://127.0.0.1:\(rtmpPort)/live/bench", "rtmp://127.0.0.1:\(rtmpPort)/live/bench"),
            ("SRT", "srt://127.0.0.1:\(srtIn)", "srt://127.0.0.1:\(srtOut)"),
        ] {
            let ours = try measure(receive: receive) { showWhite in try OurPublisher(url: URL(string: publish)!, showWhite: showWhite) }
            let theirs = try measure(receive: receive) { showWhite in
                try FFmpegPublisher(url: publish, format: name == "RTMP" ? "flv" : "mpegts", showWhite: showWhite)
            }
            func line(_ label: String, _ values: [Double]) -> String {
                guard !values.isEmpty else { return "  \(name) \(label): no change reached the receiver" }
                let sorted = values.sorted()
                return String(
                    format: "  %@ %@: median %.0f ms, p95 %.0f ms (%d of %d changes seen)", name, label, sorted[sorted.count / 2] * 1000,
                    sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.95))] * 1000, values.count, transitions)
            }
            print(line("LiveStreamOutput", ours))
            print(line("ffmpeg -f rawvideo -i - ... \(name == "RTMP" ? "-f flv" : "-f mpegts")", theirs))
            if !ours.isEmpty, !theirs.isEmpty {
                print(String(format: "  %@ ratio, ours to ffmpeg's median: %.2fx", name, ours.sorted()[ours.count / 2] / theirs.sorted()[theirs.count / 2]))
            }
        }
    }

    /// Something that publishes a picture that is black, or white while `showWhite` says so.
    protocol Publisher { func stop() }

    /// Whether the picture is white now, set by the measuring thread and read by the publishers'.
    final class Switch: Sendable {
        let white = Atomic<Bool>(false)
    }

    /// Starts a publisher, then a receiver, and changes the picture `transitions` times: the latency of each change it sees.
    static func measure(receive: String, publisher make: (Switch) throws -> Publisher) throws -> [Double] {
        let showWhite = Switch()
        let publisher = try make(showWhite)
        defer { publisher.stop() }
        Thread.sleep(forTimeInterval: 2)
        let receiver = try Receiver(url: receive)
        defer { receiver.stop() }
        guard receiver.waitForFrames(timeout: 10) else { return [] }
        var latencies: [Double] = []
        for index in 0..<transitions {
            let white = index % 2 == 0
            Thread.sleep(forTimeInterval: 1.2)
            let changed = now()
            showWhite.white.store(white, ordering: .relaxed)
            if let seen = receiver.waitForLuma(white: white, after: changed, timeout: 5) { latencies.append(seen - changed) }
        }
        return latencies
    }

    /// LiveStreamOutput on the virtual back camera (video only), its scene a black or white picture.
    final class OurPublisher: Publisher, @unchecked Sendable {
        let session = AVCaptureSession()
        let output = LiveStreamOutput()
        let watcher: Thread

        init(url: URL, showWhite: Switch) throws {
            let camera = virtualCamera
            try camera.lockForConfiguration()
            camera.activeFormat = camera.formats.first {
                CMVideoFormatDescriptionGetDimensions($0.formatDescription).width == Int32(StreamLatencyBenchmark.width)
                    && CMVideoFormatDescriptionGetDimensions($0.formatDescription).height == Int32(StreamLatencyBenchmark.height)
            }!
            camera.activeVideoMinFrameDuration = CMTime(value: 1, timescale: Int32(StreamLatencyBenchmark.rate))
            camera.unlockForConfiguration()
            session.addInput(try AVCaptureDeviceInput(device: camera))
            session.addOutput(output)
            output.videoBitRate = StreamLatencyBenchmark.bitRate
            let black = StreamLatencyBenchmark.page(0x00), white = StreamLatencyBenchmark.page(0xFF)
            let scene = camera.virtualScene!
            scene.showImage(black)
            // The scene follows the switch as soon as it flips (checked every millisecond).
            let pages = (black, white, scene)
            watcher = Thread {
                var shown = false
                while !Thread.current.isCancelled {
                    let wanted = showWhite.white.load(ordering: .relaxed)
                    if wanted != shown { pages.2.showImage(wanted ? pages.1 : pages.0); shown = wanted }
                    usleep(1000)
                }
            }
            watcher.start()
            session.startRunning()
            output.startStreaming(to: url, delegate: Quiet())
        }

        func stop() {
            output.stopStreaming()
            Thread.sleep(forTimeInterval: 0.5)
            session.stopRunning()
            watcher.cancel()
            virtualCamera.virtualScene!.showGeneratedScene()
        }

        final class Quiet: LiveStreamOutputDelegate {
            func liveStreamOutput(_ output: LiveStreamOutput, didFinishStreamingTo url: URL, from connections: [AVCaptureConnection], error: Error?) {
                if let error { print("  the stream ended: \(error.localizedDescription)") }
            }
        }
    }

    /// ffmpeg publishing NV12 frames written to its standard input at the frame rate.
    final class FFmpegPublisher: Publisher, @unchecked Sendable {
        let process = Process()
        let feeder: Thread

        init(url: String, format: String, showWhite: Switch) throws {
            let (width, height, rate, bitRate) = (
                StreamLatencyBenchmark.width, StreamLatencyBenchmark.height, StreamLatencyBenchmark.rate, StreamLatencyBenchmark.bitRate
            )
            process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
            process.arguments = [
                "-v", "error", "-f", "rawvideo", "-pix_fmt", "nv12", "-s", "\(width)x\(height)", "-r", "\(rate)", "-i", "-",
                "-c:v", "libx264", "-preset", "veryfast", "-tune", "zerolatency", "-g", "\(rate)", "-bf", "0",
                "-b:v", "\(bitRate)", "-maxrate", "\(bitRate * 3 / 2)", "-bufsize", "\(bitRate)", "-f", format, url,
            ]
            let input = Pipe()
            process.standardInput = input
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let lumaSize = width * height
            let frames = [
                Data(repeating: 0, count: lumaSize) + Data(repeating: 128, count: lumaSize / 2),
                Data(repeating: 255, count: lumaSize) + Data(repeating: 128, count: lumaSize / 2),
            ]
            let handle = input.fileHandleForWriting
            feeder = Thread {
                let start = now()
                var index = 0
                while !Thread.current.isCancelled {
                    let due = start + Double(index) / Double(rate)
                    let wait = due - now()
                    if wait > 0 { usleep(useconds_t(wait * 1_000_000)) }
                    guard (try? handle.write(contentsOf: frames[showWhite.white.load(ordering: .relaxed) ? 1 : 0])) != nil else { return }
                    index += 1
                }
                try? handle.close()
            }
            feeder.start()
        }

        func stop() {
            feeder.cancel()
            Thread.sleep(forTimeInterval: 0.3)
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
    }

    /// ffmpeg receiving the stream from the server with its low-delay flags, decoding it to 64x36 grey frames read here as they come.
    final class Receiver: @unchecked Sendable {
        let process = Process()
        private let frames = Mutex<[(time: Double, luma: Double)]>([])
        private var reader: Thread

        init(url: String) throws {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
            process.arguments = [
                "-v", "error", "-fflags", "nobuffer", "-flags", "low_delay", "-probesize", "100000", "-analyzeduration", "0",
                "-i", url, "-an", "-vf", "scale=64:36", "-pix_fmt", "gray", "-f", "rawvideo", "-",
            ]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            let handle = output.fileHandleForReading
            reader = Thread()
            reader = Thread { [self] in
                let size = 64 * 36
                var pending = Data()
                while true {
                    let chunk = handle.availableData
                    if chunk.isEmpty { return }
                    pending.append(chunk)
                    while pending.count >= size {
                        let frame = pending.prefix(size)
                        let luma = Double(frame.reduce(0) { $0 + Int($1) }) / Double(size)
                        let time = now()
                        frames.withLock { $0.append((time, luma)) }
                        pending.removeFirst(size)
                    }
                }
            }
            reader.start()
        }

        func waitForFrames(timeout: Double) -> Bool {
            let deadline = now() + timeout
            while now() < deadline {
                if frames.withLock({ $0.count }) > 10 { return true }
                usleep(20_000)
            }
            return false
        }

        /// When the first frame after `after` that is white (or black) arrived.
        func waitForLuma(white: Bool, after: Double, timeout: Double) -> Double? {
            let deadline = now() + timeout
            while now() < deadline {
                let seen = frames.withLock { $0.first { $0.time >= after && (white ? $0.luma > 160 : $0.luma < 96) }?.time }
                if let seen { return seen }
                usleep(1000)
            }
            return nil
        }

        func stop() {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
    }

    /// A 16x16 BGRA picture of one grey level, which the virtual scene stretches over the frame.
    static func page(_ level: UInt8) -> CVPixelBuffer {
        let page = CVPixelBuffer(width: 16, height: 16, pixelFormatType: kCVPixelFormatType_32BGRA)!
        memset(page.planes[0].baseAddress, Int32(level), page.planes[0].bytesPerRow * 16)
        return page
    }

    static func start(_ command: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }
}
