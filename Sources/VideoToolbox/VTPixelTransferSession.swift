import CoreMedia
@_spi(Plumbing) import CoreVideo
import FrameProcessing
import Foundation

/// A reference to a Video Toolbox pixel transfer session: copies images between pixel buffers,
/// converting their pixel format (libyuv) and scaling them (libyuv's box filter).
///
/// Thread ownership: any thread; transfers on one session run one at a time.
public final class VTPixelTransferSession: VTPropertySession, @unchecked Sendable {
    private struct Settings {
        var scalingMode = kVTScalingMode_Normal as String
        var realTime = false
        var invalidated = false
    }
    private let settings = LockedValue(Settings())
    /// Taken for a transfer: the scaler and converter keep scratch memory between frames.
    private let transferring = NSLock()
    private let scaler = FrameScaler()
    private let converter = PixelFormatConverter()

    init() {}

    func setProperty(_ key: String, _ value: Any?) -> OSStatus {
        settings.withLock { settings in
            if settings.invalidated { return kVTInvalidSessionErr }
            switch key {
            case String(kVTPixelTransferPropertyKey_ScalingMode):
                guard let mode = value as? String, Self.scalingModes.contains(mode) else { return kVTPropertyNotSupportedErr }
                settings.scalingMode = mode
            case String(kVTPixelTransferPropertyKey_RealTime):
                guard let on = (value as? Bool) ?? (value as? NSNumber)?.boolValue else { return kVTPropertyNotSupportedErr }
                settings.realTime = on
            default:
                return kVTPropertyNotSupportedErr
            }
            return noErr
        }
    }

    func property(_ key: String) -> Any? {
        settings.withLock { settings -> Any? in
            switch key {
            case String(kVTPixelTransferPropertyKey_ScalingMode): settings.scalingMode as NSString
            case String(kVTPixelTransferPropertyKey_RealTime): NSNumber(value: settings.realTime)
            default: nil
            }
        }
    }

    var supportedProperties: [String: Any] {
        [
            kVTPixelTransferPropertyKey_ScalingMode as String: enumerationProperty(Self.scalingModes),
            kVTPixelTransferPropertyKey_RealTime as String: booleanProperty(),
        ]
    }

    private static let scalingModes = [kVTScalingMode_Normal, kVTScalingMode_CropSourceToCleanAperture, kVTScalingMode_Letterbox, kVTScalingMode_Trim].map {
        $0 as String
    }

    /// Ends the session: transfers and property changes fail with `kVTInvalidSessionErr` from now on.
    func invalidate() { settings.withLock { $0.invalidated = true } }

    /// Transfers `source` into `destination` as the scaling mode says.
    func transfer(_ source: CVPixelBuffer, into destination: CVPixelBuffer) -> OSStatus {
        let (mode, invalidated) = settings.withLock { ($0.scalingMode, $0.invalidated) }
        if invalidated { return kVTInvalidSessionErr }
        transferring.lock()
        defer { transferring.unlock() }
        var from = source
        var into = destination
        switch mode {
        case Self.crop:
            guard let aperture = Self.cleanAperture(of: source) else { break }
            guard let cropped = source.region(x: aperture.minX, y: aperture.minY, width: aperture.width, height: aperture.height) else {
                return kVTPixelTransferNotSupportedErr
            }
            from = cropped
        case Self.letterbox:
            // The whole picture, its aspect kept, in the middle of a black destination.
            let fitted = Self.fit(source.width, source.height, inside: destination.width, destination.height)
            guard destination.hasRegions,
                let middle = destination.region(
                    x: (destination.width - fitted.width) / 2, y: (destination.height - fitted.height) / 2, width: fitted.width, height: fitted.height)
            else { return kVTPixelTransferNotSupportedErr }
            destination.fillBlack()
            into = middle
        case Self.trim:
            // The middle of the picture, its aspect kept, filling the destination.
            let kept = Self.fit(destination.width, destination.height, inside: source.width, source.height)
            guard
                let middle = source.region(
                    x: (source.width - kept.width) / 2, y: (source.height - kept.height) / 2, width: kept.width, height: kept.height)
            else { return kVTPixelTransferNotSupportedErr }
            from = middle
        default:
            break
        }
        let done: Bool
        if from.width == into.width, from.height == into.height, PixelFormatConverter.supportedFormats.contains(from.pixelFormatType),
            PixelFormatConverter.supportedFormats.contains(into.pixelFormatType)
        {
            done = converter.convert(from, into: into)
        } else {
            done = scaler.scale(from, into: into)
        }
        guard done else { return kVTPixelTransferNotSupportedErr }
        // The destination describes the transferred image: the source's colour.
        let (given, taking) = (source._attachmentStorage, destination._attachmentStorage)
        for key in Self.colourKeys {
            if let (value, mode) = given.get(key) { taking.set(key, value, mode: mode) }
        }
        return noErr
    }

