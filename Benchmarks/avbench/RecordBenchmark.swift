import AVFoundation
import CBenchmarkSupport
import Foundation
import TestSupport

/// A long 1080p30 recording from the virtual camera: frames dropped and CPU per second of video.
enum RecordBenchmark {
    final class Finish: NSObject, AVCaptureFileOutputRecordingDelegate, @unchecked Sendable {
        let done = DispatchSemaphore(value: 0)
        func fileOutput(_ output: AVCaptureFileOutput, didFinishRecordingTo outputFileURL: URL, from connections: [AVCaptureConnection], error: Error?) {
            done.signal()
        }
    }

    static func run(seconds: Double) throws {
        print("")
        print("Recording \(Int(seconds)) s of 1920x1080 at 30 fps with audio from the virtual devices (H.264 + AAC):")
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("avbench-record-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("long.mov")
        let session = AVCaptureSession()
        session.beginConfiguration()
        session.sessionPreset = .hd1920x1080
        session.addInput(try AVCaptureDeviceInput(device: virtualCamera))
        session.addInput(try AVCaptureDeviceInput(device: virtualMicrophone))
        let movie = AVCaptureMovieFileOutput()
        movie.maxRecordedDuration = CMTime(seconds: seconds, preferredTimescale: 1)
        session.addOutput(movie)
        session.commitConfiguration()
        session.startRunning()
        let finish = Finish()
        let cpu0 = cpuSeconds()
        movie.startRecording(to: url, recordingDelegate: finish)
        // Heap allocations a frame while recording, from the third second to the last: the
        // process's, which includes FFmpeg's (x264's packets, the muxer's).
        Thread.sleep(forTimeInterval: min(2, seconds / 3))
        let allocations0 = avbench_allocation_count(), recorded0 = movie.recordedDuration.seconds
        Thread.sleep(forTimeInterval: max(0.5, seconds - min(2, seconds / 3) - 1))
        let allocations = avbench_allocation_count() - allocations0, recorded = movie.recordedDuration.seconds - recorded0
        finish.done.wait()
        let cpu = cpuSeconds() - cpu0
        session.stopRunning()
        let expected = Int((seconds * 30).rounded())
        let frames = MediaProbe.videoPacketCount(url) ?? -1
        print(String(format: "  frames in the file: %d of %d expected: %d dropped", frames, expected, expected - frames))
        print(String(format: "  process CPU: %.2f s per second of video (of 2 cores), file %.1f MB", cpu / seconds, EncodeBenchmark.size(url) / 1e6))
        print(
            String(
                format: "  heap allocations per video frame while recording: %.2f (the whole process, FFmpeg's included)",
                Double(allocations) / max(1, recorded * 30)))
    }
}
