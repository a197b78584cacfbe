import CaptureDevices
import Foundation
import FrameProcessing

/// A capture output for still photos, the older API that `AVCapturePhotoOutput` replaces.
///
/// A still is the frame current when `captureStillImageAsynchronously(from:completionHandler:)`
/// is called (the output keeps the newest one), as a JPEG in a block buffer or, with a pixel
/// format in `outputSettings`, as a copy of the frame's pixels. The handler runs on a queue of
/// the output's own.
open class AVCaptureStillImageOutput: AVCaptureOutput, @unchecked Sendable {
    private struct State {
        var outputSettings: [String: Any] = [AVVideoCodecKey: AVVideoCodecType.jpeg]
        var capturing = 0
    }
    private let state = LockedValue(State())
    private let newest = NewestFrame()
    private let processing = DispatchQueue(label: "AVCaptureStillImageOutput")
    private let encoder = JPEGEncoder()

    /// Creates a still image output that delivers JPEGs.
    public override init() { super.init() }

    /// The codecs stills can be compressed with.
    open var availableImageDataCodecTypes: [AVVideoCodecType] { [.jpeg] }
    /// The pixel formats uncompressed stills can be delivered in.
    open var availableImageDataCVPixelFormatTypes: [OSType] { uncompressedStillPixelFormats }

    /// How stills are delivered: `AVVideoCodecKey: .jpeg` (the default), or `kCVPixelBufferPixelFormatTypeKey` for uncompressed pixels.
    open var outputSettings: [String: Any]! {
        get { state.withLock { $0.outputSettings } }
        set {
            let settings = newValue ?? [:]
            let codec = (settings[AVVideoCodecKey] as? AVVideoCodecType) ?? (settings[AVVideoCodecKey] as? String).map(AVVideoCodecType.init(rawValue:))
            let pixelFormat = attributeOSType(settings[kCVPixelBufferPixelFormatTypeKey])
            let valid = codec.map(availableImageDataCodecTypes.contains) ?? pixelFormat.map(availableImageDataCVPixelFormatTypes.contains) ?? false
            if !valid {
                ProgrammingError.invalidArgument(
                    "-[AVCaptureStillImageOutput setOutputSettings:] Unsupported output settings \(settings); see availableImageDataCodecTypes and availableImageDataCVPixelFormatTypes"
                )
            }
            state.withLock { $0.outputSettings = settings }
        }
    }

    /// Whether a still is being captured now.
    open var isCapturingStillImage: Bool { state.withLock { $0.capturing > 0 } }

    /// Captures a still from `connection` and hands it to `handler`, with an error when it could not be made.
    open func captureStillImageAsynchronously(
        from connection: AVCaptureConnection, completionHandler handler: @escaping @Sendable (CMSampleBuffer?, (any Error)?) -> Void
    ) {
        guard connection.output === self, connection.isEnabled, connection.isActive else {
            ProgrammingError.invalidArgument(
                "-[AVCaptureStillImageOutput captureStillImageAsynchronouslyFromConnection:completionHandler:] Inactive/invalid connection passed")
        }
        // nil for a JPEG, else the uncompressed pixel format asked for.
        let pixelFormat = attributeOSType((outputSettings ?? [:])[kCVPixelBufferPixelFormatTypeKey])
        let orientation = PhotoMetadata.orientation(rotationAngle: connection.videoRotationAngle, mirrored: connection.isVideoMirrored)
        let camera = connection.sourceDevice
        state.withLock { $0.capturing += 1 }
        let make: @Sendable (CMSampleBuffer) -> Void = { [self] frame in
            processing.async { [self] in
                let result = still(from: frame, pixelFormat: pixelFormat)
                if let still = result.0, let pixels = frame.imageBufferStorage {
                    // The capture's metadata rides on the still as Image I/O's dictionaries, as attachments.
                    let capture = PhotoMetadata.capture(
                        from: camera, date: PhotoMetadata.date(of: frame), width: pixels.width, height: pixels.height,
                        orientation: orientation, flashFired: camera?.isFlashActive ?? false,
                        flashMode: camera?.flashMode ?? .off)
                    for (key, value) in PhotoMetadata.dictionary(for: capture) where value is [String: Any] || key == kCGImagePropertyOrientation as String {
                        CMSetAttachment(still, key: key as NSString, value: value as CFTypeRef, attachmentMode: kCMAttachmentMode_ShouldPropagate)
                    }
                }
                state.withLock { $0.capturing -= 1 }
                handler(result.0, result.1)
            }
        }
        if let current = newest.current { make(current) } else { newest.next(make) }
    }

