import AVFoundation
import VideoToolbox
import Foundation
import TestSupport

/// Many cameras recorded at once in one process: N virtual cameras (LINUXAVFOUNDATION_VIRTUAL_CAMERAS)
/// at 1280x720 30 fps, each in its own session with a movie file output (H.264, x264's fastest
/// preset, ultrafast, asked for with `kVTCompressionPropertyKey_PrioritizeEncodingSpeedOverQuality`, with zero-latency tuning, 10.5 Mbit/s, a keyframe a second), next to one `gst-launch-1.0`
/// running N pipelines that do the same (`videotestsrc is-live=true ! x264enc` with the same
/// preset, tuning, bit rate and keyframe interval `! mp4mux ! filesink`). Both are measured from
/// outside as whole processes: CPU per camera-second, frames missing from the files, peak memory.
/// The virtual cameras are recorded once more through one `AVCaptureMultiCamSession` (explicit
/// connections, 1280x720 chosen as each camera's format), which refuses to start what costs more
/// than its hardware budget and says so.
/// With a private PipeWire stack (`scripts/bench.sh cameras` starts one and names it in
/// `AVBENCH_PIPEWIRE_STACK`), the same again with N PipeWire test cameras created on it, next
/// to `pipewiresrc ! videoconvert ! x264enc ! mp4mux` pipelines; the server's CPU, which makes
/// the pictures for both, is counted for neither.
enum ManyCamerasBenchmark {
    /// How many cameras each run records: 1, 2, 4, 8 and 12, or the counts `AVBENCH_CAMERA_COUNTS` lists (such as `1,8`).
    static let counts: [Int] = {
        let asked = (ProcessInfo.processInfo.environment["AVBENCH_CAMERA_COUNTS"] ?? "").split(separator: ",").compactMap { Int($0) }.filter {
            (1...16).contains($0)
        }
        return asked.isEmpty ? [1, 2, 4, 8, 12] : asked
    }()

    /// Where the cameras come from.
    enum Source {
        case virtual
        /// Test cameras `avbench-camera-1...N` on the PipeWire stack in this folder.
        case pipeWire(stack: String)
    }

    static func run(seconds: Double) throws {
        let gstreamer =
            FileManager.default.isExecutableFile(atPath: "/usr/bin/gst-launch-1.0")
            && shell(["/usr/bin/gst-inspect-1.0", "x264enc"]).status == 0 && shell(["/usr/bin/gst-inspect-1.0", "mp4mux"]).status == 0
        print("")
        print(
            "Many virtual cameras, each 1280x720 at 30 fps recorded to H.264 (x264 ultrafast, zerolatency, 10.5 Mbit/s) for \(Int(seconds)) s, whole processes:"
        )
        if !gstreamer { print("  (GStreamer's x264enc or mp4mux is not installed: apt-get install gstreamer1.0-plugins-ugly gstreamer1.0-plugins-good)") }
        if ProcessInfo.processInfo.environment["AVBENCH_CAMERAS"] != "pipewire" { try run(.virtual, seconds: seconds, gstreamer: gstreamer) }
        guard let stack = ProcessInfo.processInfo.environment["AVBENCH_PIPEWIRE_STACK"] else {
            print("  (PipeWire cameras: run through scripts/bench.sh cameras, which starts a private PipeWire stack)")
            return
        }
        print("")
        print("Many PipeWire test cameras (a private stack's videotestsrc, UYVY), the same recording, whole processes (the server not counted):")
        for index in 1...(counts.max() ?? 1) {
            _ = shell(["/bin/bash", "scripts/servers/pipewire.sh", "add-camera", stack, "avbench-camera-\(index)"])
        }
        defer {
            for index in 1...(counts.max() ?? 1) {
                _ = shell(["/bin/bash", "scripts/servers/pipewire.sh", "remove-camera", stack, "avbench-camera-\(index)"])
            }
        }
        Thread.sleep(forTimeInterval: 1)
        try run(.pipeWire(stack: stack), seconds: seconds, gstreamer: gstreamer && shell(["/usr/bin/gst-inspect-1.0", "pipewiresrc"]).status == 0)
    }

