import CoreVideo
import Foundation

/// Every capture device this process can see: hardware first, then the virtual devices,
/// which stand in where no hardware exists.
package enum DeviceRegistry {
    /// The virtual back camera: the iPhone 5 back camera's formats.
    package static let virtualBackCamera = VirtualCamera(
        descriptor: .init(
            uniqueID: "virtual:camera:back", modelID: "LinuxAVFoundation Virtual Camera", localizedName: "Virtual Back Camera",
            manufacturer: "LinuxAVFoundation", mediaKind: .video, position: .back, kind: .builtInWideAngleCamera),
        formats: VirtualFormats.backCamera, capabilities: .fullCamera)

    /// The virtual front camera: a fixed-focus camera with no torch.
    package static let virtualFrontCamera = VirtualCamera(
        descriptor: .init(
            uniqueID: "virtual:camera:front", modelID: "LinuxAVFoundation Virtual Camera", localizedName: "Virtual Front Camera",
            manufacturer: "LinuxAVFoundation", mediaKind: .video, position: .front, kind: .builtInWideAngleCamera),
        formats: VirtualFormats.frontCamera, capabilities: .fixedFocusCamera)

    /// The virtual microphone.
    package static let virtualMicrophone = VirtualMicrophone(
        descriptor: .init(
            uniqueID: "virtual:microphone", modelID: "LinuxAVFoundation Virtual Microphone", localizedName: "Virtual Microphone",
            manufacturer: "LinuxAVFoundation", mediaKind: .audio, position: .unspecified, kind: .builtInMicrophone))

    /// More virtual cameras, for code that records many cameras at once (NVRs, labs, robots):
    /// `LINUXAVFOUNDATION_VIRTUAL_CAMERAS=N` (up to 16) adds external cameras `virtual:camera:1`
    /// to `virtual:camera:N`, named "Virtual Camera 1" and so on, each with the back camera's
    /// formats and its own scene.
    package static let extraVirtualCameras: [VirtualCamera] = {
        let count = min(16, max(0, Int(ProcessInfo.processInfo.environment["LINUXAVFOUNDATION_VIRTUAL_CAMERAS"] ?? "") ?? 0))
        return (0..<count).map { index in
            VirtualCamera(
                descriptor: .init(
                    uniqueID: "virtual:camera:\(index + 1)", modelID: "LinuxAVFoundation Virtual Camera",
                    localizedName: "Virtual Camera \(index + 1)", manufacturer: "LinuxAVFoundation", mediaKind: .video,
                    position: .unspecified, kind: .external),
                formats: VirtualFormats.backCamera, capabilities: .fullCamera)
        }
    }()

    /// Which devices are offered: `LINUXAVFOUNDATION_DEVICES` is `virtual` (only the virtual
    /// devices), `hardware` (only real ones), or unset (real ones first, then the virtual ones).
    package static var policy: String { ProcessInfo.processInfo.environment["LINUXAVFOUNDATION_DEVICES"] ?? "all" }

    /// The hardware backends, in the order `default(for:)` prefers their devices: V4L2 cameras,
    /// PipeWire cameras, the sound server's sources (its default first), sound cards read directly.
    package static let discoveries: [any DeviceDiscovery.Type] = [V4L2Discovery.self, PipeWireDiscovery.self, PulseDiscovery.self, ALSADiscovery.self]

    /// Every device, in the order `default(for:)` prefers them: the hardware backends' in
    /// `discoveries`' order, then the virtual devices.
    package static var backends: [CaptureDeviceBackend] { backends(of: nil) }

    /// The devices of one kind (every device for nil), in the order `default(for:)` prefers them.
    /// Only the backends of that kind are asked, so that looking for a camera loads no sound
    /// library and looking for a microphone no camera library.
    package static func backends(of kind: CaptureMediaKind?) -> [CaptureDeviceBackend] {
        let virtual: [CaptureDeviceBackend] = ([virtualBackCamera, virtualFrontCamera] + extraVirtualCameras + [virtualMicrophone]).filter {
            kind == nil || $0.descriptor.mediaKind == kind
        }
        if policy == "virtual" { return virtual }
        let hardware = discoveries.filter { kind == nil || $0.mediaKind == kind }.flatMap { $0.devices() }
        return policy == "hardware" ? hardware : hardware + virtual
    }

    /// Calls `listener` after hardware devices of one kind (of any kind for nil) appear or disappear.
    package static func addHotplugListener(for kind: CaptureMediaKind? = nil, _ listener: @escaping @Sendable () -> Void) {
        guard policy != "virtual" else { return }
        for discovery in discoveries where kind == nil || discovery.mediaKind == kind { discovery.addListener(listener) }
    }
}

/// The virtual cameras' formats.
package enum VirtualFormats {
    private static func format(_ w: Int, _ h: Int, _ maxFPS: Double, fov: Float, binned: Bool, stabilization: Bool, upscale: Double) -> CaptureVideoFormat {
        CaptureVideoFormat(
            width: w, height: h, pixelFormat: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange,
            frameRateRanges: [1...maxFPS], fieldOfView: fov, isBinned: binned, supportsStabilization: stabilization,
            maxZoomFactor: 16, zoomUpscaleThreshold: upscale, minISO: 50, maxISO: 800,
            exposureDurationRange: (1.0 / 8000)...(1.0 / maxFPS))
    }

    /// The WWDC 2013 session 610 table of the iPhone 5 back camera.
    package static let backCamera: [CaptureVideoFormat] = [
        format(192, 144, 30, fov: 56.70, binned: true, stabilization: false, upscale: 1),
        format(352, 288, 30, fov: 51.98, binned: true, stabilization: false, upscale: 1),
        format(480, 360, 30, fov: 56.70, binned: true, stabilization: false, upscale: 1),
        format(640, 480, 30, fov: 56.70, binned: true, stabilization: false, upscale: 1),
        format(960, 540, 30, fov: 53.89, binned: false, stabilization: true, upscale: 2.9),
        format(1280, 720, 30, fov: 53.89, binned: false, stabilization: true, upscale: 2.175),
        format(1280, 720, 60, fov: 51.94, binned: true, stabilization: true, upscale: 1),
        format(1920, 1080, 30, fov: 53.89, binned: false, stabilization: true, upscale: 1.45),
        format(2592, 1936, 20, fov: 56.70, binned: false, stabilization: false, upscale: 1),
        format(3264, 2448, 20, fov: 56.70, binned: false, stabilization: false, upscale: 1),
    ]

    /// A front camera's formats.
    package static let frontCamera: [CaptureVideoFormat] = [
        format(192, 144, 30, fov: 65.0, binned: true, stabilization: false, upscale: 1),
        format(352, 288, 30, fov: 60.0, binned: true, stabilization: false, upscale: 1),
        format(480, 360, 30, fov: 65.0, binned: true, stabilization: false, upscale: 1),
        format(640, 480, 30, fov: 65.0, binned: true, stabilization: false, upscale: 1),
        format(1280, 720, 30, fov: 61.0, binned: false, stabilization: false, upscale: 1),
    ]
}
