import CBenchmarkSupport
import CYUV
import Foundation
import FrameProcessing
import VideoToolbox

/// A `VTPixelTransferSession` turning a camera's 1920x1080 BGRA frame into an encoder's 1280x720
/// '420v' buffer (a box-filtered scale, then the conversion), next to libyuv called directly for
/// the same two passes (`ARGBScale`, `ARGBToNV12`) on the same frame in the same run, one thread.
enum PixelTransferBenchmark {
    static func run(seconds: Double) {
        print("")
        guard let renderer = SceneRenderer(width: 1920, height: 1080, pixelFormat: kCVPixelFormatType_32BGRA),
            let source = CVPixelBuffer(width: 1920, height: 1080, pixelFormatType: kCVPixelFormatType_32BGRA),
            let destination = CVPixelBuffer(width: 1280, height: 720, pixelFormatType: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange),
            let scaled = CVPixelBuffer(width: 1280, height: 720, pixelFormatType: kCVPixelFormatType_32BGRA)
        else { return }
        renderer.render(into: source, SceneFrameParameters(frameNumber: 1, seconds: 1, zoom: 1, brightness: 1, colourGains: (1, 1, 1), defocus: 0, image: nil))
        print("Pixel transfer: 1920x1080 BGRA -> 1280x720 '420v', \(seconds) s per case, one thread:")
        var made: VTPixelTransferSession?
        _ = VTPixelTransferSessionCreate(allocator: nil, pixelTransferSessionOut: &made)
        guard let session = made else { return }
        /// CPU milliseconds and heap allocations per frame of `body`, run for `seconds`.
        func measure(_ body: () -> Void) -> (cpu: Double, allocations: Double) {
            body()
            var frames = 0
            let allocations0 = avbench_allocation_count(), start = now(), cpu0 = cpuSeconds()
            while now() - start < seconds {
                body()
                frames += 1
            }
            return ((cpuSeconds() - cpu0) / Double(frames) * 1000, Double(avbench_allocation_count() - allocations0) / Double(frames))
        }
        let ours = measure { _ = VTPixelTransferSessionTransferImage(session, from: source, to: destination) }
        let (s, m, d) = (source.planes[0], scaled.planes[0], destination.planes)
        let theirs = measure {
            _ = ARGBScale(
                s.baseAddress.assumingMemoryBound(to: UInt8.self), Int32(s.bytesPerRow), 1920, 1080, m.baseAddress.assumingMemoryBound(to: UInt8.self),
                Int32(m.bytesPerRow), 1280, 720, kFilterBox)
            _ = ARGBToNV12(
                m.baseAddress.assumingMemoryBound(to: UInt8.self), Int32(m.bytesPerRow), d[0].baseAddress.assumingMemoryBound(to: UInt8.self),
                Int32(d[0].bytesPerRow), d[1].baseAddress.assumingMemoryBound(to: UInt8.self), Int32(d[1].bytesPerRow), 1280, 720)
        }
        print(String(format: "  VTPixelTransferSessionTransferImage: %.2f ms CPU per frame, %.3f heap allocations per frame", ours.cpu, ours.allocations))
        print(
            String(
                format: "  libyuv directly (ARGBScale box, ARGBToNV12): %.2f ms CPU per frame, %.3f heap allocations per frame", theirs.cpu, theirs.allocations)
        )
        print(String(format: "  ours / libyuv %.2fx", ours.cpu / theirs.cpu))
    }
}
