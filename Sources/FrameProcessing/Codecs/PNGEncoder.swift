import CPhotoCodecs
import CoreVideo
import Foundation

/// Encodes frames as PNG with libpng, for lossless photos.
///
/// A frame in another format is converted to BGRA first, in memory the encoder keeps.
/// Thread ownership: one encoder belongs to one thread at a time.
package final class PNGEncoder: @unchecked Sendable {
    private let adapter = FormatAdapter()

    package init() {}

    /// The frame as an opaque RGB PNG carrying `exif` ("Exif\0\0" and the TIFF structure) as its
    /// eXIf chunk when given; nil when it cannot be encoded.
    package func encode(_ frame: CVPixelBuffer, exif: Data?) -> Data? {
        guard let source = adapter.frame(frame, in: kCVPixelFormatType_32BGRA) else { return nil }
        // The eXIf chunk holds the TIFF structure alone, without JPEG's "Exif\0\0" prefix.
        let tiff = exif.map { $0.starts(with: "Exif\0\0".utf8) ? $0.dropFirst(6) : $0 }
        let plane = source.planes[0]
        var bytes: UnsafeMutablePointer<UInt8>?
        var size = 0
        let status = withExif(tiff.map { Data($0) }) { exif, exifSize in
            cpc_png_encode_bgra(
                plane.baseAddress.assumingMemoryBound(to: UInt8.self), Int32(source.width), Int32(source.height),
                Int32(plane.bytesPerRow), 1, exif, exifSize, &bytes, &size)
        }
        guard status == 0, let bytes else { return nil }
        defer { free(bytes) }
        return Data(bytes: bytes, count: size)
    }
}
