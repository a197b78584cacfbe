import CaptureDevices
import Foundation
import FrameProcessing

/// A container for image data from a photo capture output.
open class AVCapturePhoto: NSObject, @unchecked Sendable {
    private let encoded: Data?
    /// The photo's pixels, for an uncompressed photo; nil for a compressed one.
    public let pixelBuffer: CVPixelBuffer?
    /// A preview of the photo, when the settings asked for one.
    public let previewPixelBuffer: CVPixelBuffer?
    /// The depth map captured with the photo, when the settings asked for one.
    public let depthData: AVDepthData?
    /// The portrait effects matte: none, as no segmenter exists here.
    public var portraitEffectsMatte: AVPortraitEffectsMatte? { nil }
    /// The camera's calibration for the photo: none is known here.
    public var cameraCalibrationData: AVCameraCalibrationData? { nil }
    /// The photo's metadata, in the Image I/O dictionary format.
    public let metadata: [String: Any]
    /// The time the photo was captured, on the session's clock (host time).
    public let timestamp: CMTime
    /// The settings the photo was captured with.
    public let resolvedSettings: AVCaptureResolvedPhotoSettings
    /// The photo's number among the photos of its capture request, from 1.
    public let photoCount: Int
    /// Whether this is the capture request's raw photo.
    public var isRawPhoto: Bool { false }

    init(
        encoded: Data?, pixelBuffer: CVPixelBuffer?, previewPixelBuffer: CVPixelBuffer?, depthData: AVDepthData? = nil, metadata: [String: Any],
        timestamp: CMTime, resolvedSettings: AVCaptureResolvedPhotoSettings
    ) {
        self.depthData = depthData
        self.encoded = encoded
        self.pixelBuffer = pixelBuffer
        self.previewPixelBuffer = previewPixelBuffer
        self.metadata = metadata
        self.timestamp = timestamp
        self.resolvedSettings = resolvedSettings
        photoCount = 1
        super.init()
    }

    /// The semantic segmentation matte of `semanticSegmentationMatteType`: none, as no segmenter exists here.
    open func semanticSegmentationMatte(for semanticSegmentationMatteType: AVSemanticSegmentationMatte.MatteType) -> AVSemanticSegmentationMatte? { nil }

    /// The photo as the bytes of a file: a JPEG or HEIC file for a compressed photo, a TIFF file for an uncompressed one.
    open func fileDataRepresentation() -> Data? {
        if let encoded { return encoded }
        // An uncompressed photo becomes a TIFF file, as Apple's does (through libvips).
        guard let image = cgImageRepresentation() else { return nil }
        let data = NSMutableData()
        guard let destination = CGImageDestinationCreateWithData(data, "public.tiff", 1, nil) else { return nil }
        CGImageDestinationAddImage(destination, image, nil)
        return CGImageDestinationFinalize(destination) ? Data(copying: data) : nil
    }

    /// The photo as a Core Graphics image: an uncompressed photo's pixels (in BGRA), or the JPEG or
    /// HEIC file decoded by Image I/O.
    open func cgImageRepresentation() -> CGImage? {
        if let pixelBuffer { return FrameImages.image(of: pixelBuffer) }
        guard let encoded, let source = CGImageSourceCreateWithData(encoded as CFData, nil) else { return nil }
        return CGImageSourceCreateImageAtIndex(source, 0, nil)
    }

    /// The preview as a Core Graphics image, when the settings asked for a preview.
    open func previewCGImageRepresentation() -> CGImage? { previewPixelBuffer.flatMap(FrameImages.image(of:)) }

    /// An uncompressed photo as a PNG file (through libpng) with its metadata as an eXIf chunk; nil for a compressed photo.
    package func pngDataRepresentation() -> Data? {
        guard let pixelBuffer else { return nil }
        return PNGEncoder().encode(pixelBuffer, exif: ExifProperties.exif(from: metadata))
    }
}