    // The modes and keys a transfer compares and copies, made once rather than per frame.
    private static let (crop, letterbox, trim) = (
        kVTScalingMode_CropSourceToCleanAperture as String, kVTScalingMode_Letterbox as String, kVTScalingMode_Trim as String
    )
    nonisolated(unsafe) private static let colourKeys = [kCVImageBufferColorPrimariesKey, kCVImageBufferTransferFunctionKey, kCVImageBufferYCbCrMatrixKey]

    /// The largest size of `width` x `height`'s aspect inside `boxWidth` x `boxHeight`.
    static func fit(_ width: Int, _ height: Int, inside boxWidth: Int, _ boxHeight: Int) -> (width: Int, height: Int) {
        guard width > 0, height > 0 else { return (boxWidth, boxHeight) }
        if boxWidth * height <= boxHeight * width {
            return (boxWidth, max(1, min(boxHeight, (boxWidth * height + width / 2) / width)))
        }
        return (max(1, min(boxWidth, (boxHeight * width + height / 2) / height)), boxHeight)
    }

    /// The source's clean aperture as whole pixels, from its attachment; nil without one.
    static func cleanAperture(of buffer: CVPixelBuffer) -> (minX: Int, minY: Int, width: Int, height: Int)? {
        guard let aperture = CVBufferCopyAttachment(buffer, kCVImageBufferCleanApertureKey, nil) as? [String: Any],
            let width = (aperture[kCVImageBufferCleanApertureWidthKey as String] as? NSNumber)?.doubleValue,
            let height = (aperture[kCVImageBufferCleanApertureHeightKey as String] as? NSNumber)?.doubleValue, width > 0, height > 0,
            width.isFinite, height.isFinite
        else { return nil }
        let dx = (aperture[kCVImageBufferCleanApertureHorizontalOffsetKey as String] as? NSNumber)?.doubleValue ?? 0
        let dy = (aperture[kCVImageBufferCleanApertureVerticalOffsetKey as String] as? NSNumber)?.doubleValue ?? 0
        guard dx.isFinite, dy.isFinite else { return nil }
        // The aperture is centred on the picture's centre, moved by the offsets.
        let minX = Int(((Double(buffer.width) - width) / 2 + dx).rounded()), minY = Int(((Double(buffer.height) - height) / 2 + dy).rounded())
        return (minX, minY, Int(width.rounded()), Int(height.rounded()))
    }
}

/// Creates a session for transferring images between pixel buffers.
@discardableResult
public func VTPixelTransferSessionCreate(allocator: CFAllocator?, pixelTransferSessionOut: UnsafeMutablePointer<VTPixelTransferSession?>) -> OSStatus {
    pixelTransferSessionOut.pointee = VTPixelTransferSession()
    return noErr
}

/// Copies and converts an image from one pixel buffer to another: by default the whole source,
/// scaled to the whole destination; the destination takes the source's colour attachments.
@discardableResult
public func VTPixelTransferSessionTransferImage(_ session: VTPixelTransferSession, from sourceBuffer: CVPixelBuffer, to destinationBuffer: CVPixelBuffer)
    -> OSStatus
{
    session.transfer(sourceBuffer, into: destinationBuffer)
}

/// Tears down a pixel transfer session.
public func VTPixelTransferSessionInvalidate(_ session: VTPixelTransferSession) { session.invalidate() }

/// The type identifier of pixel transfer sessions.
public func VTPixelTransferSessionGetTypeID() -> CFTypeID { 0x5654_5054 }  // 'VTPT'

/// Whether the session runs in real time, for a live source.
nonisolated(unsafe) public let kVTPixelTransferPropertyKey_RealTime: CFString = "RealTime"
/// How the source is scaled into the destination: one of the `kVTScalingMode_` values.
nonisolated(unsafe) public let kVTPixelTransferPropertyKey_ScalingMode: CFString = "ScalingMode"
/// The whole source scaled to the whole destination, its aspect not kept.
nonisolated(unsafe) public let kVTScalingMode_Normal: CFString = "Normal"
/// The source cropped to its clean aperture, then scaled to the whole destination.
nonisolated(unsafe) public let kVTScalingMode_CropSourceToCleanAperture: CFString = "CropSourceToCleanAperture"
/// The whole source, its aspect kept, in the middle of the destination, with black bars.
nonisolated(unsafe) public let kVTScalingMode_Letterbox: CFString = "Letterbox"
/// The middle of the source, its aspect kept, filling the destination.
nonisolated(unsafe) public let kVTScalingMode_Trim: CFString = "Trim"
