import AVFoundation
import CVips
import CaptureDevices
import CoreImage
import Foundation
import FrameProcessing

/// Core Image on a 1920x1080 frame of the virtual scene, rendered by libvips on every core: a frame
/// made a `CGImage` (next to `memcpy`, the floor of the copy rendering makes), and a chain apps
/// run (Gaussian blur of radius 4, colour controls, Lanczos scale to half size) rendered into a
/// pixel buffer and to JPEG, next to the same operations called on libvips directly (8-bit, no
/// recipe: the library underneath) and Pillow doing the same chain (its own blur, enhancers and
/// Lanczos resize, one core) in the same run. Wall time per image, medians.
enum CoreImageBenchmark {
    static func run(rounds: Int = 20) throws {
        print("")
        print("== Core Image: 1920x1080 BGRA frame of the virtual scene, \(rounds) renders per case, wall time per render ==")
        let (width, height) = (1920, 1080)
        guard let frame = sceneFrame(width: width, height: height),
            let half = CVPixelBuffer(width: width / 2, height: height / 2, pixelFormatType: kCVPixelFormatType_32BGRA)
        else { return }
        if let problem = cvips_load() { return print("  (libvips cannot be loaded: \(String(cString: problem)))") }
        let context = CIContext()

        func median(_ body: () -> Void) -> Double { medianMilliseconds(rounds: rounds, body) }

        // A frame as a CGImage: one copy, as Apple's createCGImage makes.
        let bytes = frame.planes[0].bytesPerRow * height
        let copy = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
        defer { copy.deallocate() }
        let floor = median { memcpy(copy, frame.planes[0].baseAddress, bytes) }
        let made = median {
            let image = CIImage(cvPixelBuffer: frame)
            _ = context.createCGImage(image, from: image.extent)
        }
        print(String(format: "  frame to CGImage: ours %.2f ms, memcpy of the frame %.2f ms: %.2fx", made, floor, made / floor))

        // The chain, ours.
        func chain(_ image: CIImage) -> CIImage {
            image.applyingGaussianBlur(sigma: 4)
                .applyingFilter("CIColorControls", parameters: [kCIInputSaturationKey: 1.2, kCIInputBrightnessKey: 0.05, kCIInputContrastKey: 1.1])
                .cropped(to: image.extent)
                .applyingFilter("CILanczosScaleTransform", parameters: [kCIInputScaleKey: 0.5])
        }
        let ours = median { context.render(chain(CIImage(cvPixelBuffer: frame)), to: half) }
        let oursJPEG = median { _ = context.jpegRepresentation(of: chain(CIImage(cvPixelBuffer: frame)), colorSpace: CGColorSpaceCreateDeviceRGB()) }

        // The same operations on libvips directly: 8-bit in, blur, one colour matrix, Lanczos, 8-bit out.
        let matrix = [1.2, 0, 0, 0.05, 0, 1.2, 0, 0.05, 0, 0, 1.2, 0.05, 0, 0, 0, 1].map { $0 * 1.1 }
        let out = UnsafeMutableRawPointer.allocate(byteCount: width * height, alignment: 64)
        defer { out.deallocate() }
        let direct = median {
            guard let source = cvips_from_memory(frame.planes[0].baseAddress, bytes, Int32(frame.planes[0].bytesPerRow / 4), Int32(height), 0) else { return }
            let blurred = cvips_blur(source, 4)
            let coloured = matrix.withUnsafeBufferPointer { cvips_recombine(blurred, $0.baseAddress) }
            let scaled = cvips_resize(coloured, 0.5, 0.5)
            let eight = cvips_to_uchar(scaled)
            _ = cvips_write(eight, out, width / 2 * 4)
            for image in [source, blurred, coloured, scaled, eight] { cvips_unref(image) }
        }
        print(
            String(
                format: "  blur + colour controls + Lanczos half size, to a pixel buffer: ours %.2f ms, libvips directly %.2f ms: %.2fx", ours, direct,
                ours / direct))
        print(String(format: "  the same to JPEG (quality 0.85): ours %.2f ms", oursJPEG))

        // Pillow, in its own process, on the same picture.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("avbench-coreimage-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let raw = folder.appendingPathComponent("frame.bgra")
        try Data(bytes: frame.planes[0].baseAddress, count: bytes).write(to: raw)
        let script = """
            import sys, time
            from PIL import Image, ImageFilter, ImageEnhance
            width, height, stride, rounds = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
            data = open(sys.argv[1], 'rb').read()
            picture = Image.frombuffer('RGBA', (width, height), data, 'raw', 'BGRA', stride, 1)
            def chain():
                image = picture.filter(ImageFilter.GaussianBlur(4))
                image = ImageEnhance.Color(image).enhance(1.2)
                image = ImageEnhance.Brightness(image).enhance(1.05)
                image = ImageEnhance.Contrast(image).enhance(1.1)
                return image.resize((width // 2, height // 2), Image.LANCZOS)
            chain()
            times = []
            for _ in range(rounds):
                start = time.perf_counter(); chain(); times.append(time.perf_counter() - start)
            times.sort(); print('%.3f' % (times[len(times) // 2] * 1000))
            """
        if let theirs = pythonPeerMilliseconds(script: script, arguments: [raw.path, "\(width)", "\(height)", "\(frame.planes[0].bytesPerRow)", "\(rounds)"]) {
            print(String(format: "  the chain in Pillow (one core): %.2f ms: ours/Pillow %.2fx", theirs, ours / theirs))
        } else {
            print("  (Pillow is not installed: apt-get install python3-pil)")
        }
    }
}
