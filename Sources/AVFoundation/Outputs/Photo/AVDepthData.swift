import Foundation
import ImageIO

/// A container for per-pixel distance or disparity information captured by compatible camera devices.
///
/// Maps hold depth in meters ('fdep', 'hdep') or disparity in 1/meters ('fdis', 'hdis'), one
/// float a pixel; `converting(toDepthDataType:)` moves between the four.
public final class AVDepthData: NSObject, @unchecked Sendable {
    /// The overall quality of a depth map.
    public enum Quality: Int, Sendable {
        /// The depth map is of low quality, such as one interpolated from little data.
        case low = 0
        /// The depth map is of high quality.
        case high = 1
    }

    /// The accuracy of the values in a depth map.
    public enum Accuracy: Int, Sendable {
        /// Values are accurate relative to one another, not in real-world units.
        case relative = 0
        /// Values are accurate in real-world units.
        case absolute = 1
    }

    /// The pixel formats a depth map can be in.
    static let depthTypes = [
        kCVPixelFormatType_DisparityFloat16, kCVPixelFormatType_DisparityFloat32,
        kCVPixelFormatType_DepthFloat16, kCVPixelFormatType_DepthFloat32,
    ]

    /// The depth map, one value a pixel.
    public let depthDataMap: CVPixelBuffer
    /// The overall quality of the depth map.
    public let depthDataQuality: Quality
    /// The accuracy of the depth map's values.
    public let depthDataAccuracy: Accuracy
    /// Whether holes in the map were filled.
    public let isDepthDataFiltered: Bool
    /// The camera's calibration for the map; none is known here.
    public var cameraCalibrationData: AVCameraCalibrationData? { nil }

    init(map: CVPixelBuffer, quality: Quality, accuracy: Accuracy, filtered: Bool) {
        depthDataMap = map
        depthDataQuality = quality
        depthDataAccuracy = accuracy
        isDepthDataFiltered = filtered
        super.init()
    }

    /// Creates depth data from the auxiliary data dictionary an image source gives
    /// (`CGImageSourceCopyAuxiliaryDataInfoAtIndex`): its pixel data and their description.
    public convenience init(fromDictionaryRepresentation imageSourceAuxDataInfoDictionary: [AnyHashable: Any]) throws {
        func refuse(_ why: String) -> AVError { AVError(.unknown, userInfo: [NSLocalizedDescriptionKey: why]) }
        guard let data = imageSourceAuxDataInfoDictionary[kCGImageAuxiliaryDataInfoData as String] as? Data,
            let description = imageSourceAuxDataInfoDictionary[kCGImageAuxiliaryDataInfoDataDescription as String] as? [String: Any]
        else { throw refuse("The dictionary holds no auxiliary data and description.") }
        func number(_ key: String) -> Int? { (description[key] as? Int) ?? (description[key] as? NSNumber)?.intValue }
        let format = (description["PixelFormat"] as? OSType) ?? (description["PixelFormat"] as? NSNumber)?.uint32Value ?? 0
        guard let width = number("Width"), let height = number("Height"), let bytesPerRow = number("BytesPerRow"), width > 0, height > 0,
            Self.depthTypes.contains(format)
        else { throw refuse("The description is not of a depth or disparity map.") }
        let bytesPerValue = format == kCVPixelFormatType_DepthFloat32 || format == kCVPixelFormatType_DisparityFloat32 ? 4 : 2
        guard bytesPerRow >= width * bytesPerValue, data.count >= bytesPerRow * (height - 1) + width * bytesPerValue,
            let map = CVPixelBuffer(width: width, height: height, pixelFormatType: format)
        else { throw refuse("The data is shorter than its description.") }
        let plane = map.planes[0]
        data.withUnsafeBytes { bytes in
            for row in 0..<height {
                (plane.baseAddress + row * plane.bytesPerRow).copyMemory(from: bytes.baseAddress! + row * bytesPerRow, byteCount: width * bytesPerValue)
            }
        }
        self.init(map: map, quality: .high, accuracy: .relative, filtered: true)
    }

    /// The pixel format of the depth map.
    public var depthDataType: OSType { depthDataMap.pixelFormatType }

    /// The pixel formats the map can be converted to, as numbers.
    public var availableDepthDataTypes: [NSNumber] { Self.depthTypes.map { NSNumber(value: $0) } }