    private static func run(_ source: Source, seconds: Double, gstreamer: Bool) throws {
        for count in counts {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("avbench-cameras-\(getpid())-\(count)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let self_ = URL(fileURLWithPath: CommandLine.arguments[0]).path
            var child = ["/usr/bin/env", "LINUXAVFOUNDATION_VIRTUAL_CAMERAS=\(count)", self_, "cameras-child", String(count), String(seconds), folder.path]
            if case .pipeWire = source { child.append("pipewire") }
            var stalls = sourceStalls(source)
            let ours = measure(child, stopAfter: nil, files: (1...count).map { folder.appendingPathComponent("ours-\($0).mov") }, seconds: seconds)
            print(line("avcapture sessions", count, ours, seconds) + stalled(source, since: stalls))
            // The command line itself, as a user runs it: one camera, or several each to its own file.
            let tool = URL(fileURLWithPath: self_).deletingLastPathComponent().appendingPathComponent("avcapture").path
            var recorded: Double?
            if case .virtual = source, FileManager.default.isExecutableFile(atPath: tool) {
                let movies = (1...count).map { folder.appendingPathComponent("cli-\($0).mov") }
                var command = [
                    "/usr/bin/env", "LINUXAVFOUNDATION_VIRTUAL_CAMERAS=\(count)", tool, "record", "--seconds", String(seconds), "--no-audio", "--preset",
                    "1280x720",
                    "--fast",
                ]
                for index in 1...count { command += ["--video", "virtual:camera:\(index)"] }
                command.append(folder.appendingPathComponent("cli.mov").path)
                let cli = measure(command, stopAfter: nil, files: count == 1 ? [folder.appendingPathComponent("cli.mov")] : movies, seconds: seconds)
                print(line("avcapture record", count, cli, seconds))
                recorded = cli.peakMegabytes
            }
            if case .virtual = source, count >= 2 {
                let multi = measure(
                    child + ["multicam"], stopAfter: nil, files: (1...count).map { folder.appendingPathComponent("multi-\($0).mov") }, seconds: seconds)
                print(line("one multi-camera session", count, multi, seconds) + (multi.refusal.map { " (\($0))" } ?? ""))
            }
            guard gstreamer else { continue }
            var pipeline: [String] = ["/usr/bin/gst-launch-1.0", "-q", "-e"]
            for index in 1...count {
                switch source {
                case .virtual:
                    pipeline += ["videotestsrc", "is-live=true", "pattern=ball", "!", "video/x-raw,width=1280,height=720,framerate=30/1,format=NV12", "!"]
                case .pipeWire:
                    pipeline += [
                        "pipewiresrc", "target-object=avbench-camera-\(index)", "!", "video/x-raw,format=UYVY,width=1280,height=720,framerate=30/1", "!",
                        "videoconvert", "!", "video/x-raw,format=NV12", "!",
                    ]
                }
                pipeline += [
                    "x264enc", "speed-preset=ultrafast", "tune=zerolatency", "bitrate=10500", "key-int-max=30", "!", "mp4mux", "!",
                    "filesink", "location=\(folder.appendingPathComponent("gst-\(index).mp4").path)",
                ]
            }
            stalls = sourceStalls(source)
            let theirs = measure(pipeline, stopAfter: seconds, files: (1...count).map { folder.appendingPathComponent("gst-\($0).mp4") }, seconds: seconds)
            print(line("gst-launch-1.0 pipelines", count, theirs, seconds) + stalled(source, since: stalls))
            print(String(format: "    ratio, ours to GStreamer's CPU a camera-second: %.2fx", ours.cpu / max(theirs.cpu, 1e-6)))
            if count == 1, let recorded, let floor = floorMegabytes(beside: self_, folder: folder) {
                print(
                    String(
                        format: "    floor (ArgumentParser, Foundation and FFmpeg's libraries loaded, nothing recorded): %.1f MB, %.2fx GStreamer's "
                            + "recording; avcapture record is %.2fx the floor", floor, floor / max(theirs.peakMegabytes, 1e-6), recorded / floor))
            }
        }
    }

    /// How many times the PipeWire stack's test cameras have run out of buffers so far, from the server's log.
    ///
    /// PipeWire's test source (videotestsrc, 0.3.65 and since) takes a new buffer at each tick of its
    /// timer whether or not the last one came back, and when none is left it stops its timer for good:
    /// a camera whose cycles did not finish for as many ticks as it has buffers sends nothing more.
    static func sourceStalls(_ source: Source) -> Int {
        guard case .pipeWire(let stack) = source, let log = try? String(contentsOfFile: stack + "/pipewire.log", encoding: .utf8) else { return 0 }
        return log.components(separatedBy: "out of buffers").count - 1
    }

    /// What to add to a PipeWire run's line when its test cameras stopped during it.
    static func stalled(_ source: Source, since before: Int) -> String {
        let after = sourceStalls(source)
        return after > before ? "; the server's test source ran out of buffers and stopped \(after - before) time(s)" : ""
    }

    struct Result {
        var cpu = 0.0, peakMegabytes = 0.0
        var frames: [Int] = []
        /// Where the memory was at the peak.
        var peakBreakdown: MemoryBreakdown?
        /// Why the child recorded nothing, when it said.
        var refusal: String?
    }

    static func line(_ name: String, _ count: Int, _ result: Result, _ seconds: Double) -> String {
        let expected = Int((seconds * 30).rounded())
        let missing = result.frames.map { max(0, expected - $0) }
        return String(
            format: "  %d x %@: %.3f s CPU a camera-second, frames missing %@ of %d each, peak %.0f MB", count, name,
            result.cpu / (seconds * Double(count)), missing.map(String.init).joined(separator: "/"), expected, result.peakMegabytes)
            + (result.peakBreakdown.flatMap { $0.total >= 1 ? "\n      at the peak: \($0.summary)" : nil } ?? "")
    }

    /// The median peak resident size of three runs of `avbench-floor ffmpeg` (built beside avbench by
    /// scripts/bench.sh): what any Swift command line that records through FFmpeg starts from, as
    /// the kernel counts it (`/usr/bin/time`); nil when it is not built or fails.
    static func floorMegabytes(beside avbench: String, folder: URL) -> Double? {
        let floor = URL(fileURLWithPath: avbench).deletingLastPathComponent().appendingPathComponent("avbench-floor").path
        guard FileManager.default.isExecutableFile(atPath: floor), FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else { return nil }
        let report = folder.appendingPathComponent("floor-resident").path
        var sizes: [Double] = []
        for _ in 0..<3 {
            guard shell(["/usr/bin/time", "-f", "%M", "-o", report, floor, "ffmpeg"]).status == 0,
                let text = try? String(contentsOfFile: report, encoding: .utf8), let kilobytes = text.split(separator: "\n").last.flatMap({ Double($0) })
            else { return nil }
            sizes.append(kilobytes / 1024)
        }
        return sizes.sorted()[1]
    }

    /// Runs `command` (stopped with SIGINT after `stopAfter` seconds, or left to finish), sampling its resident memory; counts the frames in `files`.
    static func measure(_ command: [String], stopAfter: Double?, files: [URL], seconds: Double) -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        let said = Pipe()
        process.standardOutput = said
        process.standardError = FileHandle.nullDevice
        let cpuBefore = childCPUSeconds()
        var result = Result()
        guard (try? process.run()) != nil else { return result }
        let started = now()
        var interrupted = false
        while process.isRunning {
            let status = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
            // The process itself and, for env, the program it became.
            if let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
                let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "")
            {
                if kilobytes / 1024 > result.peakMegabytes {
                    result.peakMegabytes = kilobytes / 1024
                    result.peakBreakdown = MemoryBreakdown.of(pid: process.processIdentifier) ?? result.peakBreakdown
                }
            }
            if let stopAfter, !interrupted, now() - started >= stopAfter {
                process.interrupt()
                interrupted = true
            }
            usleep(200_000)
        }
        process.waitUntilExit()
        let line = String(decoding: said.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if !line.isEmpty { result.refusal = line }
        result.cpu = childCPUSeconds() - cpuBefore
        result.frames = files.map { file in
            MediaProbe.videoPacketCount(file) ?? 0
        }
        return result
    }

