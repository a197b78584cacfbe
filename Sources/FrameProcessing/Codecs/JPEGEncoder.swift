import CJPEGCodec
import CoreVideo
import Foundation

/// Encodes frames as JPEG with libjpeg-turbo, for photos and the live view's frames.
///
/// A frame already in JPEG's own samples ('f420', see `JPEGSampleConverter`) is compressed from
/// its planes; a BGRA frame from its rows; a frame in another format is converted to BGRA first
/// (in memory the encoder keeps). libjpeg's working memory and the output are the encoder's
/// (`CJPEGCodec`), kept between frames: nothing is allocated per frame once the first of a size is
/// encoded. Thread ownership: one encoder belongs to one thread at a time.
package final class JPEGEncoder: @unchecked Sendable {
    private let encoder: OpaquePointer?
    private let adapter = FormatAdapter()

    package init() { encoder = cje_new() }

    deinit { cje_free(encoder) }

    /// How many times the encoder has asked the system for memory: it stops growing after the first frame of a size.
    package var systemAllocations: UInt64 { cje_system_allocations(encoder) }

    /// The frame as a baseline JPEG at `quality` (1...100), with 4:2:0 chroma (or 4:4:4 when
    /// `fullChroma`) and the accurate DCT (or the fast one); nil when it cannot be encoded. A frame
    /// already in JPEG's samples ('f420', see `JPEGSampleConverter`) is encoded as it is.
    package func encode(_ frame: CVPixelBuffer, quality: Int32, fullChroma: Bool = false, accurateDCT: Bool = true) -> Data? {
        encode(frame, quality: quality, fullChroma: fullChroma, accurateDCT: accurateDCT) { Data($0) }
    }

    /// Encodes the frame as `encode(_:quality:fullChroma:accurateDCT:)` does and lends the JPEG's
    /// bytes to `body` (valid only during the call), so a caller copies them once, where it needs them.
    package func encode<Result>(
        _ frame: CVPixelBuffer, quality: Int32, fullChroma: Bool = false, accurateDCT: Bool = true,
        _ body: (UnsafeRawBufferPointer) throws -> Result
    ) rethrows -> Result? {
        guard let encoder else { return nil }
        var jpeg: UnsafePointer<UInt8>?
        var size = 0
        let result: Int32
        if frame.pixelFormatType == kCVPixelFormatType_420YpCbCr8PlanarFullRange {
            // JPEG's own samples, in their 4:2:0. Plane addresses and strides on the stack.
            let planes = frame.planes
            result = withUnsafeTemporaryAllocation(of: UnsafePointer<UInt8>?.self, capacity: 3) { pointers in
                withUnsafeTemporaryAllocation(of: Int32.self, capacity: 3) { strides in
                    for index in 0..<3 {
                        pointers[index] = UnsafePointer(planes[index].baseAddress.assumingMemoryBound(to: UInt8.self))
                        strides[index] = Int32(planes[index].bytesPerRow)
                    }
                    return cje_encode_planes420(
                        encoder, pointers.baseAddress, strides.baseAddress, Int32(frame.width), Int32(frame.height),
                        quality, accurateDCT ? 1 : 0, &jpeg, &size)
                }
            }
        } else {
            guard let source = adapter.frame(frame, in: kCVPixelFormatType_32BGRA) else { return nil }
            let plane = source.planes[0]
            result = cje_encode_bgra(
                encoder, plane.baseAddress.assumingMemoryBound(to: UInt8.self), Int32(plane.bytesPerRow),
                Int32(frame.width), Int32(frame.height), quality, fullChroma ? 1 : 0, accurateDCT ? 1 : 0, &jpeg, &size)
        }
        guard result == 0, let jpeg else { return nil }
        return try body(UnsafeRawBufferPointer(start: jpeg, count: size))
    }
}
