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
    /// Device thread: the device's samples and their converter to the node's format, and a buffer in that format.
    private let sound: DeviceSound
    private var output: AVAudioPCMBuffer?
    private var sampleTime: AVAudioFramePosition = 0

    init(node: AVAudioInputNode) {
        self.node = node
        sound = DeviceSound(target: node.outputFormat(forBus: 0))
    }

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
        guard let (input, converter) = sound.load(sampleBuffer) else { return }
        let frames = Int(input.frameLength)
        if (output?.frameCapacity ?? 0) < input.frameLength { output = AVAudioPCMBuffer(pcmFormat: sound.target, frameCapacity: max(input.frameLength, 4096)) }
        guard let output else { return }
        // The same rate only: the node delivers the microphone's own (a converter at another rate refuses).
        do { try converter.convert(to: output, from: input) } catch { return }
        if AVAudioApplication.shared.isInputMuted { AVAudioNode.silence(output, frames: frames) }
        node.deviceDelivered(output, sampleTime: sampleTime, connected: node.feedsOtherNodes.withLock { $0 })
        sampleTime += AVAudioFramePosition(frames)
    }

    func deviceDidDrop(at presentationTime: CMTime, duration: CMTime, reason: FrameDropReason, generation: Int) {}
}