    /// The child: `count` sessions recording `seconds` from virtual:camera:1...count (or, with
    /// `pipewire`, the PipeWire cameras avbench-camera-1...count in UYVY) into `folder`.
    static func runChild(arguments: [String]) throws {
        guard arguments.count >= 4, let count = Int(arguments[1]), let seconds = Double(arguments[2]) else { return }
        let folder = URL(fileURLWithPath: arguments[3])
        let pipeWire = arguments.count > 4 && arguments[4] == "pipewire"
        if arguments.count > 4, arguments[4] == "multicam" { return try recordInOneMultiCamSession(count: count, seconds: seconds, folder: folder) }
        if pipeWire {
            // The registry finds the server's cameras a moment after it starts.
            let deadline = Date().addingTimeInterval(5)
            while AVCaptureDevice.devices(for: .video).filter({ $0.uniqueID.hasPrefix("pipewire:avbench-camera-") }).count < count, Date() < deadline {
                Thread.sleep(forTimeInterval: 0.1)
            }
        }
        final class Finish: NSObject, AVCaptureFileOutputRecordingDelegate, @unchecked Sendable {
            let done = DispatchSemaphore(value: 0)
            func fileOutput(_ output: AVCaptureFileOutput, didFinishRecordingTo outputFileURL: URL, from connections: [AVCaptureConnection], error: Error?) {
                if let error = error as? AVError, error.code != .maximumDurationReached {
                    FileHandle.standardError.write(Data("\(outputFileURL.lastPathComponent): \(error.localizedDescription)\n".utf8))
                }
                done.signal()
            }
        }
        var sessions: [(AVCaptureSession, AVCaptureMovieFileOutput)] = []
        for index in 1...count {
            guard let camera = AVCaptureDevice(uniqueID: pipeWire ? "pipewire:avbench-camera-\(index)" : "virtual:camera:\(index)") else {
                FileHandle.standardError.write(Data("no camera \(index)\n".utf8))
                return
            }
            let session = AVCaptureSession()
            session.beginConfiguration()
            session.addInput(try AVCaptureDeviceInput(device: camera))
            if pipeWire,
                let format = camera.formats.first(where: {
                    $0.formatDescription.dimensions == CMVideoDimensions(width: 1280, height: 720)
                        && $0.formatDescription.mediaSubType.rawValue == kCVPixelFormatType_422YpCbCr8
                })
            {
                try camera.lockForConfiguration()
                camera.activeFormat = format
                camera.activeVideoMinFrameDuration = CMTime(value: 1, timescale: 30)
                camera.activeVideoMaxFrameDuration = CMTime(value: 1, timescale: 30)
                camera.unlockForConfiguration()
            } else {
                session.sessionPreset = .hd1280x720
            }
            let movie = AVCaptureMovieFileOutput()
            movie.maxRecordedDuration = CMTime(seconds: seconds, preferredTimescale: 1000)
            session.addOutput(movie)
            session.commitConfiguration()
            if let connection = movie.connection(with: .video) {
                movie.setOutputSettings(
                    [
                        AVVideoCodecKey: AVVideoCodecType.h264,
                        AVVideoCompressionPropertiesKey: [kVTCompressionPropertyKey_PrioritizeEncodingSpeedOverQuality as String: true],
                    ],
                    for: connection)
            }
            session.startRunning()
            sessions.append((session, movie))
        }
        let finish = Finish()
        for (index, (_, movie)) in sessions.enumerated() {
            movie.startRecording(to: folder.appendingPathComponent("ours-\(index + 1).mov"), recordingDelegate: finish)
        }
        // A camera that never delivers (a starved server) must not hold the run forever: past
        // the time asked for and a margin, what is still recording is stopped.
        var finished = 0
        let deadline = DispatchTime.now() + seconds + 20
        while finished < sessions.count, finish.done.wait(timeout: deadline) == .success { finished += 1 }
        if finished < sessions.count {
            FileHandle.standardError.write(Data("\(sessions.count - finished) recordings did not end in time; stopped\n".utf8))
            for (_, movie) in sessions { movie.stopRecording() }
            while finished < sessions.count, finish.done.wait(timeout: .now() + 10) == .success { finished += 1 }
        }
        for (session, _) in sessions { session.stopRunning() }
    }

