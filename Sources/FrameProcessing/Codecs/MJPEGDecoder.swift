import CJPEGCodec
import CYUV
import CoreVideo
import Foundation

/// Decodes MJPEG frames (libjpeg-turbo) into frames of any pixel format the frame path carries.
///
/// Frames in any of the subsamplings cameras send (4:2:2 from most USB cameras, 4:2:0, 4:4:4,
/// grey) decode to planes in the JPEG's own layout a band of block rows at a time, and each band
/// becomes the target's full-range 4:2:0 rows with libyuv while it is still in the cache; BGRA
/// decodes straight into the target. Other formats, and zoomed frames, go through one
/// scratch frame. Nothing is allocated per frame once the first is decoded: libjpeg's memory
/// comes from arenas the decoder keeps (`CJPEGCodec`), and its planes and scratch are reused.
/// Thread ownership: one decoder belongs to one thread at a time; its memory is allocated on
/// first use, for the frame size of the stream, and reused for every frame.
package final class MJPEGDecoder: @unchecked Sendable {
    private let decoder: OpaquePointer?
    private var halfChroma: UnsafeMutablePointer<UInt8>?
    private var halfChromaCapacity = 0
    private var scratch: CVPixelBufferPool?
    private let converter = PixelFormatConverter()

    package init() { decoder = cjd_new() }

    deinit {
        cjd_free(decoder)
        free(halfChroma)
    }

    /// How many times the decoder has asked the system for memory: it stops growing after the first frame of a size.
    package var systemAllocations: UInt64 { cjd_system_allocations(decoder) }

    /// Decodes `count` bytes of JPEG into `target`, whose size must be the picture's; returns whether it could.
    package func decode(_ jpeg: UnsafePointer<UInt8>, count: Int, into target: CVPixelBuffer) -> Bool {
        guard let decoder, count > 0 else { return false }
        if target.pixelFormatType == kCVPixelFormatType_32BGRA {
            let plane = target.planes[0]
            VideoColorimetry.jpeg.tag(target)
            return cjd_decode_bgra(
                decoder, jpeg, count, plane.baseAddress.assumingMemoryBound(to: UInt8.self), Int32(plane.bytesPerRow),
                Int32(target.width), Int32(target.height)) == 0
        }
        var decoded = target
        if target.pixelFormatType != kCVPixelFormatType_420YpCbCr8BiPlanarFullRange {
            guard let frame = scratchFrame(like: target) else { return false }
            decoded = frame
        }
        guard toFullRangeNV12(jpeg, count: count, into: decoded) else { return false }
        // JPEG's Y'CbCr is BT.601, whatever the picture's size.
        VideoColorimetry.jpeg.tag(decoded)
        return decoded === target || converter.convert(decoded, into: target)
    }

    /// Decodes `count` bytes of JPEG into `target` zoomed by `zoom` (1 or more): the whole picture, then its centre scaled up by `digitalZoom`.
    package func decode(_ jpeg: UnsafePointer<UInt8>, count: Int, into target: CVPixelBuffer, zoom: Double, with digitalZoom: DigitalZoom) -> Bool {
        guard zoom > 1.001 else { return decode(jpeg, count: count, into: target) }
        guard let whole = scratchFrame(like: target) else { return false }
        return decode(jpeg, count: count, into: whole) && digitalZoom.render(whole, zoom: zoom, into: target)
    }

    /// The decoder's full-range 4:2:0 scratch frame, of `frame`'s size.
    private func scratchFrame(like frame: CVPixelBuffer) -> CVPixelBuffer? {
        if scratch == nil || scratch?.width != frame.width || scratch?.height != frame.height {
            scratch = CVPixelBufferPool.videoFrames(
                width: frame.width, height: frame.height, pixelFormatType: kCVPixelFormatType_420YpCbCr8BiPlanarFullRange, count: 1)
        }
        return scratch?.dequeue()
    }

    /// Where the bands of a picture go: a full-range 4:2:0 frame's planes, and room for one band's halved chroma.
    private struct BandTarget {
        var luma: UnsafeMutablePointer<UInt8>
        var lumaStride: Int32
        var chroma: UnsafeMutablePointer<UInt8>
        var chromaStride: Int32
        var halfChroma: UnsafeMutablePointer<UInt8>
        var halfChromaStride: Int32
    }

    /// Decodes to planes in the JPEG's own subsampling a band at a time, each turned into `target`'s
    /// rows (full-range 4:2:0, two planes) while the band is still in the cache.
    private func toFullRangeNV12(_ jpeg: UnsafePointer<UInt8>, count: Int, into target: CVPixelBuffer) -> Bool {
        let destination = target.planes
        let cw = Int32((target.width + 1) / 2)
        // A band is at most 32 rows of Y' (libjpeg's largest block row): 16 rows of halved chroma.
        let needed = Int(cw) * 16 * 2
        if needed > halfChromaCapacity {
            free(halfChroma)
            halfChroma = malloc(needed)?.assumingMemoryBound(to: UInt8.self)
            halfChromaCapacity = halfChroma == nil ? 0 : needed
        }
        guard let halfChroma else { return false }
        var bands = BandTarget(
            luma: destination[0].baseAddress.assumingMemoryBound(to: UInt8.self), lumaStride: Int32(destination[0].bytesPerRow),
            chroma: destination[1].baseAddress.assumingMemoryBound(to: UInt8.self), chromaStride: Int32(destination[1].bytesPerRow),
            halfChroma: halfChroma, halfChromaStride: cw)
        let decoded = withUnsafeMutablePointer(to: &bands) { context in
            cjd_decode_bands(
                decoder, jpeg, count, Int32(target.width), Int32(target.height),
                { context, band in
                    guard let target = context?.assumingMemoryBound(to: BandTarget.self).pointee, let band = band?.pointee,
                        let y = band.data.0
                    else { return -1 }
                    let (rows, width) = (band.rows.0, band.width.0)
                    guard rows > 0 else { return 0 }
                    let dy = target.luma + Int(band.first_row.0) * Int(target.lumaStride)
                    // NV12's chroma row for a band of Y' rows that starts on an even row.
                    let duv = target.chroma + Int(band.first_row.0 / 2) * Int(target.chromaStride)
                    guard band.subsampling != CJD_SUBSAMPLING_GRAY else {
                        CopyPlane(y, band.stride.0, dy, target.lumaStride, width, rows)
                        SetPlane(duv, target.chromaStride, (width + 1) / 2 * 2, (rows + 1) / 2, 0x8080)
                        return 0
                    }
                    guard let u = band.data.1, let v = band.data.2 else { return -1 }
                    let (yStride, uStride, vStride) = band.stride
                    switch band.subsampling {
                    case CJD_SUBSAMPLING_420:
                        return I420ToNV12(y, yStride, u, uStride, v, vStride, dy, target.lumaStride, duv, target.chromaStride, width, rows)
                    case CJD_SUBSAMPLING_444:
                        return I444ToNV12(y, yStride, u, uStride, v, vStride, dy, target.lumaStride, duv, target.chromaStride, width, rows)
                    default:
                        // 4:2:2: halve the band's chroma rows into the decoder's own room, then interleave.
                        let (halfWidth, halfRows) = (target.halfChromaStride, (rows + 1) / 2)
                        let halfU = target.halfChroma, halfV = target.halfChroma + Int(halfWidth * 16)
                        guard I422ToI420(y, yStride, u, uStride, v, vStride, dy, target.lumaStride, halfU, halfWidth, halfV, halfWidth, width, rows) == 0
                        else { return -1 }
                        MergeUVPlane(halfU, halfWidth, halfV, halfWidth, duv, target.chromaStride, halfWidth, halfRows)
                        return 0
                    }
                }, context) == 0
        }
        return decoded
    }
}
