import AVFoundation
import Foundation

/// A PipeWire camera at 1280x720, 60 frames per second, to an empty delegate, next to
/// `gst-launch-1.0` doing the same work on the same node and format in the same run: in the
/// camera's own format, `pipewiresrc ! fakesink` (which hands on the server's buffer without
/// copying it, though the server reuses it a cycle later) and `pipewiresrc always-copy=true !
/// fakesink` (one copy, as ours makes); in BGRA, `pipewiresrc ! videoconvert ! BGRx ! fakesink`.
/// `scripts/bench.sh pipewire` starts a private PipeWire stack with a test camera for it.
enum PipeWireBenchmark {
    static func run(seconds: Double) throws {
        print("")
        guard let camera = AVCaptureDevice.devices(for: .video).first(where: { $0.uniqueID.hasPrefix("pipewire:") }) else {
            print("PipeWire: no PipeWire camera here (scripts/bench.sh pipewire starts a private stack with one)")
            return
        }
        let node = String(camera.uniqueID.dropFirst("pipewire:".count))
        print(
            "PipeWire \(camera.localizedName) (\(node)) at 1280x720, 60 frames/s, \(seconds) s per case; CPU is this process's (the server's is not counted for either):"
        )
        let caps = "video/x-raw,format=UYVY,width=1280,height=720,framerate=60/1"
        let cases: [(String, OSType, [(String, [String])])] = [
            (
                "UYVY -> BGRA", kCVPixelFormatType_32BGRA,
                [
                    (
                        "pipewiresrc ! videoconvert ! BGRx ! fakesink",
                        [
                            "pipewiresrc", "target-object=\(node)", "!", caps, "!", "videoconvert", "!",
                            "video/x-raw,format=BGRx", "!", "fakesink",
                        ]
                    )
                ]
            ),
            (
                "UYVY -> 2vuy", kCVPixelFormatType_422YpCbCr8,
                [
                    ("pipewiresrc always-copy=true ! fakesink", ["pipewiresrc", "target-object=\(node)", "always-copy=true", "!", caps, "!", "fakesink"]),
                    ("pipewiresrc ! fakesink (no copy)", ["pipewiresrc", "target-object=\(node)", "!", caps, "!", "fakesink"]),
                ]
            ),
        ]
        wholeProcess(node: node, seconds: seconds)
        for (name, delivered, peers) in cases {
            guard
                let format = camera.formats.first(where: {
                    $0.formatDescription.dimensions == CMVideoDimensions(width: 1280, height: 720)
                        && $0.formatDescription.mediaSubType.rawValue == kCVPixelFormatType_422YpCbCr8
                })
            else { print("  no 1280x720 UYVY format"); return }
            let (frames, cpu, elapsed, allocations) = try measureCamera(camera, format: format, delivered: delivered, framesPerSecond: 60, seconds: seconds)
            let ours = cpu / Double(max(1, frames))
            print(
                String(
                    format: "  %@: %.1f frames/s, %.3f ms CPU per frame, %.2f heap allocations per frame (the whole process, libpipewire's threads too)",
                    name, Double(frames) / elapsed, ours * 1000, allocations))
            guard ProcessInfo.processInfo.environment["AVBENCH_NO_PEER"] == nil else { continue }
            guard let gst = ["/usr/bin/gst-launch-1.0"].first(where: FileManager.default.isExecutableFile) else {
                print("    gst-launch-1.0 not available (install gstreamer1.0-tools gstreamer1.0-pipewire)")
                continue
            }
            for (peerName, pipeline) in peers {
                // The peer's start (process, connection, negotiation) is taken out: a one-second run is subtracted from a longer one.
                func peerRun(_ frames: Int) -> (cpu: Double, elapsed: Double, status: Int32, output: String) {
                    let cpu0 = childCPUSeconds(), time0 = now()
                    var arguments = [gst, "-q"] + pipeline
                    arguments.insert("num-buffers=\(frames)", at: 4)
                    let result = shell(arguments, timeLimit: Double(frames) / 60 * 3 + 30)
                    return (childCPUSeconds() - cpu0, now() - time0, result.status, result.output)
                }
                let count = Int(60 * (seconds + 1))
                let short = peerRun(60), peer = peerRun(count)
                guard short.status == 0, peer.status == 0 else {
                    print(
                        "    \(peerName): gst-launch-1.0 failed (status \(short.status), \(peer.status); 9: stopped at its time limit): \(peer.output.prefix(200))"
                    ); continue
                }
                let (peerCPU, peerElapsed) = (peer.cpu - short.cpu, peer.elapsed - short.elapsed)
                let theirs = peerCPU / Double(count - 60)
                print(
                    String(
                        format: "    %@: %.1f frames/s, %.3f ms CPU per frame; ratio %.2fx CPU (ours / GStreamer)",
                        peerName, Double(count - 60) / peerElapsed, theirs * 1000, ours / theirs))
            }
        }
    }

