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
    private let recordingTurns = TurnTaking()
    /// Taken while the session's camera is changed: two clients' switches at once would each see
    /// that the session can take their camera, and the second `addInput(_:)` would trap.
    private let cameraSwitch = NSLock()

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
        layer.setLinuxPreviewFrameHandler(handler, queue: queue, allowingJPEGSamples: true)
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
        cameraSwitch.lock()
        defer { cameraSwitch.unlock() }
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
        do {
            return ["file": .string(try SavedFile.save(data, in: saveDirectory, prefix: "photo", extension: "jpg").path)]
        } catch {
            throw ControlRefusal(.conflict, "The photo could not be saved: \(error.description)")
        }
    }

    /// Starts or stops the one recording: requests are taken one at a time, so that two starts at
    /// once make one recording (the other is refused), and a start is answered only once the
    /// recording has its first frame, or has failed.
    private func record(_ request: ControlRequest) async throws(ControlRefusal) -> [String: ControlAnswer] {
        let on = try request.bool("recording")
        guard let movieOutput else { throw ControlRefusal(.conflict, "This live view records no movies.") }
        // One record request at a time, in the order they came: a stop waits for a start still
        // waiting for its first frame, rather than ending it before it holds one.
        await recordingTurns.take()
        defer { recordingTurns.give() }
        if on {
            let url = Self.newFile(in: saveDirectory, prefix: "movie", extension: "mov")
            let delegate = MovieRecordingDelegate()
            let refusal = recording.withLock { current -> String? in
                if let current, !current.hasFinished { return current.isStopping ? "A recording is stopping." : "A recording is already running." }
                current = delegate
                return nil
            }
            if let refusal { throw ControlRefusal(.conflict, refusal) }
            // Started between a switch's removing the old camera and adding the new one, the
            // recording would see the microphone alone and make a movie of sound: a start waits
            // for a switch under way, and one without a camera's connection is refused.
            let hasCamera = cameraSwitch.withLock { () -> Bool in
                guard movieOutput.connection(with: .video)?.isActive == true else { return false }
                movieOutput.startRecording(to: url, recordingDelegate: delegate)
                return true
            }
            if !hasCamera {
                recording.withLock { if $0 === delegate { $0 = nil } }
                throw ControlRefusal(.conflict, "The recording could not start: the session has no camera for it now.")
            }
            switch await delegate.started(within: Self.firstFrameDeadline) {
            case .started:
                // The file opens with a frame it does not record: the start is answered once the
                // next is in, so that a stop that follows at once still leaves a playable movie.
                // (The output tells of no frame, so its recorded duration is looked at: a few ms.)
                let deadline = ContinuousClock.now + .seconds(Self.firstFrameDeadline)
                while movieOutput.recordedDuration == .zero, !delegate.hasFinished, ContinuousClock.now < deadline {
                    try? await Task.sleep(for: .milliseconds(5))
                }
                if movieOutput.recordedDuration > .zero || !delegate.hasFinished { return ["file": .string(url.path)] }
                let (_, error) = await delegate.finished()
                throw ControlRefusal(.conflict, "The recording could not start: \(error?.localizedDescription ?? "it ended before its first frame").")
            case .failed(let error): throw ControlRefusal(.conflict, "The recording could not start: \(error?.localizedDescription ?? "no reason given").")
            case .timedOut:
                _ = delegate.markStopping()
                movieOutput.stopRecording()
                _ = await delegate.finished()
                throw ControlRefusal(.serviceUnavailable, "The recording could not start: the camera gave no frame within \(Int(Self.firstFrameDeadline)) s.")
            }
        }
        guard let delegate = recording.withLock({ $0 }), !delegate.hasFinished else { throw ControlRefusal(.conflict, "No recording is running.") }
        // The first stop asks the output; any other waits for the same file.
        if delegate.markStopping() { movieOutput.stopRecording() }
        let (url, error) = await delegate.finished()
        if let error, !Self.finishedSuccessfully(error) { throw ControlRefusal(.conflict, "The recording failed: \(error.localizedDescription)") }
        return ["file": .string(url.path)]
    }

    /// How long a recording may wait for its first frame before its start is given up.
    static let firstFrameDeadline = 10.0

    /// Whether an error that ended a recording still left a complete file.
    private static func finishedSuccessfully(_ error: any Error) -> Bool {
        (error as NSError).userInfo[AVErrorRecordingSuccessfullyFinishedKey] as? Bool == true
    }

    /// Ends the recording under way, if any, and waits for its file to be finished: a server that
    /// stops leaves a complete movie, whatever state the recording was in.
    func finish() async {
        guard let movieOutput, let delegate = recording.withLock({ $0 }), !delegate.hasFinished else { return }
        if delegate.markStopping() { movieOutput.stopRecording() }
        _ = await delegate.finished()
    }

    /// A file name in `directory` that does not exist yet, from the time now.
    static func newFile(in directory: URL, prefix: String, extension ext: String) -> URL {
        SavedFile.candidates(in: directory, prefix: prefix, extension: ext).first { !FileManager.default.fileExists(atPath: $0.path) }!
    }
}

