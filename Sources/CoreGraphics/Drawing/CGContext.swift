import CCairo
import Foundation

/// A Quartz 2D drawing destination: on Linux, a bitmap context over caller memory or its own,
/// drawn into with cairo.
///
/// Coordinates are Quartz's: the origin at the bottom left, y upwards, while the first row in
/// memory is the top. Layouts cairo holds natively (32-bit premultiplied or skipped alpha in
/// little-endian order, which is BGRA in memory, and 8-bit alpha) are drawn in place; RGBA and
/// other 32-bit orders go through a converted copy with pixman around each drawing operation, and
/// 8-bit grey through a copy converted by hand. Not thread-safe: one thread draws at a time.
public final class CGContext {
    /// The pixels' memory.
    public let data: UnsafeMutableRawPointer?
    /// The width in pixels.
    public let width: Int
    /// The height in pixels.
    public let height: Int
    /// The bits in each component.
    public let bitsPerComponent: Int
    /// The bits in each pixel.
    public let bitsPerPixel: Int
    /// The bytes in each row.
    public let bytesPerRow: Int
    /// The colour space of the pixels.
    public let colorSpace: CGColorSpace?
    /// The pixels' alpha layout and byte order.
    public let bitmapInfo: CGBitmapInfo

    /// The pixels' alpha layout.
    public var alphaInfo: CGImageAlphaInfo { bitmapInfo.alpha ?? .none }

    /// How the caller's memory relates to what cairo draws into.
    private enum Layout {
        var isGray: Bool { if case .gray = self { true } else { false } }

        /// cairo draws into the memory itself.
        case native
        /// cairo draws into an ARGB32 copy converted with pixman from and to this pixman format.
        case converted(pixman_format_code_t)
        /// cairo draws into an RGB24 copy of 8-bit grey.
        case gray
    }
    private let layout: Layout
    private let surface: OpaquePointer
    private let cairo: OpaquePointer
    private let shadow: UnsafeMutableRawPointer?
    private let shadowStride: Int
    private let ownsData: Bool
    private let release: (callback: CGBitmapContextReleaseDataCallback, info: UnsafeMutableRawPointer?)?

    /// What saveGState keeps and restoreGState brings back, besides what cairo keeps (clip, line style).
    private struct GState {
        var ctm = CGAffineTransform.identity
        var fill = (red: 0.0, green: 0.0, blue: 0.0, alpha: 1.0)
        var stroke = (red: 0.0, green: 0.0, blue: 0.0, alpha: 1.0)
        var alpha = 1.0
        var blendMode = CGBlendMode.normal
        var interpolation = CGInterpolationQuality.default
    }
    private var gstate = GState()
    private var saved: [GState] = []
    /// The current path, in the base space (after the CTM at the time each point was added).
    private var path = CGMutablePath()

