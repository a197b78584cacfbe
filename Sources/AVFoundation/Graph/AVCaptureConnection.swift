import CaptureDevices
import Foundation
import FrameProcessing
import Synchronization

/// The orientation of captured video.
public enum AVCaptureVideoOrientation: Int, Sendable {
    /// Upright, as a phone held with its button at the bottom.
    case portrait = 1
    /// Upside down.
    case portraitUpsideDown = 2
    /// Landscape, with the button on the right.
    case landscapeRight = 3
    /// Landscape, with the button on the left.
    case landscapeLeft = 4
}

extension AVCaptureVideoOrientation {
    /// The orientation a clockwise rotation of the sensor's landscape picture gives.
    init(rotationAngle: CGFloat) {
        switch Int(rotationAngle) {
        case 90: self = .portrait
        case 180: self = .landscapeLeft
        case 270: self = .portraitUpsideDown
        default: self = .landscapeRight
        }
    }

    /// The clockwise rotation of the sensor's landscape picture that gives this orientation.
    var rotationAngle: CGFloat {
        switch self {
        case .landscapeRight: return 0
        case .portrait: return 90
        case .landscapeLeft: return 180
        case .portraitUpsideDown: return 270
        }
    }
}

/// A connection between input ports and an output of a capture session: one stream of media
/// going to one output, which can be enabled, disabled and monitored.
open class AVCaptureConnection: NSObject, @unchecked Sendable {
    /// The ports that feed the connection.
    public let inputPorts: [AVCaptureInput.Port]
    /// The output the connection feeds.
    public private(set) weak var output: AVCaptureOutput?
    /// The channels of audio that flow through the connection; empty for video.
    public let audioChannels: [AVCaptureAudioChannel]

    private let enabled = Atomic<Bool>(true)
    private struct VideoState {
        /// Degrees clockwise: 0 is the sensor's own landscape orientation.
        var rotationAngle: CGFloat = 0
        var mirrored = false
        var automaticallyAdjustsMirroring = true
        var preferredStabilization: AVCaptureVideoStabilizationMode = .off
        var scaleAndCrop: CGFloat = 1
    }
    private let video = LockedValue(VideoState())

    /// The inputs of the ports, held for as long as the connection lives: a recording's writer
    /// thread reads the source device of a connection whose input a reconfiguration has removed.
    private let sources: [AVCaptureInput]
    /// The device that feeds the connection.
    let sourceDevice: AVCaptureDevice?

    /// Creates a connection from input ports to an output, for `AVCaptureSession.addConnection(_:)`.
    public init(inputPorts ports: [AVCaptureInput.Port], output: AVCaptureOutput) {
        inputPorts = ports
        sources = ports.map(\.input)
        sourceDevice = sources.first?.capturedDevice
        self.output = output
        audioChannels = ports.contains { $0.mediaType == .audio } ? [AVCaptureAudioChannel()] : []
        super.init()
    }

    /// The kind of media the connection carries.
    var mediaType: AVMediaType { inputPorts.first?.mediaType ?? .video }

    /// Whether media flows through the connection.
    public var isEnabled: Bool {
        get { enabled.load(ordering: .relaxed) }
        set {
            guard enabled.exchange(newValue, ordering: .relaxed) != newValue else { return }
            output?.session?.connectionEnablingDidChange()
        }
    }

    /// Whether media is flowing now: the connection is enabled, its session runs and its source is connected.
    public var isActive: Bool {
        guard isEnabled, let session = output?.session, session.isRunning, !session.isInterrupted else { return false }
        return inputPorts.allSatisfy(\.isEnabled) && (sourceDevice?.isConnected ?? true)
    }

    // MARK: Video

    /// Whether the connection can orient its video.
    public var isVideoOrientationSupported: Bool { mediaType == .video && output.map { $0.demand.orientation != .unsupported } ?? false }

    /// The orientation of the video the output receives; `videoRotationAngle` in current SDKs.
    public var videoOrientation: AVCaptureVideoOrientation {
        get { AVCaptureVideoOrientation(rotationAngle: videoRotationAngle) }
        set {
            ProgrammingError.requireSupported(
                isVideoOrientationSupported, "-[AVCaptureConnection setVideoOrientation:] Video orientation is not supported by this connection")
            video.withLock { $0.rotationAngle = newValue.rotationAngle }
            pixelOrientationDidChange()
        }
    }

