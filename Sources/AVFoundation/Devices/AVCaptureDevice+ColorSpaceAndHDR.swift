import CaptureDevices
import Foundation

/// An enumeration of color spaces a device can support.
public enum AVCaptureColorSpace: Int, Sendable {
    /// The standard RGB color space.
    case sRGB = 0
    /// The P3 D65 wide color space that uses Illuminant D65 as the white point.
    case P3_D65 = 1
    /// The BT.2020 wide color space that uses Illuminant D65 as the white point and Hybrid Log-Gamma (HLG) as the transfer function.
    case HLG_BT2020 = 2
    /// The Apple Log Color space, which uses BT2020 as the color primaries, and an Apple-defined Log curve as a transfer function.
    case appleLog = 3
    /// The Apple Log 2 Color space, which uses Apple Gamut as the color primaries, and an Apple defined Log curve as a transfer function.
    case appleLog2 = 4
}

// Every camera here delivers standard-gamut, standard-range video (V4L2 webcams report sRGB or
// Rec. 709, PipeWire's cameras and the virtual ones render BT.709), so every format supports sRGB
// alone and none has a video HDR mode: the API answers so, and refuses what no format offers as
// Apple's refuses it.

extension AVCaptureDevice.Format {
    /// The list of the device's supported color spaces.
    public var supportedColorSpaces: [AVCaptureColorSpace] { mediaType == .video ? [.sRGB] : [] }
    /// A Boolean value that indicates whether the format supports high dynamic range video.
    public var isVideoHDRSupported: Bool { false }
}

extension AVCaptureDevice {
    /// The currently active color space for capture.
    public var activeColorSpace: AVCaptureColorSpace {
        get { activeFormat.supportedColorSpaces.first ?? .sRGB }
        set {
            ProgrammingError.requireConfigurationLock(self, "ActiveColorSpace:")
            ProgrammingError.requireSupported(
                activeFormat.supportedColorSpaces.contains(newValue),
                "-[AVCaptureDevice setActiveColorSpace:] Not supported - use activeFormat.supportedColorSpaces")
        }
    }

    /// A Boolean value that indicates whether the device automatically adjusts high dynamic range video.
    public var automaticallyAdjustsVideoHDREnabled: Bool {
        get { configuration.withLock { $0.automaticallyAdjustsVideoHDREnabled } }
        set {
            ProgrammingError.requireConfigurationLock(self, "AutomaticallyAdjustsVideoHDREnabled:")
            configuration.withLock { $0.automaticallyAdjustsVideoHDREnabled = newValue }
        }
    }

    /// A Boolean value that indicates whether the device streams high dynamic range video.
    public var isVideoHDREnabled: Bool {
        get { false }
        set {
            ProgrammingError.requireConfigurationLock(self, "VideoHDREnabled:")
            if automaticallyAdjustsVideoHDREnabled {
                ProgrammingError.invalidState(
                    "-[AVCaptureDevice setVideoHDREnabled:] May not be called while automaticallyAdjustsVideoHDREnabled is YES")
            }
            if newValue && !activeFormat.isVideoHDRSupported {
                ProgrammingError.invalidState("-[AVCaptureDevice setVideoHDREnabled:] Not supported - use activeFormat.isVideoHDRSupported")
            }
        }
    }
}