    /// The whole `avcapture monitor` process asked for the camera's own UYVY by `--format` and
    /// `--pixel-format`, next to the whole `gst-launch-1.0 pipewiresrc ! fakesink` process doing
    /// the same: each run long and short, the short one subtracted, so start-up is taken out.
    static func wholeProcess(node: String, seconds: Double) {
        let tool = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("avcapture").path
        guard FileManager.default.isExecutableFile(atPath: tool) else { return print("  avcapture is not built beside avbench") }
        func run(_ arguments: [String]) -> (cpu: Double, status: Int32, output: String) {
            let cpu0 = childCPUSeconds()
            let result = shell(arguments, timeLimit: seconds * 3 + 30)
            return (childCPUSeconds() - cpu0, result.status, result.output)
        }
        let monitor = { (length: Double) in
            run([
                tool, "monitor", "--device", "pipewire:\(node)", "--format", "1280x720@60", "--pixel-format", "2vuy", "--no-audio",
                "--seconds", String(length),
            ])
        }
        let short = monitor(1), long = monitor(seconds + 1)
        guard short.status == 0, long.status == 0, long.output.contains("'2vuy' 1280x720") else {
            return print("  avcapture monitor failed or converted: \(long.output.prefix(300))")
        }
        let framesRun = { (output: String) in Int(output.components(separatedBy: "Done: ").last?.split(separator: " ").first ?? "") ?? 0 }
        let frames = framesRun(long.output) - framesRun(short.output)
        let ours = (long.cpu - short.cpu) / Double(max(1, frames))
        print(
            String(
                format:
                    "  avcapture monitor --format 1280x720@60 --pixel-format 2vuy (whole process, long run minus short): %.3f ms CPU per frame over %d frames",
                ours * 1000, frames))
        let gst = "/usr/bin/gst-launch-1.0"
        guard FileManager.default.isExecutableFile(atPath: gst) else { return }
        let caps = "video/x-raw,format=UYVY,width=1280,height=720,framerate=60/1"
        let peer = { (count: Int) in
            run([gst, "-q", "pipewiresrc", "target-object=\(node)", "num-buffers=\(count)", "always-copy=true", "!", caps, "!", "fakesink"])
        }
        let count = Int(60 * seconds)
        let peerShort = peer(60), peerLong = peer(60 + count)
        guard peerShort.status == 0, peerLong.status == 0 else {
            return print(
                "    gst-launch-1.0 failed (status \(peerShort.status), \(peerLong.status); 9: stopped at its time limit): \(peerLong.output.prefix(200))")
        }
        let theirs = (peerLong.cpu - peerShort.cpu) / Double(count)
        print(
            String(
                format:
                    "    gst-launch-1.0 pipewiresrc always-copy=true ! fakesink (whole process, same way): %.3f ms CPU per frame; ratio %.2fx CPU (ours / GStreamer)",
                theirs * 1000, ours / theirs))
    }
}
