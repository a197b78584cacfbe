import AVFoundation
import CaptureDevices
import Foundation

/// Codes through the camera: how many a second reach the delegate and how late, at 640x480 and
/// 1280x720, the detector's time a frame over the whole picture and over a quarter of it, and
/// the video data output's rate with detection on and off.
enum ScanBenchmark {
    /// Counts codes and their lateness as the delegate sees them.
    final class Receiver: NSObject, AVCaptureMetadataOutputObjectsDelegate, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
        private let lock = NSLock()
        private(set) var codes = 0
        private(set) var calls = 0
        private(set) var latencies: [Double] = []
        private(set) var frames = 0
        func metadataOutput(_ output: AVCaptureMetadataOutput, didOutput metadataObjects: [AVMetadataObject], from connection: AVCaptureConnection) {
            let arrival = CMClockGetTime(CMClockGetHostTimeClock())
            lock.lock()
            calls += 1
            codes += metadataObjects.count
            if let first = metadataObjects.first { latencies.append((arrival - first.time).seconds * 1000) }
            lock.unlock()
        }
        func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
            lock.lock(); frames += 1; lock.unlock()
        }
        func reset() { lock.lock(); codes = 0; calls = 0; latencies = []; frames = 0; lock.unlock() }
    }

    static func run(seconds: Double) throws {
        print("")
        let scene = virtualCamera.virtualScene!
        defer { scene.removeAllCodes() }
        for (preset, aspect) in [(AVCaptureSession.Preset.vga640x480, 4.0 / 3.0), (.hd1280x720, 16.0 / 9.0)] {
            scene.removeAllCodes()
            try scene.placeCode(.qr, payload: "https://example.com/a", center: CGPoint(x: 0.5, y: 0.5), width: 0.2, aspectRatio: aspect)
            try scene.placeCode(.ean13, payload: "4006381333931", center: CGPoint(x: 0.25, y: 0.75), width: 0.35, rotation: 0.1, aspectRatio: aspect)
            try scene.placeCode(.dataMatrix, payload: "lot 42", center: CGPoint(x: 0.8, y: 0.3), width: 0.12, rotation: -0.3, aspectRatio: aspect)
            let session = AVCaptureSession()
            session.sessionPreset = preset
            session.addInput(try AVCaptureDeviceInput(device: virtualCamera))
            let receiver = Receiver()
            let video = AVCaptureVideoDataOutput()
            video.setSampleBufferDelegate(receiver, queue: DispatchQueue(label: "video"))
            session.addOutput(video)
            let metadata = AVCaptureMetadataOutput()
            session.addOutput(metadata)
            metadata.setMetadataObjectsDelegate(receiver, queue: DispatchQueue(label: "metadata"))
            session.startRunning()
            defer { session.stopRunning() }
            func measure(_ types: [AVMetadataObject.ObjectType], rect: CGRect) -> (fps: Double, codes: Double, calls: Double, latency: [Double], ms: Double) {
                metadata.metadataObjectTypes = types
                metadata.rectOfInterest = rect
                Thread.sleep(forTimeInterval: 0.5)
                receiver.reset()
                let before = metadata.detectionStatistics
                Thread.sleep(forTimeInterval: seconds)
                let after = metadata.detectionStatistics
                let searched = after.framesSearched - before.framesSearched
                let ms = searched > 0 ? (after.secondsSearching - before.secondsSearching) / Double(searched) * 1000 : 0
                return (Double(receiver.frames) / seconds, Double(receiver.codes) / seconds, Double(receiver.calls) / seconds, receiver.latencies.sorted(), ms)
            }
            let off = measure([], rect: CGRect(x: 0, y: 0, width: 1, height: 1))
            let all = measure(metadata.availableMetadataObjectTypes, rect: CGRect(x: 0, y: 0, width: 1, height: 1))
            let three = measure([.qr, .ean13, .dataMatrix], rect: CGRect(x: 0, y: 0, width: 1, height: 1))
            let centre = measure([.qr, .ean13, .dataMatrix], rect: CGRect(x: 0.3, y: 0.25, width: 0.4, height: 0.5))
            func percentile(_ values: [Double], _ p: Double) -> Double { values.isEmpty ? .nan : values[min(values.count - 1, Int(Double(values.count) * p))] }
            let name = preset == .vga640x480 ? "640x480" : "1280x720"
            print(String(format: "Codes through the camera, %@ (3 codes in view): video data output %.1f fps with detection off, %.1f with it on",
                         name, off.fps, three.fps))
            for (label, m) in [("all 19 types", all), ("3 types", three), ("3 types, rect of interest the centre 0.4 x 0.5 (the QR code)", centre)] {
                print(String(format: "  %@: %.1f ms detecting a frame, %.1f delegate calls/s, %.1f codes/s, frame to delegate median %.1f ms, p95 %.1f ms",
                             label, m.ms, m.calls, m.codes, percentile(m.latency, 0.5), percentile(m.latency, 0.95)))
            }
        }
    }
}
