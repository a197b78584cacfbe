import AVFAudio
import XCTest

/// Linear PCM encoded to AAC packets and decoded back, as apps that send sound over a network do.
final class CompressedConversionTests: XCTestCase {
    private let aac = AVAudioFormat(settings: [AVFormatIDKey: kAudioFormatMPEG4AAC, AVSampleRateKey: 44_100, AVNumberOfChannelsKey: 2])!

    /// Encodes a buffer completely; the packets (bytes each) and the magic cookie.
    private func encode(_ pcm: AVAudioPCMBuffer, chunk: Int = 4410) throws -> (packets: [Data], cookie: Data?) {
        let converter = try XCTUnwrap(AVAudioConverter(from: pcm.format, to: aac))
        converter.bitRate = 128_000
        XCTAssertEqual(converter.maximumOutputPacketSize, 1536)
        let output = AVAudioCompressedBuffer(format: aac, packetCapacity: 8, maximumPacketSize: converter.maximumOutputPacketSize)
        let piece = AVAudioPCMBuffer(pcmFormat: pcm.format, frameCapacity: AVAudioFrameCount(chunk))!
        var offset = 0
        var packets: [Data] = []
        while true {
            var error: NSError?
            let status = converter.convert(to: output, error: &error) { _, status in
                guard offset < Int(pcm.frameLength) else {
                    status.pointee = .endOfStream
                    return nil
                }
                let count = min(chunk, Int(pcm.frameLength) - offset)
                piece.frameLength = AVAudioFrameCount(count)
                let frameBytes = Int(pcm.format.streamDescription.pointee.mBytesPerFrame)
                for index in 0..<pcm.audioBufferList.pointee.mNumberBuffers {
                    let from = UnsafeMutableAudioBufferListPointer(pcm.mutableAudioBufferList)[Int(index)].mData!
                    let to = UnsafeMutableAudioBufferListPointer(piece.mutableAudioBufferList)[Int(index)].mData!
                    to.copyMemory(from: from + offset * frameBytes, byteCount: count * frameBytes)
                }
                offset += count
                status.pointee = .haveData
                return piece
            }
            XCTAssertNil(error)
            for index in 0..<Int(output.packetCount) {
                let description = output.packetDescriptions![index]
                packets.append(Data(bytes: output.data + Int(description.mStartOffset), count: Int(description.mDataByteSize)))
            }
            if status == .endOfStream { break }
            XCTAssertEqual(status, .haveData)
        }
        return (packets, converter.magicCookie)
    }

    /// Decodes packets with a magic cookie into the standard format; the left channel.
    private func decode(_ packets: [Data], cookie: Data?) throws -> [Float] {
        let standard = AVAudioFormat(standardFormatWithSampleRate: 44_100, channels: 2)!
        let converter = try XCTUnwrap(AVAudioConverter(from: aac, to: standard))
        converter.magicCookie = cookie
        let output = AVAudioPCMBuffer(pcmFormat: standard, frameCapacity: 3000)!
        let packet = AVAudioCompressedBuffer(format: aac, packetCapacity: 1, maximumPacketSize: 1536)
        var next = 0
        var left: [Float] = []
        while true {
            var error: NSError?
            let status = converter.convert(to: output, error: &error) { _, status in
                guard next < packets.count else {
                    status.pointee = .endOfStream
                    return nil
                }
                packets[next].copyBytes(to: packet.data.assumingMemoryBound(to: UInt8.self), count: packets[next].count)
                packet.packetDescriptions![0] = AudioStreamPacketDescription(
                    mStartOffset: 0, mVariableFramesInPacket: 0, mDataByteSize: UInt32(packets[next].count))
                packet.packetCount = 1
                packet.byteLength = UInt32(packets[next].count)
                next += 1
                status.pointee = .haveData
                return packet
            }
            XCTAssertNil(error)
            left += Tones.samples(output)
            if status == .endOfStream { break }
        }
        return left
    }

    func testSoundEncodedToAACDecodesBackToTheSameTone() throws {
        let tone = Tones.sine(frequency: 440, seconds: 1, sampleRate: 44_100, channels: 2, amplitude: 0.5)
        let (packets, cookie) = try encode(tone)
        XCTAssertEqual(Double(packets.count), 44_100 / 1024, accuracy: 3, "a packet for each 1024 frames")
        let bytes = packets.reduce(0) { $0 + $1.count }
        XCTAssertEqual(Double(bytes * 8), 128_000, accuracy: 40_000, "about the bit rate asked for")
        let config = try XCTUnwrap(cookie, "AAC's AudioSpecificConfig")
        XCTAssertEqual(config.first.map { $0 >> 3 }, 2, "AAC LC")
        let decoded = try decode(packets, cookie: cookie)
        XCTAssertGreaterThanOrEqual(decoded.count, 44_100, "every frame, and the encoder's priming")
        let middle = Array(decoded[11_025..<33_075])
        XCTAssertEqual(Tones.frequency(middle, rate: 44_100), 440, accuracy: 1)
        XCTAssertEqual(Tones.rms(middle), 0.5 / 2.squareRoot(), accuracy: 0.02)
    }

    func testSixteenBitInterleavedSoundIsEncodedToo() throws {
        let format = AVAudioFormat(commonFormat: .pcmFormatInt16, sampleRate: 44_100, channels: 2, interleaved: true)!
        let pcm = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 22_050)!
        pcm.frameLength = 22_050
        for frame in 0..<22_050 {
            let value = Int16(12_000 * sin(2 * Double.pi * 1000 * Double(frame) / 44_100))
            pcm.int16ChannelData![0][frame * 2] = value
            pcm.int16ChannelData![0][frame * 2 + 1] = value
        }
        let (packets, cookie) = try encode(pcm)
        let decoded = try decode(packets, cookie: cookie)
        XCTAssertEqual(Tones.frequency(Array(decoded[5000..<20_000]), rate: 44_100), 1000, accuracy: 2)
        XCTAssertNil(AVAudioConverter(from: aac, to: aac), "compressed to compressed is not a conversion made here")
    }
}
