import CaptureDevices
import CoreMedia
import Foundation

/// The microphone behind an engine's input node: each buffer it delivers converted, on its
/// thread, to the node's format (deinterleaved floats at the device's rate) and handed to the
/// node's tap and, when the node feeds other nodes, to the render thread.
///
/// Thread ownership: the device calls on its own thread; start and stop come from the engine.
final class EngineMicrophone: CaptureSampleSink, @unchecked Sendable {
    private let node: AVAudioInputNode
    private var device: CaptureDeviceBackend?
    /// Device thread: the converter from the device's samples, and buffers in both formats.
    private var converter: AVAudioConverter?
    private var input: AVAudioPCMBuffer?
    private var output: AVAudioPCMBuffer?
    private var inputFormat: AudioStreamBasicDescription?
    private var sampleTime: AVAudioFramePosition = 0

    init(node: AVAudioInputNode) { self.node = node }

    /// Whether the microphone is delivering.
    var isRunning: Bool { device != nil }

    /// Starts the microphone; throws when there is none or it cannot start.
    func start() throws {
        guard device == nil else { return }
        guard let microphone = Microphones.current(), microphone.isAuthorized else {
            throw AVAudioConverter.error(.unspecified, "no microphone can be recorded from")
        }
        do { try microphone.start(nil, sink: self) } catch {
            throw AVAudioConverter.error(.unspecified, "the microphone could not start: \(error)")
        }
        device = microphone
    }

    /// Stops the microphone; nothing is delivered after this returns.
    func stop() {
        device?.stop()
        device = nil
    }

    func deviceDidProduce(_ sampleBuffer: CMSampleBuffer, generation: Int) {
        guard let asbd = sampleBuffer.formatDescription?.audioStreamBasicDescription, let block = sampleBuffer.dataBuffer, asbd.mBytesPerFrame > 0
        else { return }
        let frames = block.length / Int(asbd.mBytesPerFrame)
        guard frames > 0, let (input, output, converter) = prepare(for: asbd, frames: frames) else { return }
        input.mutableAudioBufferList.pointee.mBuffers.mData!.copyMemory(from: block.bytes, byteCount: frames * Int(asbd.mBytesPerFrame))
        input.frameLength = AVAudioFrameCount(frames)
        do { try converter.convert(to: output, from: input) } catch { return }
        if AVAudioApplication.shared.isInputMuted { AVAudioNode.silence(output, frames: frames) }
        node.deviceDelivered(output, sampleTime: sampleTime, connected: node.feedsOtherNodes.withLock { $0 })
        sampleTime += AVAudioFramePosition(frames)
    }

    func deviceDidDrop(at presentationTime: CMTime, duration: CMTime, reason: FrameDropReason, generation: Int) {}

    /// The converter and buffers for the device's format, made again when it changes or grows.
    private func prepare(for asbd: AudioStreamBasicDescription, frames: Int) -> (AVAudioPCMBuffer, AVAudioPCMBuffer, AVAudioConverter)? {
        if asbd != inputFormat || (input?.frameCapacity ?? 0) < AVAudioFrameCount(frames) {
            var description = asbd
            description.mFormatFlags &= ~kAudioFormatFlagIsNonInterleaved
            let nodeFormat = node.outputFormat(forBus: 0)
            guard description.mSampleRate == nodeFormat.sampleRate, let format = AVAudioFormat(streamDescription: &description),
                let made = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: AVAudioFrameCount(max(frames, 4096))),
                let out = AVAudioPCMBuffer(pcmFormat: nodeFormat, frameCapacity: AVAudioFrameCount(max(frames, 4096))),
                let converter = AVAudioConverter(from: format, to: nodeFormat)
            else { return nil }
            input = made
            output = out
            self.converter = converter
            inputFormat = asbd
        }
        guard let input, let output, let converter else { return nil }
        return (input, output, converter)
    }
}
