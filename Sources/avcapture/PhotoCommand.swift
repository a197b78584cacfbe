import ArgumentParser
import AVFoundation
import Foundation
import Photos

/// `avcapture photo`: takes a photo with AVCapturePhotoOutput and writes it as JPEG, HEIC or PNG,
/// to a file or into the user's Pictures folder.
struct Photo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photo",
        abstract: "Take a photo and write it as JPEG (.jpg), HEIC (.heic) or PNG (.png); with no file, into the Pictures folder.")

    @Argument(help: "The photo to write (.jpg, .jpeg, .heic, .heif or .png); it must not exist. Without it, a JPEG goes into the Pictures folder.") var output:
        String?
    @Option(help: "The unique ID of the camera (see `avcapture devices`).") var device: String?
    @Option(help: "A session preset, such as photo, high, 640x480, 1920x1080.") var preset: String?
    @Option(help: "A format as WIDTHxHEIGHT@FPS, such as 1280x720@30.") var format: String?
    @Option(help: "The flash: off, on or auto.") var flash: String = "off"
    @Option(help: "How to trade speed for quality: speed, balanced or quality.") var quality: String = "balanced"
    @Option(help: "The largest photo size, WIDTHxHEIGHT; it must be one the camera's format supports.") var size: String?
    @Flag(help: "Take a Live Photo: the still and a movie from 1.5 s before to 1.5 s after it (written beside the still as .mov).") var live = false

    /// The kinds of file a photo can be written as.
    enum Kind: String {
        case jpeg = "JPEG", heic = "HEIC", png = "PNG"
        init?(fileExtension: String) {
            switch fileExtension.lowercased() {
            case "jpg", "jpeg": self = .jpeg
            case "heic", "heif": self = .heic
            case "png": self = .png
            default: return nil
            }
        }
    }

    func run() throws {
        let url = output.map { URL(fileURLWithPath: $0) }
        let kind =
            try url.map { url in
                guard let kind = Kind(fileExtension: url.pathExtension) else {
                    let named = url.pathExtension.isEmpty ? "a photo with no extension" : ".\(url.pathExtension) photos"
                    throw CommandFailure("Cannot write \(named); name the photo .jpg, .jpeg, .heic, .heif or .png.")
                }
                return kind
            } ?? .jpeg
        if let url { try RecordingRequest.checkNewFile(url) }
        let movieURL = live ? url?.deletingPathExtension().appendingPathExtension("mov") : nil
        if let movieURL { try RecordingRequest.checkNewFile(movieURL) }
        var largest: CMVideoDimensions?
        if let size {
            let parts = size.lowercased().split(separator: "x").compactMap { Int32($0) }
            guard parts.count == 2, parts[0] > 0, parts[1] > 0 else { throw CommandFailure("--size is WIDTHxHEIGHT, such as 1920x1080; got \(size).") }
            largest = CMVideoDimensions(width: parts[0], height: parts[1])
        }
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
        if kind == .heic, !photos.availablePhotoCodecTypes.contains(.hevc) {
            throw CommandFailure("This machine's libheif cannot encode HEVC (its x265 plugin, libheif-plugin-x265, is missing); write .jpg or .png.")
        }
        if let largest {
            let supported = camera.activeFormat.supportedMaxPhotoDimensions
            guard supported.contains(where: { $0.width == largest.width && $0.height == largest.height }) else {
                let sizes = supported.map { "\($0.width)x\($0.height)" }.joined(separator: ", ")
                throw CommandFailure(
                    "\(camera.localizedName)'s format takes photos of \(sizes), not \(size ?? ""); choose a --preset or --format of that size.")
            }
            photos.maxPhotoDimensions = largest
        }
        if live {
            guard photos.isLivePhotoCaptureSupported else { throw CommandFailure("\(camera.localizedName) cannot take Live Photos.") }
            photos.isLivePhotoCaptureEnabled = true
        }
        session.startRunning()
        guard session.isRunning else { throw CommandFailure("The session could not start.") }
        defer { session.stopRunning() }
        // A moment for exposure and focus to settle, as a camera app's viewfinder gives; a Live
        // Photo also needs the seconds before the still.
        RunLoop.main.run(until: Date().addingTimeInterval(live ? 1.8 : 0.5))
        let settings: AVCapturePhotoSettings
        switch kind {
        case .jpeg: settings = AVCapturePhotoSettings(format: [AVVideoCodecKey: AVVideoCodecType.jpeg])
        case .heic: settings = AVCapturePhotoSettings(format: [AVVideoCodecKey: AVVideoCodecType.hevc])
        case .png: settings = AVCapturePhotoSettings(format: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA])
        }
        if let largest { settings.maxPhotoDimensions = largest }
        settings.flashMode = flashMode
        settings.photoQualityPrioritization = prioritization
        // A Live Photo's movie is written where the still goes, or beside it in the temporary folder for the library.
        let movieFile = live ? movieURL ?? URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("avcapture-live-\(getpid()).mov") : nil
        settings.livePhotoMovieFileURL = movieFile
        let result = PhotoResult()
        photos.capturePhoto(with: settings, delegate: result)
        guard result.wait(seconds: 30), let photo = result.photo else { throw CommandFailure("No photo was delivered.") }
        if let error = result.error { throw CommandFailure("The photo failed: \(error.localizedDescription)") }
        guard let data = kind == .png ? photo.pngDataRepresentation() : photo.fileDataRepresentation() else {
            throw CommandFailure("The photo has no file data.")
        }
        let written: String
        if let url {
            do {
                try data.write(to: url, options: .withoutOverwriting)
            } catch {
                throw CommandFailure("Cannot write \(url.path): \(error.localizedDescription)")
            }
            written = url.path
        } else if let movieFile {
            written = try Library.saveLivePhoto(data, movingMovieAt: movieFile)
        } else {
            written = try Library.save(data, type: .photo)
        }
        let dimensions = photo.resolvedSettings.photoDimensions
        print(
            "Wrote \(written): \(dimensions.width)x\(dimensions.height) \(kind.rawValue), \(data.count / 1024) KiB\(photo.resolvedSettings.isFlashEnabled ? ", flash fired" : "")\(live ? ", with its Live Photo movie (.mov)" : "")."
        )
    }
}

/// Waits for one photo.
final class PhotoResult: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let outcome = LockedValue<(delivered: (AVCapturePhoto, Error?)?, movieError: Error?)>((nil, nil))

    var photo: AVCapturePhoto? { outcome.withLock { $0.delivered?.0 } }
    /// The still's error, else the Live Photo movie's.
    var error: Error? { outcome.withLock { $0.delivered?.1 ?? $0.movieError } }

    func wait(seconds: Double) -> Bool { done.wait(timeout: .now() + seconds) == .success }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: Error?) {
        outcome.withLock { $0.delivered = (photo, error) }
    }

    func photoOutput(
        _ output: AVCapturePhotoOutput, didFinishProcessingLivePhotoToMovieFileAt outputFileURL: URL, duration: CMTime,
        photoDisplayTime: CMTime, resolvedSettings: AVCaptureResolvedPhotoSettings, error: (any Error)?
    ) {
        outcome.withLock { $0.movieError = error }
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings, error: Error?) {
        done.signal()
    }
}
