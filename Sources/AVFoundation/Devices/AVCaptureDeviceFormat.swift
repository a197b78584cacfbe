import CaptureDevices
import Foundation
import FrameProcessing

extension AVCaptureDevice {
    /// A format a device can capture in: its dimensions, pixel format, frame rates and optics.
    public final class Format: NSObject, @unchecked Sendable {
        let backing: CaptureVideoFormat

        /// The kind of media the format captures.
        public let mediaType: AVMediaType
        /// The format's description: its pixel format and dimensions.
        public let formatDescription: CMFormatDescription
        /// The frame-rate ranges the format supports.
        public let videoSupportedFrameRateRanges: [AVFrameRateRange]

        /// How the camera focuses automatically in this format.
        public let autoFocusSystem: AutoFocusSystem

        /// The depth formats that go with this one, for a camera that measures depth.
        private let depthFormats: [Format]

        init(_ backing: CaptureVideoFormat, autoFocusSystem: AutoFocusSystem = .none, measuresDepth: Bool = false) {
            self.backing = backing
            self.autoFocusSystem = autoFocusSystem
            mediaType = .video
            formatDescription = CMFormatDescription(video: backing.mediaSubType, width: Int32(backing.width), height: Int32(backing.height))
            videoSupportedFrameRateRanges = backing.frameRateRanges.map(AVFrameRateRange.init)
            // Depth maps fit 640x480 in the picture's shape, in depth or disparity, 32- or 16-bit.
            let size = PreviewScaler.size(of: backing.width, backing.height, fittingIn: 640, 480)
            depthFormats =
                measuresDepth
                ? Self.depthTypes.map { type in
                    Format(
                        depth: CaptureVideoFormat(
                            width: size.width, height: size.height, pixelFormat: type, frameRateRanges: backing.frameRateRanges,
                            fieldOfView: backing.fieldOfView,
                            isBinned: false, supportsStabilization: false, maxZoomFactor: 1, zoomUpscaleThreshold: 1, minISO: 0, maxISO: 0,
                            exposureDurationRange: 0...0))
                } : []
        }

        /// A depth format: the size and type of the depth maps delivered with a video format.
        private init(depth backing: CaptureVideoFormat) {
            self.backing = backing
            autoFocusSystem = .none
            mediaType = .depthData
            formatDescription = CMFormatDescription(video: backing.pixelFormat, width: Int32(backing.width), height: Int32(backing.height))
            videoSupportedFrameRateRanges = backing.frameRateRanges.map(AVFrameRateRange.init)
            depthFormats = []
        }

        /// The depth map types a depth format can be, the first the one a device starts with.
        static let depthTypes = [
            kCVPixelFormatType_DepthFloat32, kCVPixelFormatType_DisparityFloat32, kCVPixelFormatType_DepthFloat16, kCVPixelFormatType_DisparityFloat16,
        ]

        /// The depth data formats the device can deliver with this format: none for cameras that do not measure depth.
        public var supportedDepthDataFormats: [AVCaptureDevice.Format] { depthFormats }

        /// A microphone's format: the sound it delivers; no pictures, no optics.
        init(audio description: AudioStreamBasicDescription) {
            backing = CaptureVideoFormat(
                width: 0, height: 0, pixelFormat: 0, frameRateRanges: [], fieldOfView: 0, isBinned: false, supportsStabilization: false, maxZoomFactor: 1,
                zoomUpscaleThreshold: 1, minISO: 0, maxISO: 0, exposureDurationRange: 0...0)
            autoFocusSystem = .none
            mediaType = .audio
            formatDescription = CMFormatDescription(audio: description)
            videoSupportedFrameRateRanges = []
            depthFormats = []
        }

        /// The horizontal field of view, in degrees.
        public var videoFieldOfView: Float { backing.fieldOfView }
        /// Whether the sensor bins pixels in this format.
        public var isVideoBinned: Bool { backing.isBinned }
        /// Whether a multi-camera session can use the format: at its highest frame rate it takes
        /// at most half of what the machine sustains, so that another camera can stream beside it.
        public var isMultiCamSupported: Bool {
            mediaType == .video && MultiCamBudget.pixelsPerSecond(of: self) <= MultiCamBudget.pixelsPerSecond / 2
        }
        /// Whether the format supports any video stabilisation.
        public var isVideoStabilizationSupported: Bool { backing.supportsStabilization }
        /// Whether the format supports a stabilisation mode.
        public func isVideoStabilizationModeSupported(_ videoStabilizationMode: AVCaptureVideoStabilizationMode) -> Bool {
            videoStabilizationMode == .off || (backing.supportsStabilization && videoStabilizationMode != .cinematicExtended)
        }
        /// The largest zoom factor the format allows.
        public var videoMaxZoomFactor: CGFloat { CGFloat(backing.maxZoomFactor) }
        /// The zoom factor beyond which frames are upscaled rather than cropped.
        public var videoZoomFactorUpscaleThreshold: CGFloat { CGFloat(backing.zoomUpscaleThreshold) }
        /// The lowest ISO the format allows.
        public var minISO: Float { backing.minISO }
        /// The highest ISO the format allows.
        public var maxISO: Float { backing.maxISO }
        /// The shortest exposure the format allows.
        public var minExposureDuration: CMTime { AVFrameRateRange.duration(forRate: 1 / backing.exposureDurationRange.lowerBound) }
        /// The longest exposure the format allows.
        public var maxExposureDuration: CMTime { AVFrameRateRange.duration(forRate: 1 / backing.exposureDurationRange.upperBound) }
        /// The size of still images in this format.
        public var highResolutionStillImageDimensions: CMVideoDimensions { formatDescription.dimensions }
        /// The photo sizes this format supports: its video size (a larger still would need the stream reconfigured).
        public var supportedMaxPhotoDimensions: [CMVideoDimensions] { [formatDescription.dimensions] }
        /// The dimensions of the format's video.
        var dimensions: CMVideoDimensions { formatDescription.dimensions }

        /// A description such as `<AVCaptureDeviceFormat: vide/420v 1280x720, 1-60 fps, fov 51.94>`.
        public override var description: String {
            if mediaType == .audio { return "<AVCaptureDeviceFormat: \(formatDescription)>" }
            return
                "<AVCaptureDeviceFormat: \(formatDescription) \(videoSupportedFrameRateRanges.map(\.description).joined(separator: ", ")), fov:\(videoFieldOfView)\(isVideoBinned ? ", binned" : "")\(isVideoStabilizationSupported ? ", supports vis" : "")>"
        }
    }
}