    /// Creates a bitmap context over `data` (or memory of its own when nil), calling `releaseCallback`
    /// when it goes; nil for a layout Core Graphics does not draw into (8 bits a component: 32-bit RGB
    /// with premultiplied or skipped alpha, 8-bit grey without alpha, 8-bit alpha only).
    public init?(
        data: UnsafeMutableRawPointer?, width: Int, height: Int, bitsPerComponent: Int, bytesPerRow: Int, space: CGColorSpace, bitmapInfo: UInt32,
        releaseCallback: CGBitmapContextReleaseDataCallback?, releaseInfo: UnsafeMutableRawPointer?
    ) {
        let info = CGBitmapInfo(rawValue: bitmapInfo)
        guard width > 0, height > 0, width <= 32767, height <= 32767, bitsPerComponent == 8, let alpha = info.alpha,
            info.rawValue & CGBitmapInfo.floatComponents.rawValue == 0,
            let (layout, format, bitsPerPixel) = Self.layout(space: space, alpha: alpha, order: info.byteOrder),
            Self.drawingLibrariesLoaded
        else { return nil }
        let minimumRow = width * bitsPerPixel / 8
        let stride = bytesPerRow == 0 ? (minimumRow + 3) & ~3 : bytesPerRow
        // Rows a multiple of four bytes apart, as cairo and pixman read them (grey is copied by hand, so any stride does).
        guard stride >= minimumRow, stride % 4 == 0 || layout.isGray else { return nil }
        let memory = data ?? UnsafeMutableRawPointer.allocate(byteCount: stride * height, alignment: 64)
        if data == nil { memory.initializeMemory(as: UInt8.self, repeating: 0, count: stride * height) }
        var shadowMemory: UnsafeMutableRawPointer?
        var shadowStride = stride
        let drawn: OpaquePointer?
        if case .native = layout {
            drawn = cairo_image_surface_create_for_data(memory.assumingMemoryBound(to: UInt8.self), format, Int32(width), Int32(height), Int32(stride))
        } else {
            let shadowFormat = { if case .gray = layout { return CAIRO_FORMAT_RGB24 } else { return format } }()
            shadowStride = Int(cairo_format_stride_for_width(shadowFormat, Int32(width)))
            let copy = UnsafeMutableRawPointer.allocate(byteCount: shadowStride * height, alignment: 64)
            shadowMemory = copy
            drawn = cairo_image_surface_create_for_data(
                copy.assumingMemoryBound(to: UInt8.self), shadowFormat, Int32(width), Int32(height), Int32(shadowStride))
        }
        guard let drawn, cairo_surface_status(drawn) == CAIRO_STATUS_SUCCESS, let context = cairo_create(drawn) else {
            if data == nil { memory.deallocate() }
            shadowMemory?.deallocate()
            return nil
        }
        self.data = memory
        self.width = width
        self.height = height
        self.bitsPerComponent = bitsPerComponent
        self.bitsPerPixel = bitsPerPixel
        self.bytesPerRow = stride
        colorSpace = space
        self.bitmapInfo = info
        self.layout = layout
        surface = drawn
        cairo = context
        shadow = shadowMemory
        self.shadowStride = shadowStride
        ownsData = data == nil
        release = releaseCallback.map { ($0, releaseInfo) }
        resetMatrix()
    }

    /// Whether cairo and pixman are loaded, which they are the first time this is asked; when they
    /// cannot be, every context is nil and the reason is told once on standard error.
    private static let drawingLibrariesLoaded: Bool = {
        guard let problem = ccairo_load() else { return true }
        FileHandle.standardError.write(Data("CGBitmapContextCreate: \(String(cString: problem))\n".utf8))
        return false
    }()

    /// Creates a bitmap context over `data`, or memory of its own when nil.
    public convenience init?(
        data: UnsafeMutableRawPointer?, width: Int, height: Int, bitsPerComponent: Int, bytesPerRow: Int, space: CGColorSpace, bitmapInfo: UInt32
    ) {
        self.init(
            data: data, width: width, height: height, bitsPerComponent: bitsPerComponent, bytesPerRow: bytesPerRow, space: space,
            bitmapInfo: bitmapInfo, releaseCallback: nil, releaseInfo: nil)
    }

    deinit {
        cairo_destroy(cairo)
        cairo_surface_destroy(surface)
        shadow?.deallocate()
        if ownsData { data?.deallocate() }
        if let release { release.callback(release.info, data) }
    }

