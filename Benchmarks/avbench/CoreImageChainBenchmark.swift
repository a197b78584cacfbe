import AVFoundation
import CVips
import CaptureDevices
import CoreImage
import Foundation
import FrameProcessing

/// A photo editor's chain on a 12-megapixel (4032x3024) picture of the virtual scene: exposure
/// (+0.5 EV), an unsharp mask (radius 2.5, intensity 0.5), a multiply blend with a warm tint, a
/// square crop and a Lanczos scale to half, rendered into a pixel buffer. Beside it, the same
/// operations called on libvips directly (8-bit in, no recipe; the multiply of an opaque picture
/// by an opaque tint is a product of bands there) and Pillow's chain (brightness, UnsharpMask,
/// ImageChops.multiply, crop, Lanczos resize; one core) in the same run. Wall time, medians.
enum CoreImageChainBenchmark {
    static func run(rounds: Int = 7) throws {
        print("")
        print("== Core Image: a photo editor's chain on a 4032x3024 picture, \(rounds) renders per case, wall time per render ==")
        let (width, height, side) = (4032, 3024, 3024)
        guard let frame = sceneFrame(width: width, height: height),
            let half = CVPixelBuffer(width: side / 2, height: side / 2, pixelFormatType: kCVPixelFormatType_32BGRA)
        else { return }
        if let problem = cvips_load() { return print("  (libvips cannot be loaded: \(String(cString: problem)))") }
        let context = CIContext()
        let exposure = pow(2, 0.5 / 2.2), tint = (r: 0.95, g: 0.9, b: 0.8)

        func median(_ body: () -> Void) -> Double { medianMilliseconds(rounds: rounds, body) }

        let crop = CGRect(x: (width - side) / 2, y: 0, width: side, height: side)
        let ours = median {
            let image = CIImage(cvPixelBuffer: frame)
            let tinted = CIImage(color: CIColor(red: tint.r, green: tint.g, blue: tint.b)).cropped(to: image.extent)
            let edited = image.applyingFilter("CIExposureAdjust", parameters: [kCIInputEVKey: 0.5])
                .applyingFilter("CIUnsharpMask", parameters: [kCIInputRadiusKey: 2.5, kCIInputIntensityKey: 0.5])
                .applyingFilter("CIMultiplyBlendMode", parameters: [kCIInputBackgroundImageKey: tinted])
                .cropped(to: crop)
                .transformed(by: CGAffineTransform(translationX: -crop.minX, y: 0))
                .applyingFilter("CILanczosScaleTransform", parameters: [kCIInputScaleKey: 0.5])
            context.render(edited, to: half)
        }

        // Where the time goes: the chain cut after each of its steps.
        func partial(_ steps: Int) -> Double {
            median {
                var image = CIImage(cvPixelBuffer: frame)
                let tinted = CIImage(color: CIColor(red: tint.r, green: tint.g, blue: tint.b)).cropped(to: image.extent)
                image = image.applyingFilter("CIExposureAdjust", parameters: [kCIInputEVKey: 0.5])
                if steps > 1 { image = image.applyingFilter("CIUnsharpMask", parameters: [kCIInputRadiusKey: 2.5, kCIInputIntensityKey: 0.5]) }
                if steps > 2 { image = image.applyingFilter("CIMultiplyBlendMode", parameters: [kCIInputBackgroundImageKey: tinted]) }
                let edited = image.cropped(to: crop).transformed(by: CGAffineTransform(translationX: -crop.minX, y: 0))
                    .applyingFilter("CILanczosScaleTransform", parameters: [kCIInputScaleKey: 0.5])
                context.render(edited, to: half)
            }
        }
        print(
            String(
                format: "  ours cut short: exposure, crop, scale %.1f ms; with the unsharp mask %.1f ms; with the blend too %.1f ms", partial(1), partial(2),
                partial(3)))

        let bytes = frame.planes[0].bytesPerRow * height
        let out = UnsafeMutableRawPointer.allocate(byteCount: side / 2 * side / 2 * 4, alignment: 64)
        defer { out.deallocate() }
        let direct = median {
            guard let source = cvips_from_memory(frame.planes[0].baseAddress, bytes, Int32(frame.planes[0].bytesPerRow / 4), Int32(height), 0) else { return }
            let exposed = [exposure, exposure, exposure, 1.0].withUnsafeBufferPointer { a in
                [0.0, 0, 0, 0].withUnsafeBufferPointer { cvips_linear(source, a.baseAddress, $0.baseAddress) }
            }
            let blurred = cvips_blur(exposed, 2.5)
            let sharpened = cvips_mix(exposed, blurred, 1.5, -0.5)
            let multiplied = [tint.b, tint.g, tint.r, 1.0].withUnsafeBufferPointer { a in
                [0.0, 0, 0, 0].withUnsafeBufferPointer { cvips_linear(sharpened, a.baseAddress, $0.baseAddress) }
            }
            let cropped = cvips_embed(multiplied, Int32(-(width - side) / 2), 0, Int32(side), Int32(side), 0)
            let scaled = cvips_resize(cropped, 0.5, 0.5)
            let eight = cvips_to_uchar(scaled)
            _ = cvips_write(eight, out, side / 2 * 4)
            for image in [source, exposed, blurred, sharpened, multiplied, cropped, scaled, eight] { cvips_unref(image) }
        }
        print(
            String(
                format: "  exposure + unsharp mask + multiply blend + crop + Lanczos half: ours %.1f ms, libvips directly %.1f ms: %.2fx", ours, direct,
                ours / direct))

        // Pillow, in its own process, on the same picture.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("avbench-coreimagechain-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let raw = folder.appendingPathComponent("frame.bgra")
        try Data(bytes: frame.planes[0].baseAddress, count: bytes).write(to: raw)
        let script = """
            import sys, time
            from PIL import Image, ImageChops, ImageEnhance, ImageFilter
            width, height, stride, rounds, side = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
            exposure, tint = float(sys.argv[7]), (int(0.95 * 255), int(0.9 * 255), int(0.8 * 255))
            data = open(sys.argv[1], 'rb').read()
            picture = Image.frombuffer('RGBA', (width, height), data, 'raw', 'BGRA', stride, 1).convert('RGB')
            colour = Image.new('RGB', (width, height), tint)
            def chain():
                image = ImageEnhance.Brightness(picture).enhance(exposure)
                image = image.filter(ImageFilter.UnsharpMask(radius=2.5, percent=50, threshold=0))
                image = ImageChops.multiply(image, colour)
                left = (width - side) // 2
                image = image.crop((left, 0, left + side, side))
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
            print(String(format: "  the chain in Pillow (one core): %.1f ms: ours/Pillow %.2fx", theirs, ours / theirs))
        } else {
            print("  (Pillow is not installed: apt-get install python3-pil)")
        }
    }
}
