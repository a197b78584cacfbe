import AVFoundation
import Foundation

/// The V4L2 path next to `v4l2-ctl --stream-mmap` on the same device and format: CPU per frame.
/// Run it where a V4L2 camera exists, such as `scripts/vm/run-in-vm.sh .build/release/avbench v4l2`;
/// under emulation only the ratio means anything.
enum V4L2Benchmark {
    static func run(seconds: Double) throws {
        print("")
        guard let camera = AVCaptureDevice.devices(for: .video).first(where: { $0.uniqueID.hasPrefix("v4l2:") }) else {
            print("V4L2: no V4L2 camera here (run it in the VM: scripts/vm/run-in-vm.sh .build/release/avbench v4l2)")
            return
        }
        let path = "/dev/" + ((try? FileManager.default.contentsOfDirectory(atPath: "/dev")) ?? []).filter { $0.hasPrefix("video") }.sorted()[0]
        print("V4L2 \(camera.localizedName) at 1280x720, \(seconds) s per case:")
        for (name, native, delivered, fourcc) in [
            ("YUYV -> BGRA", kCVPixelFormatType_422YpCbCr8_yuvs, kCVPixelFormatType_32BGRA, "YUYV"),
            ("NV12 passthrough", kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, "NV12"),
        ] {
            guard
                let format = camera.formats.first(where: {
                    $0.formatDescription.dimensions == CMVideoDimensions(width: 1280, height: 720) && $0.formatDescription.mediaSubType.rawValue == native
                })
            else { print("  \(name): no such format"); continue }
            let (frames, cpu, elapsed, allocations) = try measureCamera(camera, format: format, delivered: delivered, seconds: seconds)
            let count = max(30, frames)
            let peerCPU0 = childCPUSeconds(), peerTime0 = now()
            let peer = shell([
                "/usr/bin/v4l2-ctl", "-d", path, "--set-fmt-video=width=1280,height=720,pixelformat=\(fourcc)",
                "--stream-mmap", "--stream-count=\(count)",
            ])
            let peerCPU = childCPUSeconds() - peerCPU0, peerElapsed = now() - peerTime0
            guard peer.status == 0 else { print("  \(name): v4l2-ctl failed: \(peer.output.prefix(200))"); continue }
            let ours = cpu / Double(max(1, frames)), theirs = peerCPU / Double(count)
            print(
                String(
                    format:
                        "  %@: %.1f frames/s, %.3f ms CPU per frame, %.2f heap allocations per frame; v4l2-ctl %.1f frames/s, %.3f ms CPU per frame; ratio %.2fx CPU",
                    name, Double(frames) / elapsed, ours * 1000, allocations, Double(count) / peerElapsed, theirs * 1000, ours / theirs))
        }
    }
}
