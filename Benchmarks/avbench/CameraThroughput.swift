import AVFoundation
import Foundation

/// A delegate that counts the frames it receives.
final class FrameCounter: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var frames: Int { lock.lock(); defer { lock.unlock() }; return count }
    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        lock.lock(); count += 1; lock.unlock()
    }
}

/// Streams `camera` in `format` (at `framesPerSecond` when given) to a counting delegate that asks
/// for `delivered`, and measures `seconds` after a second of warm-up: frames delivered, this
/// process's CPU seconds, and wall-clock seconds.
func measureCamera(_ camera: AVCaptureDevice, format: AVCaptureDevice.Format, delivered: OSType, framesPerSecond: Int32? = nil,
                   seconds: Double) throws -> (frames: Int, cpu: Double, elapsed: Double) {
    let session = AVCaptureSession()
    session.beginConfiguration()
    session.addInput(try AVCaptureDeviceInput(device: camera))
    let output = AVCaptureVideoDataOutput()
    output.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: delivered]
    let counter = FrameCounter()
    output.setSampleBufferDelegate(counter, queue: DispatchQueue(label: "camera bench"))
    session.addOutput(output)
    try camera.lockForConfiguration()
    camera.activeFormat = format
    if let framesPerSecond {
        camera.activeVideoMinFrameDuration = CMTime(value: 1, timescale: framesPerSecond)
        camera.activeVideoMaxFrameDuration = CMTime(value: 1, timescale: framesPerSecond)
    }
    camera.unlockForConfiguration()
    session.commitConfiguration()
    session.startRunning()
    Thread.sleep(forTimeInterval: 1)
    let frames0 = counter.frames, cpu0 = cpuSeconds(), time0 = now()
    Thread.sleep(forTimeInterval: seconds)
    let measured = (frames: counter.frames - frames0, cpu: cpuSeconds() - cpu0, elapsed: now() - time0)
    session.stopRunning()
    return measured
}
