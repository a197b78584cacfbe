import AVFoundation
import Foundation

/// The camera, preset and format a command's options name, added to a session being configured.
enum CameraChoice {
    /// Adds the camera `uniqueID` names (or the default one) to `session`, with `preset` or `format`
    /// if given; a format of the size and rate asked for in a pixel format `preferred` names wins.
    static func addCamera(
        _ uniqueID: String?, preset: String?, format: String?, to session: AVCaptureSession,
        preferring preferred: [OSType] = []
    ) throws -> AVCaptureDevice {
        guard let camera = uniqueID.map({ AVCaptureDevice(uniqueID: $0) }) ?? AVCaptureDevice.default(for: .video), camera.hasMediaType(.video) else {
            throw CommandFailure("No camera \(uniqueID ?? "") found; see `avcapture devices`.")
        }
        let input = try AVCaptureDeviceInput(device: camera)
        guard session.canAddInput(input) else { throw CommandFailure("The camera cannot be added to a session.") }
        session.addInput(input)
        if let preset {
            let named = AVCaptureSession.Preset(rawValue: "AVCaptureSessionPreset" + (preset.prefix(1).uppercased() + preset.dropFirst()))
            guard session.canSetSessionPreset(named) else { throw CommandFailure("The camera does not support the preset \(preset).") }
            session.sessionPreset = named
        }
        if let format { try FormatChoice.apply(format, to: camera, preferring: preferred) }
        return camera
    }
}
