import ArgumentParser
import AVFoundation
import Foundation
import LiveView

/// `avcapture preview`: serves the camera live to a page in any browser, with tap to focus and the
/// camera's controls, through an AVCaptureVideoPreviewLayer.
struct Preview: ParsableCommand, Sendable {
    static let configuration = CommandConfiguration(
        abstract: "Show the camera live in a browser: open the printed address; click to focus and expose there.",
        discussion: "Listens on 127.0.0.1 only, unless --listen names another address; then every request needs the access token (--token, or one generated and printed).")

    @Option(help: "The unique ID of the camera (see `avcapture devices`).") var device: String?
    @Option(help: "The unique ID of the microphone whose level the page shows.") var audioDevice: String?
    @Flag(help: "Show no audio level.") var noAudio = false
    @Option(help: "A session preset, such as high, 640x480, 1280x720.") var preset: String?
    @Option(help: "A format as WIDTHxHEIGHT@FPS, such as 1280x720@30.") var format: String?
    @Option(help: "The port to listen on; 0 picks a free one.") var port: Int = 8080
    @Option(help: "The address to listen on, such as 0.0.0.0 for every interface; other than loopback, an access token is required.") var listen: String = "127.0.0.1"
    @Option(help: "The access token requests must carry; generated when --listen is not loopback and none is given.") var token: String?
    @Option(help: "The preview's size, WIDTHxHEIGHT; by default the camera's picture size.") var size: String?
    @Option(help: "The video gravity: fit, fill or stretch.") var gravity: String = "fit"
    @Option(help: "The JPEG quality of the frames, 1 to 100.") var quality: Int = 80
    @Option(help: "Where photos and movies taken from the page are saved.") var saveTo: String = "."
    @Option(help: "Stop after this many seconds; by default run until Ctrl-C.") var seconds: Double?
    @Option(help: "What to find and draw on the page: codes, faces, both (codes,faces) or none.") var detect: String = "codes"

    /// The metadata object types `--detect` names.
    private func detectedTypes() throws -> [AVMetadataObject.ObjectType] {
        var types: [AVMetadataObject.ObjectType] = []
        for name in detect.lowercased().split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            switch name {
            case "codes": types += Scan.typeNames.values.sorted { $0.rawValue < $1.rawValue }
            case "faces": types.append(.face)
            case "none": break
            default: throw CommandFailure("--detect is codes, faces, codes,faces or none; got \(detect).")
            }
        }
        return types
    }

    // The other commands wait on the main thread's run loop, so the tool's entry point stays
    // synchronous; the server runs on Swift's concurrency pool while the main thread waits.
    func run() throws {
        let outcome = LockedOutcome()
        let done = DispatchSemaphore(value: 0)
        Task {
            do { try await serve() } catch { outcome.error = error }
            done.signal()
        }
        done.wait()
        if let error = outcome.error { throw error }
    }

    private func serve() async throws {
        let gravities: [String: AVLayerVideoGravity] = ["fit": .resizeAspect, "fill": .resizeAspectFill, "stretch": .resize]
        guard let videoGravity = gravities[gravity] else { throw CommandFailure("--gravity is fit, fill or stretch; got \(gravity).") }
        guard (1...100).contains(quality) else { throw CommandFailure("--quality is 1 to 100; got \(quality).") }
        let detected = try detectedTypes()
        guard (0...65535).contains(port) else { throw CommandFailure("--port is 0 to 65535; got \(port).") }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: saveTo, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CommandFailure("--save-to \(saveTo) is not a folder.")
        }

        let session = AVCaptureSession()
        session.beginConfiguration()
        let camera = try CameraChoice.addCamera(device, preset: preset, format: format, to: session)
        let photos = AVCapturePhotoOutput()
        if session.canAddOutput(photos) { session.addOutput(photos) }
        let movies = AVCaptureMovieFileOutput()
        if session.canAddOutput(movies) { session.addOutput(movies) }
        let audio = AVCaptureAudioDataOutput()
        let levels = AudioLevelSink()
        if !noAudio, let microphone = audioDevice.map({ AVCaptureDevice(uniqueID: $0) }) ?? AVCaptureDevice.default(for: .audio),
           let input = try? AVCaptureDeviceInput(device: microphone), session.canAddInput(input) {
            session.addInput(input)
            audio.setSampleBufferDelegate(levels, queue: DispatchQueue(label: "avcapture.audio"))
            if session.canAddOutput(audio) { session.addOutput(audio) }
        }
        let metadata = AVCaptureMetadataOutput()
        if !detected.isEmpty, session.canAddOutput(metadata) { session.addOutput(metadata) }
        let layer = AVCaptureVideoPreviewLayer(session: session)
        layer.videoGravity = videoGravity
        session.commitConfiguration()
        if session.outputs.contains(metadata) { metadata.metadataObjectTypes = detected }
        let dimensions = camera.activeFormat.formatDescription.dimensions
        var bounds = CGSize(width: CGFloat(dimensions.width), height: CGFloat(dimensions.height))
        if let size {
            let parts = size.lowercased().split(separator: "x").compactMap { Int($0) }
            guard parts.count == 2, (16...7680).contains(parts[0]), (16...4320).contains(parts[1]) else {
                throw CommandFailure("--size is WIDTHxHEIGHT between 16x16 and 7680x4320, such as 1280x720; got \(size).")
            }
            bounds = CGSize(width: parts[0], height: parts[1])
        }
        layer.frame = CGRect(origin: .zero, size: bounds)

        let server = LiveViewServer(
            session: session, previewLayer: layer, photoOutput: session.outputs.contains(photos) ? photos : nil,
            movieOutput: session.outputs.contains(movies) ? movies : nil, audioOutput: session.outputs.contains(audio) ? audio : nil,
            metadataOutput: session.outputs.contains(metadata) ? metadata : nil,
            configuration: LiveViewConfiguration(host: listen, port: port, accessToken: token, jpegQuality: quality,
                                                 saveDirectory: URL(fileURLWithPath: saveTo)))
        session.startRunning()
        defer { session.stopRunning() }
        say("Previewing \(camera.localizedName) at \(dimensions.width)x\(dimensions.height).")
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await server.run(handlesSignals: true) { _ in
                    say("Open \(server.pageURL()) in a browser; Ctrl-C to stop.")
                    if let token = server.accessToken { say("Access token: \(token)") }
                }
            }
            if let seconds {
                group.addTask { try await Task.sleep(for: .seconds(seconds)) }
            }
            do {
                try await group.next()
            } catch {
                throw CommandFailure("The live view stopped: \(error)")
            }
            group.cancelAll()
        }
        say("Stopped; \(server.framesEncoded) frames sent.")
    }
}

/// Takes the microphone's buffers so that its connection's channels report their levels.
final class AudioLevelSink: NSObject, AVCaptureAudioDataOutputSampleBufferDelegate, @unchecked Sendable {}

/// Writes a line to standard output at once, even when it is a pipe.
private func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// The error a command's task ended with, read once it has ended.
private final class LockedOutcome: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: (any Error)?
    var error: (any Error)? {
        get { lock.lock(); defer { lock.unlock() }; return stored }
        set { lock.lock(); stored = newValue; lock.unlock() }
    }
}
