import AVFoundation
import Foundation
import TestSupport

/// Screen capture: a 1920x1080 Xvfb screen read for 5 s at up to 60 frames a second through
/// AVCaptureScreenInput into a video data output (BGRA, cursor drawn), next to FFmpeg's x11grab
/// (`ffmpeg -f x11grab -framerate 60 ... -f null`, shared memory, cursor drawn) on the same
/// display in the same run: frames delivered and CPU time per frame, the X server's excluded.
enum ScreenBenchmark {
    /// Counts frames, touching none.
    private final class Counter: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
        let count = LockedValue(0)
        func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
            count.withLock { $0 += 1 }
        }
    }

    static func run(seconds: Double = 5) throws {
        print("")
        print("Screen capture: a 1920x1080 X11 screen (Xvfb) for \(seconds) s at up to 60 frames a second:")
        let display: VirtualDisplay
        do { display = try VirtualDisplay(width: 1920, height: 1080) } catch { return print("  \(error)") }
        defer { display.stop() }
        display.paint("#336699")
        setenv("DISPLAY", display.name, 1)

        guard let input = AVCaptureScreenInput(displayID: CGMainDisplayID()) else { return print("  the screen cannot be captured") }
        input.minFrameDuration = CMTime(value: 1, timescale: 60)
        let session = AVCaptureSession()
        session.addInput(input)
        let output = AVCaptureVideoDataOutput()
        output.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA]
        let counter = Counter()
        output.setSampleBufferDelegate(counter, queue: DispatchQueue(label: "screen-bench"))
        session.addOutput(output)
        session.startRunning()
        Thread.sleep(forTimeInterval: 0.5)
        let (frames0, cpu0, start) = (counter.count.withLock { $0 }, cpuSeconds(), now())
        Thread.sleep(forTimeInterval: seconds)
        let (frames1, cpu1, end) = (counter.count.withLock { $0 }, cpuSeconds(), now())
        session.stopRunning()
        let ours = Double(frames1 - frames0)
        let oursRate = ours / (end - start), oursCPU = (cpu1 - cpu0) / max(1, ours) * 1000

        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg") else { return print("  ffmpeg not available") }
        let childCPU0 = childCPUSeconds(), ffmpegStart = now()
        let result = shell([
            "/usr/bin/ffmpeg", "-hide_banner", "-nostats", "-f", "x11grab", "-framerate", "60", "-video_size", "1920x1080", "-draw_mouse", "1", "-t",
            "\(seconds)", "-i", display.name, "-f", "null", "-",
        ])
        let ffmpegSeconds = now() - ffmpegStart, ffmpegCPU = childCPUSeconds() - childCPU0
        // x11grab reads at its frame rate: its frames are its rate times its time.
        let theirs = 60 * seconds
        let theirsRate = theirs / max(seconds, ffmpegSeconds - 0.2), theirsCPU = ffmpegCPU / theirs * 1000
        guard result.status == 0 else { return print("  ffmpeg x11grab failed: \(result.output.suffix(200))") }
        print(
            String(
                format:
                    "  AVCaptureScreenInput: %.1f frames/s, %.2f ms CPU a frame; ffmpeg x11grab: %.1f frames/s, %.2f ms CPU a frame (its whole process); ratio %.2fx CPU a frame",
                oursRate, oursCPU, theirsRate, theirsCPU, oursCPU / theirsCPU))
    }
}
