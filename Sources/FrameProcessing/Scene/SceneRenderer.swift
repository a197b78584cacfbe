import CoreVideo
import Foundation

/// What one frame of the virtual scene shows.
package struct SceneFrameParameters: Sendable {
    package var frameNumber: Int64
    package var seconds: Double
    package var zoom: Double
    package var brightness: Double
    package var colourGains: (red: Float, green: Float, blue: Float)
    package var defocus: Float
    package var image: CVPixelBuffer?
    package var mirrored = false
    /// Codes printed over the scene or picture.
    package var codes: [SceneCode] = []
    /// Grey pictures placed over the scene or picture, under the codes.
    package var pictures: [ScenePicture] = []

    package init(
        frameNumber: Int64, seconds: Double, zoom: Double, brightness: Double, colourGains: (red: Float, green: Float, blue: Float),
        defocus: Float, image: CVPixelBuffer?
    ) {
        self.frameNumber = frameNumber
        self.seconds = seconds
        self.zoom = zoom
        self.brightness = brightness
        self.colourGains = colourGains
        self.defocus = defocus
        self.image = image
    }
}

/// Draws the virtual camera's scene straight into a frame in its pixel format.
///
/// The scene, in normalised coordinates, is eight colour bars under a vertical light
/// gradient, a bouncing square and a sweeping line; zoom crops the scene around its
/// centre, exposure, torch and white balance scale its colours, and defocus blurs it. A
/// frame counter and timestamp are drawn over it, unzoomed. Everything is spans and
/// rectangles, so a frame costs little more than writing its bytes.
///
/// Thread ownership: one renderer belongs to one streaming thread.
package final class SceneRenderer: @unchecked Sendable {
    package let width: Int
    package let height: Int
    package let pixelFormat: OSType
    private let scratch: UnsafeMutablePointer<UInt8>
    private let scratchBytes: Int

    /// The bars' colours, left to right: white, yellow, cyan, green, magenta, red, blue, grey.
    private static let bars: [(Float, Float, Float)] = [
        (0.75, 0.75, 0.75), (0.75, 0.75, 0), (0, 0.75, 0.75), (0, 0.75, 0),
        (0.75, 0, 0.75), (0.75, 0, 0), (0, 0, 0.75), (0.2, 0.2, 0.2),
    ]

    package init?(width: Int, height: Int, pixelFormat: OSType) {
        guard
            [
                kCVPixelFormatType_32BGRA, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange,
                kCVPixelFormatType_420YpCbCr8BiPlanarFullRange,
            ].contains(pixelFormat), width >= 16, height >= 16
        else { return nil }
        self.width = width
        self.height = height
        self.pixelFormat = pixelFormat
        scratchBytes = width * height * 4 + (width + 1) * (height + 1)
        guard let memory = UnsafeMutableRawPointer.allocateAligned(byteCount: scratchBytes, alignment: 64) else { return nil }
        scratch = memory.assumingMemoryBound(to: UInt8.self)
    }

    deinit { free(scratch) }

    /// The pixel formats the renderer draws natively.
    package static let nativeFormats: Set<OSType> = [
        kCVPixelFormatType_32BGRA, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange,
    ]

    /// Draws one frame into `buffer`, which must match the renderer's size and format.
    package func render(into buffer: CVPixelBuffer, _ parameters: SceneFrameParameters) {
        precondition(buffer.width == width && buffer.height == height && buffer.pixelFormatType == pixelFormat, "frame does not match renderer")
        // Video's convention: BT.709 for HD, BT.601 below; the frame is tagged with what was drawn.
        var colour = VideoColorimetry.standard(width: width, height: height)
        let canvas = Canvas(buffer: buffer, matrix: colour.matrix)
        if let image = parameters.image, parameters.brightness > 0.01 {
            drawImage(image, canvas: canvas, parameters)
            // A picture is turned into Y'CbCr by libyuv, whose matrix is BT.601.
            if pixelFormat != kCVPixelFormatType_32BGRA { colour.matrix = .bt601 }
        } else {
            drawScene(canvas: canvas, parameters)
        }
        for picture in parameters.pictures {
            drawGrey(picture.pixels, width: picture.width, height: picture.height, at: picture.corners, threshold: false, canvas: canvas, parameters)
        }
        for code in parameters.codes {
            drawGrey(code.bitmap.pixels, width: code.bitmap.width, height: code.bitmap.height, at: code.corners, threshold: true, canvas: canvas, parameters)
        }
        colour.tag(buffer)
        if parameters.defocus > 0.02 { blur(buffer, amount: parameters.defocus) }
        drawOverlay(canvas: canvas, parameters)
    }

    // MARK: The scene

    private func drawScene(canvas: Canvas, _ p: SceneFrameParameters) {
        let zoom = max(1, p.zoom)
        let visible = 1 / zoom
        let origin = 0.5 - visible / 2
        let w = Double(width), h = Double(height)
        let gain = Float(p.brightness)
        func colour(_ c: (Float, Float, Float), _ light: Float) -> (Float, Float, Float) {
            (c.0 * light * gain * p.colourGains.red, c.1 * light * gain * p.colourGains.green, c.2 * light * gain * p.colourGains.blue)
        }
        // Bar edges in pixels, for this zoom.
        var edges: (Int, Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &edges) { raw in
            let e = raw.bindMemory(to: Int.self)
            for index in 0...8 {
                let x = (Double(index) / 8 - origin) / visible * w
                e[index] = Int(max(0, min(w, x.rounded())))
            }
        }
        // Rows in bands of four share a light level; chroma rows come in pairs, so bands stay even.
        let band = 4
        var row = 0
        while row < height {
            let rows = min(band, height - row)
            let sceneY = origin + (Double(row) / h) * visible
            let light = Float(1.0 - 0.45 * sceneY)
            withUnsafeBytes(of: &edges) { raw in
                let e = raw.bindMemory(to: Int.self)
                for index in 0..<8 where e[index + 1] > e[index] {
                    canvas.fill(x0: e[index], y0: row, x1: e[index + 1], y1: row + rows, colour(Self.bars[index], light))
                }
            }
            row += rows
        }
        func rect(_ sx0: Double, _ sy0: Double, _ sx1: Double, _ sy1: Double, _ c: (Float, Float, Float)) {
            let x0 = Int(((sx0 - origin) / visible * w).rounded()), x1 = Int(((sx1 - origin) / visible * w).rounded())
            let y0 = Int(((sy0 - origin) / visible * h).rounded()), y1 = Int(((sy1 - origin) / visible * h).rounded())
            canvas.fill(x0: x0, y0: y0, x1: x1, y1: y1, colour(c, 1))
        }
        // A bouncing square: black border, orange body, white centre mark.
        let t = p.seconds
        let (sx, sy) = Self.squareOrigin(seconds: t)
        rect(sx - 0.01, sy - 0.01, sx + 0.19, sy + 0.19, (0, 0, 0))
        rect(sx, sy, sx + 0.18, sy + 0.18, (0.95, 0.45, 0.05))
        rect(sx + 0.08, sy + 0.08, sx + 0.1, sy + 0.1, (1, 1, 1))
        // A line sweeping left to right every two seconds.
        let lx = (t / 2.0).truncatingRemainder(dividingBy: 1)
        rect(lx, 0, lx + 0.006, 1, (1, 1, 1))
    }

    // MARK: The scene's geometry

    /// Where the bouncing square is at `seconds`: its top-left corner in scene coordinates (0...1).
    private static func squareOrigin(seconds t: Double) -> (x: Double, y: Double) {
        (0.08 + 0.66 * triangle(t / 4.0), 0.12 + 0.56 * triangle(t / 3.0 + 0.25))
    }

    /// The distance from the camera to the scene at scene coordinates (0...1), in meters: the bars
    /// are a wall turned away to the right (1 m at its left edge, 3 m at its right, as the focus
    /// model has it), and the bouncing square, with its border, hangs 0.6 m in front of the camera.
    package static func depth(sceneX x: Double, sceneY y: Double, seconds: Double) -> Float {
        let square = squareOrigin(seconds: seconds)
        if x >= square.x - 0.01, x < square.x + 0.19, y >= square.y - 0.01, y < square.y + 0.19 { return 0.6 }
        return Float(1 + 2 * min(1, max(0, x)))
    }

    /// Fills a 'fdep' buffer with the distances the frame drawn at `seconds` and `zoom` shows.
    package static func renderDepth(into buffer: CVPixelBuffer, seconds: Double, zoom: Double) {
        guard buffer.pixelFormatType == kCVPixelFormatType_DepthFloat32 else { return }
        let visible = 1 / max(1, zoom), origin = 0.5 - visible / 2
        let plane = buffer.planes[0]
        for row in 0..<buffer.height {
            let y = origin + (Double(row) + 0.5) / Double(buffer.height) * visible
            let line = (plane.baseAddress + row * plane.bytesPerRow).assumingMemoryBound(to: Float.self)
            for column in 0..<buffer.width {
                line[column] = depth(sceneX: origin + (Double(column) + 0.5) / Double(buffer.width) * visible, sceneY: y, seconds: seconds)
            }
        }
    }

    private func triangle(_ phase: Double) -> Double { Self.triangle(phase) }

    private static func triangle(_ phase: Double) -> Double {
        let f = phase - phase.rounded(.down)
        return f < 0.5 ? f * 2 : 2 - f * 2
    }

    private func drawImage(_ image: CVPixelBuffer, canvas: Canvas, _ p: SceneFrameParameters) {
        let zoom = max(1, p.zoom)
        let cropW = max(1, Int(Double(image.width) / zoom)), cropH = max(1, Int(Double(image.height) / zoom))
        let cropX = (image.width - cropW) / 2, cropY = (image.height - cropH) / 2
        guard image.pixelFormatType == kCVPixelFormatType_32BGRA else { return }
        let src = image.planes[0]
        let srcStart = src.baseAddress.assumingMemoryBound(to: UInt8.self) + cropY * src.bytesPerRow + cropX * 4
        if pixelFormat == kCVPixelFormatType_32BGRA {
            let dst = canvas.plane0
            PlaneScaling.scaleBGRA(
                .init(srcStart, bytesPerRow: src.bytesPerRow, width: cropW, height: cropH),
                into: .init(dst.base, bytesPerRow: dst.bytesPerRow, width: width, height: height), filter: .bilinear)
        } else {
            let stride = width * 4
            PlaneScaling.scaleBGRA(
                .init(srcStart, bytesPerRow: src.bytesPerRow, width: cropW, height: cropH),
                into: .init(scratch, bytesPerRow: stride, width: width, height: height), filter: .bilinear)
            let intermediate = CVPixelBuffer(
                width: width, height: height, pixelFormatType: kCVPixelFormatType_32BGRA,
                planes: [.init(baseAddress: UnsafeMutableRawPointer(scratch), bytesPerRow: stride, width: width, height: height)],
                dataSize: stride * height, release: nil)
            imageConverter.convert(intermediate, into: canvas.buffer)
        }
    }

    private lazy var imageConverter = PixelFormatConverter()

    // MARK: Codes

    /// Prints a grey picture: each pixel inside its quadrilateral takes the picture's pixel it sees
    /// (for a code, its module, black or white), lit as the scene is.
    private func drawGrey(
        _ pixels: [UInt8], width pictureWidth: Int, height pictureHeight: Int, at corners: [CGPoint], threshold: Bool,
        canvas: Canvas, _ p: SceneFrameParameters
    ) {
        let zoom = max(1, p.zoom)
        let visible = 1 / zoom, origin = 0.5 - visible / 2
        let w = Double(width), h = Double(height)
        let quad = corners.map { CGPoint(x: (Double($0.x) - origin) / visible * w, y: (Double($0.y) - origin) / visible * h) }
        let toPicture = Homography(unitSquareTo: quad).inverse
        let x0 = max(0, Int(quad.map(\.x).min()!.rounded(.down))), x1 = min(width, Int(quad.map(\.x).max()!.rounded(.up)))
        let y0 = max(0, Int(quad.map(\.y).min()!.rounded(.down))), y1 = min(height, Int(quad.map(\.y).max()!.rounded(.up)))
        guard x1 > x0, y1 > y0 else { return }
        let light = min(1, max(0, p.brightness))
        // Grey levels as the canvas writes them: black and white for codes, 256 levels for pictures.
        let levels: [UInt32] =
            threshold
            ? [canvas.greyPixel(0.04 * light), canvas.greyPixel(0.9 * light)]
            : (0..<256).map { canvas.greyPixel(Double($0) / 255 * light) }
        pixels.withUnsafeBufferPointer { source in
            for y in y0..<y1 {
                for x in x0..<x1 {
                    let uv = toPicture.apply(CGPoint(x: Double(x) + 0.5, y: Double(y) + 0.5))
                    guard uv.x >= 0, uv.x < 1, uv.y >= 0, uv.y < 1 else { continue }
                    let value = source[Int(uv.y * CGFloat(pictureHeight)) * pictureWidth + Int(uv.x * CGFloat(pictureWidth))]
                    canvas.set(x: x, y: y, levels[threshold ? (value < 128 ? 0 : 1) : Int(value)])
                }
            }
        }
    }

    // MARK: Defocus

    private func blur(_ buffer: CVPixelBuffer, amount: Float) {
        let factor = 2 + Int(amount * 14)
        let smallW = max(1, width / factor), smallH = max(1, height / factor)
        let planes = buffer.planes
        if pixelFormat == kCVPixelFormatType_32BGRA {
            let plane = planes[0]
            let base = plane.baseAddress.assumingMemoryBound(to: UInt8.self)
            let whole = PlaneScaling.Rows(base, bytesPerRow: plane.bytesPerRow, width: width, height: height)
            let small = PlaneScaling.Rows(scratch, bytesPerRow: smallW * 4, width: smallW, height: smallH)
            PlaneScaling.scaleBGRA(whole, into: small, filter: .box)
            PlaneScaling.scaleBGRA(small, into: whole, filter: .bilinear)
            // libyuv's box filter rounds alpha down (255 comes back as 251): a camera's picture is opaque.
            for row in 0..<height {
                let pixels = UnsafeMutableRawPointer(base + row * plane.bytesPerRow).assumingMemoryBound(to: UInt32.self)
                for x in 0..<width { pixels[x] |= 0xFF00_0000 }
            }
        } else {
            let luma = planes[0], chroma = planes[1]
            let y = luma.baseAddress.assumingMemoryBound(to: UInt8.self), uv = chroma.baseAddress.assumingMemoryBound(to: UInt8.self)
            let wholeLuma = PlaneScaling.Rows(y, bytesPerRow: luma.bytesPerRow, width: width, height: height)
            let smallLuma = PlaneScaling.Rows(scratch, bytesPerRow: smallW, width: smallW, height: smallH)
            PlaneScaling.scaleSamples(wholeLuma, into: smallLuma, filter: .box)
            PlaneScaling.scaleSamples(smallLuma, into: wholeLuma, filter: .bilinear)
            let cw = max(1, chroma.width / factor), ch = max(1, chroma.height / factor)
            let wholeChroma = PlaneScaling.Rows(uv, bytesPerRow: chroma.bytesPerRow, width: chroma.width, height: chroma.height)
            let smallChroma = PlaneScaling.Rows(scratch, bytesPerRow: cw * 2, width: cw, height: ch)
            PlaneScaling.scaleChroma(wholeChroma, into: smallChroma, filter: .box)
            PlaneScaling.scaleChroma(smallChroma, into: wholeChroma, filter: .bilinear)
        }
    }

    // MARK: The overlay: frame number and timestamp in seven-segment digits

    private func drawOverlay(canvas: Canvas, _ p: SceneFrameParameters) {
        let digitH = max(10, height / 14), digitW = max(6, digitH / 2), stroke = max(2, digitH / 9), gap = max(2, digitW / 3)
        let margin = max(4, height / 40)
        let boxW = 10 * (digitW + gap) + 2 * margin, boxH = 2 * digitH + 3 * margin
        canvas.fill(x0: 0, y0: 0, x1: min(width, boxW), y1: min(height, boxH), (0, 0, 0))
        var frame = p.frameNumber
        var x = margin + 9 * (digitW + gap)
        for _ in 0..<10 {
            drawDigit(Int(frame % 10), x: x, y: margin, w: digitW, h: digitH, stroke: stroke, canvas: canvas)
            frame /= 10
            x -= digitW + gap
        }
        // Seconds with milliseconds: SSSSSS.mmm, the point drawn as a small square.
        var millis = Int64((p.seconds * 1000).rounded(.down))
        x = margin + 9 * (digitW + gap)
        let y = 2 * margin + digitH
        for position in 0..<9 {
            drawDigit(Int(millis % 10), x: x, y: y, w: digitW, h: digitH, stroke: stroke, canvas: canvas)
            millis /= 10
            x -= digitW + gap
            if position == 2 {
                canvas.fill(x0: x + digitW - stroke, y0: y + digitH - stroke, x1: x + digitW + gap / 2, y1: y + digitH, (1, 1, 1))
                x -= gap
            }
        }
    }

    /// Segments a to g of each digit, as bits.
    private static let segments: [UInt8] = [0x3F, 0x06, 0x5B, 0x4F, 0x66, 0x6D, 0x7D, 0x07, 0x7F, 0x6F]

    private func drawDigit(_ digit: Int, x: Int, y: Int, w: Int, h: Int, stroke: Int, canvas: Canvas) {
        let bits = Self.segments[digit]
        let mid = y + h / 2 - stroke / 2
        let white: (Float, Float, Float) = (1, 1, 1)
        if bits & 0x01 != 0 { canvas.fill(x0: x, y0: y, x1: x + w, y1: y + stroke, white) }
        if bits & 0x02 != 0 { canvas.fill(x0: x + w - stroke, y0: y, x1: x + w, y1: y + h / 2, white) }
        if bits & 0x04 != 0 { canvas.fill(x0: x + w - stroke, y0: y + h / 2, x1: x + w, y1: y + h, white) }
        if bits & 0x08 != 0 { canvas.fill(x0: x, y0: y + h - stroke, x1: x + w, y1: y + h, white) }
        if bits & 0x10 != 0 { canvas.fill(x0: x, y0: y + h / 2, x1: x + stroke, y1: y + h, white) }
        if bits & 0x20 != 0 { canvas.fill(x0: x, y0: y, x1: x + stroke, y1: y + h / 2, white) }
        if bits & 0x40 != 0 { canvas.fill(x0: x, y0: mid, x1: x + w, y1: mid + stroke, white) }
    }
}