    /// The child's other way: virtual:camera:1...count in one multi-camera session, each camera
    /// joined to its own movie file output; prints the session's refusal when it does not start.
    static func recordInOneMultiCamSession(count: Int, seconds: Double, folder: URL) throws {
        final class Finish: NSObject, AVCaptureFileOutputRecordingDelegate, @unchecked Sendable {
            let done = DispatchSemaphore(value: 0)
            func fileOutput(_ output: AVCaptureFileOutput, didFinishRecordingTo outputFileURL: URL, from connections: [AVCaptureConnection], error: Error?) {
                done.signal()
            }
        }
        let session = AVCaptureMultiCamSession()
        session.beginConfiguration()
        var movies: [AVCaptureMovieFileOutput] = []
        for index in 1...count {
            guard let camera = AVCaptureDevice(uniqueID: "virtual:camera:\(index)"),
                let format = camera.formats.first(where: {
                    $0.formatDescription.dimensions == CMVideoDimensions(width: 1280, height: 720) && $0.videoSupportedFrameRateRanges[0].maxFrameRate == 30
                })
            else { return }
            try camera.lockForConfiguration()
            camera.activeFormat = format
            camera.unlockForConfiguration()
            let input = try AVCaptureDeviceInput(device: camera)
            session.addInputWithNoConnections(input)
            let movie = AVCaptureMovieFileOutput()
            movie.maxRecordedDuration = CMTime(seconds: seconds, preferredTimescale: 1000)
            session.addOutputWithNoConnections(movie)
            let connection = AVCaptureConnection(inputPorts: input.ports(for: .video, sourceDeviceType: nil, sourceDevicePosition: .unspecified), output: movie)
            session.addConnection(connection)
            movie.setOutputSettings(
                [
                    AVVideoCodecKey: AVVideoCodecType.h264,
                    AVVideoCompressionPropertiesKey: [kVTCompressionPropertyKey_PrioritizeEncodingSpeedOverQuality as String: true],
                ],
                for: connection)
            movies.append(movie)
        }
        session.commitConfiguration()
        session.startRunning()
        guard session.isRunning else {
            print(String(format: "not started: hardware cost %.2f", session.hardwareCost))
            return
        }
        let finish = Finish()
        for (index, movie) in movies.enumerated() {
            movie.startRecording(to: folder.appendingPathComponent("multi-\(index + 1).mov"), recordingDelegate: finish)
        }
        for _ in movies { _ = finish.done.wait(timeout: .now() + seconds + 20) }
        session.stopRunning()
    }
}
