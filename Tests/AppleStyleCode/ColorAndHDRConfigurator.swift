import AVFoundation

/// A camera library's format chooser, as iOS camera libraries write it: an input made through a
/// subclass's own factory (`Self(device:)`), video HDR turned on where the format has it and the
/// widest color space the format supports, the session told not to choose the color space itself.
public final class ColorAndHDRConfigurator: @unchecked Sendable {
    /// A device input that remembers why it was made, created through its class's required initializer.
    public final class TaggedInput: AVCaptureDeviceInput, @unchecked Sendable {
        public private(set) var purpose = "unknown"

        public static func make(for device: AVCaptureDevice, purpose: String) throws -> Self {
            let input = try Self(device: device)
            input.purpose = purpose
            return input
        }
    }

    public let session = AVCaptureSession()
    public private(set) var input: TaggedInput?

    public init() {}

    /// The color spaces from narrowest to widest, as a library ranks them.
    private static let ranking: [AVCaptureColorSpace] = [.sRGB, .P3_D65, .HLG_BT2020, .appleLog, .appleLog2]

    /// Configures `device` for the widest color and HDR it offers; what it chose.
    public func configure(_ device: AVCaptureDevice) throws -> (colorSpace: AVCaptureColorSpace, hdr: Bool, hdrFormats: Int) {
        session.beginConfiguration()
        defer { session.commitConfiguration() }
        session.automaticallyConfiguresCaptureDeviceForWideColor = false
        let input = try TaggedInput.make(for: device, purpose: "main camera")
        guard session.canAddInput(input) else { throw AVError(.unknown) }
        session.addInput(input)
        self.input = input
        try device.lockForConfiguration()
        defer { device.unlockForConfiguration() }
        let widest = Self.ranking.last { device.activeFormat.supportedColorSpaces.contains($0) } ?? .sRGB
        device.activeColorSpace = widest
        let hdrFormats = device.formats.filter(\.isVideoHDRSupported).count
        if device.activeFormat.isVideoHDRSupported {
            device.automaticallyAdjustsVideoHDREnabled = false
            device.isVideoHDREnabled = true
        } else {
            device.automaticallyAdjustsVideoHDREnabled = true
        }
        return (device.activeColorSpace, device.isVideoHDREnabled, hdrFormats)
    }
}
