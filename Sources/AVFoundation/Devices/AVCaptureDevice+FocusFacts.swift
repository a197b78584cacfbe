import CaptureDevices
import Foundation

extension AVCaptureDevice {
    /// The closest distance, in millimetres, at which the camera can focus; -1 when it is not known.
    /// The virtual back camera focuses from 10 cm, as a phone's wide-angle camera does; a fixed-focus
    /// camera and a V4L2 camera (whose driver does not say) report -1.
    public var minimumFocusDistance: Int {
        guard backend is VirtualDeviceBase, backend.capabilities.focusModes.contains(.once) else { return -1 }
        return 100
    }

    /// The zoom factors at which a virtual device made of several cameras switches between them;
    /// empty, as every camera here is a single camera.
    public var virtualDeviceSwitchOverVideoZoomFactors: [NSNumber] { [] }
}

extension AVCaptureDevice.Format {
    /// How a camera focuses automatically.
    public enum AutoFocusSystem: Int, Sendable {
        /// The camera does not focus automatically.
        case none = 0
        /// The camera focuses by moving the lens until the picture has the most contrast.
        case contrastDetection = 1
        /// The camera focuses with phase-detection pixels on its sensor.
        case phaseDetection = 2
    }
}
