import AVFoundation
import CaptureDevices
import Foundation
import FrameProcessing

/// Shutter lag: `capturePhoto(with:delegate:)` to `didFinishProcessingPhoto`, for JPEG and HEIC
/// photos at 1920x1080 and 3264x2448 (the `.photo` preset) from the virtual camera, at each
/// quality prioritization. Beside each, in the same run, the peer doing the same encode of the
/// same picture: libjpeg-turbo's `tjbench` (JPEG from BGRX, same quality, subsampling and DCT)
/// and libheif's `heif-enc` as a whole process (HEIC from a PNG of the picture, same quality and
/// x265 preset).
enum PhotoBenchmark {
    final class Timer: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
        let done = DispatchSemaphore(value: 0)
        let started = now()
        var finished = 0.0
        var photo: AVCapturePhoto?
        func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: Error?) {
            finished = now()
            self.photo = photo
            done.signal()
        }
        func photoOutput(
            _ output: AVCapturePhotoOutput, didFinishCapturingDeferredPhotoProxy deferredPhotoProxy: AVCaptureDeferredPhotoProxy?, error: (any Error)?
        ) {
            finished = now()
            photo = deferredPhotoProxy
            done.signal()
        }
    }

    static func run(seconds: Double) throws {
        for (preset, width, height) in [(AVCaptureSession.Preset.hd1920x1080, 1920, 1080), (.photo, 3264, 2448)] {
            try run(preset: preset, width: width, height: height, seconds: seconds)
        }
    }

    private static func run(preset: AVCaptureSession.Preset, width: Int, height: Int, seconds: Double) throws {
        print("")
        let session = AVCaptureSession()
        session.sessionPreset = preset
        session.addInput(try AVCaptureDeviceInput(device: virtualCamera))
        let output = AVCapturePhotoOutput()
        session.addOutput(output)
        output.maxPhotoQualityPrioritization = .quality
        session.startRunning()
        defer { session.stopRunning() }
        Thread.sleep(forTimeInterval: 0.5)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("avbench-photo-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        // The picture the peers encode: one photo, uncompressed, as a PNG and a PPM.
        let raw = AVCapturePhotoSettings(format: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA])
        guard let picture = take(raw, with: output)?.photo, let png = picture.pngDataRepresentation() else { print("Photo: no photo delivered"); return }
        let pngURL = folder.appendingPathComponent("photo.png"), ppmURL = folder.appendingPathComponent("photo.ppm")
        try png.write(to: pngURL)
        let hasPPM = shell(["/usr/bin/ffmpeg", "-loglevel", "error", "-y", "-i", pngURL.path, ppmURL.path]).status == 0

        // The camera's own frame, for the encoder alone: HD frames are BT.709, turned into JPEG's BT.601 samples by their matrix a
        // band at a time; the same frame tagged BT.601 (as SD and most webcams' frames are) has its samples split out by libyuv.
        let own = take(
            AVCapturePhotoSettings(format: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange]), with: output)?
            .photo?.pixelBuffer
        var other: CVPixelBuffer?
        if let own, let copy = CVPixelBuffer(width: own.width, height: own.height, pixelFormatType: own.pixelFormatType),
            PixelFormatConverter().convert(own, into: copy)
        {
            VideoColorimetry.tagMatrix(.bt601, of: copy)
            other = copy
        }

        let name = "\(width)x\(height)"
        for prioritization in [AVCapturePhotoOutput.QualityPrioritization.speed, .balanced, .quality] {
            let quality = PhotoEncoderSettings.jpegQuality(prioritization)
            // Ours and tjbench in turn, a slice of the time each, so that a busy moment of the
            // machine falls on both: the figures are the medians of the slices.
            var lags: [Double] = [], ours: [Double] = [], theirs: [Double] = []
            for _ in 0..<rounds {
                let slice = measure(.jpeg, prioritization, output, seconds: seconds / Double(rounds), atLeast: 3)
                guard !slice.isEmpty else { break }
                lags += slice
                ours.append(slice[slice.count / 2])
                guard hasPPM,
                    let peer = tjbench(
                        ppmURL, quality: quality, fullChroma: prioritization == .quality, accurateDCT: prioritization != .speed,
                        pixels: width * height, seconds: seconds / Double(rounds))
                else { continue }
                theirs.append(peer)
            }
            lags.sort()
            guard !lags.isEmpty else { print("Photo: no JPEG delivered"); return }
            let median = Self.median(of: ours)
            var line = String(
                format: "Photo %@ JPEG q%d (%@): shutter lag median %.2f ms, best %.2f ms, %d photos",
                name, quality, "\(prioritization)", median, lags[0], lags.count)
            if theirs.count == ours.count {
                let ratios = zip(ours, theirs).map { $0 / $1 }.sorted()
                line += String(
                    format: "; tjbench %.2f ms; ours / tjbench %.2fx (in %d turns each, %.2f-%.2fx)", Self.median(of: theirs), median / Self.median(of: theirs),
                    rounds, ratios[0], ratios[ratios.count - 1])
            } else {
                line += "; tjbench not available (install libjpeg-turbo-progs)"
            }
            print(line)
        }
        // After the HEIC cases, which need the camera running.
        defer { if let own, let other, hasPPM { encoderAlone(own, other, name: name, ppm: ppmURL, session: session, seconds: seconds) } }
        guard output.availablePhotoCodecTypes.contains(.hevc) else { print("Photo: this libheif cannot encode HEVC"); return }
        var qualityMedian = 0.0
        for prioritization in [AVCapturePhotoOutput.QualityPrioritization.speed, .balanced, .quality] {
            let preset = PhotoEncoderSettings.heicPreset(prioritization)
            let lags = measure(.hevc, prioritization, output, seconds: 0, atLeast: 3)
            guard !lags.isEmpty else { print("Photo: no HEIC delivered"); return }
            let median = lags[lags.count / 2]
            if prioritization == .quality { qualityMedian = median }
            var line = String(
                format: "Photo %@ HEIC q%d x265 %@ (%@): shutter lag median %.0f ms, best %.0f ms, %d photos",
                name, PhotoEncoderSettings.heicQuality, preset, "\(prioritization)", median, lags[0], lags.count)
            var runs: [Double] = []
            for _ in 0..<3 {
                let start = now()
                let result = shell([
                    "/usr/bin/heif-enc", "-q", String(PhotoEncoderSettings.heicQuality), "-p", "preset=\(preset)",
                    pngURL.path, "-o", folder.appendingPathComponent("peer.heic").path,
                ])
                guard result.status == 0 else { break }
                runs.append((now() - start) * 1000)
            }
            if runs.count == 3 {
                let theirs = runs.sorted()[1]
                line += String(format: "; heif-enc (whole process, from PNG) %.0f ms; ours / heif-enc %.2fx", theirs, median / theirs)
            } else {
                line += "; heif-enc not available (install libheif-examples)"
            }
            print(line)
        }
        // Deferred delivery: the same quality HEIC capture delivers a proxy; the library finishes the photo later.
        output.isAutoDeferredPhotoDeliveryEnabled = true
        defer { output.isAutoDeferredPhotoDeliveryEnabled = false }
        let proxies = measure(.hevc, .quality, output, seconds: 0, atLeast: 5)
        if !proxies.isEmpty, qualityMedian > 0 {
            let median = proxies[proxies.count / 2]
            print(
                String(
                    format: "Photo %@ HEIC (quality) with deferred delivery: proxy lag median %.0f ms against %.0f ms for the finished photo (%.2fx)",
                    name, median, qualityMedian, median / qualityMedian))
        }
    }

    /// How many turns the shutter lag and tjbench take in turn at each setting.
    private static let rounds = 4

    /// The median of `values` (the mean of the middle two of an even count).
    private static func median(of values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return (sorted[(sorted.count - 1) / 2] + sorted[sorted.count / 2]) / 2
    }

    private static func take(_ settings: AVCapturePhotoSettings, with output: AVCapturePhotoOutput) -> Timer? {
        let timer = Timer()
        output.capturePhoto(with: settings, delegate: timer)
        return timer.done.wait(timeout: .now() + 60) == .success ? timer : nil
    }

    /// Sorted shutter lags in milliseconds.
    private static func measure(
        _ codec: AVVideoCodecType, _ prioritization: AVCapturePhotoOutput.QualityPrioritization, _ output: AVCapturePhotoOutput,
        seconds: Double, atLeast count: Int
    ) -> [Double] {
        var lags: [Double] = []
        let start = now()
        while now() - start < seconds || lags.count < count {
            let settings = AVCapturePhotoSettings(format: [AVVideoCodecKey: codec])
            settings.photoQualityPrioritization = prioritization
            guard let timer = take(settings, with: output) else { break }
            lags.append((timer.finished - timer.started) * 1000)
        }
        return lags.sorted()
    }

    /// The JPEG encoder alone, with the camera stopped: the camera's own frame (`own`, BT.709 at HD:
    /// by its matrix) and the same frame tagged BT.601 (`other`: libyuv), both a band at a time, beside tjbench.
    private static func encoderAlone(_ own: CVPixelBuffer, _ other: CVPixelBuffer, name: String, ppm: URL, session: AVCaptureSession, seconds: Double) {
        session.stopRunning()
        for prioritization in [AVCapturePhotoOutput.QualityPrioritization.speed, .balanced, .quality] {
            let quality = PhotoEncoderSettings.jpegQuality(prioritization)
            let fullChroma = prioritization == .quality, accurate = prioritization != .speed
            guard
                let theirs = tjbench(
                    ppm, quality: quality, fullChroma: fullChroma, accurateDCT: accurate, pixels: own.width * own.height, seconds: seconds)
            else { return }
            let (alone, bands) = encoderAlone(own, other, quality: quality, fullChroma: fullChroma, accurateDCT: accurate, seconds: max(1, seconds))
            print(
                String(
                    format:
                        "Photo %@ JPEG q%d (%@), the encoder alone, camera stopped: the camera's BT.709 '420v' by its matrix %.2f ms, tagged BT.601 by libyuv %.2f ms; tjbench %.2f ms; ours / tjbench %.2fx (tagged BT.601 %.2fx)",
                    name, quality, "\(prioritization)", alone, bands, theirs, alone / theirs, bands / theirs))
        }
    }

    /// The photo encoder's times for `first` and `second` on this thread, in milliseconds a frame:
    /// the medians of runs for `seconds`, the two taken in turn so that a busy moment slows both.
    private static func encoderAlone(
        _ first: CVPixelBuffer, _ second: CVPixelBuffer, quality: Int32, fullChroma: Bool, accurateDCT: Bool, seconds: Double
    ) -> (Double, Double) {
        let encoder = JPEGEncoder()
        var times: ([Double], [Double]) = ([], [])
        let start = now()
        while now() - start < seconds || times.0.count < 5 {
            var began = now()
            _ = encoder.encode(first, quality: quality, fullChroma: fullChroma, accurateDCT: accurateDCT) { $0.count }
            times.0.append((now() - began) * 1000)
            began = now()
            _ = encoder.encode(second, quality: quality, fullChroma: fullChroma, accurateDCT: accurateDCT) { $0.count }
            times.1.append((now() - began) * 1000)
        }
        return (times.0.sorted()[times.0.count / 2], times.1.sorted()[times.1.count / 2])
    }

    /// tjbench's compression time for the picture, in milliseconds a frame.
    private static func tjbench(_ ppm: URL, quality: Int32, fullChroma: Bool, accurateDCT: Bool, pixels: Int, seconds: Double) -> Double? {
        let peer = shell(
            ["/usr/bin/tjbench", ppm.path, String(quality), "-subsamp", fullChroma ? "444" : "420", "-bgrx"]
                + (accurateDCT ? ["-accuratedct"] : ["-fastdct"]) + ["-benchtime", String(max(1, seconds)), "-warmup", "0.5", "-quiet"])
        // tjbench -quiet prints a row per format: its seventh column is compression in Mpixels/s.
        guard peer.status == 0,
            let row = peer.output.split(separator: "\n").last(where: { $0.contains(fullChroma ? "4:4:4" : "4:2:0") })?
                .split(separator: " ").map(String.init), row.count > 6, let mpixels = Double(row[6]), mpixels > 0
        else { return nil }
        return Double(pixels) / 1e6 / mpixels * 1000
    }
}
