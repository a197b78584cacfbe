import CVips
import CaptureDevices
import CoreImage
import Foundation
import FrameProcessing

/// A photo editor's panel applied to a 12-megapixel (4032x3024) picture of the virtual scene:
/// exposure (+0.5 EV), highlights and shadows (shadows 0.4, highlights 0.8), temperature (a
/// 7000 K neutral to 6500 K), vibrance (0.3), an unsharp mask (2.5, 0.5), a vignette (0.5, 1),
/// a square crop and a Lanczos scale to half, rendered into a pixel buffer. Beside it, the same
/// operations called on libvips directly through the same shim functions (no recipe, no region
/// planning), and Pillow's nearest chain (brightness; the shadow and highlight gain of each band's
/// own value through a table; per-band multipliers for the temperature; ImageEnhance.Color for
/// vibrance; UnsharpMask; a radial mask multiplied in; crop; Lanczos; one core). Wall time, medians.
enum CoreImagePhotoPanelBenchmark {
    static func run(rounds: Int = 5) throws {
        print("")
        print("== Core Image: a photo editor's panel on a 4032x3024 picture, \(rounds) renders per case, wall time per render ==")
        let (width, height, side) = (4032, 3024, 3024)
        guard let frame = sceneFrame(width: width, height: height),
            let half = CVPixelBuffer(width: side / 2, height: side / 2, pixelFormatType: kCVPixelFormatType_32BGRA)
        else { return }
        if let problem = cvips_load() { return print("  (libvips cannot be loaded: \(String(cString: problem)))") }
        let context = CIContext()
        let crop = CGRect(x: (width - side) / 2, y: 0, width: side, height: side)

        /// The panel's filters, the first `steps` of them (0 to 6), then the crop and scale.
        func panel(_ steps: Int) -> CIImage {
            var image = CIImage(cvPixelBuffer: frame)
            let filters: [(String, [String: Any])] = [
                ("CIExposureAdjust", [kCIInputEVKey: 0.5]),
                ("CIHighlightShadowAdjust", ["inputShadowAmount": 0.4, "inputHighlightAmount": 0.8]),
                ("CITemperatureAndTint", ["inputNeutral": CIVector(x: 7000, y: 0), "inputTargetNeutral": CIVector(x: 6500, y: 0)]),
                ("CIVibrance", [kCIInputAmountKey: 0.3]),
                ("CIUnsharpMask", [kCIInputRadiusKey: 2.5, kCIInputIntensityKey: 0.5]),
                ("CIVignette", [kCIInputIntensityKey: 0.5, kCIInputRadiusKey: 1]),
            ]
            for (name, parameters) in filters.prefix(steps) { image = image.applyingFilter(name, parameters: parameters) }
            return image.cropped(to: crop).transformed(by: CGAffineTransform(translationX: -crop.minX, y: 0))
                .applyingFilter("CILanczosScaleTransform", parameters: [kCIInputScaleKey: 0.5])
        }
        func median(_ body: () -> Void) -> Double { medianMilliseconds(rounds: rounds, body) }
        let ours = median { context.render(panel(6), to: half) }
        let cut = (1...5).map { steps in median { context.render(panel(steps), to: half) } }
        print(
            String(
                format:
                    "  ours cut short: exposure %.1f ms; + highlights and shadows %.1f; + temperature %.1f; + vibrance %.1f; + unsharp mask %.1f; + vignette %.1f",
                cut[0], cut[1], cut[2], cut[3], cut[4], ours))

        // The same operations on libvips directly.
        let exposure = pow(2, 0.5 / 2.2)
        // The filter's own matrix and transfer tables, which a direct caller would compute the same way.
        guard let neutral = WhitePoint(temperature: 7000, tint: 0), let target = WhitePoint(temperature: 6500, tint: 0) else { return }
        let temperature = WhitePoint.bgrOrder(WhitePoint.adaptation(from: neutral, to: target))
        let (toLinear, fromLinear) = (LinearLight.toLinear, LinearLight.fromLinear)
        let bytes = frame.planes[0].bytesPerRow * height
        let out = UnsafeMutableRawPointer.allocate(byteCount: side / 2 * side / 2 * 4, alignment: 64)
        defer { out.deallocate() }
        /// The panel on libvips directly, its first `steps` operations (1 to 6), then the crop and scale.
        func directly(_ steps: Int) {
            guard let source = cvips_from_memory(frame.planes[0].baseAddress, bytes, Int32(frame.planes[0].bytesPerRow / 4), Int32(height), 0) else { return }
            var made: [OpaquePointer?] = [source]
            var current = source
            func step(_ next: OpaquePointer?) {
                made.append(next)
                if let next { current = next }
            }
            step(
                [exposure, exposure, exposure, 1.0].withUnsafeBufferPointer { a in
                    [0.0, 0, 0, 0].withUnsafeBufferPointer { cvips_linear(current, a.baseAddress, $0.baseAddress) }
                })
            if steps >= 2 { step(cvips_shadows_highlights(current, 0, 0.4, 0.8)) }
            if steps >= 3 {
                step(
                    temperature.withUnsafeBufferPointer { m in
                        toLinear.withUnsafeBufferPointer { f in
                            fromLinear.withUnsafeBufferPointer { cvips_colour_matrix_linear(current, m.baseAddress, f.baseAddress, $0.baseAddress) }
                        }
                    })
            }
            if steps >= 4 { step(cvips_vibrance(current, 0.3)) }
            if steps >= 5 {
                let blurred = cvips_blur(current, 2.5)
                made.append(blurred)
                step(cvips_mix(current, blurred, 1.5, -0.5))
            }
            step(cvips_embed(current, Int32(-(width - side) / 2), 0, Int32(side), Int32(side), 0))
            if steps >= 6 {
                // The vignette's factor over the cropped square as libvips arithmetic: 1 - 0.5 t², t the
                // distance from the picture's middle over its half diagonal, at most 1; alpha times 1.
                let halfDiagonal = (Double(width * width + height * height)).squareRoot() / 2
                let xy = cvips_coordinates(Int32(side), Int32(side), Double((width - side) / 2) + 0.5 - Double(width) / 2, Double(height) / 2 - 0.5)
                let squares = cvips_binary(xy, xy, Int32(CVIPS_MULTIPLY.rawValue))
                let sum = [1.0, 1.0].withUnsafeBufferPointer { cvips_weigh_bands(squares, $0.baseAddress, 1, 2) }
                let ones = [1.0].withUnsafeBufferPointer { cvips_constant(Int32(side), Int32(side), $0.baseAddress, 1) }
                let share = [1 / (halfDiagonal * halfDiagonal)].withUnsafeBufferPointer { a in
                    [0.0].withUnsafeBufferPointer { cvips_scale_offset(sum, a.baseAddress, $0.baseAddress, 1) }
                }
                let t2 = cvips_binary(share, ones, Int32(CVIPS_MINIMUM.rawValue))
                let factor = [-0.5].withUnsafeBufferPointer { a in [1.0].withUnsafeBufferPointer { cvips_scale_offset(t2, a.baseAddress, $0.baseAddress, 1) } }
                let bands: [OpaquePointer?] = [factor, factor, factor, ones]
                let factors = bands.withUnsafeBufferPointer { cvips_join_bands($0.baseAddress, 4) }
                made += [xy, squares, sum, ones, share, t2, factor, factors]
                step(cvips_binary(current, factors, Int32(CVIPS_MULTIPLY.rawValue)))
            }
            step(cvips_resize(current, 0.5, 0.5))
            step(cvips_to_uchar(current))
            _ = cvips_write(current, out, side / 2 * 4)
            for image in made { cvips_unref(image) }
        }
        let direct = median { directly(6) }
        let directCut = (1...5).map { steps in median { directly(steps) } }
        print(
            String(
                format:
                    "  libvips directly cut short: exposure %.1f ms; + highlights and shadows %.1f; + temperature %.1f; + vibrance %.1f; + unsharp mask %.1f; + vignette %.1f",
                directCut[0], directCut[1], directCut[2], directCut[3], directCut[4], direct))
        print(String(format: "  the panel: ours %.1f ms, libvips directly %.1f ms: %.2fx", ours, direct, ours / direct))

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("avbench-photopanel-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let raw = folder.appendingPathComponent("frame.bgra")
        try Data(bytes: frame.planes[0].baseAddress, count: bytes).write(to: raw)
        let script = """
            import sys, time, math
            from PIL import Image, ImageChops, ImageEnhance, ImageFilter
            width, height, stride, rounds, side = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
            exposure = float(sys.argv[7])
            data = open(sys.argv[1], 'rb').read()
            picture = Image.frombuffer('RGBA', (width, height), data, 'raw', 'BGRA', stride, 1).convert('RGB')
            def gain(v):
                b = v / 255
                return min(255, int(round(v * (1 + 0.4 * (1 - b) ** 2 - 0.2 * b * b / 2))))
            tone = [gain(v) for v in range(256)] * 3
            warm = [min(255, int(v * 1.04)) for v in range(256)] + list(range(256)) + [int(v * 0.93) for v in range(256)]
            def chain():
                image = ImageEnhance.Brightness(picture).enhance(exposure)
                image = image.point(tone)
                image = image.point(warm)
                image = ImageEnhance.Color(image).enhance(1.3)
                image = image.filter(ImageFilter.UnsharpMask(radius=2.5, percent=50, threshold=0))
                left = (width - side) // 2
                image = image.crop((left, 0, left + side, side))
                mask = Image.radial_gradient('L').resize((side, side)).point(lambda v: 255 - v // 2)
                image = ImageChops.multiply(image, Image.merge('RGB', (mask, mask, mask)))
                return image.resize((side // 2, side // 2), Image.LANCZOS)
            chain()
            times = []
            for _ in range(rounds):
                start = time.perf_counter(); chain(); times.append(time.perf_counter() - start)
            times.sort(); print('%.3f' % (times[len(times) // 2] * 1000))
            """
        if let theirs = pythonPeerMilliseconds(
            script: script, arguments: [raw.path, "\(width)", "\(height)", "\(frame.planes[0].bytesPerRow)", "\(rounds)", "\(side)", "\(exposure)"])
        {
            print(String(format: "  the panel in Pillow (one core, nearest operations): %.1f ms: ours/Pillow %.2fx", theirs, ours / theirs))
        } else {
            print("  (Pillow is not installed: apt-get install python3-pil)")
        }
    }
}
