import Foundation

/// A specification of the features and settings to use for a single photo capture request.
///
/// A settings object is used once: passing one to `capturePhoto(with:delegate:)` a second time
/// traps, as on Apple's platforms; make a new one with `init(from:)`.
open class AVCapturePhotoSettings: NSObject, @unchecked Sendable {
    private static let nextID = LockedValue<Int64>(1)

    /// A unique identifier for this photo settings instance.
    public let uniqueID: Int64
    /// The format of the photo: `AVVideoCodecKey` for a compressed photo, or
    /// `kCVPixelBufferPixelFormatTypeKey` for an uncompressed one.
    public let format: [String: Any]?
    /// The flash mode to use for the capture.
    open var flashMode: AVCaptureDevice.FlashMode = .off
    /// How to trade speed for quality in processing the photo.
    open var photoQualityPrioritization: AVCapturePhotoOutput.QualityPrioritization = .balanced
    /// The largest dimensions the photo may have; zero asks for the output's default.
    open var maxPhotoDimensions = CMVideoDimensions()
    /// Whether to capture a photo at the highest resolution the format supports (replaced by `maxPhotoDimensions`).
    open var isHighResolutionPhotoEnabled = false
    /// The format of a preview image to deliver with the photo, or nil for none.
    open var previewPhotoFormat: [String: Any]?
    /// The format of a thumbnail to embed in the photo's file, or nil for none.
    open var embeddedThumbnailPhotoFormat: [String: Any]?
    /// Where to write a Live Photo's movie, or nil for a still photo.
    open var livePhotoMovieFileURL: URL?
    /// Whether to deliver depth data with the photo.
    open var isDepthDataDeliveryEnabled = false
    /// Whether to deliver a portrait effects matte with the photo.
    open var isPortraitEffectsMatteDeliveryEnabled = false
    /// Whether to deliver camera calibration data with the photo.
    open var isCameraCalibrationDataDeliveryEnabled = false
    /// The semantic segmentation mattes to deliver with the photo.
    open var enabledSemanticSegmentationMatteTypes: [AVSemanticSegmentationMatte.MatteType] = []
    /// Metadata to write into the photo's file, in the Image I/O dictionary format.
    open var metadata: [String: Any] = [:]

    /// Creates settings for a JPEG photo.
    public override convenience init() {
        self.init(format: [AVVideoCodecKey: AVVideoCodecType.jpeg])
    }

    /// Creates settings for a photo in `format`: a codec (`AVVideoCodecKey`) or an uncompressed pixel format.
    public init(format: [String: Any]?) {
        uniqueID = Self.nextID.withLock { id in
            defer { id += 1 }; return id
        }
        self.format = format
        super.init()
    }

    /// Creates settings with a new unique ID and the features of `photoSettings`.
    public convenience init(from photoSettings: AVCapturePhotoSettings) {
        self.init(format: photoSettings.format)
        flashMode = photoSettings.flashMode
        photoQualityPrioritization = photoSettings.photoQualityPrioritization
        maxPhotoDimensions = photoSettings.maxPhotoDimensions
        isHighResolutionPhotoEnabled = photoSettings.isHighResolutionPhotoEnabled
        previewPhotoFormat = photoSettings.previewPhotoFormat
        embeddedThumbnailPhotoFormat = photoSettings.embeddedThumbnailPhotoFormat
        livePhotoMovieFileURL = photoSettings.livePhotoMovieFileURL
        isDepthDataDeliveryEnabled = photoSettings.isDepthDataDeliveryEnabled
        isPortraitEffectsMatteDeliveryEnabled = photoSettings.isPortraitEffectsMatteDeliveryEnabled
        isCameraCalibrationDataDeliveryEnabled = photoSettings.isCameraCalibrationDataDeliveryEnabled
        enabledSemanticSegmentationMatteTypes = photoSettings.enabledSemanticSegmentationMatteTypes
        metadata = photoSettings.metadata
    }

    /// The codec the photo is compressed with, or nil for an uncompressed photo.
    public var photoCodecType: AVVideoCodecType? {
        if let codec = format?[AVVideoCodecKey] as? AVVideoCodecType { return codec }
        if let codec = format?[AVVideoCodecKey] as? String { return AVVideoCodecType(rawValue: codec) }
        return nil
    }

    /// The pixel format of an uncompressed photo, or nil for a compressed one.
    public var photoPixelFormatType: OSType? { attributeOSType(format?[kCVPixelBufferPixelFormatTypeKey]) }

    /// The pixel formats a preview image can be delivered in.
    public var availablePreviewPhotoPixelFormatTypes: [OSType] { [kCVPixelFormatType_32BGRA] }
    /// The pixel formats a preview image can be delivered in, as numbers (Objective-C's spelling).
    public var __availablePreviewPhotoPixelFormatTypes: [NSNumber] { availablePreviewPhotoPixelFormatTypes.map { NSNumber(value: $0) } }
    /// The codecs an embedded thumbnail can be compressed with: the photo's own (JPEG in EXIF, HEVC in HEIC); none for uncompressed photos.
    public var availableEmbeddedThumbnailPhotoCodecTypes: [AVVideoCodecType] {
        switch photoCodecType {
        case .jpeg?: [.jpeg]
        case .hevc?: [.hevc]
        default: []
        }
    }
}
