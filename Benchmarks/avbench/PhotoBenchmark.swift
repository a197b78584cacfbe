import AVFoundation
import CaptureDevices
import Foundation

/// Shutter lag: `capturePhoto(with:delegate:)` to `didFinishProcessingPhoto` for a 1920x1080 JPEG
/// from the virtual camera (its '420v' frame turned to BGRA and encoded at quality 92, accurate
/// DCT), next to libjpeg-turbo's `tjbench` compressing the same picture from BGRX with the same
/// quality, subsampling and DCT, in the same run.
enum PhotoBenchmark {
    final class Timer: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
        let done = DispatchSemaphore(value: 0)
        let started = now()
        var finished = 0.0
        var jpeg: Data?
        func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: Error?) {
            finished = now()
            jpeg = photo.fileDataRepresentation()
            done.signal()
        }
    }

    static func run(seconds: Double) throws {
        print("")
        let session = AVCaptureSession()
        session.sessionPreset = .hd1920x1080
        session.addInput(try AVCaptureDeviceInput(device: virtualCamera))
        let output = AVCapturePhotoOutput()
        session.addOutput(output)
        session.startRunning()
        defer { session.stopRunning() }
        Thread.sleep(forTimeInterval: 0.5)
        var lags: [Double] = []
        var last: Data?
        let start = now()
        while now() - start < seconds || lags.count < 5 {
            let timer = Timer()
            output.capturePhoto(with: AVCapturePhotoSettings(), delegate: timer)
            guard timer.done.wait(timeout: .now() + 10) == .success else { print("Photo: no photo delivered"); return }
            lags.append((timer.finished - timer.started) * 1000)
            last = timer.jpeg
        }
        lags.sort()
        let median = lags[lags.count / 2]
        print(String(format: "Photo, 1920x1080 JPEG q92: shutter lag (capturePhoto to didFinishProcessingPhoto) median %.2f ms, best %.2f ms, %d photos",
                     median, lags[0], lags.count))
        // The same picture for tjbench.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("avbench-photo-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let jpeg = folder.appendingPathComponent("photo.jpg"), ppm = folder.appendingPathComponent("photo.ppm")
        try last?.write(to: jpeg)
        guard shell(["/usr/bin/ffmpeg", "-loglevel", "error", "-y", "-i", jpeg.path, ppm.path]).status == 0 else { print("  ffmpeg not available"); return }
        let peer = shell(["/usr/bin/tjbench", ppm.path, "92", "-subsamp", "420", "-bgrx", "-accuratedct", "-benchtime", String(max(1, seconds)),
                          "-warmup", "0.5", "-quiet"])
        // tjbench -quiet prints a row per format: its seventh column is compression in Mpixels/s.
        let row = peer.output.split(separator: "\n").last { $0.contains("1920") }?.split(separator: " ").map(String.init)
        guard peer.status == 0, let row, row.count > 6, let mpixels = Double(row[6]) else {
            print("  tjbench not available (install libjpeg-turbo-progs)"); return
        }
        let theirs = 1920.0 * 1080 / 1e6 / mpixels * 1000
        print(String(format: "  tjbench, the same picture from BGRX, q92 4:2:0 accurate DCT: %.2f ms a frame; ours / tjbench %.2fx", theirs, median / theirs))
    }
}
