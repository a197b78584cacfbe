import AVFAudio
import XCTest

final class PCMBufferTests: XCTestCase {
    func testADeinterleavedBufferHasABufferPerChannelThatFollowsItsLength() throws {
        let format = AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 2)!
        let buffer = try XCTUnwrap(AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 1000))
        XCTAssertEqual(buffer.frameCapacity, 1000)
        XCTAssertEqual(buffer.frameLength, 0)
        XCTAssertEqual(buffer.stride, 1)
        let list = UnsafeMutableAudioBufferListPointer(buffer.mutableAudioBufferList)
        XCTAssertEqual(list.count, 2)
        XCTAssertEqual(list[0].mNumberChannels, 1)
        XCTAssertEqual(list[0].mDataByteSize, 0)
        buffer.frameLength = 480
        XCTAssertEqual(list[0].mDataByteSize, 1920, "the byte sizes follow the length")
        XCTAssertEqual(list[1].mDataByteSize, 1920)
        let channels = try XCTUnwrap(buffer.floatChannelData)
        XCTAssertEqual(UnsafeMutableRawPointer(channels[0]), list[0].mData)
        XCTAssertEqual(UnsafeMutableRawPointer(channels[1]), list[1].mData)
        XCTAssertEqual(Int(bitPattern: channels[1]) % 16, 0, "every channel starts 16-byte aligned")
        channels[1][479] = 0.25
        XCTAssertEqual(list[1].mData!.assumingMemoryBound(to: Float.self)[479], 0.25, "the list and the channel pointers are the same memory")
        XCTAssertNil(buffer.int16ChannelData)
        XCTAssertNil(buffer.int32ChannelData)
    }

    func testAnInterleavedBufferHasOneBufferAndChannelPointersASampleApart() throws {
        let format = AVAudioFormat(commonFormat: .pcmFormatInt16, sampleRate: 44_100, channels: 2, interleaved: true)!
        let buffer = try XCTUnwrap(AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 64))
        XCTAssertEqual(buffer.stride, 2)
        XCTAssertEqual(buffer.audioBufferList.pointee.mNumberBuffers, 1)
        XCTAssertEqual(buffer.audioBufferList.pointee.mBuffers.mNumberChannels, 2)
        let channels = try XCTUnwrap(buffer.int16ChannelData)
        XCTAssertEqual(channels[1] - channels[0], 1, "the right channel starts one sample after the left")
        buffer.frameLength = 64
        XCTAssertEqual(buffer.audioBufferList.pointee.mBuffers.mDataByteSize, 256)
        channels[1][3 * buffer.stride] = 1234
        XCTAssertEqual(channels[0][7], 1234, "frame 3's right sample is the 8th sample of the one buffer")
        XCTAssertNil(buffer.floatChannelData)
    }

    func testOnlyLinearPCMBuffersAreMade() {
        let aac = AVAudioFormat(settings: [AVFormatIDKey: kAudioFormatMPEG4AAC, AVSampleRateKey: 44_100, AVNumberOfChannelsKey: 2])!
        XCTAssertNil(AVAudioPCMBuffer(pcmFormat: aac, frameCapacity: 1024))
        let compressed = AVAudioCompressedBuffer(format: aac, packetCapacity: 8, maximumPacketSize: 1536)
        XCTAssertEqual(compressed.byteCapacity, 8 * 1536)
        XCTAssertNotNil(compressed.packetDescriptions, "AAC packets vary in size")
        compressed.packetCount = 3
        compressed.byteLength = 900
        XCTAssertEqual(compressed.audioBufferList.pointee.mBuffers.mDataByteSize, 900)
    }

    func testABufferOverTheCallersMemoryUsesItAndGivesItBack() throws {
        let format = AVAudioFormat(standardFormatWithSampleRate: 8000, channels: 1)!
        let list = AudioBufferList.allocate(maximumBuffers: 1)
        let memory = UnsafeMutablePointer<Float>.allocate(capacity: 100)
        memory.initialize(repeating: 0.5, count: 100)
        list[0] = AudioBuffer(mNumberChannels: 1, mDataByteSize: 400, mData: memory)
        let released = expectation(description: "the deallocator is called when the buffer goes")
        do {
            let buffer = try XCTUnwrap(
                AVAudioPCMBuffer(pcmFormat: format, bufferListNoCopy: list.unsafePointer) { given in
                    XCTAssertEqual(given, list.unsafePointer)
                    released.fulfill()
                })
            XCTAssertEqual(buffer.frameCapacity, 100)
            XCTAssertEqual(buffer.frameLength, 100)
            XCTAssertEqual(buffer.floatChannelData?[0], memory, "no copy")
        }
        wait(for: [released], timeout: 1)
        memory.deallocate()
        list.free()
    }

    func testABufferListCanBeAllocatedAndWalked() {
        XCTAssertEqual(AudioBufferList.sizeInBytes(maximumBuffers: 1), MemoryLayout<AudioBufferList>.size)
        XCTAssertEqual(AudioBufferList.sizeInBytes(maximumBuffers: 3), MemoryLayout<AudioBufferList>.size + 2 * MemoryLayout<AudioBuffer>.stride)
        let list = AudioBufferList.allocate(maximumBuffers: 3)
        defer { list.free() }
        XCTAssertEqual(list.count, 3)
        for index in list.indices { list[index].mDataByteSize = UInt32(index * 10) }
        XCTAssertEqual(list.map(\.mDataByteSize), [0, 10, 20])
        XCTAssertEqual(list.unsafePointer.pointee.mNumberBuffers, 3)
    }
}