    /// Returns the JPEG a still's sample buffer carries, as it was encoded (never recompressed),
    /// with the buffer's metadata attachments (Exif, TIFF, GPS, orientation) written into it as EXIF.
    open class func jpegStillImageNSDataRepresentation(_ jpegSampleBuffer: CMSampleBuffer) -> Data? {
        guard CMSampleBufferGetFormatDescription(jpegSampleBuffer)?.mediaSubTypeCode == kCMVideoCodecType_JPEG,
            let block = CMSampleBufferGetDataBuffer(jpegSampleBuffer)
        else {
            ProgrammingError.invalidArgument("+[AVCaptureStillImageOutput jpegStillImageNSDataRepresentation:] Not a jpeg sample buffer")
        }
        guard let jpeg = try? block.dataBytes() else { return nil }
        var metadata: [String: Any] = [:]
        for key in [kCGImagePropertyExifDictionary, kCGImagePropertyTIFFDictionary, kCGImagePropertyGPSDictionary, kCGImagePropertyOrientation] {
            if let value = CMGetAttachment(jpegSampleBuffer, key: key, attachmentModeOut: nil) { metadata[key] = value }
        }
        guard !metadata.isEmpty, let exif = ExifProperties.exif(from: metadata) else { return jpeg }
        return jpeg.insertingJPEGExif(exif) ?? jpeg
    }

    /// The still for one frame, on the output's queue.
    private func still(from frame: CMSampleBuffer, pixelFormat: OSType?) -> (CMSampleBuffer?, (any Error)?) {
        guard let pixels = frame.imageBufferStorage else { return (nil, AVError(.unknown)) }
        let still = CMSampleBuffer()
        still.timing = CMSampleTimingInfo(duration: .invalid, presentationTimeStamp: frame.presentationTimeStamp, decodeTimeStamp: .invalid)
        still.sampleCount = 1
        if let format = pixelFormat {
            guard let copy = CVPixelBuffer(width: pixels.width, height: pixels.height, pixelFormatType: format),
                PixelFormatConverter().convert(pixels, into: copy)
            else {
                return (nil, AVError(.unknown, userInfo: [NSLocalizedDescriptionKey: "The still could not be converted to \(format.fourCharacterString)."]))
            }
            still.imageBufferStorage = copy
            still.formatDescriptionStorage = CMFormatDescription(video: format, width: Int32(pixels.width), height: Int32(pixels.height))
            return (still, nil)
        }
        guard let jpeg = encoder.encode(pixels, quality: 92) else {
            return (nil, AVError(.unknown, userInfo: [NSLocalizedDescriptionKey: "The still could not be encoded as JPEG."]))
        }
        let block = CMBlockBuffer(capacity: jpeg.count)
        block.withUnsafeMutableBytes { _ = jpeg.copyBytes(to: $0) }
        still.dataBufferStorage = block
        still.sampleSize = jpeg.count
        still.formatDescriptionStorage = CMFormatDescription(video: kCMVideoCodecType_JPEG, width: Int32(pixels.width), height: Int32(pixels.height))
        return (still, nil)
    }

    // MARK: Session hooks

    override var demand: OutputDemand { OutputDemand(video: 1, fullSizeStills: true) }

    /// Keeps the newest frame and hands it to stills waiting for one.
    override func receive(_ sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        if sampleBuffer.imageBufferStorage != nil { newest.receive(sampleBuffer) }
    }
}
