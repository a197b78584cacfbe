import CYUV
import CoreVideo

/// libyuv's scaling, called from this file only: 8-bit planes, BGRA rows and interleaved
/// Cb/Cr planes scaled with a box or bilinear filter, and regions of pixel buffers scaled into
/// whole ones of the same format.
package enum PlaneScaling {
    /// How samples are filtered: a box for shrinking (every sample counts), bilinear for growing.
    package enum Filter: Sendable {
        case box, bilinear

        var mode: FilterMode { self == .box ? kFilterBox : kFilterBilinear }
    }

    /// Rows of samples in memory: where they start, how far apart rows are, and how many there are
    /// (`width` counts pixels: BGRA quadruples, Cb/Cr pairs, or single samples).
    package struct Rows {
        package var base: UnsafeMutablePointer<UInt8>
        package var bytesPerRow: Int
        package var width: Int
        package var height: Int

        /// Rows at `base`.
        package init(_ base: UnsafeMutablePointer<UInt8>, bytesPerRow: Int, width: Int, height: Int) {
            self.base = base
            self.bytesPerRow = bytesPerRow
            self.width = width
            self.height = height
        }

        /// A plane of a pixel buffer, or the `width` x `height` region of it at (`x`, `y`) in that plane's samples;
        /// `bytesPerPixel` is 4 for BGRA, 2 for interleaved chroma, 1 otherwise.
        package init(_ plane: CVPixelBuffer.Plane, x: Int = 0, y: Int = 0, width: Int? = nil, height: Int? = nil, bytesPerPixel: Int = 1) {
            self.init(
                plane.baseAddress.assumingMemoryBound(to: UInt8.self) + y * plane.bytesPerRow + x * bytesPerPixel,
                bytesPerRow: plane.bytesPerRow, width: width ?? plane.width, height: height ?? plane.height)
        }
    }

    /// Scales BGRA pixels; false when libyuv refuses.
    @discardableResult
    package static func scaleBGRA(_ source: Rows, into target: Rows, filter: Filter) -> Bool {
        ARGBScale(
            source.base, Int32(source.bytesPerRow), Int32(source.width), Int32(source.height),
            target.base, Int32(target.bytesPerRow), Int32(target.width), Int32(target.height), filter.mode) == 0
    }

    /// Scales a plane of single 8-bit samples (grey, or 4:2:0's luma).
    package static func scaleSamples(_ source: Rows, into target: Rows, filter: Filter) {
        ScalePlane(
            source.base, Int32(source.bytesPerRow), Int32(source.width), Int32(source.height),
            target.base, Int32(target.bytesPerRow), Int32(target.width), Int32(target.height), filter.mode)
    }

    /// Scales a plane of interleaved Cb/Cr pairs.
    package static func scaleChroma(_ source: Rows, into target: Rows, filter: Filter) {
        UVScale(
            source.base, Int32(source.bytesPerRow), Int32(source.width), Int32(source.height),
            target.base, Int32(target.bytesPerRow), Int32(target.width), Int32(target.height), filter.mode)
    }

    /// Scales two-plane 4:2:0 (luma, then interleaved chroma at half size); false when libyuv refuses.
    @discardableResult
    package static func scaleBiPlanar(luma: Rows, chroma: Rows, into targetLuma: Rows, _ targetChroma: Rows, filter: Filter) -> Bool {
        NV12Scale(
            luma.base, Int32(luma.bytesPerRow), chroma.base, Int32(chroma.bytesPerRow), Int32(luma.width), Int32(luma.height),
            targetLuma.base, Int32(targetLuma.bytesPerRow), targetChroma.base, Int32(targetChroma.bytesPerRow),
            Int32(targetLuma.width), Int32(targetLuma.height), filter.mode) == 0
    }

    /// Scales the `region` of `source` (all of it when nil; even offsets and sizes for 4:2:0) into
    /// the `placement` area of `destination` (all of it when nil), both BGRA, both two-plane 4:2:0,
    /// or both 8-bit grey (without a placement); false for other formats, formats that differ, or
    /// when libyuv refuses. Outside a placement, BGRA and two-plane 4:2:0 are painted black.
    package static func scale(
        _ source: CVPixelBuffer, region: (x: Int, y: Int, width: Int, height: Int)? = nil,
        into destination: CVPixelBuffer, placement: (x: Int, y: Int, width: Int, height: Int)? = nil, filter: Filter
    ) -> Bool {
        let area = region ?? (0, 0, source.width, source.height)
        let place = placement ?? (0, 0, destination.width, destination.height)
        let s = source.planes, d = destination.planes
        switch (source.pixelFormatType, destination.pixelFormatType) {
        case (kCVPixelFormatType_32BGRA, kCVPixelFormatType_32BGRA):
            if placement != nil { paintBlackAround(place, in: destination) }
            return scaleBGRA(
                Rows(s[0], x: area.x, y: area.y, width: area.width, height: area.height, bytesPerPixel: 4),
                into: Rows(d[0], x: place.x, y: place.y, width: place.width, height: place.height, bytesPerPixel: 4), filter: filter)
        case (kCVPixelFormatType_OneComponent8, kCVPixelFormatType_OneComponent8) where placement == nil:
            scaleSamples(Rows(s[0], x: area.x, y: area.y, width: area.width, height: area.height), into: Rows(d[0]), filter: filter)
            return true
        case (let from, let to)
        where from == to && (from == kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange || from == kCVPixelFormatType_420YpCbCr8BiPlanarFullRange):
            if placement != nil { paintBlackAround(place, in: destination, fullRange: to == kCVPixelFormatType_420YpCbCr8BiPlanarFullRange) }
            return scaleBiPlanar(
                luma: Rows(s[0], x: area.x, y: area.y, width: area.width, height: area.height),
                chroma: Rows(s[1], x: area.x / 2, y: area.y / 2, width: area.width / 2, height: area.height / 2, bytesPerPixel: 2),
                into: Rows(d[0], x: place.x, y: place.y, width: place.width, height: place.height),
                Rows(d[1], x: place.x / 2, y: place.y / 2, width: place.width / 2, height: place.height / 2, bytesPerPixel: 2), filter: filter)
        default:
            return false
        }
    }

    /// Paints the bars of BGRA `buffer` around `area` opaque black.
    private static func paintBlackAround(_ area: (x: Int, y: Int, width: Int, height: Int), in buffer: CVPixelBuffer) {
        let plane = buffer.planes[0]
        func paint(_ x: Int, _ y: Int, _ width: Int, _ height: Int) {
            guard width > 0, height > 0 else { return }
            ARGBRect(
                plane.baseAddress.assumingMemoryBound(to: UInt8.self), Int32(plane.bytesPerRow), Int32(x), Int32(y), Int32(width), Int32(height), 0xFF00_0000)
        }
        paint(0, 0, buffer.width, area.y)
        paint(0, area.y + area.height, buffer.width, buffer.height - area.y - area.height)
        paint(0, area.y, area.x, area.height)
        paint(area.x + area.width, area.y, buffer.width - area.x - area.width, area.height)
    }

    /// Paints the bars of two-plane 4:2:0 `buffer` around `area` (even) black: the rows above and
    /// below it, and the columns beside it.
    private static func paintBlackAround(_ area: (x: Int, y: Int, width: Int, height: Int), in buffer: CVPixelBuffer, fullRange: Bool) {
        let planes = buffer.planes
        let black: UInt32 = fullRange ? 0 : 16
        func paint(_ x: Int, _ y: Int, _ width: Int, _ height: Int) {
            guard width > 0, height > 0 else { return }
            let luma = Rows(planes[0], x: x, y: y, width: width, height: height)
            SetPlane(luma.base, Int32(luma.bytesPerRow), Int32(width), Int32(height), black)
            let chroma = Rows(planes[1], x: x / 2, y: y / 2, width: width / 2, height: height / 2, bytesPerPixel: 2)
            SetPlane(chroma.base, Int32(chroma.bytesPerRow), Int32(width), Int32(height / 2), 128)
        }
        paint(0, 0, buffer.width, area.y)
        paint(0, area.y + area.height, buffer.width, buffer.height - area.y - area.height)
        paint(0, area.y, area.x, area.height)
        paint(area.x + area.width, area.y, buffer.width - area.x - area.width, area.height)
    }
}