/// Lets asynchronous callers through one at a time, in the order they came.
private final class TurnTaking: Sendable {
    private let state = LockedValue<(busy: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

    /// Waits for the caller's turn.
    func take() async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool in
                if !state.busy {
                    state.busy = true
                    return true
                }
                state.waiting.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Ends the caller's turn: the next waiting caller's begins.
    func give() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.busy = false
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}

/// Receives one photo and resumes whoever waits for its file data; a capture that fails before a
/// photo is made resumes it with the error.
private final class PhotoSaver: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
    private let continuation: LockedValue<CheckedContinuation<Result<Data, any Error>, Never>?>

    init(_ continuation: CheckedContinuation<Result<Data, any Error>, Never>) {
        self.continuation = LockedValue(continuation)
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: (any Error)?) {
        if let error {
            resume(.failure(error))
        } else if let data = photo.fileDataRepresentation() {
            resume(.success(data))
        } else {
            resume(.failure(AVError(.unknown)))
        }
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings, error: (any Error)?) {
        resume(.failure(error ?? AVError(.unknown, userInfo: [NSLocalizedDescriptionKey: "The capture finished without a photo."])))
    }

    /// Resumes the waiter with the first result; later ones are ignored.
    private func resume(_ result: Result<Data, any Error>) {
        continuation.withLock { continuation in
            defer { continuation = nil }
            return continuation
        }?.resume(returning: result)
    }
}

/// One recording from the page: whether it started, is being stopped, and how it finished; any
/// number of requests may wait for it to start or finish.
private final class MovieRecordingDelegate: NSObject, AVCaptureFileOutputRecordingDelegate, @unchecked Sendable {
    /// How a start ended.
    enum Start { case started, failed((any Error)?), timedOut }

    private struct State {
        var started = false
        var stopping = false
        var result: (URL, (any Error)?)?
        var startWaiters: [CheckedContinuation<Start, Never>] = []
        var waiters: [CheckedContinuation<(URL, (any Error)?), Never>] = []
    }
    private let state = LockedValue(State())

    /// Whether the recording has finished, its file complete or failed.
    var hasFinished: Bool { state.withLock { $0.result != nil } }
    /// Whether a stop was asked for.
    var isStopping: Bool { state.withLock { $0.stopping } }

    /// Marks the recording as being stopped; true for the first caller only, who asks the output.
    func markStopping() -> Bool {
        state.withLock { state in
            defer { state.stopping = true }
            return !state.stopping
        }
    }

    func fileOutput(_ output: AVCaptureFileOutput, didStartRecordingTo fileURL: URL, from connections: [AVCaptureConnection]) {
        let waiters = state.withLock { state in
            defer { state.startWaiters = [] }
            state.started = true
            return state.startWaiters
        }
        for waiter in waiters { waiter.resume(returning: .started) }
    }

    func fileOutput(_ output: AVCaptureFileOutput, didFinishRecordingTo outputFileURL: URL, from connections: [AVCaptureConnection], error: (any Error)?) {
        let (starts, waiters, started) = state.withLock { state in
            defer { (state.startWaiters, state.waiters) = ([], []) }
            state.result = (outputFileURL, error)
            return (state.startWaiters, state.waiters, state.started)
        }
        for waiter in starts { waiter.resume(returning: started ? .started : .failed(error)) }
        for waiter in waiters { waiter.resume(returning: (outputFileURL, error)) }
    }

    /// Whether the recording started (its file holds its first frame), failed first, or neither within `seconds`.
    func started(within seconds: Double) async -> Start {
        await withCheckedContinuation { continuation in
            let known = state.withLock { state -> Start? in
                if state.started { return .started }
                if let result = state.result { return .failed(result.1) }
                state.startWaiters.append(continuation)
                return nil
            }
            if let known { return continuation.resume(returning: known) }
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in
                let parked = state.withLock { state in
                    defer { state.startWaiters = [] }
                    return state.startWaiters
                }
                for waiter in parked { waiter.resume(returning: .timedOut) }
            }
        }
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
