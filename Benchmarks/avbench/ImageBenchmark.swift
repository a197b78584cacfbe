import AVFoundation
import CBenchmarkSupport
import CCairo
import Foundation

/// Frames and pictures as Core Graphics images: a 1920x1080 BGRA frame made a `CGImage` the two
/// ways capture code does (a bitmap context's `makeImage()`, a copy; a data provider over the
/// locked buffer, none), next to `memcpy` of the frame, the floor of any copy; and drawing through
/// `CGContext` next to the same drawing made with cairo's own calls in the same run, on the same
/// memory: shapes filled and stroked, and the frame scaled into a 640x360 thumbnail.
enum ImageBenchmark {
    static func run(seconds: Double) throws {
        print("")
        let (width, height) = (1920, 1080)
        guard let frame = CVPixelBuffer(width: width, height: height, pixelFormatType: kCVPixelFormatType_32BGRA) else { return }
        CVPixelBufferLockBaseAddress(frame, [])
        defer { CVPixelBufferUnlockBaseAddress(frame, []) }
        let base = CVPixelBufferGetBaseAddress(frame)!, stride = CVPixelBufferGetBytesPerRow(frame)
        for index in 0..<(stride * height / 4) {
            base.storeBytes(of: UInt32(0xFF00_0000) | UInt32(truncatingIfNeeded: index &* 2_654_435_761) & 0xFFFFFF, toByteOffset: index * 4, as: UInt32.self)
        }
        let bgra = CGBitmapInfo.byteOrder32Little.rawValue | CGImageAlphaInfo.premultipliedFirst.rawValue
        let space = CGColorSpaceCreateDeviceRGB()
        print("Frames as CGImages: 1920x1080 BGRA, \(seconds) s per case, one thread:")

        func measure(_ name: String, _ body: () -> Void) -> Double {
            body()
            var count = 0
            let allocations0 = avbench_allocation_count(), start = now(), cpu0 = cpuSeconds()
            while now() - start < seconds {
                body()
                count += 1
            }
            let micros = (cpuSeconds() - cpu0) / Double(count) * 1e6
            print(
                String(
                    format: "  %@: %.1f us CPU each, %.2f heap allocations each", name, micros,
                    Double(avbench_allocation_count() - allocations0) / Double(count)))
            return micros
        }

        let copy = UnsafeMutableRawPointer.allocate(byteCount: stride * height, alignment: 64)
        defer { copy.deallocate() }
        let floor = measure("memcpy of the frame (the floor of a copy)") { memcpy(copy, base, stride * height) }
        let made = measure("ours, CGContext over the base address + makeImage() (a copy, as Apple's)") {
            let context = CGContext(data: base, width: width, height: height, bitsPerComponent: 8, bytesPerRow: stride, space: space, bitmapInfo: bgra)
            _ = context?.makeImage()
        }
        print(String(format: "  ratio ours/memcpy: %.2fx", made / floor))
        _ = measure("ours, CGDataProvider over the locked buffer + CGImage (no copy)") {
            let provider = CGDataProvider(dataInfo: nil, data: base, size: stride * height) { _, _, _ in }!
            _ = CGImage(
                width: width, height: height, bitsPerComponent: 8, bitsPerPixel: 32, bytesPerRow: stride, space: space,
                bitmapInfo: CGBitmapInfo(rawValue: bgra), provider: provider, decode: nil, shouldInterpolate: true, intent: .defaultIntent)
        }

        // Drawing: 100 filled ellipses and 100 stroked rectangles, then the frame scaled to a thumbnail.
        let canvas = UnsafeMutableRawPointer.allocate(byteCount: stride * height, alignment: 64)
        defer { canvas.deallocate() }
        let context = CGContext(data: canvas, width: width, height: height, bitsPerComponent: 8, bytesPerRow: stride, space: space, bitmapInfo: bgra)!
        let shapes = (0..<100).map { CGRect(x: ($0 * 37) % 1700, y: ($0 * 53) % 900, width: 120, height: 90) }
        let ours = measure("ours, CGContext: 100 ellipses filled and 100 rectangles stroked") {
            context.setFillColor(red: 0.2, green: 0.6, blue: 0.9, alpha: 0.8)
            context.setStrokeColor(red: 1, green: 0.3, blue: 0, alpha: 1)
            context.setLineWidth(3)
            for rect in shapes {
                context.fillEllipse(in: rect)
                context.stroke(rect)
            }
        }
        let surface = cairo_image_surface_create_for_data(
            canvas.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32, Int32(width), Int32(height), Int32(stride))
        let cairo = cairo_create(surface)
        defer {
            cairo_destroy(cairo)
            cairo_surface_destroy(surface)
        }
        let theirs = measure("cairo's own calls, the same shapes") {
            cairo_set_line_width(cairo, 3)
            for rect in shapes {
                cairo_save(cairo)
                cairo_translate(cairo, rect.midX, Double(height) - rect.midY)
                cairo_scale(cairo, rect.width / 2, rect.height / 2)
                cairo_arc(cairo, 0, 0, 1, 0, 2 * .pi)
                cairo_restore(cairo)
                cairo_set_source_rgba(cairo, 0.2, 0.6, 0.9, 0.8)
                cairo_fill(cairo)
                cairo_rectangle(cairo, rect.minX, Double(height) - rect.maxY, rect.width, rect.height)
                cairo_set_source_rgba(cairo, 1, 0.3, 0, 1)
                cairo_stroke(cairo)
            }
            cairo_surface_flush(surface)
        }
        print(String(format: "  ratio ours/cairo: %.2fx", ours / theirs))

        let image = FramesAsImage.make(base: base, width: width, height: height, stride: stride, space: space, info: bgra)
        let thumbStride = 640 * 4
        let thumb = UnsafeMutableRawPointer.allocate(byteCount: thumbStride * 360, alignment: 64)
        defer { thumb.deallocate() }
        let small = CGContext(data: thumb, width: 640, height: 360, bitsPerComponent: 8, bytesPerRow: thumbStride, space: space, bitmapInfo: bgra)!
        let scaled = measure("ours, the frame drawn into a 640x360 CGContext (medium quality)") {
            small.draw(image, in: CGRect(x: 0, y: 0, width: 640, height: 360))
        }
        let thumbSurface = cairo_image_surface_create_for_data(thumb.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32, 640, 360, Int32(thumbStride))
        let thumbCairo = cairo_create(thumbSurface)
        defer {
            cairo_destroy(thumbCairo)
            cairo_surface_destroy(thumbSurface)
        }
        let theirsScaled = measure("cairo's own calls, the same frame scaled (CAIRO_FILTER_GOOD)") {
            let source = cairo_image_surface_create_for_data(
                base.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32, Int32(width), Int32(height), Int32(stride))
            cairo_save(thumbCairo)
            cairo_scale(thumbCairo, 640 / Double(width), 360 / Double(height))
            cairo_set_source_surface(thumbCairo, source, 0, 0)
            cairo_pattern_set_filter(cairo_get_source(thumbCairo), CAIRO_FILTER_GOOD)
            cairo_paint(thumbCairo)
            cairo_restore(thumbCairo)
            cairo_surface_finish(source)
            cairo_surface_destroy(source)
            cairo_surface_flush(thumbSurface)
        }
        print(String(format: "  ratio ours/cairo: %.2fx", scaled / theirsScaled))
    }
}

/// The frame as an image over its memory, as QA1702 makes it.
private enum FramesAsImage {
    static func make(base: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int, space: CGColorSpace, info: UInt32) -> CGImage {
        let provider = CGDataProvider(dataInfo: nil, data: base, size: stride * height) { _, _, _ in }!
        return CGImage(
            width: width, height: height, bitsPerComponent: 8, bitsPerPixel: 32, bytesPerRow: stride, space: space, bitmapInfo: CGBitmapInfo(rawValue: info),
            provider: provider, decode: nil, shouldInterpolate: true, intent: .defaultIntent)!
    }
}