/// Rectangle fills over a frame in BGRA or bi-planar 4:2:0.
private struct Canvas {
    struct Plane {
        var base: UnsafeMutablePointer<UInt8>
        var bytesPerRow: Int
    }
    let buffer: CVPixelBuffer
    /// The first plane: pixels, or luma.
    let plane0: Plane
    /// The second plane: interleaved chroma, for bi-planar formats.
    let plane1: Plane
    let width: Int
    let height: Int
    let format: OSType

    /// The Y'CbCr matrix colours are drawn with.
    let matrix: VideoColorimetry.Matrix

    init(buffer: CVPixelBuffer, matrix: VideoColorimetry.Matrix) {
        self.buffer = buffer
        self.matrix = matrix
        let planes = buffer.planes
        plane0 = Plane(base: planes[0].baseAddress.assumingMemoryBound(to: UInt8.self), bytesPerRow: planes[0].bytesPerRow)
        plane1 = planes.count > 1 ? Plane(base: planes[1].baseAddress.assumingMemoryBound(to: UInt8.self), bytesPerRow: planes[1].bytesPerRow) : plane0
        width = buffer.width
        height = buffer.height
        format = buffer.pixelFormatType
    }

    /// A grey in the canvas's format: a BGRA pixel, or a luma byte (chroma is neutral).
    func greyPixel(_ level: Double) -> UInt32 {
        let v = min(1, max(0, level))
        if format == kCVPixelFormatType_32BGRA {
            let byte = UInt32(v * 255 + 0.5)
            return byte | byte << 8 | byte << 16 | 0xFF00_0000
        }
        return UInt32(format == kCVPixelFormatType_420YpCbCr8BiPlanarFullRange ? v * 255 + 0.5 : 16 + v * 219 + 0.5)
    }