    /// Whether the connection can rotate its video by `videoRotationAngle` degrees clockwise:
    /// quarter turns, on a connection that carries video to an output that orients it.
    public func isVideoRotationAngleSupported(_ videoRotationAngle: CGFloat) -> Bool {
        isVideoOrientationSupported && [0, 90, 180, 270].contains(videoRotationAngle)
    }

    /// The angle, in degrees clockwise, by which the output rotates the video it receives
    /// (the movie file output as its display matrix, video data outputs in their pixels).
    public var videoRotationAngle: CGFloat {
        get { video.withLock { $0.rotationAngle } }
        set {
            if !isVideoRotationAngleSupported(newValue) {
                ProgrammingError.invalidArgument(
                    "-[AVCaptureConnection setVideoRotationAngle:] Unsupported videoRotationAngle \(newValue); check isVideoRotationAngleSupported(_:)")
            }
            video.withLock { $0.rotationAngle = newValue }
            pixelOrientationDidChange()
        }
    }

    /// Outputs that rotate pixels start delivering the new orientation with the next frame.
    private func pixelOrientationDidChange() {
        if output?.demand.orientation == .pixels { output?.session?.outputConfigurationDidChange() }
    }

    /// The rotation and mirroring a video data output applies to the pixels it delivers.
    var pixelOrientation: PixelOrientation {
        PixelOrientation(rotationDegrees: Int(videoRotationAngle), mirrored: isVideoMirroringSupported && isVideoMirrored)
    }

    /// Whether the connection can mirror its video.
    public var isVideoMirroringSupported: Bool { isVideoOrientationSupported }

    /// Whether the connection mirrors its video horizontally.
    public var isVideoMirrored: Bool {
        get {
            video.withLock { state in
                state.automaticallyAdjustsMirroring
                    ? (isVideoMirroringSupported && sourceDevice?.position == .front && output?.demand.orientation == .described)
                    : state.mirrored
            }
        }
        set {
            ProgrammingError.requireSupported(
                isVideoMirroringSupported, "-[AVCaptureConnection setVideoMirrored:] Mirroring is not supported by this connection")
            video.withLock { state in
                if state.automaticallyAdjustsMirroring {
                    ProgrammingError.invalidArgument("-[AVCaptureConnection setVideoMirrored:] Cannot be set when automaticallyAdjustsVideoMirroring is true")
                }
                state.mirrored = newValue
            }
            pixelOrientationDidChange()
        }
    }

    /// Whether mirroring follows the session's configuration: on for front cameras.
    public var automaticallyAdjustsVideoMirroring: Bool {
        get { video.withLock { $0.automaticallyAdjustsMirroring } }
        set {
            video.withLock { $0.automaticallyAdjustsMirroring = newValue }
            pixelOrientationDidChange()
        }
    }

    /// Whether the connection can stabilise video.
    public var isVideoStabilizationSupported: Bool {
        mediaType == .video && (sourceDevice?.activeFormat.isVideoStabilizationSupported ?? false)
    }

    /// The stabilisation the client would like.
    public var preferredVideoStabilizationMode: AVCaptureVideoStabilizationMode {
        get { video.withLock { $0.preferredStabilization } }
        set { video.withLock { $0.preferredStabilization = newValue } }
    }

    /// The stabilisation in use now.
    public var activeVideoStabilizationMode: AVCaptureVideoStabilizationMode {
        let preferred = preferredVideoStabilizationMode
        guard isVideoStabilizationSupported, preferred != .off else { return .off }
        return preferred == .auto ? .standard : preferred
    }

    /// The largest scale-and-crop factor, for still images.
    public var videoMaxScaleAndCropFactor: CGFloat { 1 }

    /// The scale-and-crop factor applied to still images.
    public var videoScaleAndCropFactor: CGFloat {
        get { video.withLock { $0.scaleAndCrop } }
        set {
            if newValue < 1 || newValue > videoMaxScaleAndCropFactor {
                ProgrammingError.invalidArgument("*** NSRangeException: videoScaleAndCropFactor \(newValue) is outside 1...\(videoMaxScaleAndCropFactor)")
            }
            video.withLock { $0.scaleAndCrop = newValue }
        }
    }

    /// A description such as `<AVCaptureConnection: vide -> AVCaptureVideoDataOutput>`.
    open override var description: String {
        "<AVCaptureConnection: \(mediaType.rawValue) -> \(output.map { String(describing: type(of: $0)) } ?? "nil")\(isEnabled ? "" : " (disabled)")>"
    }
}