    /// A copy of this depth data with its map converted to `depthDataType` (depth or disparity, 16- or 32-bit float).
    public func converting(toDepthDataType depthDataType: OSType) -> Self {
        guard Self.depthTypes.contains(depthDataType) else {
            ProgrammingError.invalidArgument(
                "-[AVDepthData depthDataByConvertingToDepthDataType:] Unsupported depth data type \(depthDataType.fourCharacterString)")
        }
        guard let map = CVPixelBuffer(width: depthDataMap.width, height: depthDataMap.height, pixelFormatType: depthDataType) else { return self }
        let toDisparity = Self.isDisparity(depthDataType) != Self.isDisparity(self.depthDataType)
        for row in 0..<map.height {
            for column in 0..<map.width {
                var value = Self.value(in: depthDataMap, row: row, column: column)
                if toDisparity { value = value > 0 ? 1 / value : 0 }
                Self.set(value, in: map, row: row, column: column)
            }
        }
        return Self(map: map, quality: depthDataQuality, accuracy: depthDataAccuracy, filtered: isDepthDataFiltered)
    }

    /// A copy of this depth data with its map turned as an EXIF orientation says, so it lines up with a photo displayed that way.
    public func applyingExifOrientation(_ exifOrientation: CGImagePropertyOrientation) -> Self {
        let swaps = exifOrientation.rawValue >= 5
        let (width, height) = swaps ? (depthDataMap.height, depthDataMap.width) : (depthDataMap.width, depthDataMap.height)
        guard let map = CVPixelBuffer(width: width, height: height, pixelFormatType: depthDataType) else { return self }
        for row in 0..<height {
            for column in 0..<width {
                // The source pixel each displayed pixel comes from.
                let (x, y): (Int, Int)
                let w = depthDataMap.width, h = depthDataMap.height
                switch exifOrientation {
                case .up: (x, y) = (column, row)
                case .upMirrored: (x, y) = (w - 1 - column, row)
                case .down: (x, y) = (w - 1 - column, h - 1 - row)
                case .downMirrored: (x, y) = (column, h - 1 - row)
                case .leftMirrored: (x, y) = (row, column)
                case .right: (x, y) = (row, h - 1 - column)
                case .rightMirrored: (x, y) = (w - 1 - row, h - 1 - column)
                case .left: (x, y) = (w - 1 - row, column)
                }
                Self.set(Self.value(in: depthDataMap, row: y, column: x), in: map, row: row, column: column)
            }
        }
        return Self(map: map, quality: depthDataQuality, accuracy: depthDataAccuracy, filtered: isDepthDataFiltered)
    }

    /// A copy of this depth data with another map of a depth pixel format.
    public func replacingDepthDataMap(with pixelBuffer: CVPixelBuffer) throws -> Self {
        guard Self.depthTypes.contains(pixelBuffer.pixelFormatType) else {
            throw AVError(.unknown, userInfo: [NSLocalizedDescriptionKey: "A depth map must be in a depth or disparity pixel format."])
        }
        return Self(map: pixelBuffer, quality: depthDataQuality, accuracy: depthDataAccuracy, filtered: isDepthDataFiltered)
    }

    private static func isDisparity(_ type: OSType) -> Bool {
        type == kCVPixelFormatType_DisparityFloat16 || type == kCVPixelFormatType_DisparityFloat32
    }

    private static func value(in map: CVPixelBuffer, row: Int, column: Int) -> Float {
        let plane = map.planes[0]
        let line = plane.baseAddress + row * plane.bytesPerRow
        if map.pixelFormatType == kCVPixelFormatType_DepthFloat16 || map.pixelFormatType == kCVPixelFormatType_DisparityFloat16 {
            return Float(line.assumingMemoryBound(to: Float16.self)[column])
        }
        return line.assumingMemoryBound(to: Float.self)[column]
    }

    private static func set(_ value: Float, in map: CVPixelBuffer, row: Int, column: Int) {
        let plane = map.planes[0]
        let line = plane.baseAddress + row * plane.bytesPerRow
        if map.pixelFormatType == kCVPixelFormatType_DepthFloat16 || map.pixelFormatType == kCVPixelFormatType_DisparityFloat16 {
            line.assumingMemoryBound(to: Float16.self)[column] = Float16(value)
        } else {
            line.assumingMemoryBound(to: Float.self)[column] = value
        }
    }
}

/// Information about the camera's intrinsic and extrinsic properties used with depth data; the cameras here report none.
open class AVCameraCalibrationData: NSObject, @unchecked Sendable {}