    /// Which of the layouts Core Graphics draws into a colour space and alpha layout are, and how cairo draws them.
    private static func layout(space: CGColorSpace, alpha: CGImageAlphaInfo, order: CGImageByteOrderInfo) -> (Layout, cairo_format_t, Int)? {
        let little = order == .order32Little
        let big = order == .orderDefault || order == .order32Big
        switch (space.model, alpha) {
        case (_, .alphaOnly): return (.native, CAIRO_FORMAT_A8, 8)
        case (.monochrome, .none) where order == .orderDefault: return (.gray, CAIRO_FORMAT_RGB24, 8)
        case (.rgb, .premultipliedFirst) where little: return (.native, CAIRO_FORMAT_ARGB32, 32)
        case (.rgb, .noneSkipFirst) where little: return (.native, CAIRO_FORMAT_RGB24, 32)
        case (.rgb, .premultipliedFirst) where big: return (.converted(PIXMAN_b8g8r8a8), CAIRO_FORMAT_ARGB32, 32)
        case (.rgb, .noneSkipFirst) where big: return (.converted(PIXMAN_b8g8r8x8), CAIRO_FORMAT_RGB24, 32)
        case (.rgb, .premultipliedLast) where big: return (.converted(PIXMAN_a8b8g8r8), CAIRO_FORMAT_ARGB32, 32)
        case (.rgb, .noneSkipLast) where big: return (.converted(PIXMAN_x8b8g8r8), CAIRO_FORMAT_RGB24, 32)
        case (.rgb, .premultipliedLast) where little: return (.converted(PIXMAN_r8g8b8a8), CAIRO_FORMAT_ARGB32, 32)
        case (.rgb, .noneSkipLast) where little: return (.converted(PIXMAN_r8g8b8x8), CAIRO_FORMAT_RGB24, 32)
        default: return nil
        }
    }

    // MARK: Drawing through the layout

    /// Runs a drawing operation: on the caller's memory itself, or on a converted copy brought in before and written back after.
    func drawing(_ body: (OpaquePointer) -> Void) {
        switch layout {
        case .native: break
        case .converted(let format): convert(from: format, toShadow: true)
        case .gray: grayToShadow()
        }
        cairo_surface_mark_dirty(surface)
        body(cairo)
        cairo_surface_flush(surface)
        switch layout {
        case .native: break
        case .converted(let format): convert(from: format, toShadow: false)
        case .gray: shadowToGray()
        }
    }

    private func convert(from format: pixman_format_code_t, toShadow: Bool) {
        guard let data, let shadow else { return }
        let shadowFormat =
            cairo_image_surface_get_format(surface) == CAIRO_FORMAT_A8
            ? PIXMAN_a8 : (alphaInfo == .noneSkipFirst || alphaInfo == .noneSkipLast ? PIXMAN_x8r8g8b8 : PIXMAN_a8r8g8b8)
        guard let caller = pixman_image_create_bits(format, Int32(width), Int32(height), data.assumingMemoryBound(to: UInt32.self), Int32(bytesPerRow))
        else { return }
        defer { pixman_image_unref(caller) }
        guard
            let copy = pixman_image_create_bits(shadowFormat, Int32(width), Int32(height), shadow.assumingMemoryBound(to: UInt32.self), Int32(shadowStride))
        else { return }
        defer { pixman_image_unref(copy) }
        let (source, destination) = toShadow ? (caller, copy) : (copy, caller)
        pixman_image_composite32(PIXMAN_OP_SRC, source, nil, destination, 0, 0, 0, 0, 0, 0, Int32(width), Int32(height))
    }

    private func grayToShadow() {
        guard let data, let shadow else { return }
        for y in 0..<height {
            let source = data.advanced(by: y * bytesPerRow).assumingMemoryBound(to: UInt8.self)
            let target = shadow.advanced(by: y * shadowStride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width {
                let g = UInt32(source[x])
                target[x] = 0xFF00_0000 | g << 16 | g << 8 | g
            }
        }
    }

    private func shadowToGray() {
        guard let data, let shadow else { return }
        for y in 0..<height {
            let source = shadow.advanced(by: y * shadowStride).assumingMemoryBound(to: UInt32.self)
            let target = data.advanced(by: y * bytesPerRow).assumingMemoryBound(to: UInt8.self)
            for x in 0..<width {
                let p = source[x]
                // Rec. 601 luma in fixed point: 0.299 R + 0.587 G + 0.114 B.
                let luma = (306 * (p >> 16 & 0xFF) + 601 * (p >> 8 & 0xFF) + 117 * (p & 0xFF) + 512) >> 10
                target[x] = UInt8(min(255, luma))
            }
        }
    }

    /// The transform from the base space (Quartz's, y upwards) to cairo's device space (y downwards).
    private var base: CGAffineTransform { CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: CGFloat(height)) }

