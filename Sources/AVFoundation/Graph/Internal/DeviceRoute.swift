import CaptureDevices
import Foundation
import FrameProcessing

/// Where one device's samples go: the connections of a running session that it feeds.
///
/// The session replaces the route's targets as a whole at each commit, so a sample goes
/// either to the old graph or to the new one, never to a mix; a sample of a stream
/// configuration the targets were not made for is discarded. One frame goes to every
/// connection as the same sample buffer, converted once per distinct pixel format and orientation asked for.
///
/// Thread ownership: `deviceDidProduce` and `deviceDidDrop` run on the device's thread only;
/// `setTargets` runs on the session's configuring thread.
final class DeviceRoute: CaptureSampleSink, @unchecked Sendable {
    struct Target {
        let connection: AVCaptureConnection
        let output: AVCaptureOutput
        /// The index of the conversion the target's frames go through, or -1 for none.
        let conversion: Int
    }

    /// A conversion to one pixel format, orientation and (when given) size, shared by every target that asks for it.
    final class Conversion: @unchecked Sendable {
        let pixelFormat: OSType
        let orientation: PixelOrientation
        /// The size frames are scaled to before they are converted, or nil to keep the stream's.
        let size: (width: Int, height: Int)?
        private var pool: VideoFramePool?
        private let converter = PixelFormatConverter()
        private let scaler = FrameScaler()
        private var cachedSource: CMSampleBuffer?
        private var cachedResult: CMSampleBuffer?
        /// Frames the conversion keeps: more where an output queues them for an encoder (the stream's plan says how many).
        var capacity = StreamPlan.baseConversionCapacity

        init(pixelFormat: OSType, orientation: PixelOrientation = .identity, size: (width: Int, height: Int)? = nil) {
            self.pixelFormat = pixelFormat
            self.orientation = orientation
            self.size = size
        }

        /// The frame converted, once per frame, or `nil` when the conversion's buffers are all held.
        func convert(_ sampleBuffer: CMSampleBuffer) -> CMSampleBuffer? {
            if let cachedSource, cachedSource === sampleBuffer { return cachedResult }
            guard var source = sampleBuffer.imageBufferStorage else { return nil }
            if let size {
                guard let scaled = scaler.scale(source, width: size.width, height: size.height) else { return nil }
                source = scaled
            }
            let (width, height) = orientation.swapsDimensions ? (source.height, source.width) : (source.width, source.height)
            if pool == nil || pool!.width != width || pool!.height != height {
                pool = VideoFramePool(width: width, height: height, pixelFormat: pixelFormat, capacity: capacity)
            }
            cachedSource = sampleBuffer
            cachedResult = nil
            guard let pool, let (pixelBuffer, result) = pool.dequeue(), converter.convert(source, into: pixelBuffer, orientation: orientation) else {
                return nil
            }
            pool.prepare(result, pixelBuffer: pixelBuffer, presentationTime: sampleBuffer.presentationTimeStamp, duration: sampleBuffer.timing.duration)
            cachedResult = result
            return result
        }

        /// Lets go of the last frame, so its buffers can return to their pools.
        func clear() {
            cachedSource = nil
            cachedResult = nil
        }
    }

    /// An immutable set of targets for one stream generation.
    final class Targets: @unchecked Sendable {
        let generation: Int
        let list: [Target]
        let conversions: [Conversion]
        init(generation: Int, list: [Target], conversions: [Conversion]) {
            self.generation = generation
            self.list = list
            self.conversions = conversions
        }
        static let none = Targets(generation: -1, list: [], conversions: [])
    }

    let device: AVCaptureDevice
    private let current = LockedValue(Targets.none)

    init(device: AVCaptureDevice) { self.device = device }

    func setTargets(_ targets: Targets) { current.withLock { $0 = targets } }
    var targets: Targets { current.withLock { $0 } }

    func deviceDidProduce(_ sampleBuffer: CMSampleBuffer, generation: Int) {
        let targets = current.withLock { $0 }
        guard targets.generation == generation else { return }
        if sampleBuffer.dataBufferStorage != nil { meterAudio(sampleBuffer, targets) }
        if let frame = sampleBuffer.imageBufferStorage { device.core.frameDelivered(frame) }
        for target in targets.list where target.connection.isEnabled {
            if target.conversion < 0 {
                target.output.receive(sampleBuffer, from: target.connection)
            } else if let converted = targets.conversions[target.conversion].convert(sampleBuffer) {
                target.output.receive(converted, from: target.connection)
            } else {
                target.output.receiveDrop(
                    at: sampleBuffer.presentationTimeStamp, duration: sampleBuffer.timing.duration, reason: .outOfBuffers, from: target.connection)
            }
        }
        for conversion in targets.conversions { conversion.clear() }
    }

    func deviceDidDrop(at presentationTime: CMTime, duration: CMTime, reason: FrameDropReason, generation: Int) {
        let targets = current.withLock { $0 }
        guard targets.generation == generation else { return }
        for target in targets.list where target.connection.isEnabled {
            target.output.receiveDrop(at: presentationTime, duration: duration, reason: reason, from: target.connection)
        }
    }

    private func meterAudio(_ sampleBuffer: CMSampleBuffer, _ targets: Targets) {
        guard let block = sampleBuffer.dataBufferStorage, let asbd = sampleBuffer.formatDescriptionStorage?.audioStreamBasicDescription,
            asbd.mBitsPerChannel == 16
        else { return }
        let channels = Int(max(1, asbd.mChannelsPerFrame))
        let frames = block.length / (2 * channels)
        let samples = UnsafePointer(block.bytes.assumingMemoryBound(to: Int16.self))
        let now = Int64(sampleBuffer.presentationTimeStamp.seconds * 1e9)
        for target in targets.list {
            for (index, channel) in target.connection.audioChannels.enumerated() where index < channels {
                channel.measure(samples, frames: frames, stride: channels, offset: index, hostTime: now)
            }
        }
    }
}
