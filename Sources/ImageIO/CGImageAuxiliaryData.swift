import CoreVideo
import Foundation
import FrameProcessing

/// Depth data: distance from the camera, in metres.
nonisolated(unsafe) public let kCGImageAuxiliaryDataTypeDepth: CFString = "kCGImageAuxiliaryDataTypeDepth"
/// Disparity data: the inverse of distance, in 1 / metres.
nonisolated(unsafe) public let kCGImageAuxiliaryDataTypeDisparity: CFString = "kCGImageAuxiliaryDataTypeDisparity"
/// The auxiliary image's pixel data.
nonisolated(unsafe) public let kCGImageAuxiliaryDataInfoData: CFString = "kCGImageAuxiliaryDataInfoData"
/// A dictionary describing the pixel data: its width, height, bytes per row and pixel format.
nonisolated(unsafe) public let kCGImageAuxiliaryDataInfoDataDescription: CFString = "kCGImageAuxiliaryDataInfoDataDescription"
/// The auxiliary image's metadata.
nonisolated(unsafe) public let kCGImageAuxiliaryDataInfoMetadata: CFString = "kCGImageAuxiliaryDataInfoMetadata"

/// Returns the auxiliary data of an image of the source, such as a HEIC's depth or disparity map.
///
/// The data is one 32-bit float a pixel, rows from the top (`kCVPixelFormatType_DepthFloat32`,
/// metres, or `kCVPixelFormatType_DisparityFloat32`, 1 / metres), worked out from the stored
/// values and the range the file gives (its near and far depths, or its least and greatest
/// disparity; without one, the stored values as fractions of their range). A map is given for
/// the type the file holds: asking a disparity map's file for depth gives nil, as Apple's does.
/// Only HEIC depth images are read; there is no metadata dictionary.
public func CGImageSourceCopyAuxiliaryDataInfoAtIndex(_ isrc: CGImageSource, _ index: Int, _ auxiliaryImageDataType: CFString) -> CFDictionary? {
    guard index == 0, isrc.kind == .heic,
        auxiliaryImageDataType == kCGImageAuxiliaryDataTypeDepth || auxiliaryImageDataType == kCGImageAuxiliaryDataTypeDisparity,
        let depth = PictureDecoder.heicDepth(isrc.data), depth.isDisparity == (auxiliaryImageDataType == kCGImageAuxiliaryDataTypeDisparity)
    else { return nil }
    let values: [Float]
    switch (depth.range, depth.isDisparity, depth.isInverseZ) {
    case (let range?, true, _), (let range?, false, false):
        // Disparity or depth spread evenly from the low end of the range to the high.
        let (low, span) = (Float(range.low), Float(range.high - range.low))
        values = depth.values.map { low + $0 * span }
    case (let range?, false, true) where range.low > 0 && range.high > 0:
        // 1 / Z spread evenly from the far end (0) to the near (1).
        let (inverseFar, inverseSpan) = (Float(1 / range.high), Float(1 / range.low - 1 / range.high))
        values = depth.values.map { 1 / (inverseFar + $0 * inverseSpan) }
    default:
        values = depth.values
    }
    let bytesPerRow = depth.width * 4
    let data = values.withUnsafeBufferPointer { Data(buffer: $0) }
    let description: [String: Any] = [
        "Width": depth.width, "Height": depth.height, "BytesPerRow": bytesPerRow,
        "PixelFormat": depth.isDisparity ? kCVPixelFormatType_DisparityFloat32 : kCVPixelFormatType_DepthFloat32,
    ]
    return [kCGImageAuxiliaryDataInfoData: data, kCGImageAuxiliaryDataInfoDataDescription: description] as NSDictionary
}