    /// Whether cairo can take a transform: finite and invertible (cairo's context stops drawing for good after one it cannot).
    private static func isUsable(_ t: CGAffineTransform) -> Bool {
        [t.a, t.b, t.c, t.d, t.tx, t.ty].allSatisfy(\.isFinite) && abs(t.a * t.d - t.b * t.c) > 1e-12
    }

    @discardableResult
    private func setMatrix(_ transform: CGAffineTransform) -> Bool {
        guard Self.isUsable(transform) else { return false }
        var matrix = cairo_matrix_t(
            xx: Double(transform.a), yx: Double(transform.b), xy: Double(transform.c), yy: Double(transform.d), x0: Double(transform.tx),
            y0: Double(transform.ty))
        cairo_set_matrix(cairo, &matrix)
        return true
    }

    /// Sets cairo's matrix to the base space, where the current path's points are.
    private func resetMatrix() { setMatrix(base) }

    /// Sets cairo's matrix to the user space: the CTM, then the base; false when the CTM is flat or not finite (nothing is drawn then).
    @discardableResult
    private func userMatrix() -> Bool { setMatrix(gstate.ctm.concatenating(base)) }

    // MARK: Images

    /// Returns an image of the context's pixels as they are now (a copy: later drawing does not change it).
    public func makeImage() -> CGImage? {
        guard let data, let colorSpace else { return nil }
        let bytes = Data(bytes: data, count: bytesPerRow * height)
        let provider = CGDataProvider(bytes: bytes)
        return CGImage(
            width: width, height: height, bitsPerComponent: bitsPerComponent, bitsPerPixel: bitsPerPixel, bytesPerRow: bytesPerRow, space: colorSpace,
            bitmapInfo: bitmapInfo, provider: provider, decode: nil, shouldInterpolate: true, intent: .defaultIntent)
    }

    /// How finely images are resampled when drawn at another size.
    public var interpolationQuality: CGInterpolationQuality {
        get { gstate.interpolation }
        set { gstate.interpolation = newValue }
    }

    /// Draws an image scaled to fill a rectangle (in user space), upright.
    public func draw(_ image: CGImage, in rect: CGRect, byTiling: Bool = false) {
        guard [rect.minX, rect.minY, rect.width, rect.height].allSatisfy(\.isFinite), rect.width != 0, rect.height != 0,
            Self.isUsable(gstate.ctm)
        else { return }
        ImageSurface.with(image, into: colorSpace) { source in
            drawing { cairo in
                cairo_save(cairo)
                userMatrix()
                cairo_translate(cairo, Double(rect.minX), Double(rect.maxY))
                cairo_scale(cairo, Double(rect.width) / Double(image.width), -Double(rect.height) / Double(image.height))
                cairo_set_source_surface(cairo, source, 0, 0)
                let pattern = cairo_get_source(cairo)
                cairo_pattern_set_filter(pattern, Self.filter(gstate.interpolation, interpolates: image.shouldInterpolate))
                if byTiling { cairo_pattern_set_extend(pattern, CAIRO_EXTEND_REPEAT) }
                cairo_set_operator(cairo, Self.cairoOperator(gstate.blendMode))
                if gstate.alpha < 1 { cairo_paint_with_alpha(cairo, gstate.alpha) } else { cairo_paint(cairo) }
                cairo_restore(cairo)
                resetMatrix()
            }
        }
    }

