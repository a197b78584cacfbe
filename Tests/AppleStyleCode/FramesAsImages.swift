import AVFoundation

/// Seed code turned into Swift as iOS developers write it: a frame as a `CGImage`, through a
/// bitmap context over the locked base address (the AV Foundation Programming Guide's
/// "Converting CMSampleBuffer to a UIImage Object"), and through a data provider over it without
/// a copy (Technical Q&A QA1702's way).
public enum FramesAsImages {
    /// The frame's pixels drawn into a bitmap context and made an image: a copy.
    public static func imageFromSampleBuffer(_ sampleBuffer: CMSampleBuffer) -> CGImage? {
        guard let imageBuffer = CMSampleBufferGetImageBuffer(sampleBuffer) else { return nil }
        CVPixelBufferLockBaseAddress(imageBuffer, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(imageBuffer, .readOnly) }
        let baseAddress = CVPixelBufferGetBaseAddress(imageBuffer)
        let bytesPerRow = CVPixelBufferGetBytesPerRow(imageBuffer)
        let width = CVPixelBufferGetWidth(imageBuffer)
        let height = CVPixelBufferGetHeight(imageBuffer)
        let colorSpace = CGColorSpaceCreateDeviceRGB()
        let bitmapInfo = CGBitmapInfo.byteOrder32Little.rawValue | CGImageAlphaInfo.premultipliedFirst.rawValue
        guard
            let context = CGContext(
                data: baseAddress, width: width, height: height, bitsPerComponent: 8, bytesPerRow: bytesPerRow, space: colorSpace,
                bitmapInfo: bitmapInfo)
        else { return nil }
        return context.makeImage()
    }

    /// The frame as an image that reads the pixel buffer's memory where it is; the image keeps the buffer.
    public static func directImage(from sampleBuffer: CMSampleBuffer) -> CGImage? {
        guard let imageBuffer = CMSampleBufferGetImageBuffer(sampleBuffer) else { return nil }
        CVPixelBufferLockBaseAddress(imageBuffer, .readOnly)
        guard let baseAddress = CVPixelBufferGetBaseAddress(imageBuffer) else {
            CVPixelBufferUnlockBaseAddress(imageBuffer, .readOnly)
            return nil
        }
        let retained = Unmanaged.passRetained(imageBuffer).toOpaque()
        guard
            let provider = CGDataProvider(
                dataInfo: retained, data: baseAddress, size: CVPixelBufferGetDataSize(imageBuffer),
                releaseData: { info, _, _ in
                    guard let info else { return }
                    let buffer = Unmanaged<CVPixelBuffer>.fromOpaque(info).takeRetainedValue()
                    CVPixelBufferUnlockBaseAddress(buffer, .readOnly)
                })
        else { return nil }
        return CGImage(
            width: CVPixelBufferGetWidth(imageBuffer), height: CVPixelBufferGetHeight(imageBuffer), bitsPerComponent: 8, bitsPerPixel: 32,
            bytesPerRow: CVPixelBufferGetBytesPerRow(imageBuffer), space: CGColorSpaceCreateDeviceRGB(),
            bitmapInfo: CGBitmapInfo(rawValue: CGImageAlphaInfo.noneSkipFirst.rawValue | CGBitmapInfo.byteOrder32Little.rawValue),
            provider: provider, decode: nil, shouldInterpolate: true, intent: .defaultIntent)
    }

    /// An image redrawn into an RGBA context of its size, as code that feeds a model does; the RGBA bytes.
    public static func rgbaBytes(of image: CGImage) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: image.width * image.height * 4)
        let drawn = bytes.withUnsafeMutableBytes { buffer -> Bool in
            guard
                let context = CGContext(
                    data: buffer.baseAddress, width: image.width, height: image.height, bitsPerComponent: 8, bytesPerRow: image.width * 4,
                    space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)
            else { return false }
            context.draw(image, in: CGRect(x: 0, y: 0, width: image.width, height: image.height))
            return true
        }
        return drawn ? bytes : nil
    }
}

/// Grabs frames from the default camera in BGRA, as a video data output's delegate.
public final class FrameImageGrabber: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
    public let session = AVCaptureSession()
    private let queue = DispatchQueue(label: "grabber.images")
    private let lock = NSLock()
    private var frame: CMSampleBuffer?

    public override init() { super.init() }

    /// The latest frame.
    public var latest: CMSampleBuffer? {
        lock.lock()
        defer { lock.unlock() }
        return frame
    }

    public func start() throws {
        guard let camera = AVCaptureDevice.default(for: .video) else {
            throw NSError(domain: "FrameImageGrabber", code: 1, userInfo: [NSLocalizedDescriptionKey: "no camera"])
        }
        session.beginConfiguration()
        session.sessionPreset = .vga640x480
        session.addInput(try AVCaptureDeviceInput(device: camera))
        let output = AVCaptureVideoDataOutput()
        output.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: NSNumber(value: kCVPixelFormatType_32BGRA)]
        output.setSampleBufferDelegate(self, queue: queue)
        session.addOutput(output)
        session.commitConfiguration()
        session.startRunning()
    }

    public func stop() { session.stopRunning() }

    public func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        lock.lock()
        frame = sampleBuffer
        lock.unlock()
    }
}
