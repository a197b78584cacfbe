import AVFoundation
import CoreVideo
import Foundation
import Hummingbird

/// What the page shows about the session and lets the viewer change, as JSON.
struct LiveViewState: Codable, Sendable {
    /// One camera the viewer may switch to.
    struct Camera: Codable, Sendable {
        var uniqueID: String
        var name: String
    }
    var width: Int
    var height: Int
    var gravity: String
    var mirrored: Bool
    var rotation: Double
    var camera: String
    var cameras: [Camera]
    var hasTorch: Bool
    var torch: Bool
    /// The camera's focus point of interest, in device coordinates.
    var focusPoint: [Double]
    var zoom: Double
    var minZoom: Double
    var maxZoom: Double
    var canTakePhotos: Bool
    var canRecord: Bool
    var recording: Bool
    var audioLevel: Double?
    var viewers: Int
    var framesSent: Int
}

/// One value of a control's JSON answer.
enum ControlAnswer: Encodable, Sendable, Equatable {
    case number(Double), bool(Bool), string(String)

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .number(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        }
    }
}

/// The controls of the live view, applied to the session, its camera and the preview layer.
///
/// Every control is what an app's own code would do on Apple: a click becomes a point of interest
/// through `captureDevicePointConverted(fromLayerPoint:)`, zoom ramps, the torch and camera switch
/// go through the device and the session. Thread-safe: controls run on the server's tasks and
/// configure the session and device under their own locks.
final class LiveViewControls: LiveViewContent, @unchecked Sendable {
    let session: AVCaptureSession
    let layer: AVCaptureVideoPreviewLayer
    let photoOutput: AVCapturePhotoOutput?
    let movieOutput: AVCaptureMovieFileOutput?
    let audioOutput: AVCaptureAudioDataOutput?
    /// Where photos and movies taken from the page are saved.
    let saveDirectory: URL
    private let recording = LockedValue<MovieRecordingDelegate?>(nil)

    init(
        session: AVCaptureSession, layer: AVCaptureVideoPreviewLayer, photoOutput: AVCapturePhotoOutput?,
        movieOutput: AVCaptureMovieFileOutput?, audioOutput: AVCaptureAudioDataOutput?, saveDirectory: URL
    ) {
        self.session = session
        self.layer = layer
        self.photoOutput = photoOutput
        self.movieOutput = movieOutput
        self.audioOutput = audioOutput
        self.saveDirectory = saveDirectory
    }

    /// The camera the layer shows.
    var camera: AVCaptureDevice? { (layer.connection?.inputPorts.first?.input as? AVCaptureDeviceInput)?.device }

    /// The camera's page.
    var page: LiveViewPage.Kind { .camera }

    /// Hands the preview layer's frames to `handler`.
    func setFrameHandler(_ handler: (@Sendable (CVPixelBuffer) -> Void)?, queue: DispatchQueue) {
        layer.setPreviewFrameHandler(handler, queue: queue, allowingJPEGSamples: true)
    }

    /// The state the page shows.
    func state(viewers: Int, framesSent: Int) -> any Encodable & Sendable { cameraState(viewers: viewers, framesSent: framesSent) }

    /// The state the page shows, as its type.
    func cameraState(viewers: Int, framesSent: Int) -> LiveViewState {
        let camera = self.camera
        let connection = layer.connection
        let level = audioOutput?.connections.first?.audioChannels.first?.averagePowerLevel
        return LiveViewState(
            width: Int(layer.bounds.width), height: Int(layer.bounds.height),
            gravity: GravityName.name(of: layer.videoGravity),
            mirrored: connection?.isVideoMirrored ?? false, rotation: Double(connection?.videoRotationAngle ?? 0),
            camera: camera?.uniqueID ?? "",
            cameras: AVCaptureDevice.devices(for: .video).map { LiveViewState.Camera(uniqueID: $0.uniqueID, name: $0.localizedName) },
            hasTorch: camera?.hasTorch ?? false, torch: camera?.torchMode == .on,
            focusPoint: camera.map { [Double($0.focusPointOfInterest.x), Double($0.focusPointOfInterest.y)] } ?? [0.5, 0.5],
            zoom: Double(camera?.videoZoomFactor ?? 1), minZoom: Double(camera?.minAvailableVideoZoomFactor ?? 1),
            maxZoom: Double(camera?.maxAvailableVideoZoomFactor ?? 1),
            canTakePhotos: photoOutput != nil, canRecord: movieOutput != nil,
            recording: movieOutput?.isRecording ?? false,
            audioLevel: level.map(Double.init).flatMap { $0.isFinite ? $0 : nil },
            viewers: viewers, framesSent: framesSent)
    }

