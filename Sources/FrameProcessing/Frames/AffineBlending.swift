import CCairo
import CYUV
import CoreGraphics
import CoreVideo
import Foundation

/// Draws BGRA pictures onto a BGRA canvas through any affine transform, faded, with pixman (the
/// pixel library under cairo): bilinear sampling, premultiplied Porter-Duff "over", edges
/// smoothed. For composing video layers that are turned by any angle or placed between pixels.
///
/// pixman's views of memory (its images) are made once for each buffer and kept, as are the
/// scratch pictures frames are converted or cropped into, so that composing the frames of a
/// steady stream allocates nothing.
///
/// Thread ownership: one blending belongs to one thread at a time.
package final class AffineBlending {
    /// A pixman image over a buffer's memory, kept while the memory has this geometry.
    private struct ViewKey: Hashable {
        var base: UnsafeMutableRawPointer
        var width: Int
        var height: Int
        var bytesPerRow: Int
    }

    /// At most this many views are kept; when more are asked for, the old ones are let go.
    private static let keptViews = 32
    private var views: [ViewKey: OpaquePointer] = [:]
    /// A 1x1 alpha picture repeated everywhere, whose one value is the layer's opacity.
    private let opacityBits: UnsafeMutablePointer<UInt32>
    private let opacityMask: OpaquePointer
    /// Where layers that must be converted or cropped first are put, one for each layer position.
    private var scratch: [CVPixelBuffer?] = []
    /// The BGRA pictures of layers drawn at a fraction of their size, by layer position; kept
    /// while the frames and the fraction keep their sizes.
    private var shrunk: [Int: CVPixelBuffer] = [:]
    private let converter = PixelFormatConverter()
    /// Shrinks and converts those layers' two-plane 4:2:0 frames.
    private let shrinker = DecodedPictureConverter()
    /// The most a layer is shrunk before drawing: a sixteenth of its width and height.
    private static let largestShrink = 16

    /// A blending, or nil when pixman cannot be loaded.
    package init?() {
        guard ccairo_load() == nil else { return nil }
        opacityBits = .allocate(capacity: 1)
        opacityBits.initialize(to: 0xFFFF_FFFF)
        guard let mask = pixman_image_create_bits(PIXMAN_a8, 1, 1, opacityBits, 4) else {
            opacityBits.deallocate()
            return nil
        }
        pixman_image_set_repeat(mask, PIXMAN_REPEAT_NORMAL)
        opacityMask = mask
        views.reserveCapacity(Self.keptViews)
        scratch.reserveCapacity(8)
    }

    deinit {
        for view in views.values { pixman_image_unref(view) }
        pixman_image_unref(opacityMask)
        opacityBits.deallocate()
    }

    /// pixman's image over a BGRA buffer's memory, made the first time it is seen.
    private func view(of buffer: CVPixelBuffer) -> OpaquePointer? {
        guard let plane = buffer.planes.first, buffer.pixelFormatType == kCVPixelFormatType_32BGRA, plane.bytesPerRow % 4 == 0 else { return nil }
        let key = ViewKey(base: plane.baseAddress, width: buffer.width, height: buffer.height, bytesPerRow: plane.bytesPerRow)
        if let view = views[key] { return view }
        if views.count >= Self.keptViews {
            for view in views.values { pixman_image_unref(view) }
            views.removeAll(keepingCapacity: true)
        }
        guard
            let view = pixman_image_create_bits(
                PIXMAN_a8r8g8b8, Int32(buffer.width), Int32(buffer.height), plane.baseAddress.assumingMemoryBound(to: UInt32.self), Int32(plane.bytesPerRow))
        else { return nil }
        pixman_image_set_filter(view, PIXMAN_FILTER_BILINEAR, nil, 0)
        views[key] = view
        return view
    }

    /// Paints a BGRA canvas one colour, given as gamma-encoded red, green, blue and alpha from 0
    /// to 1 (not premultiplied).
    package func fill(_ canvas: CVPixelBuffer, red: Double, green: Double, blue: Double, alpha: Double) {
        guard let plane = canvas.planes.first, canvas.pixelFormatType == kCVPixelFormatType_32BGRA else { return }
        func byte(_ value: Double) -> UInt32 { value.isNaN ? 0 : UInt32((min(1, max(0, value)) * 255).rounded()) }
        let a = byte(alpha), opacity = Double(a) / 255
        let value = a << 24 | byte(red * opacity) << 16 | byte(green * opacity) << 8 | byte(blue * opacity)
        ARGBRect(plane.baseAddress.assumingMemoryBound(to: UInt8.self), Int32(plane.bytesPerRow), 0, 0, Int32(canvas.width), Int32(canvas.height), value)
    }

    /// The BGRA picture to draw for `frame` cropped to `crop` (in its pixels, from the top left;
    /// nil for all of it): the frame itself when it is BGRA and whole, otherwise the frame
    /// converted into the scratch picture of layer position `slot`, transparent outside the crop.
    package func layer(_ frame: CVPixelBuffer, crop: CGRect?, slot: Int) -> CVPixelBuffer? {
        let whole = CGRect(x: 0, y: 0, width: frame.width, height: frame.height)
        let kept = (crop.map { $0.standardized.intersection(whole) } ?? whole)
        guard !kept.isNull, !kept.isEmpty else { return nil }
        let (left, top) = (Int(kept.minX.rounded()), Int(kept.minY.rounded()))
        let (right, bottom) = (Int(kept.maxX.rounded()), Int(kept.maxY.rounded()))
        guard right > left, bottom > top else { return nil }
        let cropped = left > 0 || top > 0 || right < frame.width || bottom < frame.height
        if frame.pixelFormatType == kCVPixelFormatType_32BGRA, !cropped { return frame }
        while scratch.count <= slot { scratch.append(nil) }
        if scratch[slot].map({ $0.width != frame.width || $0.height != frame.height }) ?? true {
            scratch[slot] = CVPixelBuffer(width: frame.width, height: frame.height, pixelFormatType: kCVPixelFormatType_32BGRA)
        }
        guard let picture = scratch[slot], converter.convert(frame, into: picture), let plane = picture.planes.first else { return nil }
        // Clear what the crop leaves out: the rows above and below it, and either side of it.
        let base = plane.baseAddress.assumingMemoryBound(to: UInt8.self), stride = Int32(plane.bytesPerRow)
        let (width, height) = (Int32(frame.width), Int32(frame.height))
        let (l, t, r, b) = (Int32(left), Int32(top), Int32(right), Int32(bottom))
        if t > 0 { ARGBRect(base, stride, 0, 0, width, t, 0) }
        if b < height { ARGBRect(base, stride, 0, b, width, height - b, 0) }
        if l > 0 { ARGBRect(base, stride, 0, t, l, b - t, 0) }
        if r < width { ARGBRect(base, stride, r, t, width - r, b - t, 0) }
        return picture
    }

    /// The BGRA picture to draw for a whole two-plane 4:2:0 `frame` that `transform` draws at half
    /// its size or less, and the transform from that picture's pixels to the canvas's: the frame
    /// shrunk first (libyuv's box filter on its planes) by the largest power of two that leaves it
    /// no smaller than it is drawn, so only that many pixels are converted and pixman's bilinear
    /// sampling has no detail to skip. nil when the frame is drawn larger than half its size or is
    /// not two-plane 4:2:0; the caller then takes `layer(_:crop:slot:)`.
    package func shrunkLayer(_ frame: CVPixelBuffer, transform: CGAffineTransform, slot: Int) -> (picture: CVPixelBuffer, transform: CGAffineTransform)? {
        let format = frame.pixelFormatType
        guard format == kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange || format == kCVPixelFormatType_420YpCbCr8BiPlanarFullRange else { return nil }
        // How much the transform shrinks each of the frame's axes.
        let across = (transform.a * transform.a + transform.b * transform.b).squareRoot()
        let down = (transform.c * transform.c + transform.d * transform.d).squareRoot()
        let most = max(across, down)
        guard most.isFinite, most > 0 else { return nil }
        var factor = 1
        while factor < Self.largestShrink, CGFloat(factor * 2) * most <= 1 { factor *= 2 }
        guard factor > 1 else { return nil }
        let (width, height) = ((frame.width + factor - 1) / factor, (frame.height + factor - 1) / factor)
        if shrunk[slot].map({ $0.width != width || $0.height != height }) ?? true {
            shrunk[slot] = CVPixelBuffer(width: width, height: height, pixelFormatType: kCVPixelFormatType_32BGRA)
        }
        guard let picture = shrunk[slot], frame.planes.count == 2 else { return nil }
        let (luma, chroma) = (frame.planes[0], frame.planes[1])
        let planes = DecodedPictureConverter.Picture(
            layout: .twoPlanes, width: frame.width, height: frame.height,
            planes: (
                UnsafePointer(luma.baseAddress.assumingMemoryBound(to: UInt8.self)), UnsafePointer(chroma.baseAddress.assumingMemoryBound(to: UInt8.self)), nil
            ),
            strides: (Int32(luma.bytesPerRow), Int32(chroma.bytesPerRow), 0))
        // The frame's own matrix: the shrunk size alone would suggest another.
        guard
            shrinker.convert(
                planes, matrix: VideoColorimetry.matrix(of: frame), fullRange: format == kCVPixelFormatType_420YpCbCr8BiPlanarFullRange, into: picture)
        else { return nil }
        // Each of the picture's pixels stands for a block of the frame's, centre on centre.
        let scale = CGAffineTransform(scaleX: CGFloat(frame.width) / CGFloat(width), y: CGFloat(frame.height) / CGFloat(height))
        return (picture, scale.concatenating(transform))
    }

    /// pixman's fixed-point number for a value, nil when it is out of its range.
    private static func fixed(_ value: CGFloat) -> pixman_fixed_t? {
        let scaled = (value * 65536).rounded()
        guard scaled.isFinite, abs(scaled) < 2_147_483_647 else { return nil }
        return pixman_fixed_t(scaled)
    }

    /// Draws `source` (BGRA) onto `canvas` (BGRA) through `transform` (from the source's pixels
    /// to the canvas's, both from the top left), faded by `opacity`. Returns false, with the
    /// canvas untouched, when the transform cannot be inverted or pixman cannot take it.
    @discardableResult
    package func draw(_ source: CVPixelBuffer, transform: CGAffineTransform, opacity: Double, onto canvas: CVPixelBuffer) -> Bool {
        guard opacity.isFinite else { return false }
        guard opacity > 0 else { return true }
        let determinant = transform.a * transform.d - transform.b * transform.c
        guard determinant.isFinite, abs(determinant) > 1e-9 else { return false }
        // pixman maps each canvas pixel back into the source: the inverse transform.
        let inverse = transform.inverted()
        guard let a = Self.fixed(inverse.a), let b = Self.fixed(inverse.b), let c = Self.fixed(inverse.c), let d = Self.fixed(inverse.d),
            let tx = Self.fixed(inverse.tx), let ty = Self.fixed(inverse.ty), let from = view(of: source), let onto = view(of: canvas)
        else { return false }
        var matrix = pixman_transform_t(matrix: ((a, c, tx), (b, d, ty), (0, 0, 1 << 16)))
        guard pixman_image_set_transform(from, &matrix) != 0 else { return false }
        // Only where the source lands, a pixel wider for its smoothed edges.
        let lands = CGRect(x: 0, y: 0, width: source.width, height: source.height).applying(transform).insetBy(dx: -1, dy: -1)
            .intersection(CGRect(x: 0, y: 0, width: canvas.width, height: canvas.height))
        guard !lands.isNull, !lands.isEmpty else { return true }
        let (x, y) = (Int32(lands.minX.rounded(.down)), Int32(lands.minY.rounded(.down)))
        let (width, height) = (Int32(lands.maxX.rounded(.up)) - x, Int32(lands.maxY.rounded(.up)) - y)
        let alpha = UInt8((min(1, opacity) * 255).rounded())
        UnsafeMutableRawPointer(opacityBits).storeBytes(of: alpha, as: UInt8.self)
        pixman_image_composite32(PIXMAN_OP_OVER, from, alpha == 255 ? nil : opacityMask, onto, x, y, 0, 0, x, y, width, height)
        return true
    }
}
