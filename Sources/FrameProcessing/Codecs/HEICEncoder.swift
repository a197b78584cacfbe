import CPhotoCodecs
import CYUV
import CoreVideo
import Foundation

/// Encodes frames as HEIC with libheif and its x265 plugin, for photos.
///
/// HEVC encoding takes hundreds of milliseconds to seconds for a photo, so callers run it on a
/// queue of their own, never a capture thread. A frame that is not 8-bit 4:2:0 is converted to
/// 420v first; the chroma planes are split in memory the encoder keeps between photos.
/// Thread ownership: one encoder belongs to one thread at a time.
package final class HEICEncoder: @unchecked Sendable {
    /// A failure libheif reported.
    package struct Failure: Error, CustomStringConvertible {
        /// libheif's message.
        package let description: String
    }

    /// Whether this machine's libheif can encode HEVC (its x265 plugin is installed).
    package static let isAvailable: Bool = cpc_heic_can_encode() != 0

    private let adapter = FormatAdapter()
    private var cb: [UInt8] = []
    private var cr: [UInt8] = []

    package init() {}

    /// The frame as a HEIC file at `quality` (0...100) with x265's `preset`, carrying `exif`
    /// ("Exif\0\0" and the TIFF structure) when given, and a thumbnail whose longer side is
    /// `thumbnailSize` pixels unless it is 0.
    package func encode(_ frame: CVPixelBuffer, quality: Int, preset: String, exif: Data?, thumbnailSize: Int = 0) throws -> Data {
        let format = frame.pixelFormatType
        let isBiplanar = format == kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange || format == kCVPixelFormatType_420YpCbCr8BiPlanarFullRange
        guard let source = isBiplanar ? frame : adapter.frame(frame, in: kCVPixelFormatType_420YpCbCr8BiPlanarFullRange) else {
            throw Failure(description: "frames in \(format.fourCharacterString) cannot be encoded as HEIC")
        }
        let chromaWidth = (source.width + 1) / 2, chromaHeight = (source.height + 1) / 2
        if cb.count != chromaWidth * chromaHeight {
            cb = [UInt8](repeating: 0, count: chromaWidth * chromaHeight)
            cr = cb
        }
        let luma = source.planes[0], chroma = source.planes[1]
        cb.withUnsafeMutableBufferPointer { cb in
            cr.withUnsafeMutableBufferPointer { cr in
                SplitUVPlane(
                    chroma.baseAddress.assumingMemoryBound(to: UInt8.self), Int32(chroma.bytesPerRow),
                    cb.baseAddress, Int32(chromaWidth), cr.baseAddress, Int32(chromaWidth), Int32(chromaWidth), Int32(chromaHeight))
            }
        }
        let fullRange = source.pixelFormatType == kCVPixelFormatType_420YpCbCr8BiPlanarFullRange
        let matrix: Int32 = VideoColorimetry.matrix(of: source) == .bt709 ? 1 : 6
        var bytes: UnsafeMutablePointer<UInt8>?
        var size = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = cb.withUnsafeBufferPointer { cb in
            cr.withUnsafeBufferPointer { cr in
                var picture = cpc_heic_picture(
                    width: Int32(source.width), height: Int32(source.height),
                    y: luma.baseAddress.assumingMemoryBound(to: UInt8.self), cb: cb.baseAddress, cr: cr.baseAddress,
                    y_stride: Int32(luma.bytesPerRow), cb_stride: Int32(chromaWidth), cr_stride: Int32(chromaWidth),
                    full_range: fullRange ? 1 : 0, matrix: matrix, primaries: 1, transfer: fullRange ? 13 : 1)
                return withExif(exif) { exif, exifSize in
                    cpc_heic_encode(&picture, Int32(quality), preset, exif, exifSize, Int32(thumbnailSize), &bytes, &size, &message, message.count)
                }
            }
        }
        guard status == 0, let bytes else {
            throw Failure(description: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        defer { free(bytes) }
        return Data(bytes: bytes, count: size)
    }
}

/// Calls `body` with the bytes of `data`, or NULL and 0 when there is none.
func withExif<Result>(_ data: Data?, _ body: (UnsafePointer<UInt8>?, Int) -> Result) -> Result {
    guard let data, !data.isEmpty else { return body(nil, 0) }
    return data.withUnsafeBytes { body($0.baseAddress?.assumingMemoryBound(to: UInt8.self), $0.count) }
}
