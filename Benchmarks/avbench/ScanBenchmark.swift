import AVFoundation
import CaptureDevices
import Foundation
import FrameProcessing

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

    /// A running session from the virtual camera to a video data output and a metadata output,
    /// both feeding `receiver`, the metadata output looking for `types` from the start.
    static func runningSession(
        preset: AVCaptureSession.Preset,
        receiver: some AVCaptureVideoDataOutputSampleBufferDelegate & AVCaptureMetadataOutputObjectsDelegate,
        types: [AVMetadataObject.ObjectType] = []
    ) throws -> (AVCaptureSession, AVCaptureMetadataOutput) {
        let session = AVCaptureSession()
        session.sessionPreset = preset
        session.addInput(try AVCaptureDeviceInput(device: virtualCamera))
        let video = AVCaptureVideoDataOutput()
        video.setSampleBufferDelegate(receiver, queue: DispatchQueue(label: "video"))
        session.addOutput(video)
        let metadata = AVCaptureMetadataOutput()
        session.addOutput(metadata)
        metadata.setMetadataObjectsDelegate(receiver, queue: DispatchQueue(label: "metadata"))
        metadata.metadataObjectTypes = types
        session.startRunning()
        return (session, metadata)
    }

    static func run(seconds: Double) throws {
        print("")
        try faces(seconds: seconds)
        let scene = virtualCamera.virtualScene!
        defer { scene.removeAllCodes() }
        for (preset, aspect) in [(AVCaptureSession.Preset.vga640x480, 4.0 / 3.0), (.hd1280x720, 16.0 / 9.0)] {
            scene.removeAllCodes()
            try scene.placeCode(.qr, payload: "https://example.com/a", center: CGPoint(x: 0.5, y: 0.5), width: 0.2, aspectRatio: aspect)
            try scene.placeCode(.ean13, payload: "4006381333931", center: CGPoint(x: 0.25, y: 0.75), width: 0.35, rotation: 0.1, aspectRatio: aspect)
            try scene.placeCode(.dataMatrix, payload: "lot 42", center: CGPoint(x: 0.8, y: 0.3), width: 0.12, rotation: -0.3, aspectRatio: aspect)
            let receiver = Receiver()
            let (session, metadata) = try runningSession(preset: preset, receiver: receiver)
            defer { session.stopRunning() }
            func measure(_ types: [AVMetadataObject.ObjectType], rect: CGRect) -> (fps: Double, codes: Double, calls: Double, latency: [Double], ms: Double) {
                metadata.metadataObjectTypes = types
                metadata.rectOfInterest = rect
                Thread.sleep(forTimeInterval: 0.5)
                receiver.reset()
                let before = metadata.linuxDetectionStatistics
                Thread.sleep(forTimeInterval: seconds)
                let after = metadata.linuxDetectionStatistics
                let searched = after.framesSearched - before.framesSearched
                let ms = searched > 0 ? (after.secondsSearching - before.secondsSearching) / Double(searched) * 1000 : 0
                return (Double(receiver.frames) / seconds, Double(receiver.codes) / seconds, Double(receiver.calls) / seconds, receiver.latencies.sorted(), ms)
            }
            let off = measure([], rect: CGRect(x: 0, y: 0, width: 1, height: 1))
            let all = measure(metadata.availableMetadataObjectTypes.filter { $0 != .face }, rect: CGRect(x: 0, y: 0, width: 1, height: 1))
            let three = measure([.qr, .ean13, .dataMatrix], rect: CGRect(x: 0, y: 0, width: 1, height: 1))
            let centre = measure([.qr, .ean13, .dataMatrix], rect: CGRect(x: 0.3, y: 0.25, width: 0.4, height: 0.5))
            func percentile(_ values: [Double], _ p: Double) -> Double { values.isEmpty ? .nan : values[min(values.count - 1, Int(Double(values.count) * p))] }
            let name = preset == .vga640x480 ? "640x480" : "1280x720"
            print(
                String(
                    format: "Codes through the camera, %@ (3 codes in view): video data output %.1f fps with detection off, %.1f with it on",
                    name, off.fps, three.fps))
            for (label, m) in [("all 19 code types", all), ("3 types", three), ("3 types, rect of interest the centre 0.4 x 0.5 (the QR code)", centre)] {
                print(
                    String(
                        format: "  %@: %.1f ms detecting a frame, %.1f delegate calls/s, %.1f codes/s, frame to delegate median %.1f ms, p95 %.1f ms",
                        label, m.ms, m.calls, m.codes, percentile(m.latency, 0.5), percentile(m.latency, 0.95)))
            }
        }
    }

    /// Faces at 640x480: the astronaut photograph in the virtual scene, found through the metadata
    /// output (time a frame searched, frames with the face), next to dlib called directly on the same frame.
    static func faces(seconds: Double) throws {
        let url = URL(fileURLWithPath: FileManager.default.currentDirectoryPath + "/.build/test-pictures/astronaut.png")
        guard let data = try? Data(contentsOf: url) else {
            print("Faces: .build/test-pictures/astronaut.png is missing (scripts/fetch-test-pictures.sh fetches it)")
            return
        }
        let scene = virtualCamera.virtualScene!
        defer { scene.removeAllPictures() }
        let picture = try GreyPicture.decode(data)
        let corners = ScenePicture.corners(
            width: picture.width, height: picture.height, center: CGPoint(x: 0.5, y: 0.62), width: 0.9,
            rotation: 0, aspectRatio: 4.0 / 3.0)
        scene.removeAllPictures()
        _ = scene.placePicture(picture, corners: corners)
        // dlib on its own: the same 640x480 frame, grey, detector and landmarks called in a loop.
        guard let renderer = SceneRenderer(width: 640, height: 480, pixelFormat: kCVPixelFormatType_420YpCbCr8BiPlanarFullRange),
            let frame = CVPixelBuffer(width: 640, height: 480, pixelFormatType: kCVPixelFormatType_420YpCbCr8BiPlanarFullRange),
            let detector = FaceDetector()
        else { return }
        var parameters = SceneFrameParameters(frameNumber: 0, seconds: 1, zoom: 1, brightness: 1, colourGains: (1, 1, 1), defocus: 0, image: nil)
        parameters.pictures = scene.pictures
        renderer.render(into: frame, parameters)
        var direct = 0, found = 0
        let start = now()
        while now() - start < seconds {
            found += detector.detect(frame).isEmpty ? 0 : 1
            direct += 1
        }
        let directMs = (now() - start) / Double(direct) * 1000
        let receiver = Receiver()
        let (session, metadata) = try runningSession(preset: .vga640x480, receiver: receiver)
        defer { session.stopRunning() }
        metadata.metadataObjectTypes = [.face]
        Thread.sleep(forTimeInterval: 3)  // the landmark model loads
        receiver.reset()
        let before = metadata.linuxDetectionStatistics
        Thread.sleep(forTimeInterval: seconds)
        let after = metadata.linuxDetectionStatistics
        let searched = after.framesSearched - before.framesSearched
        let ms = searched > 0 ? (after.secondsSearching - before.secondsSearching) / Double(searched) * 1000 : 0
        print(
            String(
                format: "Faces at 640x480 (the astronaut photograph in the scene): %.1f ms a frame searched through the metadata output, "
                    + "%d frames searched in %.0f s, %d with her face delivered; video data output %.1f fps", ms, searched, seconds,
                receiver.calls, Double(receiver.frames) / seconds))
        print(
            String(
                format: "  dlib called directly on the same frame (HOG detector and 68 landmarks): %.1f ms a frame, face in %d of %d; ratio %.2fx",
                directMs, found, direct, ms / directMs))
    }
}
