import CCairo

/// An image's pixels as a cairo surface to draw from: the image's own memory when cairo reads its
/// layout (BGRA, BGRX or 8-bit alpha with rows a multiple of four bytes apart), otherwise a copy
/// converted with pixman (other 32-bit orders) or by hand (8-bit grey, 32-bit float RGBA).
enum ImageSurface {
    /// Calls `body` with a surface of the image's pixels, for a context in `space`; does nothing for a
    /// layout this system does not read.
    static func with(_ image: CGImage, into space: CGColorSpace? = nil, _ body: (OpaquePointer) -> Void) {
        if image.bitmapInfo.contains(.floatComponents) { return floats(image, into: space, body) }
        guard let provider = image.dataProvider, image.bitsPerComponent == 8 else { return }
        let alpha = image.alphaInfo
        let little = image.byteOrderInfo == .order32Little
        let big = image.byteOrderInfo == .orderDefault || image.byteOrderInfo == .order32Big
        let model = image.colorSpace?.model
        provider.withBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            let pixels = UnsafeMutableRawPointer(mutating: base)
            // cairo only reads from a source surface.
            if image.bytesPerRow % 4 == 0, image.bitsPerPixel == 32, model == .rgb, little, alpha == .premultipliedFirst || alpha == .noneSkipFirst {
                let format = alpha == .premultipliedFirst ? CAIRO_FORMAT_ARGB32 : CAIRO_FORMAT_RGB24
                return borrowed(pixels, format: format, image: image, body)
            }
            if image.bytesPerRow % 4 == 0, image.bitsPerPixel == 8, alpha == .alphaOnly {
                return borrowed(pixels, format: CAIRO_FORMAT_A8, image: image, body)
            }
            let source: pixman_format_code_t
            switch (model, alpha, image.bitsPerPixel) {
            case (.rgb, .premultipliedFirst, 32) where little: source = PIXMAN_a8r8g8b8
            case (.rgb, .noneSkipFirst, 32) where little: source = PIXMAN_x8r8g8b8
            case (.rgb, .premultipliedFirst, 32) where big: source = PIXMAN_b8g8r8a8
            case (.rgb, .noneSkipFirst, 32) where big: source = PIXMAN_b8g8r8x8
            case (.rgb, .premultipliedLast, 32) where big: source = PIXMAN_a8b8g8r8
            case (.rgb, .noneSkipLast, 32) where big: source = PIXMAN_x8b8g8r8
            case (.rgb, .none, 24) where big: source = PIXMAN_b8g8r8
            case (.rgb, .premultipliedLast, 32) where little: source = PIXMAN_r8g8b8a8
            case (.rgb, .noneSkipLast, 32) where little: source = PIXMAN_r8g8b8x8
            case (.monochrome, .none, 8): return gray(pixels, image: image, body)
            default: return
            }
            converted(pixels, from: source, image: image, body)
        }
    }

    private static func borrowed(_ pixels: UnsafeMutableRawPointer, format: cairo_format_t, image: CGImage, _ body: (OpaquePointer) -> Void) {
        guard
            let surface = cairo_image_surface_create_for_data(
                pixels.assumingMemoryBound(to: UInt8.self), format, Int32(image.width), Int32(image.height), Int32(image.bytesPerRow))
        else { return }
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else { return }
        body(surface)
        // The image's memory must not be read after this returns.
        cairo_surface_finish(surface)
    }

    private static func converted(_ pixels: UnsafeMutableRawPointer, from format: pixman_format_code_t, image: CGImage, _ body: (OpaquePointer) -> Void) {
        let opaque = image.alphaInfo == .none || image.alphaInfo == .noneSkipLast || image.alphaInfo == .noneSkipFirst
        guard let surface = cairo_image_surface_create(opaque ? CAIRO_FORMAT_RGB24 : CAIRO_FORMAT_ARGB32, Int32(image.width), Int32(image.height)) else {
            return
        }
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let target = cairo_image_surface_get_data(surface) else { return }
        let stride = cairo_image_surface_get_stride(surface)
        // pixman reads rows a multiple of four bytes apart: an image with others is not drawn.
        guard
            let source = pixman_image_create_bits(
                format, Int32(image.width), Int32(image.height), pixels.assumingMemoryBound(to: UInt32.self), Int32(image.bytesPerRow))
        else { return }
        defer { pixman_image_unref(source) }
        guard
            let destination = pixman_image_create_bits(
                opaque ? PIXMAN_x8r8g8b8 : PIXMAN_a8r8g8b8, Int32(image.width), Int32(image.height),
                UnsafeMutableRawPointer(target).assumingMemoryBound(to: UInt32.self), stride)
        else { return }
        defer { pixman_image_unref(destination) }
        pixman_image_composite32(PIXMAN_OP_SRC, source, nil, destination, 0, 0, 0, 0, 0, 0, Int32(image.width), Int32(image.height))
        cairo_surface_mark_dirty(surface)
        body(surface)
    }

    /// An image of 32-bit or half float R, G, B, A (Image I/O's float pictures, `CIContext`'s RGBAf
    /// and RGBAh renderings) in 8 bits: clamped to 0-1, and a linear image's colours encoded as sRGB unless
    /// the context's colour space is linear too.
    private static func floats(_ image: CGImage, into space: CGColorSpace?, _ body: (OpaquePointer) -> Void) {
        guard let provider = image.dataProvider, image.isFloatRGBA else { return }
        let encodes = image.colorSpace?.isLinear == true && space?.isLinear != true
        let opaque = image.alphaInfo != .premultipliedLast
        guard let surface = cairo_image_surface_create(opaque ? CAIRO_FORMAT_RGB24 : CAIRO_FORMAT_ARGB32, Int32(image.width), Int32(image.height)) else {
            return
        }
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let target = cairo_image_surface_get_data(surface) else { return }
        let stride = Int(cairo_image_surface_get_stride(surface))
        provider.withBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            ccairo_float_to_argb32(
                base, image.bitsPerComponent == 16 ? 1 : 0, image.bytesPerRow, Int32(image.width), Int32(image.height), opaque ? 0 : 1, encodes ? 1 : 0,
                UnsafeMutableRawPointer(target).assumingMemoryBound(to: UInt32.self), stride)
        }
        cairo_surface_mark_dirty(surface)
        body(surface)
    }

    private static func gray(_ pixels: UnsafeMutableRawPointer, image: CGImage, _ body: (OpaquePointer) -> Void) {
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(image.width), Int32(image.height)) else { return }
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let target = cairo_image_surface_get_data(surface) else { return }
        let stride = Int(cairo_image_surface_get_stride(surface))
        for y in 0..<image.height {
            let row = pixels.advanced(by: y * image.bytesPerRow).assumingMemoryBound(to: UInt8.self)
            let out = UnsafeMutableRawPointer(target).advanced(by: y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<image.width {
                let g = UInt32(row[x])
                out[x] = 0xFF00_0000 | g << 16 | g << 8 | g
            }
        }
        cairo_surface_mark_dirty(surface)
        body(surface)
    }
}
