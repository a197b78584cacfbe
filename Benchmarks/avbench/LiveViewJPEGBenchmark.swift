import AVFoundation
import CaptureDevices
import CBenchmarkSupport
import Foundation
import FrameProcessing

/// The live view's two ways from a camera's frame to a JPEG: a 1280x720 YUYV BT.601 frame of the
/// virtual scene converted to BGRA and compressed from its rows, and the same frame put into
/// JPEG's own full-range planar 4:2:0 and compressed from the planes (libjpeg's raw-data input);
/// then an HD camera's two-plane BT.709 frame through BGRA and turned by its matrix a band at a
/// time; quality 80, the fast DCT, as the live view encodes. One thread, CPU
/// per frame and heap allocations per frame, and the ratio. The whole process next to ustreamer
/// is `scripts/bench-preview.sh`'s (in the VM, on vivid).
enum LiveViewJPEGBenchmark {
    static func run(seconds: Double) throws {
        print("")
        let (width, height) = (1280, 720)
        guard let renderer = SceneRenderer(width: width, height: height, pixelFormat: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange),
            let scene = CVPixelBuffer(width: width, height: height, pixelFormatType: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange),
            let frame = CVPixelBuffer(width: width, height: height, pixelFormatType: kCVPixelFormatType_422YpCbCr8_yuvs),
            let bgra = CVPixelBuffer(width: width, height: height, pixelFormatType: kCVPixelFormatType_32BGRA)
        else { return }
        renderer.render(into: scene, SceneFrameParameters(frameNumber: 1, seconds: 1, zoom: 1, brightness: 1, colourGains: (1, 1, 1), defocus: 0, image: nil))
        let converter = PixelFormatConverter()
        _ = converter.convert(scene, into: frame)
        var colour = VideoColorimetry.standard(width: width, height: height)
        colour.matrix = .bt601
        colour.tag(frame)
        colour.matrix = .bt709
        colour.tag(scene)
        print("Live view frames to JPEG: 1280x720 YUYV BT.601 and '420v' BT.709, quality 80, fast DCT, \(seconds) s per case, one thread:")
        let encoder = JPEGEncoder()
        let samples = JPEGSampleConverter()
        let cases: [(String, () -> Int)] = [
            (
                "through BGRA (libyuv, libjpeg rows)",
                {
                    _ = converter.convert(frame, into: bgra)
                    return encoder.encode(bgra, quality: 80, accurateDCT: false) { $0.count } ?? 0
                }
            ),
            (
                "as JPEG's samples (libyuv, libjpeg raw planes)",
                {
                    guard let planes = samples.convert(frame) else { return 0 }
                    return encoder.encode(planes, quality: 80, accurateDCT: false) { $0.count } ?? 0
                }
            ),
            (
                "a band at a time (libyuv into libjpeg's raw planes)",
                { encoder.encode(frame, quality: 80, accurateDCT: false) { $0.count } ?? 0 }
            ),
            (
                "BT.709 '420v' through BGRA (libyuv, libjpeg rows)",
                {
                    _ = converter.convert(scene, into: bgra)
                    return encoder.encode(bgra, quality: 80, accurateDCT: false) { $0.count } ?? 0
                }
            ),
            (
                "BT.709 '420v' by its matrix a band at a time",
                { encoder.encode(scene, quality: 80, accurateDCT: false) { $0.count } ?? 0 }
            ),
        ]
        var costs: [Double] = []
        for (name, body) in cases {
            let size = body()
            var frames = 0
            let allocations0 = avbench_allocation_count(), start = now(), cpu0 = cpuSeconds()
            while now() - start < seconds {
                _ = body()
                frames += 1
            }
            let cpu = (cpuSeconds() - cpu0) / Double(frames) * 1000
            costs.append(cpu)
            print(
                String(
                    format: "  %@: %.2f ms CPU per frame, %d-byte JPEG, %.3f heap allocations per frame", name, cpu, size,
                    Double(avbench_allocation_count() - allocations0) / Double(frames)))
        }
        print(
            String(
                format: "  ratio, JPEG's samples to through BGRA: %.2fx; a band at a time to through BGRA: %.2fx; BT.709 by its matrix to through BGRA: %.2fx",
                costs[1] / costs[0], costs[2] / costs[0], costs[4] / costs[3]))
    }
}
