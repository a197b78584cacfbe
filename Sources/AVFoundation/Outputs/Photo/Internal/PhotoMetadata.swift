import CaptureDevices
import Foundation
import ImageIO

/// Photo metadata in Image I/O's dictionary format (what `AVCapturePhoto.metadata` holds), and
/// the EXIF block the photo outputs write from it with libexif.
enum PhotoMetadata {
    /// What the camera knew when the photo's frame was captured.
    struct Capture {
        var date: Date
        var width: Int
        var height: Int
        var orientation: CGImagePropertyOrientation
        var flashFired: Bool
        var flashMode: AVCaptureDevice.FlashMode
        var hasFlash: Bool
        var make: String
        var model: String
        var position: AVCaptureDevice.Position
        var exposureDuration: Double
        var iso: Float
        var aperture: Float
        var exposureBias: Float
        var isExposureManual: Bool
        var isWhiteBalanceManual: Bool
        var zoomFactor: Double
        var fieldOfView: Float
    }

    /// What `device` reports now, for a photo of the given size and orientation taken at `date`.
    static func capture(
        from device: AVCaptureDevice?, date: Date, width: Int, height: Int,
        orientation: CGImagePropertyOrientation, flashFired: Bool, flashMode: AVCaptureDevice.FlashMode
    ) -> Capture {
        Capture(
            date: date, width: width, height: height, orientation: orientation, flashFired: flashFired, flashMode: flashMode,
            hasFlash: device?.hasFlash ?? false, make: device?.manufacturer ?? "", model: device?.localizedName ?? "",
            position: device?.position ?? .unspecified, exposureDuration: device.map { CMTimeGetSeconds($0.exposureDuration) } ?? 0,
            iso: device?.iso ?? 0, aperture: device?.lensAperture ?? 0, exposureBias: device?.exposureTargetBias ?? 0,
            isExposureManual: device?.exposureMode == .custom || device?.exposureMode == .locked,
            isWhiteBalanceManual: device?.whiteBalanceMode == .locked,
            zoomFactor: Double(device?.videoZoomFactor ?? 1), fieldOfView: device?.activeFormat.videoFieldOfView ?? 0)
    }

    /// The orientation EXIF records for a photo whose connection turns video by `angle` degrees clockwise.
    static func orientation(rotationAngle angle: CGFloat, mirrored: Bool) -> CGImagePropertyOrientation {
        switch (Int(angle.rounded()) % 360 + 360) % 360 {
        case 90: mirrored ? .rightMirrored : .right
        case 180: mirrored ? .downMirrored : .down
        case 270: mirrored ? .leftMirrored : .left
        default: mirrored ? .upMirrored : .up
        }
    }

