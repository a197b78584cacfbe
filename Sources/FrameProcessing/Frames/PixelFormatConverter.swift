import CYUV
import CoreVideo
import Foundation

/// Converts frames between the pixel formats the frame path carries, with libyuv.
///
/// Thread ownership: one converter belongs to one thread at a time; its scratch memory is
/// allocated once, at creation, for the largest frame it is asked to convert.
package final class PixelFormatConverter: @unchecked Sendable {
    private var scratch: UnsafeMutableRawPointer?
    private var scratchSize = 0
    /// The picture in the destination's format before it is turned, and in BGRA for formats
    /// that are turned through BGRA; kept while frames keep their size.
    var uprightScratch: CVPixelBuffer?
    var turnedScratch: CVPixelBuffer?

    package init() {}

    deinit { free(scratch) }

    /// The pixel formats this converter reads and writes.
    package static let supportedFormats: [OSType] = [
        kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange,
        kCVPixelFormatType_32BGRA, kCVPixelFormatType_422YpCbCr8_yuvs, kCVPixelFormatType_422YpCbCr8,
        kCVPixelFormatType_420YpCbCr10BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr10BiPlanarFullRange,
    ]

    /// libyuv's constants for a Y'CbCr matrix and range.
    static func constants(matrix: VideoColorimetry.Matrix, fullRange: Bool) -> OpaquePointer! {
        switch (matrix, fullRange) {
        case (.bt709, false): return cyuv_video_range_bt709()
        case (.bt709, true): return cyuv_full_range_bt709()
        case (.bt601, false): return cyuv_video_range_bt601()
        case (.bt601, true): return cyuv_full_range_bt601()
        }
    }

    private func scratchMemory(_ size: Int) -> UnsafeMutablePointer<UInt8> {
        if size > scratchSize {
            free(scratch)
            scratch = UnsafeMutableRawPointer.allocateAligned(byteCount: size, alignment: 64)
            scratchSize = size
        }
        return scratch!.assumingMemoryBound(to: UInt8.self)
    }

    /// Converts `source` into `destination`, which must have the same size, and gives it the
    /// source's colour tags (libyuv turns R'G'B' into Y'CbCr with BT.601) unless
    /// `copyingColorTags` is false. Returns whether it could.
    @discardableResult
    package func convert(_ source: CVPixelBuffer, into destination: CVPixelBuffer, copyingColorTags: Bool = true) -> Bool {
        guard convertPixels(source, into: destination) else { return false }
        guard copyingColorTags else { return true }
        let rgbToYCbCr =
            !(PixelFormatDescription.of(source.pixelFormatType)?.isYCbCr ?? false) && (PixelFormatDescription.of(destination.pixelFormatType)?.isYCbCr ?? false)
        VideoColorimetry.copy(from: source, to: destination, matrix: rgbToYCbCr ? .bt601 : nil)
        // R'G'B' with no colour tags still became BT.601 Y'CbCr: the destination says so rather than keep an older tag.
        if rgbToYCbCr { VideoColorimetry.tagMatrix(.bt601, of: destination) }
        return true
    }

    private func convertPixels(_ source: CVPixelBuffer, into destination: CVPixelBuffer) -> Bool {
        guard source.width == destination.width, source.height == destination.height else { return false }
        let (w, h) = (Int32(source.width), Int32(source.height))
        let s = source.planes, d = destination.planes
        func p(_ plane: CVPixelBuffer.Plane) -> UnsafeMutablePointer<UInt8> { plane.baseAddress.assumingMemoryBound(to: UInt8.self) }
        func r(_ plane: CVPixelBuffer.Plane) -> Int32 { Int32(plane.bytesPerRow) }
        func p16(_ plane: CVPixelBuffer.Plane) -> UnsafeMutablePointer<UInt16> { plane.baseAddress.assumingMemoryBound(to: UInt16.self) }
        let from = source.pixelFormatType, to = destination.pixelFormatType
        if from == to {
            for (src, dst) in zip(s, d) {
                CopyPlane(p(src), r(src), p(dst), r(dst), Int32(min(src.bytesPerRow, dst.bytesPerRow)), Int32(src.height))
            }
            return true
        }
        switch (from, to) {
        case (kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_32BGRA),
            (kCVPixelFormatType_420YpCbCr8BiPlanarFullRange, kCVPixelFormatType_32BGRA):
            // The matrix the frame is tagged with: BT.709 for HD video, BT.601 otherwise.
            let matrix = Self.constants(matrix: VideoColorimetry.matrix(of: source), fullRange: from == kCVPixelFormatType_420YpCbCr8BiPlanarFullRange)
            return NV12ToARGBMatrix(p(s[0]), r(s[0]), p(s[1]), r(s[1]), p(d[0]), r(d[0]), matrix, w, h) == 0
        case (kCVPixelFormatType_32BGRA, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange),
            (kCVPixelFormatType_32BGRA, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange):
            // Planar chroma into the scratch memory, then interleaved: libyuv's ARGBToNV12 gives the
            // same samples but allocates a row buffer at every call.
            let chromaWidth = (Int(w) + 1) / 2, chromaHeight = (Int(h) + 1) / 2
            let u = scratchMemory(chromaWidth * chromaHeight * 2)
            let v = u + chromaWidth * chromaHeight
            let planar =
                to == kCVPixelFormatType_420YpCbCr8BiPlanarFullRange
                ? ARGBToJ420(p(s[0]), r(s[0]), p(d[0]), r(d[0]), u, Int32(chromaWidth), v, Int32(chromaWidth), w, h)
                : ARGBToI420(p(s[0]), r(s[0]), p(d[0]), r(d[0]), u, Int32(chromaWidth), v, Int32(chromaWidth), w, h)
            guard planar == 0 else { return false }
            MergeUVPlane(u, Int32(chromaWidth), v, Int32(chromaWidth), p(d[1]), r(d[1]), Int32(chromaWidth), Int32(chromaHeight))
            return true
        case (kCVPixelFormatType_32BGRA, kCVPixelFormatType_OneComponent8):
            // Grey as a detector reads it: full-range luma (BT.601 weights), alpha left out.
            return ARGBToJ400(p(s[0]), r(s[0]), p(d[0]), r(d[0]), w, h) == 0
        case (kCVPixelFormatType_OneComponent8, kCVPixelFormatType_32BGRA):
            // A grey plane (a matte): each value as grey, opaque.
            return J400ToARGB(p(s[0]), r(s[0]), p(d[0]), r(d[0]), w, h) == 0
        case (kCVPixelFormatType_DepthFloat32, kCVPixelFormatType_32BGRA), (kCVPixelFormatType_DisparityFloat32, kCVPixelFormatType_32BGRA),
            (kCVPixelFormatType_DepthFloat16, kCVPixelFormatType_32BGRA), (kCVPixelFormatType_DisparityFloat16, kCVPixelFormatType_32BGRA):
            // Depth or disparity as grey, 0 black and 1 white, clamped, as Core Image shows a depth map.
            let half = from == kCVPixelFormatType_DepthFloat16 || from == kCVPixelFormatType_DisparityFloat16
            for row in 0..<Int(h) {
                let source = s[0].baseAddress + row * s[0].bytesPerRow
                let target = p(d[0]) + row * Int(r(d[0]))
                for column in 0..<Int(w) {
                    let value =
                        half ? Float(source.load(fromByteOffset: column * 2, as: Float16.self)) : source.load(fromByteOffset: column * 4, as: Float.self)
                    let grey = UInt8(value.isNaN ? 0 : (min(1, max(0, value)) * 255).rounded())
                    (target[column * 4], target[column * 4 + 1], target[column * 4 + 2], target[column * 4 + 3]) = (grey, grey, grey, 255)
                }
            }
            return true
        case (kCVPixelFormatType_24RGB, kCVPixelFormatType_32BGRA):
            // RGB24 holds R, G, B in memory: libyuv calls that RAW.
            return RAWToARGB(p(s[0]), r(s[0]), p(d[0]), r(d[0]), w, h) == 0
        case (kCVPixelFormatType_422YpCbCr8_yuvs, kCVPixelFormatType_32BGRA),
            (kCVPixelFormatType_422YpCbCr8, kCVPixelFormatType_32BGRA):
            let yuy2 = from == kCVPixelFormatType_422YpCbCr8_yuvs
            // libyuv's packed 4:2:2 conversions decode with BT.601: a frame tagged BT.709 is
            // unpacked into planes first and decoded with its own matrix.
            guard VideoColorimetry.matrix(of: source) == .bt709 else {
                return (yuy2 ? YUY2ToARGB : UYVYToARGB)(p(s[0]), r(s[0]), p(d[0]), r(d[0]), w, h) == 0
            }
            let chromaWidth = (Int(w) + 1) / 2, lumaSize = Int(w) * Int(h)
            let y = scratchMemory(lumaSize + 2 * chromaWidth * Int(h))
            let u = y + lumaSize, v = u + chromaWidth * Int(h)
            let chromaStride = Int32(chromaWidth)
            guard (yuy2 ? YUY2ToI422 : UYVYToI422)(p(s[0]), r(s[0]), y, w, u, chromaStride, v, chromaStride, w, h) == 0 else { return false }
            return I422ToARGBMatrix(y, w, u, chromaStride, v, chromaStride, p(d[0]), r(d[0]), Self.constants(matrix: .bt709, fullRange: false), w, h) == 0
        case (kCVPixelFormatType_422YpCbCr8_yuvs, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange):
            return YUY2ToNV12(p(s[0]), r(s[0]), p(d[0]), r(d[0]), p(d[1]), r(d[1]), w, h) == 0
        case (kCVPixelFormatType_422YpCbCr8, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange):
            return UYVYToNV12(p(s[0]), r(s[0]), p(d[0]), r(d[0]), p(d[1]), r(d[1]), w, h) == 0
        case (kCVPixelFormatType_32BGRA, kCVPixelFormatType_422YpCbCr8_yuvs):
            return ARGBToYUY2(p(s[0]), r(s[0]), p(d[0]), r(d[0]), w, h) == 0
        case (kCVPixelFormatType_32BGRA, kCVPixelFormatType_422YpCbCr8):
            return ARGBToUYVY(p(s[0]), r(s[0]), p(d[0]), r(d[0]), w, h) == 0
        case (kCVPixelFormatType_420YpCbCr10BiPlanarVideoRange, kCVPixelFormatType_32BGRA),
            (kCVPixelFormatType_420YpCbCr10BiPlanarFullRange, kCVPixelFormatType_32BGRA):
            let matrix = Self.constants(matrix: VideoColorimetry.matrix(of: source), fullRange: from == kCVPixelFormatType_420YpCbCr10BiPlanarFullRange)
            return P010ToARGBMatrix(p16(s[0]), r(s[0]) / 2, p16(s[1]), r(s[1]) / 2, p(d[0]), r(d[0]), matrix, w, h) == 0
        case (kCVPixelFormatType_32BGRA, kCVPixelFormatType_420YpCbCr10BiPlanarVideoRange),
            (kCVPixelFormatType_32BGRA, kCVPixelFormatType_420YpCbCr10BiPlanarFullRange):
            // Through 8-bit planar 4:2:0, widened to 10 bits, then interleaved: libyuv has no direct path.
            let chromaWidth = (Int(w) + 1) / 2, chromaHeight = (Int(h) + 1) / 2
            let lumaSize = Int(w) * Int(h), chromaSize = chromaWidth * chromaHeight
            let eightBitBytes = (lumaSize + 2 * chromaSize + 63) / 64 * 64
            let eight = scratchMemory(eightBitBytes * 3)
            let (y8, u8, v8) = (eight, eight + lumaSize, eight + lumaSize + chromaSize)
            let sixteen = UnsafeMutableRawPointer(eight + eightBitBytes).assumingMemoryBound(to: UInt16.self)
            let (y16, u16, v16) = (sixteen, sixteen + lumaSize, sixteen + lumaSize + chromaSize)
            let full = to == kCVPixelFormatType_420YpCbCr10BiPlanarFullRange
            let cw = Int32(chromaWidth)
            guard (full ? ARGBToJ420(p(s[0]), r(s[0]), y8, w, u8, cw, v8, cw, w, h) : ARGBToI420(p(s[0]), r(s[0]), y8, w, u8, cw, v8, cw, w, h)) == 0,
                I420ToI010(y8, w, u8, cw, v8, cw, y16, w, u16, cw, v16, cw, w, h) == 0
            else { return false }
            return I010ToP010(y16, w, u16, cw, v16, cw, p16(d[0]), r(d[0]) / 2, p16(d[1]), r(d[1]) / 2, w, h) == 0
        default:
            // Two steps through BGRA, in scratch memory.
            guard from != kCVPixelFormatType_32BGRA, to != kCVPixelFormatType_32BGRA else { return false }
            let stride = Int(w) * 4
            let bgra = scratchMemory(stride * Int(h) + (Int(w) + 1) * (Int(h) + 1))
            let intermediate = CVPixelBuffer(
                width: Int(w), height: Int(h), pixelFormatType: kCVPixelFormatType_32BGRA,
                planes: [.init(baseAddress: UnsafeMutableRawPointer(bgra), bytesPerRow: stride, width: Int(w), height: Int(h))],
                dataSize: stride * Int(h), release: nil)
            let second = PixelFormatConverter()
            return convert(source, into: intermediate) && second.convert(intermediate, into: destination)
        }
    }
}
