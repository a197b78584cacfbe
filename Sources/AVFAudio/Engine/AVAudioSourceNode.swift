import Foundation

/// A block that renders a source node's audio: it fills the buffer list with `frameCount`
/// frames for the time given, may set `isSilence`, and returns 0 (noErr) or an error status.
public typealias AVAudioSourceNodeRenderBlock = (
    UnsafeMutablePointer<ObjCBool>, UnsafePointer<AudioTimeStamp>, AVAudioFrameCount, UnsafeMutablePointer<AudioBufferList>
) -> OSStatus

/// A node whose audio a block renders on the render thread: signal generators and synthesizers.
open class AVAudioSourceNode: AVAudioNode, AVAudioMixing, @unchecked Sendable {
    private let renderBlock: AVAudioSourceNodeRenderBlock
    private let mixing = MixingSettings()
    private let format: AVAudioFormat?

    /// Creates a source node rendered by a block, in the format of the connection from it.
    public init(renderBlock block: @escaping AVAudioSourceNodeRenderBlock) {
        renderBlock = block
        format = nil
        super.init()
    }

    /// Creates a source node rendered by a block in a format (deinterleaved 32-bit floats).
    public init(format: AVAudioFormat, renderBlock block: @escaping AVAudioSourceNodeRenderBlock) {
        renderBlock = block
        self.format = format
        super.init()
        outputFormats.withLock { $0[0] = format }
    }

    /// A source node takes no input.
    open override var numberOfInputs: Int { 0 }

    /// The volume the node plays into a mixer at.
    open var volume: Float {
        get { mixing.volume }
        set { mixing.volume = newValue }
    }

    /// The node's place in a mixer's stereo field.
    open var pan: Float {
        get { mixing.pan }
        set { mixing.pan = newValue }
    }

    override func render(into buffer: AVAudioPCMBuffer, frames: Int, context: RenderContext) -> Bool {
        var silence = ObjCBool(false)
        var stamp = context.audioTimeStamp
        let status = renderBlock(&silence, &stamp, AVAudioFrameCount(frames), buffer.mutableAudioBufferList)
        return status == 0 && !silence.boolValue
    }
}
