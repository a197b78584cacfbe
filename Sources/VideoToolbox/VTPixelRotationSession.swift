import CoreMedia
import CoreVideo
import FrameProcessing
import Foundation

/// A reference to a Video Toolbox pixel rotation session: turns images between pixel buffers by
/// quarter turns and flips them (libyuv), converting their pixel format on the way.
///
/// Thread ownership: any thread; rotations on one session run one at a time.
public final class VTPixelRotationSession: VTPropertySession, @unchecked Sendable {
    private struct Settings {
        var rotation = kVTRotation_0 as String
        var flipHorizontal = false
        var flipVertical = false
        var invalidated = false
    }
    private let settings = LockedValue(Settings())
    /// Taken for a rotation: the converter keeps scratch memory between frames.
    private let rotating = NSLock()
    private let converter = PixelFormatConverter()

    init() {}

    private static let rotations = [kVTRotation_0, kVTRotation_CW90, kVTRotation_180, kVTRotation_CCW90].map { $0 as String }

    func setProperty(_ key: String, _ value: Any?) -> OSStatus {
        settings.withLock { settings in
            if settings.invalidated { return kVTInvalidSessionErr }
            let flag = (value as? Bool) ?? (value as? NSNumber)?.boolValue
            switch key {
            case String(kVTPixelRotationPropertyKey_Rotation):
                guard let rotation = value as? String, Self.rotations.contains(rotation) else { return kVTPropertyNotSupportedErr }
                settings.rotation = rotation
            case String(kVTPixelRotationPropertyKey_FlipHorizontalOrientation):
                guard let flag else { return kVTPropertyNotSupportedErr }
                settings.flipHorizontal = flag
            case String(kVTPixelRotationPropertyKey_FlipVerticalOrientation):
                guard let flag else { return kVTPropertyNotSupportedErr }
                settings.flipVertical = flag
            default:
                return kVTPropertyNotSupportedErr
            }
            return noErr
        }
    }

    func property(_ key: String) -> Any? {
        settings.withLock { settings -> Any? in
            switch key {
            case String(kVTPixelRotationPropertyKey_Rotation): settings.rotation as NSString
            case String(kVTPixelRotationPropertyKey_FlipHorizontalOrientation): NSNumber(value: settings.flipHorizontal)
            case String(kVTPixelRotationPropertyKey_FlipVerticalOrientation): NSNumber(value: settings.flipVertical)
            default: nil
            }
        }
    }

    var supportedProperties: [String: Any] {
        [
            kVTPixelRotationPropertyKey_Rotation as String: enumerationProperty(Self.rotations),
            kVTPixelRotationPropertyKey_FlipHorizontalOrientation as String: booleanProperty(),
            kVTPixelRotationPropertyKey_FlipVerticalOrientation as String: booleanProperty(),
        ]
    }

    /// Ends the session: rotations and property changes fail with `kVTInvalidSessionErr` from now on.
    func invalidate() { settings.withLock { $0.invalidated = true } }

    /// The turn the settings ask for, as a clockwise rotation then a left-right mirror: the flips
    /// apply after the rotation, as Apple's do.
    var orientation: PixelOrientation? {
        settings.withLock { settings -> PixelOrientation? in
            guard !settings.invalidated else { return nil }
            let degrees =
                switch settings.rotation {
                case String(kVTRotation_CW90): 90
                case String(kVTRotation_180): 180
                case String(kVTRotation_CCW90): 270
                default: 0
                }
            // A vertical flip is a half turn and a left-right mirror; both flips are a half turn.
            return PixelOrientation(
                rotationDegrees: settings.flipVertical ? degrees + 180 : degrees, mirrored: settings.flipHorizontal != settings.flipVertical)
        }
    }

    /// Turns `source` into `destination`, whose size must be the turned source's.
    func rotate(_ source: CVPixelBuffer, into destination: CVPixelBuffer) -> OSStatus {
        guard let orientation else { return kVTInvalidSessionErr }
        let (width, height) = orientation.swapsDimensions ? (source.height, source.width) : (source.width, source.height)
        guard destination.width == width, destination.height == height,
            PixelFormatConverter.supportedFormats.contains(source.pixelFormatType),
            PixelFormatConverter.supportedFormats.contains(destination.pixelFormatType)
        else { return kVTPixelRotationNotSupportedErr }
        rotating.lock()
        defer { rotating.unlock() }
        return converter.convert(source, into: destination, orientation: orientation) ? noErr : kVTPixelRotationNotSupportedErr
    }
}

/// Creates a session for rotating images between pixel buffers.
@discardableResult
public func VTPixelRotationSessionCreate(allocator: CFAllocator?, pixelRotationSessionOut: UnsafeMutablePointer<VTPixelRotationSession?>) -> OSStatus {
    pixelRotationSessionOut.pointee = VTPixelRotationSession()
    return noErr
}

/// Rotates and flips an image from one pixel buffer into another, whose size is the turned image's.
@discardableResult
public func VTPixelRotationSessionRotateImage(_ session: VTPixelRotationSession, from sourceBuffer: CVPixelBuffer, to destinationBuffer: CVPixelBuffer)
    -> OSStatus
{
    session.rotate(sourceBuffer, into: destinationBuffer)
}

/// Tears down a pixel rotation session.
public func VTPixelRotationSessionInvalidate(_ session: VTPixelRotationSession) { session.invalidate() }

/// The type identifier of pixel rotation sessions.
public func VTPixelRotationSessionGetTypeID() -> CFTypeID { 0x5654_5052 }  // 'VTPR'

/// The rotation: one of the `kVTRotation_` values.
nonisolated(unsafe) public let kVTPixelRotationPropertyKey_Rotation: CFString = "Rotation"
/// Whether the image is flipped left to right.
nonisolated(unsafe) public let kVTPixelRotationPropertyKey_FlipHorizontalOrientation: CFString = "FlipHorizontalOrientation"
/// Whether the image is flipped top to bottom.
nonisolated(unsafe) public let kVTPixelRotationPropertyKey_FlipVerticalOrientation: CFString = "FlipVerticalOrientation"
/// No rotation.
nonisolated(unsafe) public let kVTRotation_0: CFString = "Rotation_0"
/// A quarter turn clockwise.
nonisolated(unsafe) public let kVTRotation_CW90: CFString = "Rotation_CW90"
/// A half turn.
nonisolated(unsafe) public let kVTRotation_180: CFString = "Rotation_180"
/// A quarter turn counterclockwise.
nonisolated(unsafe) public let kVTRotation_CCW90: CFString = "Rotation_CCW90"
