import Foundation

/// A capture session that supports simultaneous capture from multiple inputs of the same media type.
///
/// The session preset is always `inputPriority`: each camera streams its own `activeFormat`.
/// Connect cameras to outputs explicitly (`addInputWithNoConnections(_:)`,
/// `addOutputWithNoConnections(_:)`, `AVCaptureConnection(inputPorts:output:)`). A camera whose
/// connections are all disabled stops streaming, without interrupting the others, and starts again
/// when one is enabled. `hardwareCost` says whether the machine can take the cameras' formats at
/// once; above 1.0 the session does not start and reports `AVError.Code.sessionHardwareCostOverage`.
open class AVCaptureMultiCamSession: AVCaptureSession, @unchecked Sendable {
    /// A Boolean value that indicates whether this device supports multi-camera sessions.
    open class var isMultiCamSupported: Bool { true }

    /// Creates a multi-camera session, with the `inputPriority` preset.
    public override init() {
        super.init()
        model.withLock { $0.preset = .inputPriority }
    }

    /// A multi-camera session's preset is always `inputPriority`.
    open override func canSetSessionPreset(_ preset: AVCaptureSession.Preset) -> Bool { preset == .inputPriority }

    /// A value that indicates the percentage of the session's available hardware budget currently in use.
    ///
    /// The pixels a second of every camera that streams (one with an enabled connection), at its
    /// active format and frame rate (or its input's `videoMinFrameDurationOverride`), over what the
    /// machine sustains: one 1080p30 camera per core.
    open var hardwareCost: Float {
        Float(streamingCameras().reduce(0) { $0 + $1.pixelsPerSecond } / MultiCamBudget.pixelsPerSecond)
    }

    /// A value that indicates the system pressure cost of the current session configuration.
    ///
    /// As `hardwareCost`, with each camera's pixels counted once for every enabled connection
    /// that takes them: above 1.0 the configuration cannot run sustainably.
    open var systemPressureCost: Float {
        Float(streamingCameras().reduce(0) { $0 + $1.pixelsPerSecond * Double(max(1, $1.connections)) } / MultiCamBudget.pixelsPerSecond)
    }

    /// The cameras' formats cost more than the machine has: the session does not start, or stops
    /// if it runs, and posts `runtimeErrorNotification` with `sessionHardwareCostOverage`.
    override func configurationRefusal() -> AVError? {
        let cost = hardwareCost
        guard cost > 1 else { return nil }
        return AVError(
            .sessionHardwareCostOverage,
            userInfo: [
                NSLocalizedDescriptionKey:
                    "The session's cameras need \(String(format: "%.2f", cost)) of the machine's capture budget: choose smaller formats or lower frame rates."
            ])
    }

    override var stopsCamerasWithoutEnabledConnections: Bool { true }

    /// Each camera that would stream: its pixels a second and how many enabled connections take its frames.
    private func streamingCameras() -> [(pixelsPerSecond: Double, connections: Int)] {
        let (inputs, connections) = model.withLock { ($0.inputs, $0.connections) }
        return inputs.compactMap { input -> (Double, Int)? in
            guard let input = input as? AVCaptureDeviceInput, input.device.hasMediaType(.video) else { return nil }
            let enabled = connections.filter { connection in
                connection.output != nil && connection.inputPorts.contains { $0.input === input } && Self.carriesMedia(connection)
            }.count
            guard enabled > 0 else { return nil }
            let override = input.videoMinFrameDurationOverride
            let duration = override.isNumeric && override.seconds > 0 ? override : input.device.activeVideoMinFrameDuration
            return (MultiCamBudget.pixelsPerSecond(of: input.device.activeFormat, frameDuration: duration), enabled)
        }
    }
}