    private static func filter(_ quality: CGInterpolationQuality, interpolates: Bool) -> cairo_filter_t {
        guard interpolates else { return CAIRO_FILTER_NEAREST }
        switch quality {
        case .none: return CAIRO_FILTER_NEAREST
        case .low: return CAIRO_FILTER_BILINEAR
        case .default, .medium: return CAIRO_FILTER_GOOD
        case .high: return CAIRO_FILTER_BEST
        }
    }

    static func cairoOperator(_ mode: CGBlendMode) -> cairo_operator_t {
        switch mode {
        case .normal, .plusDarker: CAIRO_OPERATOR_OVER
        case .multiply: CAIRO_OPERATOR_MULTIPLY
        case .screen: CAIRO_OPERATOR_SCREEN
        case .overlay: CAIRO_OPERATOR_OVERLAY
        case .darken: CAIRO_OPERATOR_DARKEN
        case .lighten: CAIRO_OPERATOR_LIGHTEN
        case .colorDodge: CAIRO_OPERATOR_COLOR_DODGE
        case .colorBurn: CAIRO_OPERATOR_COLOR_BURN
        case .softLight: CAIRO_OPERATOR_SOFT_LIGHT
        case .hardLight: CAIRO_OPERATOR_HARD_LIGHT
        case .difference: CAIRO_OPERATOR_DIFFERENCE
        case .exclusion: CAIRO_OPERATOR_EXCLUSION
        case .hue: CAIRO_OPERATOR_HSL_HUE
        case .saturation: CAIRO_OPERATOR_HSL_SATURATION
        case .color: CAIRO_OPERATOR_HSL_COLOR
        case .luminosity: CAIRO_OPERATOR_HSL_LUMINOSITY
        case .clear: CAIRO_OPERATOR_CLEAR
        case .copy: CAIRO_OPERATOR_SOURCE
        case .sourceIn: CAIRO_OPERATOR_IN
        case .sourceOut: CAIRO_OPERATOR_OUT
        case .sourceAtop: CAIRO_OPERATOR_ATOP
        case .destinationOver: CAIRO_OPERATOR_DEST_OVER
        case .destinationIn: CAIRO_OPERATOR_DEST_IN
        case .destinationOut: CAIRO_OPERATOR_DEST_OUT
        case .destinationAtop: CAIRO_OPERATOR_DEST_ATOP
        case .xor: CAIRO_OPERATOR_XOR
        case .plusLighter: CAIRO_OPERATOR_ADD
        }
    }

    // MARK: The graphics state

    /// Pushes a copy of the graphics state (CTM, colours, alpha, blend mode, clip, line style).
    public func saveGState() {
        saved.append(gstate)
        cairo_save(cairo)
    }

    /// Restores the graphics state last saved.
    public func restoreGState() {
        guard let last = saved.popLast() else { return }
        gstate = last
        cairo_restore(cairo)
        resetMatrix()
    }

    /// The current transformation matrix, from user space to the base space.
    public var ctm: CGAffineTransform { gstate.ctm }

    /// Moves the origin of user space.
    public func translateBy(x: CGFloat, y: CGFloat) { concatenate(CGAffineTransform(translationX: x, y: y)) }

    /// Scales user space.
    public func scaleBy(x: CGFloat, y: CGFloat) { concatenate(CGAffineTransform(scaleX: x, y: y)) }

    /// Rotates user space by an angle in radians (counterclockwise, y upwards).
    public func rotate(by angle: CGFloat) { concatenate(CGAffineTransform(rotationAngle: angle)) }

    /// Transforms user space by a matrix, before the current CTM.
    public func concatenate(_ transform: CGAffineTransform) { gstate.ctm = transform.concatenating(gstate.ctm) }

    /// Sets the opacity everything drawn is multiplied by.
    public func setAlpha(_ alpha: CGFloat) { gstate.alpha = alpha.isNaN ? 1 : Double(min(1, max(0, alpha))) }

    /// Sets how drawing is composited with the context's pixels.
    public func setBlendMode(_ mode: CGBlendMode) { gstate.blendMode = mode }

