import CMediaCodecs
import Foundation

/// What came of asking a packet coder for output.
package enum AudioCodingStep: Equatable {
    /// Output was given (a packet of `size` bytes, or `size` frames).
    case output(size: Int)
    /// The coder needs more input.
    case needsInput
    /// The coder has given everything.
    case ended
    /// The coder failed (FFmpeg's error code).
    case failure(Int32)

    init(_ result: Int32, size: Int32) {
        switch result {
        case 0: self = .output(size: Int(size))
        case 1: self = .needsInput
        case 2: self = .ended
        default: self = .failure(result)
        }
    }
}

/// Encodes deinterleaved float sound into packets with one of FFmpeg's audio encoders.
///
/// Thread ownership: one thread at a time (an audio converter holds it).
package final class AudioPacketEncoder {
    private let encoder: OpaquePointer
    /// The frames each packet holds.
    package let frameSize: Int

    /// Opens FFmpeg's encoder `name` ("aac"); throws FFmpeg's error code.
    package init(_ name: String, sampleRate: Int, channels: Int, bitRate: Int) throws(SampleConverter.Failure) {
        FFmpegLog.installed
        var error: Int32 = 0
        guard let made = cmc_audio_encoder_open(name, Int32(sampleRate), Int32(channels), Int64(bitRate), &error) else {
            throw SampleConverter.Failure(code: error)
        }
        encoder = made
        frameSize = Int(cmc_audio_encoder_frame_size(made))
    }

    deinit { cmc_audio_encoder_free(encoder) }

    /// The codec's configuration: AAC's AudioSpecificConfig, the magic cookie.
    package var magicCookie: Data? {
        var size: Int32 = 0
        guard let bytes = cmc_audio_encoder_extradata(encoder, &size), size > 0 else { return nil }
        return Data(bytes: bytes, count: Int(size))
    }

    /// Encodes up to `frameSize` frames (one pointer per channel), or with nil ends the stream; false on failure.
    package func send(_ channels: UnsafePointer<UnsafePointer<Float>?>?, frames: Int) -> Bool {
        cmc_audio_encoder_send(encoder, channels, Int32(frames)) >= 0
    }

    /// Takes the next packet into `bytes` (of `capacity` bytes).
    package func receive(into bytes: UnsafeMutableRawPointer, capacity: Int) -> AudioCodingStep {
        var size: Int32 = 0
        let result = cmc_audio_encoder_receive(encoder, bytes.assumingMemoryBound(to: UInt8.self), Int32(capacity), &size)
        return AudioCodingStep(result, size: size)
    }
}

/// Decodes packets into deinterleaved float sound with one of FFmpeg's audio decoders.
///
/// Thread ownership: one thread at a time (an audio converter holds it).
package final class AudioPacketDecoder {
    private let decoder: OpaquePointer

    /// Opens a decoder for FFmpeg's codec `name` ("aac") with the codec's configuration; throws FFmpeg's error code.
    package init(_ name: String, sampleRate: Int, channels: Int, magicCookie: Data?) throws(SampleConverter.Failure) {
        FFmpegLog.installed
        var error: Int32 = 0
        let cookie = [UInt8](magicCookie ?? Data())
        let made = cookie.withUnsafeBufferPointer { bytes in
            cmc_audio_decoder_open(name, Int32(sampleRate), Int32(channels), bytes.baseAddress, Int32(bytes.count), &error)
        }
        guard let made else { throw SampleConverter.Failure(code: error) }
        decoder = made
    }

    deinit { cmc_audio_decoder_free(decoder) }

    /// Decodes a packet, or with nil ends the stream; false when the packet was refused (damaged).
    @discardableResult
    package func send(_ packet: UnsafeRawBufferPointer?) -> Bool {
        guard let packet else { return cmc_audio_decoder_send(decoder, nil, 0) >= 0 }
        return cmc_audio_decoder_send(decoder, packet.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(packet.count)) >= 0
    }

    /// Takes decoded frames into `channels` (room for `capacity` frames each).
    package func receive(into channels: UnsafePointer<UnsafeMutablePointer<Float>?>, capacity: Int) -> AudioCodingStep {
        var frames: Int32 = 0
        let result = cmc_audio_decoder_receive(decoder, channels, Int32(capacity), &frames)
        return AudioCodingStep(result, size: frames)
    }
}