    /// Runs the control `name` with the request's fields; returns the JSON to answer with.
    func apply(_ name: String, body: ByteBuffer) async throws(ControlRefusal) -> [String: ControlAnswer] {
        switch name {
        case "focus": return try focus(ControlRequest(body: body, allowed: ["x", "y"]))
        case "torch": return try torch(ControlRequest(body: body, allowed: ["on"]))
        case "zoom": return try zoom(ControlRequest(body: body, allowed: ["factor"]))
        case "gravity":
            let (name, gravity) = try GravityName.requested(ControlRequest(body: body, allowed: ["gravity"]))
            layer.videoGravity = gravity
            return ["gravity": .string(name)]
        case "mirror": return try mirror(ControlRequest(body: body, allowed: ["mirrored"]))
        case "camera": return try switchCamera(ControlRequest(body: body, allowed: ["uniqueID"]))
        case "photo":
            _ = try ControlRequest(body: body, allowed: [])
            return try await takePhoto()
        case "record": return try await record(ControlRequest(body: body, allowed: ["recording"]))
        default:
            throw ControlRefusal(.notFound, "There is no control '\(name)'; the controls are camera, focus, gravity, mirror, photo, record, torch and zoom.")
        }
    }

    private func lockedCamera() throws(ControlRefusal) -> AVCaptureDevice {
        guard let camera else { throw ControlRefusal(.conflict, "The preview has no camera.") }
        do { try camera.lockForConfiguration() } catch {
            throw ControlRefusal(.conflict, "The camera cannot be configured now: \(error.localizedDescription)")
        }
        return camera
    }

    /// Focuses and exposes at a point of the layer, as tap to focus does.
    private func focus(_ request: ControlRequest) throws(ControlRefusal) -> [String: ControlAnswer] {
        let bounds = layer.bounds
        let x = try request.number("x", in: 0...Double(bounds.width)), y = try request.number("y", in: 0...Double(bounds.height))
        let point = layer.captureDevicePointConverted(fromLayerPoint: CGPoint(x: x, y: y))
        let camera = try lockedCamera()
        defer { camera.unlockForConfiguration() }
        guard camera.isFocusPointOfInterestSupported || camera.isExposurePointOfInterestSupported else {
            throw ControlRefusal(.conflict, "\(camera.localizedName) has no point of interest to focus or expose at.")
        }
        if camera.isFocusPointOfInterestSupported && camera.isFocusModeSupported(.autoFocus) {
            camera.focusPointOfInterest = point
            camera.focusMode = .autoFocus
        }
        if camera.isExposurePointOfInterestSupported && camera.isExposureModeSupported(.continuousAutoExposure) {
            camera.exposurePointOfInterest = point
            camera.exposureMode = .continuousAutoExposure
        }
        return ["x": .number(Double(point.x)), "y": .number(Double(point.y))]
    }

    private func torch(_ request: ControlRequest) throws(ControlRefusal) -> [String: ControlAnswer] {
        let on = try request.bool("on")
        let camera = try lockedCamera()
        defer { camera.unlockForConfiguration() }
        guard camera.hasTorch, camera.isTorchModeSupported(on ? .on : .off) else {
            throw ControlRefusal(.conflict, "\(camera.localizedName) has no torch.")
        }
        camera.torchMode = on ? .on : .off
        return ["torch": .bool(on)]
    }

    private func zoom(_ request: ControlRequest) throws(ControlRefusal) -> [String: ControlAnswer] {
        let camera = try lockedCamera()
        defer { camera.unlockForConfiguration() }
        let factor = try request.number("factor", in: Double(camera.minAvailableVideoZoomFactor)...Double(camera.maxAvailableVideoZoomFactor))
        // Doubling the zoom every half second, as a pinch's ramp does.
        camera.ramp(toVideoZoomFactor: CGFloat(factor), withRate: 2)
        return ["zoom": .number(factor)]
    }

    private func mirror(_ request: ControlRequest) throws(ControlRefusal) -> [String: ControlAnswer] {
        let mirrored = try request.bool("mirrored")
        guard let connection = layer.connection, connection.isVideoMirroringSupported else {
            throw ControlRefusal(.conflict, "The preview cannot be mirrored.")
        }
        connection.automaticallyAdjustsVideoMirroring = false
        connection.isVideoMirrored = mirrored
        return ["mirrored": .bool(mirrored)]
    }

    private func switchCamera(_ request: ControlRequest) throws(ControlRefusal) -> [String: ControlAnswer] {
        let uniqueID = try request.string("uniqueID")
        guard let next = AVCaptureDevice(uniqueID: uniqueID), next.hasMediaType(.video) else {
            throw ControlRefusal(.unprocessableContent, "There is no camera '\(uniqueID)'.")
        }
        let input: AVCaptureDeviceInput
        do { input = try AVCaptureDeviceInput(device: next) } catch {
            throw ControlRefusal(.conflict, "\(next.localizedName) cannot be opened: \(error.localizedDescription)")
        }
        session.beginConfiguration()
        let old = session.inputs.compactMap { $0 as? AVCaptureDeviceInput }.filter { $0.device.hasMediaType(.video) }
        for input in old { session.removeInput(input) }
        if session.canAddInput(input) {
            session.addInput(input)
            session.commitConfiguration()
            return ["camera": .string(uniqueID)]
        }
        for input in old where session.canAddInput(input) { session.addInput(input) }
        session.commitConfiguration()
        throw ControlRefusal(.conflict, "\(next.localizedName) cannot join the session.")
    }