    /// Sets the colour areas are filled with.
    public func setFillColor(_ color: CGColor) { gstate.fill = color.rgba }

    /// Sets the fill colour from red, green, blue and alpha.
    public func setFillColor(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        setFillColor(CGColor(red: red, green: green, blue: blue, alpha: alpha))
    }

    /// Sets the fill colour to a grey.
    public func setFillColor(gray: CGFloat, alpha: CGFloat) { setFillColor(CGColor(gray: gray, alpha: alpha)) }

    /// Sets the colour lines are stroked with.
    public func setStrokeColor(_ color: CGColor) { gstate.stroke = color.rgba }

    /// Sets the stroke colour from red, green, blue and alpha.
    public func setStrokeColor(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        setStrokeColor(CGColor(red: red, green: green, blue: blue, alpha: alpha))
    }

    /// Sets the stroke colour to a grey.
    public func setStrokeColor(gray: CGFloat, alpha: CGFloat) { setStrokeColor(CGColor(gray: gray, alpha: alpha)) }

    /// Sets the width of stroked lines, in user space.
    public func setLineWidth(_ width: CGFloat) {
        guard width.isFinite, width >= 0 else { return }
        cairo_set_line_width(cairo, Double(width))
    }

    /// Sets how the ends of lines are drawn.
    public func setLineCap(_ cap: CGLineCap) {
        cairo_set_line_cap(cairo, cap == .round ? CAIRO_LINE_CAP_ROUND : cap == .square ? CAIRO_LINE_CAP_SQUARE : CAIRO_LINE_CAP_BUTT)
    }

    /// Sets how corners are drawn.
    public func setLineJoin(_ join: CGLineJoin) {
        cairo_set_line_join(cairo, join == .round ? CAIRO_LINE_JOIN_ROUND : join == .bevel ? CAIRO_LINE_JOIN_BEVEL : CAIRO_LINE_JOIN_MITER)
    }

    /// Sets how far a mitered corner may reach.
    public func setMiterLimit(_ limit: CGFloat) {
        guard limit.isFinite else { return }
        cairo_set_miter_limit(cairo, Double(max(1, limit)))
    }

    /// Sets the dash pattern of stroked lines: lengths of painted and unpainted segments, from `phase`.
    public func setLineDash(phase: CGFloat, lengths: [CGFloat]) {
        let dashes = lengths.map { Double($0) }
        // cairo refuses (for good) negative, non-finite or all-zero dashes.
        guard phase.isFinite, dashes.allSatisfy({ $0.isFinite && $0 >= 0 }), dashes.isEmpty || dashes.reduce(0, +) > 0 else { return }
        cairo_set_dash(cairo, dashes, Int32(dashes.count), Double(phase))
    }

    /// Turns anti-aliasing on or off.
    public func setShouldAntialias(_ shouldAntialias: Bool) {
        cairo_set_antialias(cairo, shouldAntialias ? CAIRO_ANTIALIAS_DEFAULT : CAIRO_ANTIALIAS_NONE)
    }

    /// Writes what was drawn to the context's memory (drawing writes it at once already).
    public func flush() { cairo_surface_flush(surface) }

    // MARK: Paths

    /// Discards the current path.
    public func beginPath() { path = CGMutablePath() }

    /// Starts a new subpath at a point in user space.
    public func move(to point: CGPoint) { path.move(to: point, transform: gstate.ctm) }

    /// Adds a line to a point in user space.
    public func addLine(to point: CGPoint) { path.addLine(to: point, transform: gstate.ctm) }

    /// Adds lines between points in user space.
    public func addLines(between points: [CGPoint]) { path.addLines(between: points, transform: gstate.ctm) }

    /// Adds a cubic Bézier curve in user space.
    public func addCurve(to end: CGPoint, control1: CGPoint, control2: CGPoint) {
        path.addCurve(to: end, control1: control1, control2: control2, transform: gstate.ctm)
    }

