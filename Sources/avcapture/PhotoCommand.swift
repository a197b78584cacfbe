import ArgumentParser
import AVFoundation
import Foundation

/// `avcapture photo`: takes a photo with AVCapturePhotoOutput and writes it as a JPEG.
struct Photo: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Take a photo and write it as a JPEG (.jpg, .jpeg).")

    @Argument(help: "The photo to write; it must not exist.") var output: String
    @Option(help: "The unique ID of the camera (see `avcapture devices`).") var device: String?
    @Option(help: "A session preset, such as photo, high, 640x480, 1920x1080.") var preset: String?
    @Option(help: "A format as WIDTHxHEIGHT@FPS, such as 1280x720@30.") var format: String?
    @Option(help: "The flash: off, on or auto.") var flash: String = "off"
    @Option(help: "How to trade speed for quality: speed, balanced or quality.") var quality: String = "balanced"

    func run() throws {
        let url = URL(fileURLWithPath: output)
        guard ["jpg", "jpeg"].contains(url.pathExtension.lowercased()) else {
            throw CommandFailure("Cannot write .\(url.pathExtension) photos yet; name the photo .jpg or .jpeg.")
        }
        try RecordingRequest.checkNewFile(url)
        let flashModes: [String: AVCaptureDevice.FlashMode] = ["off": .off, "on": .on, "auto": .auto]
        guard let flashMode = flashModes[flash] else { throw CommandFailure("--flash is off, on or auto; got \(flash).") }
        let prioritizations: [String: AVCapturePhotoOutput.QualityPrioritization] = ["speed": .speed, "balanced": .balanced, "quality": .quality]
        guard let prioritization = prioritizations[quality] else { throw CommandFailure("--quality is speed, balanced or quality; got \(quality).") }

        let session = AVCaptureSession()
        session.beginConfiguration()
        let camera = try CameraChoice.addCamera(device, preset: preset, format: format, to: session)
        let photos = AVCapturePhotoOutput()
        session.addOutput(photos)
        session.commitConfiguration()
        guard photos.supportedFlashModes.contains(flashMode) else {
            throw CommandFailure("\(camera.localizedName) has no flash; --flash \(flash) needs one.")
        }
        photos.maxPhotoQualityPrioritization = .quality
        session.startRunning()
        guard session.isRunning else { throw CommandFailure("The session could not start.") }
        defer { session.stopRunning() }
        // A moment for exposure and focus to settle, as a camera app's viewfinder gives.
        RunLoop.main.run(until: Date().addingTimeInterval(0.5))
        let settings = AVCapturePhotoSettings()
        settings.flashMode = flashMode
        settings.photoQualityPrioritization = prioritization
        let result = PhotoResult()
        photos.capturePhoto(with: settings, delegate: result)
        guard result.wait(seconds: 10), let photo = result.photo else { throw CommandFailure("No photo was delivered.") }
        if let error = result.error { throw CommandFailure("The photo failed: \(error.localizedDescription)") }
        guard let data = photo.fileDataRepresentation() else { throw CommandFailure("The photo has no file data.") }
        do {
            try data.write(to: url, options: .withoutOverwriting)
        } catch {
            throw CommandFailure("Cannot write \(url.path): \(error.localizedDescription)")
        }
        let size = photo.resolvedSettings.photoDimensions
        print("Wrote \(url.path): \(size.width)x\(size.height) JPEG, \(data.count / 1024) KiB\(photo.resolvedSettings.isFlashEnabled ? ", flash fired" : "").")
    }
}

/// Waits for one photo.
final class PhotoResult: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var delivered: (AVCapturePhoto, Error?)?

    var photo: AVCapturePhoto? { lock.withLock { delivered?.0 } }
    var error: Error? { lock.withLock { delivered?.1 } }

    func wait(seconds: Double) -> Bool { done.wait(timeout: .now() + seconds) == .success }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: Error?) {
        lock.withLock { delivered = (photo, error) }
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings, error: Error?) {
        done.signal()
    }
}
