import CoreMedia
import Foundation

/// A microphone's sample buffers as PCM buffers in the device's own format, with a converter from
/// that format to a target: what a recorder and an engine's input node take from a device.
///
/// Thread ownership: the device's thread. The buffer and converter are made once, and again only
/// when the device's format changes or it delivers a larger block.
package final class DeviceSound {
    /// The format the converter converts to.
    package let target: AVAudioFormat
    private var buffer: AVAudioPCMBuffer?
    private var converter: AVAudioConverter?
    private var deviceFormat: AudioStreamBasicDescription?

    package init(target: AVAudioFormat) { self.target = target }

    /// Copies a sample buffer's samples into the buffer of the device's format; that buffer and
    /// the converter to the target, or nil for a buffer that is not interleaved linear PCM.
    package func load(_ sampleBuffer: CMSampleBuffer) -> (buffer: AVAudioPCMBuffer, converter: AVAudioConverter)? {
        guard let asbd = sampleBuffer.formatDescription?.audioStreamBasicDescription, let block = sampleBuffer.dataBuffer, asbd.mBytesPerFrame > 0
        else { return nil }
        let frames = block.length / Int(asbd.mBytesPerFrame)
        guard frames > 0 else { return nil }
        if asbd != deviceFormat || (buffer?.frameCapacity ?? 0) < AVAudioFrameCount(frames) {
            var description = asbd
            // The device's samples arrive interleaved, as capture devices deliver them.
            description.mFormatFlags &= ~kAudioFormatFlagIsNonInterleaved
            let layout = asbd.mChannelsPerFrame > 2 ? AVAudioChannelLayout(layoutTag: kAudioChannelLayoutTag_DiscreteInOrder | asbd.mChannelsPerFrame) : nil
            guard let format = AVAudioFormat(streamDescription: &description, channelLayout: layout),
                let made = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: AVAudioFrameCount(max(frames, 4096))),
                let converter = AVAudioConverter(from: format, to: target)
            else { return nil }
            buffer = made
            self.converter = converter
            deviceFormat = asbd
        }
        guard let buffer, let converter else { return nil }
        buffer.mutableAudioBufferList.pointee.mBuffers.mData!.copyMemory(from: block.bytes, byteCount: frames * Int(asbd.mBytesPerFrame))
        buffer.frameLength = AVAudioFrameCount(frames)
        return (buffer, converter)
    }
}