    /// The metadata a photo of `capture` carries: orientation, size, and the TIFF and Exif dictionaries.
    static func dictionary(for capture: Capture) -> [String: Any] {
        let calendar = Calendar(identifier: .gregorian)
        let parts = calendar.dateComponents(in: TimeZone.current, from: capture.date)
        let stamp = String(
            format: "%04d:%02d:%02d %02d:%02d:%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0,
            parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
        let milliseconds = String(format: "%03d", min(999, (parts.nanosecond ?? 0) / 1_000_000))
        let offsetSeconds = TimeZone.current.secondsFromGMT(for: capture.date)
        let offset = String(format: "%@%02d:%02d", offsetSeconds < 0 ? "-" : "+", abs(offsetSeconds) / 3600, abs(offsetSeconds) % 3600 / 60)
        // EXIF's Flash: bit 0 fired; bits 3-4 mode (1 on, 2 off, 3 auto); bit 5 no flash function.
        var flash = capture.flashFired ? 1 : 0
        if !capture.hasFlash {
            flash |= 0x20
        } else {
            switch capture.flashMode {
            case .on: flash |= 1 << 3
            case .off: flash |= 2 << 3
            case .auto: flash |= 3 << 3
            }
        }
        let facing = capture.position == .front ? "front" : capture.position == .back ? "back" : "external"
        var exif: [String: Any] = [
            kCGImagePropertyExifPixelXDimension as String: capture.width,
            kCGImagePropertyExifPixelYDimension as String: capture.height,
            kCGImagePropertyExifDateTimeOriginal as String: stamp,
            kCGImagePropertyExifDateTimeDigitized as String: stamp,
            kCGImagePropertyExifSubsecTimeOriginal as String: milliseconds,
            kCGImagePropertyExifSubsecTimeDigitized as String: milliseconds,
            kCGImagePropertyExifOffsetTimeOriginal as String: offset,
            kCGImagePropertyExifOffsetTimeDigitized as String: offset,
            kCGImagePropertyExifFlash as String: flash,
            kCGImagePropertyExifExposureMode as String: capture.isExposureManual ? 1 : 0,
            kCGImagePropertyExifWhiteBalance as String: capture.isWhiteBalanceManual ? 1 : 0,
            kCGImagePropertyExifExposureBiasValue as String: Double(capture.exposureBias),
            kCGImagePropertyExifDigitalZoomRatio as String: capture.zoomFactor,
            kCGImagePropertyExifColorSpace as String: 1,
            kCGImagePropertyExifSceneType as String: 1,
            kCGImagePropertyExifSensingMethod as String: 2,
            kCGImagePropertyExifVersion as String: [2, 3, 2],
            kCGImagePropertyExifLensMake as String: capture.make,
            kCGImagePropertyExifLensModel as String: "\(capture.model) \(facing) camera",
        ]
        if capture.exposureDuration > 0 {
            exif[kCGImagePropertyExifExposureTime] = capture.exposureDuration
            exif[kCGImagePropertyExifShutterSpeedValue] = -log2(capture.exposureDuration)
        }
        if capture.iso > 0 { exif[kCGImagePropertyExifISOSpeedRatings] = [Int(capture.iso.rounded())] }
        if capture.aperture > 0 {
            exif[kCGImagePropertyExifFNumber] = Double(capture.aperture)
            exif[kCGImagePropertyExifApertureValue] = 2 * log2(Double(capture.aperture))
        }
        if capture.fieldOfView > 0, capture.fieldOfView < 180 {
            // The focal length that gives this horizontal field of view across 35 mm film's 36 mm width.
            let equivalent = 18 / tan(Double(capture.fieldOfView) * .pi / 360) * capture.zoomFactor
            exif[kCGImagePropertyExifFocalLenIn35mmFilm] = Int(equivalent.rounded())
        }
        let tiff: [String: Any] = [
            kCGImagePropertyTIFFMake as String: capture.make,
            kCGImagePropertyTIFFModel as String: capture.model,
            kCGImagePropertyTIFFSoftware as String: "LinuxAVFoundation",
            kCGImagePropertyTIFFDateTime as String: stamp,
            kCGImagePropertyTIFFOrientation as String: Int(capture.orientation.rawValue),
            kCGImagePropertyTIFFXResolution as String: 72,
            kCGImagePropertyTIFFYResolution as String: 72,
            kCGImagePropertyTIFFResolutionUnit as String: 2,
        ]
        return bridged([
            kCGImagePropertyOrientation as String: Int(capture.orientation.rawValue),
            kCGImagePropertyPixelWidth as String: capture.width,
            kCGImagePropertyPixelHeight as String: capture.height,
            kCGImagePropertyDPIWidth as String: 72,
            kCGImagePropertyDPIHeight as String: 72,
            kCGImagePropertyExifDictionary as String: exif,
            kCGImagePropertyTIFFDictionary as String: tiff,
        ])
    }

    /// The dictionary with its numbers as `NSNumber`s, as Image I/O's are, so that apps may read
    /// them as any numeric type (`as? UInt32` for the orientation, `as? Double` for the exposure).
    static func bridged(_ dictionary: [String: Any]) -> [String: Any] {
        dictionary.mapValues(bridgedValue)
    }

    private static func bridgedValue(_ value: Any) -> Any {
        switch value {
        case let value as Int: NSNumber(value: value)
        case let value as Double: NSNumber(value: value)
        case let value as [Int]: value.map { NSNumber(value: $0) }
        case let value as [String: Any]: bridged(value)
        default: value
        }
    }

    /// `base` with `overrides` laid over it; dictionaries such as `{Exif}` merge key by key.
    static func merged(_ base: [String: Any], with overrides: [String: Any]) -> [String: Any] {
        var result = base
        for (key, value) in overrides {
            if let inner = value as? [String: Any], let existing = result[key] as? [String: Any] {
                result[key] = merged(existing, with: inner)
            } else {
                result[key] = value
            }
        }
        // The top-level orientation is the one that counts; TIFF's follows it.
        if let orientation = overrides[kCGImagePropertyOrientation], var tiff = result[kCGImagePropertyTIFFDictionary] as? [String: Any] {
            tiff[kCGImagePropertyTIFFOrientation] = orientation
            result[kCGImagePropertyTIFFDictionary] = tiff
        }
        return result
    }
}
