import ArgumentParser
import AVFoundation
import Foundation
import LinuxAVFoundationWindow
import LiveView

/// `avcapture preview`: serves the camera live to a page in any browser, with tap to focus and the
/// camera's controls, through an AVCaptureVideoPreviewLayer.
struct Preview: ParsableCommand, Sendable {
    static let configuration = CommandConfiguration(
        commandName: "preview",
        abstract: "Show the camera live in a browser (or, with --window, in a window): click to focus and expose there.",
        discussion:
            "Listens on 127.0.0.1 only, unless --listen names another address; then every request needs the access token (--token, or one generated and printed). "
            + "With --window, the camera is shown in a window on the desktop instead, with what --detect finds outlined; q, escape or closing the window stops."
    )

    @Option(help: "The unique ID of the camera (see `avcapture devices`).") var device: String?
    @OptionGroup var view: LiveViewOptions
    @Option(help: "The unique ID of the microphone whose level the page shows.") var audioDevice: String?
    @Flag(help: "Show no audio level.") var noAudio = false
    @Option(help: "A session preset, such as high, 640x480, 1280x720.") var preset: String?
    @Option(help: "A format as WIDTHxHEIGHT@FPS, such as 1280x720@30.") var format: String?
    @Option(help: "Where photos and movies taken from the page are saved.") var saveTo: String = "."
    @Option(help: "Stop after this many seconds; by default run until Ctrl-C.", transform: DurationOption.positiveSeconds) var seconds: Double?
    @Option(help: "What to find and draw on the page: codes, faces, both (codes,faces) or none.") var detect: String = "codes"
    @Flag(help: "Show the camera in a window on the desktop instead of serving a page.") var window = false

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

    func run() throws {
        try LiveViewOptions.runBlocking { try await serve() }
    }

    private func serve() async throws {
        try view.check()
        let videoGravity = try view.videoGravity()
        let detected = try detectedTypes()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: saveTo, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CommandFailure("--save-to \(saveTo) is not a folder.")
        }

        let session = AVCaptureSession()
        session.beginConfiguration()
        let camera = try CameraChoice.addCamera(device, preset: preset, format: format, to: session, preferring: FormatChoice.encoderPixelFormats)
        let photos = AVCapturePhotoOutput()
        if session.canAddOutput(photos) { session.addOutput(photos) }
        let movies = AVCaptureMovieFileOutput()
        if session.canAddOutput(movies) { session.addOutput(movies) }
        let audio = AVCaptureAudioDataOutput()
        let levels = AudioLevelSink()
        if !noAudio, let microphone = audioDevice.map({ AVCaptureDevice(uniqueID: $0) }) ?? AVCaptureDevice.default(for: .audio),
            let input = try? AVCaptureDeviceInput(device: microphone), session.canAddInput(input)
        {
            session.addInput(input)
            audio.setSampleBufferDelegate(levels, queue: DispatchQueue(label: "avcapture.audio"))
            if session.canAddOutput(audio) { session.addOutput(audio) }
        }
        let metadata = AVCaptureMetadataOutput()
        if !detected.isEmpty, session.canAddOutput(metadata) { session.addOutput(metadata) }
        let layer = AVCaptureVideoPreviewLayer(session: session)
        layer.videoGravity = videoGravity
        session.commitConfiguration()
        if session.outputs.contains(metadata) {
            if let missing = detected.first(where: { !metadata.availableMetadataObjectTypes.contains($0) }) {
                throw CommandFailure(
                    "this avcapture cannot find \(missing == .face ? "faces: it was built without the FaceDetection trait" : missing.rawValue).")
            }
            metadata.metadataObjectTypes = detected
        }
        let dimensions = camera.activeFormat.formatDescription.dimensions
        let bounds = try view.layerSize(default: CGSize(width: CGFloat(dimensions.width), height: CGFloat(dimensions.height)))
        layer.frame = CGRect(origin: .zero, size: bounds)
        if window {
            return try await PreviewWindow.show(
                session: session, camera: camera, layer: layer, metadata: session.outputs.contains(metadata) ? metadata : nil, seconds: seconds)
        }

        let server = LiveViewServer(
            session: session, previewLayer: layer, photoOutput: session.outputs.contains(photos) ? photos : nil,
            movieOutput: session.outputs.contains(movies) ? movies : nil, audioOutput: session.outputs.contains(audio) ? audio : nil,
            metadataOutput: session.outputs.contains(metadata) ? metadata : nil,
            configuration: view.configuration(saveDirectory: URL(fileURLWithPath: saveTo)))
        session.startRunning()
        defer { session.stopRunning() }
        say("Previewing \(camera.localizedName) at \(dimensions.width)x\(dimensions.height).")
        try await LiveViewOptions.serve(server, seconds: seconds)
    }
}

/// Takes the microphone's buffers so that its connection's channels report their levels.
final class AudioLevelSink: NSObject, AVCaptureAudioDataOutputSampleBufferDelegate, @unchecked Sendable {}
