import Foundation
import MovieEngine

/// An audio converter's compressed side: linear PCM encoded into packets (AAC), or packets
/// (AAC, MP3, FLAC, Apple Lossless, Opus) decoded into linear PCM, at one rate and channel count.
///
/// Thread ownership: the converter's caller's thread, one at a time.
final class CompressedConversion {
    /// FFmpeg's encoder or decoder name for a format ID; nil for formats not coded here.
    static func codecName(_ formatID: AudioFormatID, encoding: Bool) -> String? {
        switch formatID {
        case kAudioFormatMPEG4AAC: "aac"
        case kAudioFormatMPEGLayer3 where !encoding: "mp3"
        case kAudioFormatFLAC where !encoding: "flac"
        case kAudioFormatAppleLossless where !encoding: "alac"
        case kAudioFormatOpus where !encoding: "opus"
        default: nil
        }
    }

    let pcm: AVAudioFormat
    let compressed: AVAudioFormat
    /// The standard format at the PCM side's rate and channels, which the codec works in.
    let standard: AVAudioFormat
    /// Converts the PCM side's own format to and from the standard one, when they differ.
    private let reformat: AVAudioConverter?
    private var encoder: AudioPacketEncoder?
    private var decoder: AudioPacketDecoder?
    /// Frames waiting for the encoder, one array per channel.
    private var waiting: [[Float]]
    private var inputEnded = false
    private var ended = false
    private var scratch: AVAudioPCMBuffer?
    private let pointers = UnsafeMutablePointer<UnsafeMutablePointer<Float>?>.allocate(capacity: 64)

    /// Made for PCM to compressed (`encoding`) or compressed to PCM; nil when the formats cannot be.
    init?(pcm: AVAudioFormat, compressed: AVAudioFormat, encoding: Bool) {
        guard pcm.sampleRate == compressed.sampleRate, pcm.channelCount == compressed.channelCount, pcm.channelCount <= 64,
            Self.codecName(compressed.streamDescription.pointee.mFormatID, encoding: encoding) != nil,
            let float = AVAudioFormat(commonFormat: .pcmFormatFloat32, sampleRate: pcm.sampleRate, channels: pcm.channelCount, interleaved: false)
        else { return nil }
        self.pcm = pcm
        self.compressed = compressed
        standard = pcm.isStandard ? pcm : float
        reformat = pcm.isStandard ? nil : (encoding ? AVAudioConverter(from: pcm, to: float) : AVAudioConverter(from: float, to: pcm))
        waiting = .init(repeating: [], count: Int(pcm.channelCount))
    }

    deinit { pointers.deallocate() }

    /// Forgets the stream, to start another.
    func reset() {
        encoder = nil
        decoder = nil
        waiting = .init(repeating: [], count: waiting.count)
        inputEnded = false
        ended = false
    }

    /// The encoder, made at first use with the bit rate asked for; its magic cookie goes on the compressed format.
    private func makeEncoder(bitRate: Int) throws -> AudioPacketEncoder {
        if let encoder { return encoder }
        do {
            let made = try AudioPacketEncoder("aac", sampleRate: Int(pcm.sampleRate), channels: Int(pcm.channelCount), bitRate: bitRate)
            compressed.magicCookie = made.magicCookie
            encoder = made
            return made
        } catch {
            throw AVAudioConverter.error(.unspecified, error.reason)
        }
    }

    /// The magic cookie the encoder makes, once it is made.
    var encoderMagicCookie: Data? { encoder?.magicCookie }

    // MARK: Encoding

    /// Fills a compressed buffer with packets, asking `input` for PCM as the encoder needs it.
    func encode(into output: AVAudioCompressedBuffer, bitRate: Int, input: AVAudioConverterInputBlock) throws -> AVAudioConverterOutputStatus {
        output.packetCount = 0
        output.byteLength = 0
        if ended { return .endOfStream }
        let encoder = try makeEncoder(bitRate: bitRate)
        while output.packetCount < output.packetCapacity {
            let offset = Int(output.byteLength)
            switch encoder.receive(into: output.data + offset, capacity: Int(output.byteCapacity) - offset) {
            case .output(let size):
                output.packetDescriptions?[Int(output.packetCount)] = AudioStreamPacketDescription(
                    mStartOffset: Int64(offset), mVariableFramesInPacket: 0, mDataByteSize: UInt32(size))
                output.byteLength += UInt32(size)
                output.packetCount += 1
                continue
            case .ended:
                ended = true
                return output.packetCount > 0 ? .haveData : .endOfStream
            case .failure(let code):
                if code == -ENOSPC, output.packetCount > 0 { return .haveData }
                throw AVAudioConverter.error(.unspecified, "the encoder failed: \(MovieFile.describe(code))")
            case .needsInput:
                break
            }
            let frameSize = encoder.frameSize
            if waiting[0].count >= frameSize || (inputEnded && !waiting[0].isEmpty) {
                let count = min(frameSize, waiting[0].count)
                let sent = withPointers(to: waiting, count: count) { encoder.send($0, frames: count) }
                for channel in waiting.indices { waiting[channel].removeFirst(count) }
                guard sent else { throw AVAudioConverter.error(.unspecified, "the encoder refused the sound") }
                continue
            }
            if inputEnded {
                _ = encoder.send(nil, frames: 0)
                continue
            }
            var status = AVAudioConverterInputStatus.haveData
            let given = input(AVAudioPacketCount(frameSize), &status)
            switch status {
            case .noDataNow: return output.packetCount > 0 ? .haveData : .inputRanDry
            case .endOfStream: inputEnded = true
            case .haveData:
                guard let buffer = given as? AVAudioPCMBuffer, buffer.format.isEqual(pcm) else {
                    throw AVAudioConverter.error(.formatNotSupported, "the input block gave a buffer that is not in the converter's input format")
                }
                try append(buffer)
            }
        }
        return .haveData
    }