    /// Adds a quadratic Bézier curve in user space.
    public func addQuadCurve(to end: CGPoint, control: CGPoint) { path.addQuadCurve(to: end, control: control, transform: gstate.ctm) }

    /// Adds a rectangle in user space.
    public func addRect(_ rect: CGRect) { path.addRect(rect, transform: gstate.ctm) }

    /// Adds rectangles in user space.
    public func addRects(_ rects: [CGRect]) { path.addRects(rects, transform: gstate.ctm) }

    /// Adds the ellipse that fits in a rectangle in user space.
    public func addEllipse(in rect: CGRect) { path.addEllipse(in: rect, transform: gstate.ctm) }

    /// Adds an arc of a circle in user space.
    public func addArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool) {
        path.addArc(center: center, radius: radius, startAngle: startAngle, endAngle: endAngle, clockwise: clockwise, transform: gstate.ctm)
    }

    /// Adds a path in user space.
    public func addPath(_ path: CGPath) { self.path.addPath(path, transform: gstate.ctm) }

    /// Closes the current subpath.
    public func closePath() { path.closeSubpath() }

    /// Whether the current path is empty.
    public var isPathEmpty: Bool { path.isEmpty }

    /// The current path's bounding box, in user space.
    public var boundingBoxOfPath: CGRect {
        let box = path.boundingBox
        return box.isNull ? box : box.applying(gstate.ctm.inverted())
    }

    /// Fills the current path and discards it.
    public func fillPath(using rule: CGPathFillRule = .winding) { paint(path, mode: rule == .evenOdd ? .eoFill : .fill) }

    /// Strokes the current path and discards it.
    public func strokePath() { paint(path, mode: .stroke) }

    /// Paints the current path as `mode` says and discards it.
    public func drawPath(using mode: CGPathDrawingMode) { paint(path, mode: mode) }

    /// Fills a rectangle in user space.
    public func fill(_ rect: CGRect) { paint(CGPath(rect: rect, transform: nil), mode: .fill, user: true) }

    /// Fills rectangles in user space.
    public func fill(_ rects: [CGRect]) {
        let shape = CGMutablePath()
        shape.addRects(rects)
        paint(shape, mode: .fill, user: true)
    }

    /// Strokes a rectangle in user space.
    public func stroke(_ rect: CGRect) { paint(CGPath(rect: rect, transform: nil), mode: .stroke, user: true) }

    /// Strokes a rectangle with a line width.
    public func stroke(_ rect: CGRect, width: CGFloat) {
        saveGState()
        setLineWidth(width)
        stroke(rect)
        restoreGState()
    }

    /// Fills the ellipse that fits in a rectangle in user space.
    public func fillEllipse(in rect: CGRect) { paint(CGPath(ellipseIn: rect, transform: nil), mode: .fill, user: true) }

    /// Strokes the ellipse that fits in a rectangle in user space.
    public func strokeEllipse(in rect: CGRect) { paint(CGPath(ellipseIn: rect, transform: nil), mode: .stroke, user: true) }

    /// Makes a rectangle transparent.
    public func clear(_ rect: CGRect) {
        saveGState()
        setBlendMode(.clear)
        fill(rect)
        restoreGState()
    }

    /// Intersects the clip with the current path and discards it.
    public func clip(using rule: CGPathFillRule = .winding) {
        if !replay(path) { clipToNothing() }
        cairo_set_fill_rule(cairo, rule == .evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
        cairo_clip(cairo)
        path = CGMutablePath()
    }

    /// Intersects the clip with a rectangle in user space.
    public func clip(to rect: CGRect) {
        if !replay(CGPath(rect: rect, transform: nil), user: true) { return clipToNothing() }
        cairo_set_fill_rule(cairo, CAIRO_FILL_RULE_WINDING)
        cairo_clip(cairo)
    }

    /// Intersects the clip with the union of rectangles in user space.
    public func clip(to rects: [CGRect]) {
        let shape = CGMutablePath()
        shape.addRects(rects)
        if !replay(shape, user: true) { return clipToNothing() }
        cairo_clip(cairo)
    }

    /// A clip to a shape that cannot be drawn leaves nothing to draw in.
    private func clipToNothing() {
        resetMatrix()
        cairo_new_path(cairo)
        cairo_rectangle(cairo, 0, 0, 0, 0)
        cairo_clip(cairo)
        path = CGMutablePath()
    }

    /// The clip's bounding box, in user space.
    public var boundingBoxOfClipPath: CGRect {
        var x1 = 0.0, y1 = 0.0, x2 = 0.0, y2 = 0.0
        cairo_clip_extents(cairo, &x1, &y1, &x2, &y2)
        let device = CGRect(x: x1, y: y1, width: x2 - x1, height: y2 - y1)
        return device.applying(base.inverted()).applying(gstate.ctm.inverted())
    }

    /// Puts a path into cairo: points of the base space, or of user space when `user`; false,
    /// with nothing put, for a path with a point that is not finite or a flat transform.
    @discardableResult
    private func replay(_ shape: CGPath, user: Bool = false) -> Bool {
        guard shape.isFinite else { return false }
        if user {
            guard userMatrix() else { return false }
        } else {
            resetMatrix()
        }
        cairo_new_path(cairo)
        var current = CGPoint.zero
        for element in shape.elements {
            switch element {
            case .move(let p):
                cairo_move_to(cairo, Double(p.x), Double(p.y))
                current = p
            case .line(let p):
                cairo_line_to(cairo, Double(p.x), Double(p.y))
                current = p
            case .quad(let c, let p):
                // A quadratic curve is the cubic with controls two thirds of the way to its control point.
                let c1 = CGPoint(x: current.x + 2 / 3 * (c.x - current.x), y: current.y + 2 / 3 * (c.y - current.y))
                let c2 = CGPoint(x: p.x + 2 / 3 * (c.x - p.x), y: p.y + 2 / 3 * (c.y - p.y))
                cairo_curve_to(cairo, Double(c1.x), Double(c1.y), Double(c2.x), Double(c2.y), Double(p.x), Double(p.y))
                current = p
            case .cubic(let c1, let c2, let p):
                cairo_curve_to(cairo, Double(c1.x), Double(c1.y), Double(c2.x), Double(c2.y), Double(p.x), Double(p.y))
                current = p
            case .close:
                cairo_close_path(cairo)
            }
        }
        return true
    }

    /// Fills and/or strokes a path with the current colours, alpha and blend mode.
    private func paint(_ shape: CGPath, mode: CGPathDrawingMode, user: Bool = false) {
        defer { if !user { path = CGMutablePath() } }
        guard !shape.isEmpty, shape.isFinite, !(mode == .stroke || mode == .fillStroke || mode == .eoFillStroke) || Self.isUsable(gstate.ctm),
            !user || Self.isUsable(gstate.ctm)
        else { return }
        drawing { cairo in
            cairo_save(cairo)
            cairo_set_operator(cairo, Self.cairoOperator(gstate.blendMode))
            if mode != .stroke {
                replay(shape, user: user)
                cairo_set_fill_rule(cairo, mode == .eoFill || mode == .eoFillStroke ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
                let c = gstate.fill
                cairo_set_source_rgba(cairo, c.red, c.green, c.blue, c.alpha * gstate.alpha)
                cairo_fill(cairo)
            }
            if mode == .stroke || mode == .fillStroke || mode == .eoFillStroke {
                replay(shape, user: user)
                // The line's width and dashes are in user space at the time of stroking.
                userMatrix()
                let c = gstate.stroke
                cairo_set_source_rgba(cairo, c.red, c.green, c.blue, c.alpha * gstate.alpha)
                cairo_stroke(cairo)
            }
            cairo_restore(cairo)
            resetMatrix()
        }
    }
}
