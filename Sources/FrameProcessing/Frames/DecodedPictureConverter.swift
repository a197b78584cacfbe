import CYUV
import CoreVideo
import Foundation

/// Turns a decoder's 8-bit 4:2:0 pictures (three planes, or luma and interleaved chroma) into
/// BGRA pixel buffers with libyuv's SIMD conversions, at the picture's size or shrunk with a box
/// filter first (the chroma planes scaled with the luma, so only the smaller picture is converted).
///
/// Thread ownership: one thread at a time (a decoder's). The scaled planes' memory is made once a
/// size and kept.
package final class DecodedPictureConverter {
    /// How a decoded picture's planes lie in memory.
    package enum Layout: Sendable {
        /// Luma, then Cb and Cr planes at half size each way.
        case threePlanes
        /// Luma, then one plane of interleaved Cb/Cr pairs at half size each way.
        case twoPlanes
    }

    /// A decoded picture's planes, borrowed for one conversion.
    package struct Picture {
        package var layout: Layout
        package var width: Int
        package var height: Int
        package var planes: (UnsafePointer<UInt8>, UnsafePointer<UInt8>, UnsafePointer<UInt8>?)
        package var strides: (Int32, Int32, Int32)

        /// A picture of `layout` whose planes start at `planes` and whose rows are `strides` apart.
        package init(
            layout: Layout, width: Int, height: Int, planes: (UnsafePointer<UInt8>, UnsafePointer<UInt8>, UnsafePointer<UInt8>?),
            strides: (Int32, Int32, Int32)
        ) {
            self.layout = layout
            self.width = width
            self.height = height
            self.planes = planes
            self.strides = strides
        }
    }

    private var scratch: UnsafeMutableRawPointer?
    private var scratchSize = 0

    /// A converter with no memory yet.
    package init() {}

    deinit { free(scratch) }

    /// Converts `picture`, Y'CbCr with `matrix` in `fullRange` or video range, into `destination`
    /// (BGRA), shrinking it to the destination's size; false when the destination is not BGRA,
    /// would be larger than the picture, or libyuv refuses.
    package func convert(_ picture: Picture, matrix: VideoColorimetry.Matrix, fullRange: Bool, into destination: CVPixelBuffer) -> Bool {
        guard CVPixelBufferGetPixelFormatType(destination) == kCVPixelFormatType_32BGRA,
            let target = destination.planes.first
        else { return false }
        let (width, height) = (destination.width, destination.height)
        guard width > 0, height > 0, width <= picture.width, height <= picture.height else { return false }
        let constants = PixelFormatConverter.constants(matrix: matrix, fullRange: fullRange)
        let out = target.baseAddress.assumingMemoryBound(to: UInt8.self)
        let outStride = Int32(target.bytesPerRow)
        var source = picture
        if (width, height) != (picture.width, picture.height) {
            guard let scaled = shrink(picture, toWidth: width, height: height) else { return false }
            source = scaled
        }
        let (w, h) = (Int32(width), Int32(height))
        switch source.layout {
        case .threePlanes:
            guard let cr = source.planes.2 else { return false }
            return I420ToARGBMatrix(
                source.planes.0, source.strides.0, source.planes.1, source.strides.1, cr, source.strides.2, out, outStride, constants, w, h)
                == 0
        case .twoPlanes:
            return NV12ToARGBMatrix(source.planes.0, source.strides.0, source.planes.1, source.strides.1, out, outStride, constants, w, h) == 0
        }
    }

    /// The picture shrunk with a box filter into the converter's own memory, in its own layout.
    private func shrink(_ picture: Picture, toWidth width: Int, height: Int) -> Picture? {
        let chromaWidth = (width + 1) / 2
        let chromaHeight = (height + 1) / 2
        let lumaStride = (width + 63) / 64 * 64
        let chromaStride =
            picture.layout == .threePlanes ? (chromaWidth + 63) / 64 * 64 : (chromaWidth * 2 + 63) / 64 * 64
        let chromaPlanes = picture.layout == .threePlanes ? 2 : 1
        let size = lumaStride * height + chromaStride * chromaHeight * chromaPlanes
        if size > scratchSize {
            free(scratch)
            scratch = UnsafeMutableRawPointer.allocateAligned(byteCount: size, alignment: 64)
            scratchSize = scratch == nil ? 0 : size
        }
        guard let memory = scratch?.assumingMemoryBound(to: UInt8.self) else { return nil }
        let luma = memory
        let first = luma + lumaStride * height
        let second = first + chromaStride * chromaHeight
        let (w, h, sw, sh) = (Int32(width), Int32(height), Int32(picture.width), Int32(picture.height))
        switch picture.layout {
        case .threePlanes:
            guard let cr = picture.planes.2,
                I420Scale(
                    picture.planes.0, picture.strides.0, picture.planes.1, picture.strides.1, cr, picture.strides.2, sw, sh,
                    luma, Int32(lumaStride), first, Int32(chromaStride), second, Int32(chromaStride), w, h, kFilterBox) == 0
            else { return nil }
            return Picture(
                layout: .threePlanes, width: width, height: height, planes: (UnsafePointer(luma), UnsafePointer(first), UnsafePointer(second)),
                strides: (Int32(lumaStride), Int32(chromaStride), Int32(chromaStride)))
        case .twoPlanes:
            guard
                NV12Scale(
                    picture.planes.0, picture.strides.0, picture.planes.1, picture.strides.1, sw, sh,
                    luma, Int32(lumaStride), first, Int32(chromaStride), w, h, kFilterBox) == 0
            else { return nil }
            return Picture(
                layout: .twoPlanes, width: width, height: height, planes: (UnsafePointer(luma), UnsafePointer(first), nil),
                strides: (Int32(lumaStride), Int32(chromaStride), 0))
        }
    }
}
