import CTurboJPEG
import CYUV
import CoreVideo
import Foundation

/// Decodes MJPEG frames (libjpeg-turbo) into frames of any pixel format the frame path carries.
///
/// Frames in any of the subsamplings cameras send (4:2:2 from most USB cameras, 4:2:0, 4:4:4,
/// grey) decode to planes in the JPEG's own layout and become full-range 4:2:0 with libyuv;
/// BGRA decodes straight into the target. Other formats, and zoomed frames, go through one
/// scratch frame.
/// Thread ownership: one decoder belongs to one thread at a time; its memory is allocated on
/// first use, for the frame size of the stream, and reused for every frame.
package final class MJPEGDecoder: @unchecked Sendable {
    private let handle: tjhandle?
    private var planes: UnsafeMutablePointer<UInt8>?
    private var planesCapacity = 0
    private var scratch: VideoFramePool?
    private let converter = PixelFormatConverter()
    private let planePointers = UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>.allocate(capacity: 3)
    private let planeStrides = UnsafeMutablePointer<Int32>.allocate(capacity: 3)

    package init() { handle = tjInitDecompress() }

    deinit {
        if let handle { tjDestroy(handle) }
        free(planes)
        planePointers.deallocate()
        planeStrides.deallocate()
    }

    /// Decodes `count` bytes of JPEG into `target`, whose size must be the picture's; returns whether it could.
    package func decode(_ jpeg: UnsafePointer<UInt8>, count: Int, into target: CVPixelBuffer) -> Bool {
        guard let handle, count > 0 else { return false }
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        guard tjDecompressHeader3(handle, jpeg, UInt(count), &width, &height, &subsampling, &colorspace) == 0,
              Int(width) == target.width, Int(height) == target.height else { return false }
        if target.pixelFormatType == kCVPixelFormatType_32BGRA {
            let plane = target.planes[0]
            VideoColorimetry.jpeg.tag(target)
            return tjDecompress2(handle, jpeg, UInt(count), plane.baseAddress.assumingMemoryBound(to: UInt8.self), width,
                                 Int32(plane.bytesPerRow), height, Int32(TJPF_BGRA.rawValue), 0) == 0
        }
        var decoded = target
        if target.pixelFormatType != kCVPixelFormatType_420YpCbCr8BiPlanarFullRange {
            guard let frame = scratchFrame(like: target) else { return false }
            decoded = frame
        }
        guard toFullRangeNV12(jpeg, count: count, width: Int(width), height: Int(height), subsampling: subsampling, into: decoded) else { return false }
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
            scratch = VideoFramePool(width: frame.width, height: frame.height, pixelFormat: kCVPixelFormatType_420YpCbCr8BiPlanarFullRange, capacity: 1)
        }
        return scratch?.dequeue()?.0
    }

    /// Decodes to planes in the JPEG's own subsampling, then into `target` (full-range 4:2:0, two planes).
    private func toFullRangeNV12(_ jpeg: UnsafePointer<UInt8>, count: Int, width: Int, height: Int, subsampling: Int32, into target: CVPixelBuffer) -> Bool {
        let chroma: (Int, Int)
        switch subsampling {
        case Int32(TJSAMP_444.rawValue): chroma = (width, height)
        case Int32(TJSAMP_422.rawValue): chroma = ((width + 1) / 2, height)
        case Int32(TJSAMP_420.rawValue): chroma = ((width + 1) / 2, (height + 1) / 2)
        case Int32(TJSAMP_GRAY.rawValue): chroma = (0, 0)
        default: return false
        }
        let needed = width * height + 2 * chroma.0 * chroma.1 + (width + 1) / 2 * ((height + 1) / 2) * 2
        if needed > planesCapacity {
            free(planes)
            planes = malloc(needed)?.assumingMemoryBound(to: UInt8.self)
            planesCapacity = planes == nil ? 0 : needed
        }
        guard let y = planes else { return false }
        let u = y + width * height, v = u + chroma.0 * chroma.1
        (planePointers[0], planePointers[1], planePointers[2]) = (y, chroma.0 > 0 ? u : nil, chroma.0 > 0 ? v : nil)
        (planeStrides[0], planeStrides[1], planeStrides[2]) = (Int32(width), Int32(chroma.0), Int32(chroma.0))
        guard tjDecompressToYUVPlanes(handle, jpeg, UInt(count), planePointers, Int32(width), planeStrides, Int32(height), 0) == 0 else { return false }
        let destination = target.planes
        let dy = destination[0].baseAddress.assumingMemoryBound(to: UInt8.self), dyStride = Int32(destination[0].bytesPerRow)
        let duv = destination[1].baseAddress.assumingMemoryBound(to: UInt8.self), duvStride = Int32(destination[1].bytesPerRow)
        let (w, h) = (Int32(width), Int32(height))
        let (cw, ch) = (Int32((width + 1) / 2), Int32((height + 1) / 2))
        switch subsampling {
        case Int32(TJSAMP_420.rawValue):
            return I420ToNV12(y, w, u, cw, v, cw, dy, dyStride, duv, duvStride, w, h) == 0
        case Int32(TJSAMP_444.rawValue):
            return I444ToNV12(y, w, u, w, v, w, dy, dyStride, duv, duvStride, w, h) == 0
        case Int32(TJSAMP_422.rawValue):
            // Halve the chroma rows into the spare room after the planes, then interleave.
            let halfU = v + chroma.0 * chroma.1, halfV = halfU + Int(cw * ch)
            guard I422ToI420(y, w, u, cw, v, cw, dy, dyStride, halfU, cw, halfV, cw, w, h) == 0 else { return false }
            MergeUVPlane(halfU, cw, halfV, cw, duv, duvStride, cw, ch)
            return true
        default:
            CopyPlane(y, w, dy, dyStride, w, h)
            SetPlane(duv, duvStride, cw * 2, ch, 0x8080)
            return true
        }
    }
}
