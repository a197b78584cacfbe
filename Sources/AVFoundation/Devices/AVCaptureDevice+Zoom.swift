import CaptureDevices
import Foundation

extension AVCaptureDevice {
    /// The zoom factor: 1 shows the whole field of view; larger values crop its centre.
    public var videoZoomFactor: CGFloat {
        get { CGFloat(backend.imaging.current.videoZoomFactor) }
        set {
            ProgrammingError.requireConfigurationLock(self, "VideoZoomFactor:")
            if newValue < 1 || newValue > activeFormat.videoMaxZoomFactor {
                ProgrammingError.invalidArgument("*** NSRangeException: videoZoomFactor \(newValue) is outside 1...\(activeFormat.videoMaxZoomFactor)")
            }
            backend.imaging.update { state in
                state.zoomRampTarget = nil
                state.videoZoomFactor = Double(newValue)
            }
        }
    }

    /// The smallest zoom factor available now.
    public var minAvailableVideoZoomFactor: CGFloat { 1 }
    /// The largest zoom factor available now.
    public var maxAvailableVideoZoomFactor: CGFloat { activeFormat.videoMaxZoomFactor }

    /// Whether a zoom ramp is under way.
    public var isRampingVideoZoom: Bool { backend.imaging.current.zoomRampTarget != nil }

    /// Zooms smoothly to a factor at a rate in powers of two per second; the factor changes every frame.
    public func ramp(toVideoZoomFactor factor: CGFloat, withRate rate: Float) {
        ProgrammingError.requireConfigurationLock(self, "RampToVideoZoomFactor:withRate:")
        if factor < 1 || factor > activeFormat.videoMaxZoomFactor {
            ProgrammingError.invalidArgument("*** NSRangeException: zoom factor \(factor) is outside 1...\(activeFormat.videoMaxZoomFactor)")
        }
        if rate <= 0 { ProgrammingError.invalidArgument("-[AVCaptureDevice rampToVideoZoomFactor:withRate:] rate must be positive") }
        backend.imaging.update { state in
            state.zoomRampRate = rate
            state.zoomRampTarget = Double(factor) == state.videoZoomFactor ? nil : Double(factor)
        }
    }

    /// Stops a zoom ramp where it is.
    public func cancelVideoZoomRamp() {
        ProgrammingError.requireConfigurationLock(self, "CancelVideoZoomRamp")
        backend.imaging.update { $0.zoomRampTarget = nil }
    }
}
