import CYUV
import CoreVideo

/// libyuv's mixing of two-plane 4:2:0 pictures, for composing video layers without leaving
/// Y'CbCr: a region painted one colour, a picture copied into a region, and a picture mixed
/// into a region by a fraction. Nothing is allocated.
package enum PlaneBlending {
    /// One Y'CbCr colour as two-plane 4:2:0 stores it.
    package struct Colour: Equatable, Sendable {
        package var luma: UInt8
        package var cb: UInt8
        package var cr: UInt8

        package init(luma: UInt8, cb: UInt8, cr: UInt8) {
            (self.luma, self.cb, self.cr) = (luma, cb, cr)
        }

        /// The Y'CbCr of a gamma-encoded R'G'B' colour (each 0 to 1) in a matrix and range.
        package init(red: Double, green: Double, blue: Double, matrix: VideoColorimetry.Matrix, fullRange: Bool) {
            let (kr, kb) = matrix == .bt709 ? (0.2126, 0.0722) : (0.299, 0.114)
            func kept(_ value: Double) -> Double { value.isNaN ? 0 : min(1, max(0, value)) }
            let (r, g, b) = (kept(red), kept(green), kept(blue))
            let y = kr * r + (1 - kr - kb) * g + kb * b
            let pb = (b - y) / (2 * (1 - kb)), pr = (r - y) / (2 * (1 - kr))
            func byte(_ value: Double) -> UInt8 { UInt8(min(255, max(0, value.rounded()))) }
            if fullRange {
                self.init(luma: byte(255 * y), cb: byte(128 + 255 * pb), cr: byte(128 + 255 * pr))
            } else {
                self.init(luma: byte(16 + 219 * y), cb: byte(128 + 224 * pb), cr: byte(128 + 224 * pr))
            }
        }
    }

    /// A region of a two-plane 4:2:0 buffer, in luma samples; every side even.
    package struct Region: Equatable, Sendable {
        package var x: Int
        package var y: Int
        package var width: Int
        package var height: Int

        package init(x: Int, y: Int, width: Int, height: Int) {
            (self.x, self.y, self.width, self.height) = (x, y, width, height)
        }

        /// Whether the region has even sides and offsets, is not empty, and lies inside a `width` x `height` picture.
        package func isPlaceable(within width: Int, _ height: Int) -> Bool {
            x >= 0 && y >= 0 && self.width > 0 && self.height > 0 && x + self.width <= width && y + self.height <= height
                && (x | y | self.width | self.height) & 1 == 0
        }
    }

    /// The luma and chroma rows of a region of a two-plane 4:2:0 buffer.
    private static func rows(_ buffer: CVPixelBuffer, _ region: Region) -> (luma: PlaneScaling.Rows, chroma: PlaneScaling.Rows) {
        let planes = buffer.planes
        return (
            PlaneScaling.Rows(planes[0], x: region.x, y: region.y, width: region.width, height: region.height),
            PlaneScaling.Rows(planes[1], x: region.x / 2, y: region.y / 2, width: region.width / 2, height: region.height / 2, bytesPerPixel: 2)
        )
    }

    /// Paints a region of a two-plane 4:2:0 buffer one colour.
    package static func fill(_ buffer: CVPixelBuffer, _ region: Region, with colour: Colour) {
        let (luma, chroma) = rows(buffer, region)
        SetPlane(luma.base, Int32(luma.bytesPerRow), Int32(luma.width), Int32(luma.height), UInt32(colour.luma))
        let pair = UInt16(colour.cb) | UInt16(colour.cr) << 8
        for row in 0..<chroma.height {
            UnsafeMutableRawPointer(chroma.base + row * chroma.bytesPerRow).initializeMemory(as: UInt16.self, repeating: pair, count: chroma.width)
        }
    }

    /// Puts the `region` of `source` into the `placement` of `target` (both two-plane 4:2:0 of
    /// one range), scaled bilinearly when the sizes differ, mixed over what is there by
    /// `fraction` of 256 (256 or more covers it); shrunk with a box filter, grown bilinearly. A scaled picture that is mixed goes through
    /// `scratch`, which must hold the placement's size.
    @discardableResult
    package static func place(
        _ source: CVPixelBuffer, region: Region, into target: CVPixelBuffer, placement: Region, fraction: Int, scratch: CVPixelBuffer?
    ) -> Bool {
        guard fraction > 0 else { return true }
        let from = rows(source, region), to = rows(target, placement)
        let scaled = region.width != placement.width || region.height != placement.height
        // Every source sample counts when shrinking; growing interpolates.
        let filter: PlaneScaling.Filter = placement.width < region.width || placement.height < region.height ? .box : .bilinear
        if fraction >= 256 {
            if scaled { return PlaneScaling.scaleBiPlanar(luma: from.luma, chroma: from.chroma, into: to.luma, to.chroma, filter: filter) }
            copy(from.luma, to.luma, bytesPerSample: 1)
            copy(from.chroma, to.chroma, bytesPerSample: 2)
            return true
        }
        var mixed = from
        if scaled {
            guard let scratch, scratch.width >= placement.width, scratch.height >= placement.height else { return false }
            let made = rows(scratch, Region(x: 0, y: 0, width: placement.width, height: placement.height))
            guard PlaneScaling.scaleBiPlanar(luma: from.luma, chroma: from.chroma, into: made.luma, made.chroma, filter: filter) else { return false }
            mixed = made
        }
        let amount = Int32(min(255, fraction))
        return InterpolatePlane(
            to.luma.base, Int32(to.luma.bytesPerRow), mixed.luma.base, Int32(mixed.luma.bytesPerRow), to.luma.base, Int32(to.luma.bytesPerRow),
            Int32(to.luma.width), Int32(to.luma.height), amount) == 0
            && InterpolatePlane(
                to.chroma.base, Int32(to.chroma.bytesPerRow), mixed.chroma.base, Int32(mixed.chroma.bytesPerRow), to.chroma.base,
                Int32(to.chroma.bytesPerRow), Int32(to.chroma.width * 2), Int32(to.chroma.height), amount) == 0
    }

    /// Copies rows of samples of equal size.
    private static func copy(_ source: PlaneScaling.Rows, _ target: PlaneScaling.Rows, bytesPerSample: Int) {
        CopyPlane(source.base, Int32(source.bytesPerRow), target.base, Int32(target.bytesPerRow), Int32(source.width * bytesPerSample), Int32(source.height))
    }
}
