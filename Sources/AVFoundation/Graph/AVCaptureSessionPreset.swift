import CaptureDevices
import Foundation

extension AVCaptureSession {
    /// A named configuration of quality and resolution for a session's outputs.
    public struct Preset: RawRepresentable, Hashable, Sendable {
        /// The preset's identifier.
        public let rawValue: String
        /// Creates a preset from its identifier.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The highest recording quality; varies per device.
        public static let high = Preset(rawValue: "AVCaptureSessionPresetHigh")
        /// Quality suitable for sharing over Wi-Fi.
        public static let medium = Preset(rawValue: "AVCaptureSessionPresetMedium")
        /// Quality suitable for sharing over a cellular network.
        public static let low = Preset(rawValue: "AVCaptureSessionPresetLow")
        /// Full photo resolution; video outputs receive preview-sized frames.
        public static let photo = Preset(rawValue: "AVCaptureSessionPresetPhoto")
        /// The session leaves the devices' active formats as the client set them.
        public static let inputPriority = Preset(rawValue: "AVCaptureSessionPresetInputPriority")
        /// 320x240.
        public static let qvga320x240 = Preset(rawValue: "AVCaptureSessionPreset320x240")
        /// 352x288 (CIF).
        public static let cif352x288 = Preset(rawValue: "AVCaptureSessionPreset352x288")
        /// 640x480 (VGA).
        public static let vga640x480 = Preset(rawValue: "AVCaptureSessionPreset640x480")
        /// 960x540 (quarter HD).
        public static let qHD960x540 = Preset(rawValue: "AVCaptureSessionPreset960x540")
        /// 1280x720 (720p HD).
        public static let hd1280x720 = Preset(rawValue: "AVCaptureSessionPreset1280x720")
        /// 1920x1080 (1080p HD).
        public static let hd1920x1080 = Preset(rawValue: "AVCaptureSessionPreset1920x1080")
        /// 3840x2160 (UHD 4K).
        public static let hd4K3840x2160 = Preset(rawValue: "AVCaptureSessionPreset3840x2160")
        /// 960x540 iFrame, for editing.
        public static let iFrame960x540 = Preset(rawValue: "AVCaptureSessionPresetiFrame960x540")
        /// 1280x720 iFrame, for editing.
        public static let iFrame1280x720 = Preset(rawValue: "AVCaptureSessionPresetiFrame1280x720")

        /// Every preset this implementation knows.
        public static let allKnown: [Preset] = [
            .high, .medium, .low, .photo, .inputPriority, .qvga320x240, .cif352x288, .vga640x480,
            .qHD960x540, .hd1280x720, .hd1920x1080, .hd4K3840x2160, .iFrame960x540, .iFrame1280x720,
        ]

        /// The size a preset names, for presets that name one.
        var fixedSize: (Int, Int)? {
            switch self {
            case .qvga320x240: return (320, 240)
            case .cif352x288: return (352, 288)
            case .vga640x480: return (640, 480)
            case .qHD960x540, .iFrame960x540: return (960, 540)
            case .hd1280x720, .iFrame1280x720: return (1280, 720)
            case .hd1920x1080: return (1920, 1080)
            case .hd4K3840x2160: return (3840, 2160)
            default: return nil
            }
        }

        /// The index of the format the preset chooses on a camera, or `nil` if the camera cannot honour it.
        func formatIndex(for device: AVCaptureDevice) -> Int? {
            let formats = device.formats.map(\.backing)
            guard !formats.isEmpty else { return nil }
            let pixels = { (f: CaptureVideoFormat) in f.width * f.height }
            // Among equal sizes, prefer the unbinned, real-time format the preset tables name, and
            // Y'CbCr (what Apple's cameras stream, and what encoders take) to packed R'G'B', which
            // a camera such as PipeWire's test source may list first at each size: 24-bit R'G'B'
            // is half as large again a frame and reaches an encoder only through two conversions.
            func best(_ indices: [Int]) -> Int? {
                indices.min { a, b in
                    let fa = formats[a], fb = formats[b]
                    if fa.isBinned != fb.isBinned { return !fa.isBinned }
                    if isRGB(fa) != isRGB(fb) { return !isRGB(fa) }
                    return a < b
                }
            }
            func exact(_ w: Int, _ h: Int) -> Int? { best(formats.indices.filter { formats[$0].width == w && formats[$0].height == h }) }
            if let (w, h) = fixedSize { return exact(w, h) }
            switch self {
            case .high:
                let video = formats.indices.filter { formats[$0].maxFrameRate >= 30 }
                let largest = video.map { pixels(formats[$0]) }.max()
                return best(video.filter { pixels(formats[$0]) == largest })
            case .medium:
                return exact(480, 360) ?? exact(640, 480) ?? Preset.high.formatIndex(for: device)
            case .low:
                return exact(192, 144) ?? formats.indices.min { pixels(formats[$0]) < pixels(formats[$1]) }
            case .photo:
                let largest = formats.map(pixels).max()
                return best(formats.indices.filter { pixels(formats[$0]) == largest })
            case .inputPriority:
                return formats.firstIndex { $0 == device.activeFormat.backing }
            default:
                return nil
            }
        }

        /// Whether a format streams uncompressed R'G'B'.
        private func isRGB(_ format: CaptureVideoFormat) -> Bool {
            PixelFormatDescription.of(format.pixelFormat).map { !$0.isYCbCr } ?? false
        }

        /// The format a preset chooses on a camera.
        func format(for device: AVCaptureDevice) -> AVCaptureDevice.Format? {
            formatIndex(for: device).map { device.formats[$0] }
        }
    }
}
