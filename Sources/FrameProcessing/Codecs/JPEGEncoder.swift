import CJPEGCodec
import CYUV
import CoreVideo
import Foundation

/// Encodes frames as JPEG with libjpeg-turbo, for photos and the live view's frames.
///
/// A frame already in JPEG's own samples ('f420', see `JPEGSampleConverter`) is compressed from
/// its planes; another Y'CbCr frame `JPEGSampleConverter` takes (a camera's: BT.601 4:2:0 or
/// 4:2:2, or BT.709 two-plane 4:2:0) a band at a time, each band put into JPEG's samples while it
/// is in the cache (by libyuv, or for BT.709 by a matrix), with no trip through R'G'B'; a BGRA
/// frame from its rows; a frame in another format is converted to BGRA first (in memory the
/// encoder keeps). libjpeg's working memory and the output are the encoder's
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
        } else if JPEGSampleConverter.accepts(frame) {
            result = encodeBands(of: frame, encoder, quality: quality, fullChroma: fullChroma, accurateDCT: accurateDCT, &jpeg, &size)
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

    /// Where a band's samples come from: the frame's format, its planes (up to three), and for a
    /// BT.709 frame the matrix that makes them JPEG's.
    private struct BandSource {
        var format: OSType
        var planes: (UnsafePointer<UInt8>?, UnsafePointer<UInt8>?, UnsafePointer<UInt8>?)
        var strides: (Int32, Int32, Int32)
        var matrix: cje_jfif_matrix
        var converts: Bool
    }

    /// Compresses a Y'CbCr frame `JPEGSampleConverter.accepts(_:)` takes a band at a time: libyuv
    /// turns each band of 16 rows of a BT.601 frame into JPEG's 4:2:0 planes while it is in the
    /// cache, and the encoder stretches video-range levels as it goes; a BT.709 frame's band is
    /// turned into JPEG's full-range samples by its matrix (`cje_nv12_to_jfif`) in one step.
    private func encodeBands(
        of frame: CVPixelBuffer, _ encoder: OpaquePointer, quality: Int32, fullChroma: Bool, accurateDCT: Bool,
        _ jpeg: inout UnsafePointer<UInt8>?, _ size: inout Int
    ) -> Int32 {
        let planes = frame.planes
        func plane(_ index: Int) -> UnsafePointer<UInt8>? {
            index < planes.count ? UnsafePointer(planes[index].baseAddress.assumingMemoryBound(to: UInt8.self)) : nil
        }
        func stride(_ index: Int) -> Int32 { index < planes.count ? Int32(planes[index].bytesPerRow) : 0 }
        let matrix = JPEGSampleConverter.matrix(of: frame)
        var source = BandSource(
            format: frame.pixelFormatType, planes: (plane(0), plane(1), plane(2)), strides: (stride(0), stride(1), stride(2)),
            matrix: matrix ?? cje_jfif_matrix(), converts: matrix != nil)
        // The matrix gives full-range samples; libyuv's are stretched after.
        let videoRange = matrix == nil && !(PixelFormatDescription.of(frame.pixelFormatType)?.isFullRange ?? false)
        return withUnsafeMutablePointer(to: &source) { context in
            cje_encode_bands(
                encoder, Int32(frame.width), Int32(frame.height), videoRange ? 1 : 0, quality, fullChroma ? 1 : 0, accurateDCT ? 1 : 0,
                { context, band in
                    guard let source = context?.assumingMemoryBound(to: BandSource.self), let band = band?.pointee,
                        let y = band.data.0, let u = band.data.1, let v = band.data.2, let first = source.pointee.planes.0
                    else { return -1 }
                    let (top, rows, width) = (Int(band.first_row.0), band.rows.0, band.width.0)
                    let (ys, us, vs) = band.stride
                    let (s0, s1, s2) = source.pointee.strides
                    if source.pointee.converts, let uv = source.pointee.planes.1 {
                        // A band starts on an even row: its chroma rows are the frame's from half its first row.
                        return cje_nv12_to_jfif(
                            &source.pointee.matrix, first + top * Int(s0), s0, uv + top / 2 * Int(s1), s1, y, ys, u, us, v, vs, width, rows)
                    }
                    switch source.pointee.format {
                    case kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange:
                        guard let uv = source.pointee.planes.1 else { return -1 }
                        return NV12ToI420(first + top * Int(s0), s0, uv + top / 2 * Int(s1), s1, y, ys, u, us, v, vs, width, rows)
                    case kCVPixelFormatType_422YpCbCr8_yuvs:
                        return YUY2ToI420(first + top * Int(s0), s0, y, ys, u, us, v, vs, width, rows)
                    case kCVPixelFormatType_422YpCbCr8:
                        return UYVYToI420(first + top * Int(s0), s0, y, ys, u, us, v, vs, width, rows)
                    default:
                        guard let cb = source.pointee.planes.1, let cr = source.pointee.planes.2 else { return -1 }
                        return I420Copy(
                            first + top * Int(s0), s0, cb + top / 2 * Int(s1), s1, cr + top / 2 * Int(s2), s2, y, ys, u, us, v, vs, width, rows)
                    }
                }, context, &jpeg, &size)
        }
    }
}
