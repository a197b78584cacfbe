import CJPEGCodec
import CYUV
import CoreVideo
import Foundation

/// Decodes MJPEG frames (libjpeg-turbo) into frames of any pixel format the frame path carries.
///
/// Frames in any of the subsamplings cameras send (4:2:2 from most USB cameras, 4:2:0, 4:4:4,
/// grey) decode to planes in the JPEG's own layout and become full-range 4:2:0 with libyuv;
/// BGRA decodes straight into the target. Other formats, and zoomed frames, go through one
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

    /// Decodes to planes in the JPEG's own subsampling, then into `target` (full-range 4:2:0, two planes).
    private func toFullRangeNV12(_ jpeg: UnsafePointer<UInt8>, count: Int, into target: CVPixelBuffer) -> Bool {
        var planes = cjd_planes()
        guard cjd_decode_planes(decoder, jpeg, count, Int32(target.width), Int32(target.height), &planes) == 0,
            let y = planes.data.0
        else { return false }
        let destination = target.planes
        let dy = destination[0].baseAddress.assumingMemoryBound(to: UInt8.self), dyStride = Int32(destination[0].bytesPerRow)
        let duv = destination[1].baseAddress.assumingMemoryBound(to: UInt8.self), duvStride = Int32(destination[1].bytesPerRow)
        let (w, h) = (Int32(target.width), Int32(target.height))
        let (cw, ch) = (Int32((target.width + 1) / 2), Int32((target.height + 1) / 2))
        let (yStride, uStride, vStride) = planes.stride
        guard planes.subsampling != CJD_SUBSAMPLING_GRAY else {
            CopyPlane(y, yStride, dy, dyStride, w, h)
            SetPlane(duv, duvStride, cw * 2, ch, 0x8080)
            return true
        }
        guard let u = planes.data.1, let v = planes.data.2 else { return false }
        switch planes.subsampling {
        case CJD_SUBSAMPLING_420:
            return I420ToNV12(y, yStride, u, uStride, v, vStride, dy, dyStride, duv, duvStride, w, h) == 0
        case CJD_SUBSAMPLING_444:
            return I444ToNV12(y, yStride, u, uStride, v, vStride, dy, dyStride, duv, duvStride, w, h) == 0
        default:
            // 4:2:2: halve the chroma rows into the decoder's own room, then interleave.
            let needed = Int(cw * ch) * 2
            if needed > halfChromaCapacity {
                free(halfChroma)
                halfChroma = malloc(needed)?.assumingMemoryBound(to: UInt8.self)
                halfChromaCapacity = halfChroma == nil ? 0 : needed
            }
            guard let halfU = halfChroma else { return false }
            let halfV = halfU + Int(cw * ch)
            guard I422ToI420(y, yStride, u, uStride, v, vStride, dy, dyStride, halfU, cw, halfV, cw, w, h) == 0 else { return false }
            MergeUVPlane(halfU, cw, halfV, cw, duv, duvStride, cw, ch)
            return true
        }
    }
}
