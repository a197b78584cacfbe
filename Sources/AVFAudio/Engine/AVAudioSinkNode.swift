import Foundation

/// A block that receives a sink node's input on the render thread: `frameCount` frames for the
/// time given; returns 0 (noErr) or an error status.
public typealias AVAudioSinkNodeReceiverBlock = (UnsafePointer<AudioTimeStamp>, AVAudioFrameCount, UnsafePointer<AudioBufferList>) -> OSStatus

/// A node that hands what feeds it to a block on the render thread, and goes nowhere: for
/// taking the microphone's audio as it is rendered.
open class AVAudioSinkNode: AVAudioNode, @unchecked Sendable {
    private let receiverBlock: AVAudioSinkNodeReceiverBlock

    /// Creates a sink node that hands its input to a block.
    public init(receiverBlock block: @escaping AVAudioSinkNodeReceiverBlock) {
        receiverBlock = block
        super.init()
    }

    /// A sink node has no output.
    open override var numberOfOutputs: Int { 0 }

    /// The format of the connection into the sink.
    override var defaultFormat: AVAudioFormat { engine?.feed(into: self, bus: 0)?.format ?? super.defaultFormat }

    override func render(into buffer: AVAudioPCMBuffer, frames: Int, context: RenderContext) -> Bool {
        guard let feed = renderInputs.first, feed.format.isEqual(buffer.format) else { return false }
        let input = feed.source.pull(frames: frames, context: context)
        if let input { buffer.copyFrames(from: input, at: 0, to: 0, count: frames) } else { AVAudioNode.silence(buffer, frames: frames) }
        var stamp = context.audioTimeStamp
        _ = receiverBlock(&stamp, AVAudioFrameCount(frames), buffer.audioBufferList)
        return false
    }
}
