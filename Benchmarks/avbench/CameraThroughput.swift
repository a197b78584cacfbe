import AVFoundation
import CBenchmarkSupport
import Foundation

/// A delegate that does nothing but count the frames it receives and the frames dropped.
final class CountingDelegate: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var frames = 0, drops = 0
    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        lock.lock(); frames += 1; lock.unlock()
    }
    func captureOutput(_ output: AVCaptureOutput, didDrop sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        lock.lock(); drops += sampleBuffer.numSamples; lock.unlock()
    }
    /// Frames delivered and frames dropped so far.
    var counts: (frames: Int, drops: Int) { lock.lock(); defer { lock.unlock() }; return (frames, drops) }
}

/// Streams `camera` in `format` (at `framesPerSecond` when given) to a counting delegate that asks
/// for `delivered`, and measures `seconds` after a second of warm-up: frames delivered, this
/// process's CPU seconds, wall-clock seconds, and the process's heap allocations per frame.
func measureCamera(
    _ camera: AVCaptureDevice, format: AVCaptureDevice.Format, delivered: OSType, framesPerSecond: Int32? = nil,
    seconds: Double
) throws -> (frames: Int, cpu: Double, elapsed: Double, allocationsPerFrame: Double) {
    let session = AVCaptureSession()
    session.beginConfiguration()
    session.addInput(try AVCaptureDeviceInput(device: camera))
    let output = AVCaptureVideoDataOutput()
    output.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: delivered]
    let counter = CountingDelegate()
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
    let frames0 = counter.counts.frames, cpu0 = cpuSeconds(), time0 = now(), allocations0 = avbench_allocation_count()
    Thread.sleep(forTimeInterval: seconds)
    let allocations = avbench_allocation_count() - allocations0
    let frames = counter.counts.frames - frames0
    let measured = (frames: frames, cpu: cpuSeconds() - cpu0, elapsed: now() - time0, allocationsPerFrame: Double(allocations) / Double(max(1, frames)))
    session.stopRunning()
    return measured
}