    /// Adds a PCM buffer's frames to those waiting for the encoder, in the standard format.
    private func append(_ buffer: AVAudioPCMBuffer) throws {
        var source = buffer
        if let reformat {
            if scratch == nil || scratch!.frameCapacity < buffer.frameLength {
                scratch = AVAudioPCMBuffer(pcmFormat: standard, frameCapacity: buffer.frameLength)
            }
            try reformat.convert(to: scratch!, from: buffer)
            source = scratch!
        }
        for channel in waiting.indices {
            waiting[channel].append(contentsOf: UnsafeBufferPointer(start: source.floatChannelData![channel], count: Int(source.frameLength)))
        }
    }

    private func withPointers<R>(to channels: [[Float]], count: Int, _ body: (UnsafePointer<UnsafePointer<Float>?>) -> R) -> R {
        withUnsafeTemporaryAllocation(of: UnsafePointer<Float>?.self, capacity: channels.count) { pointers in
            var result: R?
            func nest(_ index: Int) {
                guard index < channels.count else {
                    result = body(UnsafePointer(pointers.baseAddress!))
                    return
                }
                channels[index].withUnsafeBufferPointer { buffer in
                    pointers[index] = buffer.baseAddress
                    nest(index + 1)
                }
            }
            nest(0)
            return result!
        }
    }

    // MARK: Decoding

    /// Fills a PCM buffer with decoded sound, asking `input` for packets as the decoder needs them.
    func decode(into output: AVAudioPCMBuffer, magicCookie: Data?, input: AVAudioConverterInputBlock) throws -> AVAudioConverterOutputStatus {
        output.frameLength = 0
        if ended { return .endOfStream }
        if decoder == nil {
            let name = Self.codecName(compressed.streamDescription.pointee.mFormatID, encoding: false)!
            do {
                decoder = try AudioPacketDecoder(
                    name, sampleRate: Int(pcm.sampleRate), channels: Int(pcm.channelCount), magicCookie: compressed.magicCookie ?? magicCookie)
            } catch {
                throw AVAudioConverter.error(.unspecified, error.reason)
            }
        }
        guard let decoder else { return .endOfStream }
        let target: AVAudioPCMBuffer
        if reformat == nil {
            target = output
        } else {
            if scratch == nil || scratch!.frameCapacity < output.frameCapacity {
                scratch = AVAudioPCMBuffer(pcmFormat: standard, frameCapacity: output.frameCapacity)
            }
            target = scratch!
        }
        let capacity = Int(output.frameCapacity)
        var produced = 0
        var status = AVAudioConverterOutputStatus.haveData
        decoding: while produced < capacity {
            for channel in 0..<Int(standard.channelCount) { pointers[channel] = target.floatChannelData![channel] + produced }
            switch decoder.receive(into: pointers, capacity: capacity - produced) {
            case .output(let frames):
                produced += frames
            case .ended:
                ended = true
                status = produced > 0 ? .haveData : .endOfStream
                break decoding
            case .failure(let code):
                throw AVAudioConverter.error(.unspecified, "the decoder failed: \(MovieFile.describe(code))")
            case .needsInput:
                if inputEnded {
                    decoder.send(nil)
                    continue
                }
                var inputStatus = AVAudioConverterInputStatus.haveData
                let given = input(1, &inputStatus)
                switch inputStatus {
                case .noDataNow:
                    status = produced > 0 ? .haveData : .inputRanDry
                    break decoding
                case .endOfStream:
                    inputEnded = true
                    decoder.send(nil)
                case .haveData:
                    guard let packets = given as? AVAudioCompressedBuffer else {
                        throw AVAudioConverter.error(.formatNotSupported, "the input block gave a buffer that is not compressed")
                    }
                    send(packets, to: decoder)
                }
            }
        }
        target.frameLength = AVAudioFrameCount(produced)
        if let reformat, produced > 0 { try reformat.convert(to: output, from: target) } else { output.frameLength = AVAudioFrameCount(produced) }
        return status
    }

    /// Hands each packet of a compressed buffer to the decoder; damaged packets are left out.
    private func send(_ packets: AVAudioCompressedBuffer, to decoder: AudioPacketDecoder) {
        let count = Int(packets.packetCount)
        let fixed = Int(packets.format.streamDescription.pointee.mBytesPerPacket)
        for index in 0..<count {
            let start: Int, size: Int
            if let descriptions = packets.packetDescriptions {
                start = Int(descriptions[index].mStartOffset)
                size = Int(descriptions[index].mDataByteSize)
            } else {
                start = index * fixed
                size = fixed
            }
            guard size > 0, start >= 0, start + size <= Int(packets.byteLength) else { continue }
            decoder.send(UnsafeRawBufferPointer(start: packets.data + start, count: size))
        }
    }
}