    /// Sets one pixel (x and y within the canvas) to a grey from `greyPixel`.
    func set(x: Int, y: Int, _ grey: UInt32) {
        if format == kCVPixelFormatType_32BGRA {
            UnsafeMutableRawPointer(plane0.base + y * plane0.bytesPerRow + x * 4).storeBytes(of: grey, as: UInt32.self)
            return
        }
        plane0.base[y * plane0.bytesPerRow + x] = UInt8(truncatingIfNeeded: grey)
        UnsafeMutableRawPointer(plane1.base + (y / 2) * plane1.bytesPerRow + (x / 2) * 2).storeBytes(of: 0x8080, as: UInt16.self)
    }

    /// Fills pixels x0..<x1, y0..<y1 (clipped) with a linear RGB colour in 0...1.
    func fill(x0: Int, y0: Int, x1: Int, y1: Int, _ rgb: (Float, Float, Float)) {
        let left = max(0, x0), right = min(width, x1), top = max(0, y0), bottom = min(height, y1)
        guard right > left, bottom > top else { return }
        let r = min(1, max(0, rgb.0)), g = min(1, max(0, rgb.1)), b = min(1, max(0, rgb.2))
        if format == kCVPixelFormatType_32BGRA {
            let pixel = UInt32(b * 255 + 0.5) | UInt32(g * 255 + 0.5) << 8 | UInt32(r * 255 + 0.5) << 16 | 0xFF00_0000
            let plane = plane0
            for row in top..<bottom {
                let start = UnsafeMutableRawPointer(plane.base + row * plane.bytesPerRow + left * 4)
                start.storeBytes(of: pixel, as: UInt32.self)
                Self.repeatFirst(start, size: 4, count: right - left)
            }
            return
        }
        let full = format == kCVPixelFormatType_420YpCbCr8BiPlanarFullRange
        // Kr and Kb of BT.601 or BT.709; Cb and Cr are the scaled differences from luma.
        let (kr, kb): (Float, Float) = matrix == .bt709 ? (0.2126, 0.0722) : (0.299, 0.114)
        let yf = kr * r + (1 - kr - kb) * g + kb * b
        let cb = (b - yf) / (2 * (1 - kb))
        let cr = (r - yf) / (2 * (1 - kr))
        let luma = UInt8(full ? yf * 255 + 0.5 : 16 + yf * 219 + 0.5)
        let cbByte = UInt8(max(0, min(255, 128 + cb * (full ? 255 : 224) + 0.5)))
        let crByte = UInt8(max(0, min(255, 128 + cr * (full ? 255 : 224) + 0.5)))
        let lumaPlane = plane0
        for row in top..<bottom {
            memset(lumaPlane.base + row * lumaPlane.bytesPerRow + left, Int32(luma), right - left)
        }
        let chromaPlane = plane1
        let pair = UInt16(cbByte) | UInt16(crByte) << 8
        let cLeft = left / 2, cRight = (right + 1) / 2
        for row in (top / 2)..<((bottom + 1) / 2) {
            let start = UnsafeMutableRawPointer(chromaPlane.base + row * chromaPlane.bytesPerRow + cLeft * 2)
            start.storeBytes(of: pair, as: UInt16.self)
            Self.repeatFirst(start, size: 2, count: cRight - cLeft)
        }
    }

    /// Repeats the `size`-byte value at `start` until `count` of them are there, doubling with
    /// `memcpy`: no loop over pixels, so that debug builds (where a generic fill calls a value
    /// witness for each pixel) render at the camera's rate too.
    private static func repeatFirst(_ start: UnsafeMutableRawPointer, size: Int, count: Int) {
        var done = 1
        while done < count {
            let more = min(done, count - done)
            memcpy(start + done * size, start, more * size)
            done += more
        }
    }
}
