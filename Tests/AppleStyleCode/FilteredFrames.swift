import AVFoundation
import CoreImage
import CoreImage.CIFilterBuiltins

/// A camera whose frames go through Core Image as apps filter them: each frame as a `CIImage`,
/// a typed filter chain, turned for a portrait screen, and rendered to a `CGImage` for display.
public final class FilteredFrames: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
    public let session = AVCaptureSession()
    private let queue = DispatchQueue(label: "filtered.frames")
    private let context = CIContext()
    private let mono = CIFilter.colorControls()
    private let lock = NSLock()
    private var latest: (frame: CVPixelBuffer, image: CGImage)?

    public override init() {
        super.init()
        mono.saturation = 0
    }

    /// The latest frame and what was made of it.
    public var latestFrameAndImage: (frame: CVPixelBuffer, image: CGImage)? {
        lock.lock()
        defer { lock.unlock() }
        return latest
    }

    public func start() throws {
        guard let camera = AVCaptureDevice.default(for: .video) else {
            throw NSError(domain: "FilteredFrames", code: 1, userInfo: [NSLocalizedDescriptionKey: "no camera"])
        }
        session.beginConfiguration()
        session.sessionPreset = .vga640x480
        session.addInput(try AVCaptureDeviceInput(device: camera))
        let output = AVCaptureVideoDataOutput()
        output.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA]
        output.alwaysDiscardsLateVideoFrames = true
        output.setSampleBufferDelegate(self, queue: queue)
        session.addOutput(output)
        session.commitConfiguration()
        session.startRunning()
    }

    public func stop() { session.stopRunning() }

    public func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        guard let pixelBuffer = CMSampleBufferGetImageBuffer(sampleBuffer) else { return }
        let ciImage = CIImage(cvPixelBuffer: pixelBuffer)
        mono.inputImage = ciImage
        guard let filtered = mono.outputImage?.oriented(.right),
            let cgImage = context.createCGImage(filtered, from: filtered.extent)
        else { return }
        lock.lock()
        latest = (pixelBuffer, cgImage)
        lock.unlock()
    }

    /// A still of a frame, as snapshot code makes one.
    public static func snapshot(of pixelBuffer: CVPixelBuffer) -> CGImage? {
        let image = CIImage(cvPixelBuffer: pixelBuffer)
        return CIContext().createCGImage(image, from: image.extent)
    }
}