    private func takePhoto() async throws(ControlRefusal) -> [String: ControlAnswer] {
        guard let photoOutput else { throw ControlRefusal(.conflict, "This live view takes no photos.") }
        let taken = await withCheckedContinuation { continuation in
            photoOutput.capturePhoto(with: AVCapturePhotoSettings(), delegate: PhotoSaver(continuation))
        }
        guard case .success(let data) = taken else {
            if case .failure(let error) = taken { throw ControlRefusal(.conflict, "The photo failed: \(error.localizedDescription)") }
            throw ControlRefusal(.conflict, "The photo failed.")
        }
        let url = Self.newFile(in: saveDirectory, prefix: "photo", extension: "jpg")
        do { try data.write(to: url, options: .withoutOverwriting) } catch {
            throw ControlRefusal(.conflict, "The photo could not be saved: \(error.localizedDescription)")
        }
        return ["file": .string(url.path)]
    }

    private func record(_ request: ControlRequest) async throws(ControlRefusal) -> [String: ControlAnswer] {
        let on = try request.bool("recording")
        guard let movieOutput else { throw ControlRefusal(.conflict, "This live view records no movies.") }
        if on {
            guard !movieOutput.isRecording else { throw ControlRefusal(.conflict, "A recording is already running.") }
            let url = Self.newFile(in: saveDirectory, prefix: "movie", extension: "mov")
            let delegate = MovieRecordingDelegate()
            recording.withLock { $0 = delegate }
            movieOutput.startRecording(to: url, recordingDelegate: delegate)
            return ["file": .string(url.path)]
        }
        guard movieOutput.isRecording, let delegate = recording.withLock({ $0 }) else {
            throw ControlRefusal(.conflict, "No recording is running.")
        }
        movieOutput.stopRecording()
        let (url, error) = await delegate.finished()
        if let error { throw ControlRefusal(.conflict, "The recording failed: \(error.localizedDescription)") }
        return ["file": .string(url.path)]
    }

    /// A file name in `directory` that does not exist yet, from the time now.
    static func newFile(in directory: URL, prefix: String, extension ext: String) -> URL {
        let stamp = ISO8601DateFormatter.string(from: Date(), timeZone: .current, formatOptions: [.withFullDate, .withTime])
        var url = directory.appendingPathComponent("\(prefix)-\(stamp).\(ext)")
        var index = 2
        while FileManager.default.fileExists(atPath: url.path) {
            url = directory.appendingPathComponent("\(prefix)-\(stamp)-\(index).\(ext)")
            index += 1
        }
        return url
    }
}

/// Receives one photo and resumes whoever waits for its file data.
private final class PhotoSaver: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
    private let continuation: LockedValue<CheckedContinuation<Result<Data, any Error>, Never>?>

    init(_ continuation: CheckedContinuation<Result<Data, any Error>, Never>) {
        self.continuation = LockedValue(continuation)
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: (any Error)?) {
        let result: Result<Data, any Error>
        if let error {
            result = .failure(error)
        } else if let data = photo.fileDataRepresentation() {
            result = .success(data)
        } else {
            result = .failure(AVError(.unknown))
        }
        continuation.withLock { continuation in
            defer { continuation = nil }
            return continuation
        }?.resume(returning: result)
    }
}

/// Waits for a movie recording to finish; any number of requests may wait for the same one.
private final class MovieRecordingDelegate: NSObject, AVCaptureFileOutputRecordingDelegate, @unchecked Sendable {
    private struct State {
        var result: (URL, (any Error)?)?
        var waiters: [CheckedContinuation<(URL, (any Error)?), Never>] = []
    }
    private let state = LockedValue(State())

    func fileOutput(_ output: AVCaptureFileOutput, didFinishRecordingTo outputFileURL: URL, from connections: [AVCaptureConnection], error: (any Error)?) {
        let waiters = state.withLock { state in
            defer { state.waiters = [] }
            state.result = (outputFileURL, error)
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: (outputFileURL, error)) }
    }

    /// The file and the error, once the recording has finished.
    func finished() async -> (URL, (any Error)?) {
        await withCheckedContinuation { continuation in
            let done = state.withLock { state in
                if state.result == nil { state.waiters.append(continuation) }
                return state.result
            }
            if let done { continuation.resume(returning: done) }
        }
    }
}
