import AVFAudio
import AudioToolbox
import CaptureDevices
import TestSupport
import XCTest

/// Audio Queue services' rules: the formats a queue takes, its buffers' ownership, its
/// parameters and properties, and the errors Apple's return for misuse.
final class AudioQueueTests: XCTestCase {
    private static let silentOutput: AudioQueueOutputCallback = { _, _, _ in }

    private func pcm(rate: Double = 48000, channels: UInt32 = 1) -> AudioStreamBasicDescription {
        AudioStreamBasicDescription(
            mSampleRate: rate, mFormatID: kAudioFormatLinearPCM, mFormatFlags: kLinearPCMFormatFlagIsSignedInteger | kLinearPCMFormatFlagIsPacked,
            mBytesPerPacket: 2 * channels, mFramesPerPacket: 1, mBytesPerFrame: 2 * channels, mChannelsPerFrame: channels, mBitsPerChannel: 16,
            mReserved: 0)
    }

    private func outputQueue(_ format: AudioStreamBasicDescription) throws -> AudioQueueRef {
        var format = format
        var queue: AudioQueueRef?
        XCTAssertEqual(AudioQueueNewOutput(&format, Self.silentOutput, nil, nil, nil, 0, &queue), noErr)
        return try XCTUnwrap(queue)
    }

    func testOnlyLinearPCMItCanConvertIsTaken() {
        var aac = AudioStreamBasicDescription(
            mSampleRate: 44100, mFormatID: kAudioFormatMPEG4AAC, mFormatFlags: 0, mBytesPerPacket: 0, mFramesPerPacket: 1024, mBytesPerFrame: 0,
            mChannelsPerFrame: 2, mBitsPerChannel: 0, mReserved: 0)
        var queue: AudioQueueRef?
        XCTAssertEqual(AudioQueueNewOutput(&aac, Self.silentOutput, nil, nil, nil, 0, &queue), kAudioFormatUnsupportedDataFormatError)
        XCTAssertNil(queue)
        for bad in [pcm(rate: .nan), pcm(rate: 1000), pcm(channels: 0), pcm(channels: 9)] {
            var format = bad
            XCTAssertEqual(AudioQueueNewOutput(&format, Self.silentOutput, nil, nil, nil, 0, &queue), kAudioFormatUnsupportedDataFormatError, "\(bad)")
        }
        var inconsistent = pcm()
        inconsistent.mBytesPerFrame = 4
        XCTAssertEqual(AudioQueueNewOutput(&inconsistent, Self.silentOutput, nil, nil, nil, 0, &queue), kAudioFormatUnsupportedDataFormatError)
    }

    func testBuffersBelongToTheirQueueAndAreEnqueuedOnce() throws {
        let queue = try outputQueue(pcm())
        let other = try outputQueue(pcm())
        defer {
            AudioQueueDispose(queue, true)
            AudioQueueDispose(other, true)
        }
        var made: AudioQueueBufferRef?
        XCTAssertEqual(AudioQueueAllocateBuffer(queue, 4800, &made), noErr)
        let buffer = try XCTUnwrap(made)
        XCTAssertEqual(buffer.pointee.mAudioDataBytesCapacity, 4800)
        XCTAssertEqual(buffer.pointee.mAudioDataByteSize, 0)
        XCTAssertEqual(AudioQueueEnqueueBuffer(queue, buffer, 0, nil), kAudioQueueErr_BufferEmpty, "nothing to play")
        buffer.pointee.mAudioDataByteSize = 4801
        XCTAssertEqual(AudioQueueEnqueueBuffer(queue, buffer, 0, nil), kAudio_ParamError, "more than the buffer holds")
        buffer.pointee.mAudioDataByteSize = 4800
        XCTAssertEqual(AudioQueueEnqueueBuffer(other, buffer, 0, nil), kAudioQueueErr_InvalidBuffer, "another queue's buffer")
        XCTAssertEqual(AudioQueueEnqueueBuffer(queue, buffer, 0, nil), noErr)
        XCTAssertEqual(AudioQueueEnqueueBuffer(queue, buffer, 0, nil), kAudioQueueErr_BufferEnqueuedTwice)
        XCTAssertEqual(AudioQueueFreeBuffer(queue, buffer), kAudioQueueErr_BufferInQueue)
        XCTAssertEqual(AudioQueueReset(queue), noErr)
        XCTAssertEqual(AudioQueueFreeBuffer(queue, buffer), noErr, "free once no longer enqueued")
        XCTAssertEqual(AudioQueueFreeBuffer(queue, buffer), kAudioQueueErr_InvalidBuffer, "and only once")
        XCTAssertEqual(AudioQueueAllocateBuffer(queue, 0, &made), kAudio_ParamError)
        XCTAssertNil(made)
    }

    func testParametersAndPropertiesAsApplesQueuesHaveThem() throws {
        let queue = try outputQueue(pcm(rate: 22050, channels: 2))
        var volume: AudioQueueParameterValue = 0
        XCTAssertEqual(AudioQueueGetParameter(queue, kAudioQueueParam_Volume, &volume), noErr)
        XCTAssertEqual(volume, 1, "full volume at first")
        XCTAssertEqual(AudioQueueSetParameter(queue, kAudioQueueParam_Volume, 0.25), noErr)
        AudioQueueGetParameter(queue, kAudioQueueParam_Volume, &volume)
        XCTAssertEqual(volume, 0.25)
        XCTAssertEqual(AudioQueueSetParameter(queue, kAudioQueueParam_Volume, .nan), kAudio_ParamError)
        XCTAssertEqual(AudioQueueSetParameter(queue, kAudioQueueParam_Volume, 2), kAudio_ParamError)
        XCTAssertEqual(AudioQueueSetParameter(queue, kAudioQueueParam_PlayRate, 2), kAudioQueueErr_InvalidParameter)

        var format = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        XCTAssertEqual(AudioQueueGetProperty(queue, kAudioQueueProperty_StreamDescription, &format, &size), noErr)
        XCTAssertEqual(format.mSampleRate, 22050)
        XCTAssertEqual(format.mChannelsPerFrame, 2)
        var running: UInt32 = 7
        size = 2
        XCTAssertEqual(AudioQueueGetProperty(queue, kAudioQueueProperty_IsRunning, &running, &size), kAudioQueueErr_InvalidPropertySize)
        size = 4
        XCTAssertEqual(AudioQueueGetProperty(queue, kAudioQueueProperty_IsRunning, &running, &size), noErr)
        XCTAssertEqual(running, 0)
        XCTAssertEqual(AudioQueueGetPropertySize(queue, kAudioQueueProperty_CurrentLevelMeter, &size), noErr)
        XCTAssertEqual(Int(size), 2 * MemoryLayout<AudioQueueLevelMeterState>.size, "a level a channel")
        XCTAssertEqual(AudioQueueGetPropertySize(queue, 0x7A7A_7A7A, &size), kAudioQueueErr_InvalidProperty)
        XCTAssertEqual(AudioQueueSetProperty(queue, kAudioQueueProperty_IsRunning, &running, 4), kAudioQueueErr_InvalidPropertyValue, "read-only")

        var timeline: AudioQueueTimelineRef?
        XCTAssertEqual(AudioQueueCreateTimeline(queue, &timeline), noErr)
        var stamp = AudioTimeStamp()
        var discontinuity: DarwinBoolean = true
        XCTAssertEqual(AudioQueueGetCurrentTime(queue, timeline, &stamp, &discontinuity), noErr)
        XCTAssertEqual(stamp.mSampleTime, 0, "nothing played yet")
        XCTAssertTrue(stamp.mFlags.contains(.sampleTimeValid))
        XCTAssertFalse(discontinuity.boolValue)
        XCTAssertEqual(AudioQueueDisposeTimeline(queue, try XCTUnwrap(timeline)), noErr)

        XCTAssertEqual(AudioQueueDispose(queue, true), noErr)
        XCTAssertEqual(AudioQueueStart(queue, nil), kAudio_ParamError, "a disposed queue is no queue")
        XCTAssertEqual(AudioQueueDispose(queue, true), kAudio_ParamError)
    }

    func testARecordingQueueWithoutAMicrophoneCannotStart() throws {
        // The virtual devices only, with the microphone unplugged: no microphone on any machine.
        setenv("LINUXAVFOUNDATION_DEVICES", "virtual", 1)
        let scene = DeviceRegistry.virtualMicrophone.scene
        scene.disconnect()
        defer {
            scene.reconnect()
            unsetenv("LINUXAVFOUNDATION_DEVICES")
        }
        var format = pcm(rate: 16000)
        var queue: AudioQueueRef?
        let input: AudioQueueInputCallback = { _, _, _, _, _, _ in }
        XCTAssertEqual(AudioQueueNewInput(&format, input, nil, nil, nil, 0, &queue), noErr)
        let made = try XCTUnwrap(queue)
        defer { AudioQueueDispose(made, true) }
        XCTAssertEqual(AudioQueueStart(made, nil), kAudioQueueErr_InvalidDevice)
        var running: UInt32 = 1
        var size = UInt32(4)
        AudioQueueGetProperty(made, kAudioQueueProperty_IsRunning, &running, &size)
        XCTAssertEqual(running, 0, "it did not start")
    }

    func testAPlayingQueueCallsBackOnTheRunLoopItWasGiven() throws {
        setenv("PULSE_SERVER", "unix:/nonexistent/pulse", 1)
        defer { unsetenv("PULSE_SERVER") }
        final class Heard: @unchecked Sendable {
            var buffers: [AudioQueueBufferRef] = []
            var onMainThread = true
        }
        let heard = Heard()
        let callback: AudioQueueOutputCallback = { userData, _, buffer in
            let heard = Unmanaged<Heard>.fromOpaque(userData!).takeUnretainedValue()
            heard.buffers.append(buffer)
            heard.onMainThread = heard.onMainThread && Thread.isMainThread
        }
        var format = pcm(rate: 8000, channels: 2)
        var made: AudioQueueRef?
        XCTAssertEqual(
            AudioQueueNewOutput(
                &format, callback, Unmanaged.passUnretained(heard).toOpaque(), CFRunLoopGetMain(), CFRunLoopMode.commonModes.rawValue, 0, &made),
            noErr)
        let queue = try XCTUnwrap(made)
        defer { AudioQueueDispose(queue, true) }
        var enqueued: [AudioQueueBufferRef] = []
        for _ in 0..<2 {
            var buffer: AudioQueueBufferRef?
            AudioQueueAllocateBuffer(queue, 320, &buffer)
            let filled = try XCTUnwrap(buffer)
            filled.pointee.mAudioDataByteSize = 320  // 80 stereo frames: 10 ms of silence
            XCTAssertEqual(AudioQueueEnqueueBuffer(queue, filled, 0, nil), noErr)
            enqueued.append(filled)
        }
        XCTAssertEqual(AudioQueueStart(queue, nil), noErr)
        let deadline = Date().addingTimeInterval(10)
        while heard.buffers.count < 2, Date() < deadline { RunLoop.main.run(until: Date().addingTimeInterval(0.01)) }
        XCTAssertEqual(heard.buffers, enqueued, "each buffer back once played, in the order enqueued")
        XCTAssertTrue(heard.onMainThread, "on the run loop given: the main thread's")
        var stamp = AudioTimeStamp()
        AudioQueueGetCurrentTime(queue, nil, &stamp, nil)
        XCTAssertEqual(stamp.mSampleTime, 160, accuracy: 1, "two buffers of 80 frames played")
    }

    func testARecordingQueueHandsItsBuffersToABlockOnItsDispatchQueue() throws {
        setenv("LINUXAVFOUNDATION_DEVICES", "virtual", 1)
        defer { unsetenv("LINUXAVFOUNDATION_DEVICES") }
        final class Heard: @unchecked Sendable {
            let lock = NSLock()
            var starts: [Double] = []
            var sizes: [UInt32] = []
            var onQueue = true
        }
        let heard = Heard()
        let callbacks = DispatchQueue(label: "recording callbacks")
        let key = DispatchSpecificKey<Bool>()
        callbacks.setSpecific(key: key, value: true)
        var format = AudioStreamBasicDescription(
            mSampleRate: 8000, mFormatID: kAudioFormatLinearPCM, mFormatFlags: kAudioFormatFlagsNativeFloatPacked, mBytesPerPacket: 4,
            mFramesPerPacket: 1, mBytesPerFrame: 4, mChannelsPerFrame: 1, mBitsPerChannel: 32, mReserved: 0)
        var made: AudioQueueRef?
        XCTAssertEqual(
            AudioQueueNewInputWithDispatchQueue(&made, &format, 0, callbacks) { queue, buffer, start, packets, descriptions in
                heard.lock.withLock {
                    heard.starts.append(start.pointee.mSampleTime)
                    heard.sizes.append(buffer.pointee.mAudioDataByteSize)
                    heard.onQueue = heard.onQueue && DispatchQueue.getSpecific(key: key) == true
                }
                XCTAssertEqual(packets, 0, "linear PCM has no packet descriptions")
                XCTAssertNil(descriptions)
                AudioQueueEnqueueBuffer(queue, buffer, 0, nil)
            }, noErr)
        let queue = try XCTUnwrap(made)
        for _ in 0..<3 {
            var buffer: AudioQueueBufferRef?
            AudioQueueAllocateBuffer(queue, 1600, &buffer)  // 50 ms
            AudioQueueEnqueueBuffer(queue, try XCTUnwrap(buffer), 0, nil)
        }
        XCTAssertEqual(AudioQueueStart(queue, nil), noErr)
        XCTAssertTrue(waitUntil(timeout: 10) { heard.lock.withLock { heard.starts.count >= 6 } })
        AudioQueueStop(queue, true)
        callbacks.sync {}
        AudioQueueDispose(queue, true)
        heard.lock.withLock {
            XCTAssertTrue(heard.onQueue, "every block ran on the dispatch queue given")
            XCTAssertEqual(Array(heard.starts.prefix(6)), [0, 400, 800, 1200, 1600, 2000], "400 frames a buffer, one after another")
            XCTAssertEqual(Array(heard.sizes.prefix(6)), Array(repeating: 1600, count: 6))
        }
    }

    /// Apple's immediate disposal: once `AudioQueueDispose(_:true)` returns, no callback runs, not
    /// even one already waiting on the application's dispatch queue (its buffer is gone).
    func testNoCallbackRunsOnceTheQueueIsDisposedOfImmediately() throws {
        setenv("LINUXAVFOUNDATION_DEVICES", "virtual", 1)
        defer { unsetenv("LINUXAVFOUNDATION_DEVICES") }
        final class Calls: @unchecked Sendable {
            let lock = NSLock()
            var count = 0
        }
        let calls = Calls()
        let callbacks = DispatchQueue(label: "held callbacks")
        var format = pcm(rate: 48000, channels: 1)
        var made: AudioQueueRef?
        XCTAssertEqual(
            AudioQueueNewInputWithDispatchQueue(&made, &format, 0, callbacks) { _, buffer, _, _, _ in
                _ = buffer.pointee.mAudioData.load(as: Int16.self)
                calls.lock.withLock { calls.count += 1 }
            }, noErr)
        let queue = try XCTUnwrap(made)
        for _ in 0..<4 {
            var buffer: AudioQueueBufferRef?
            AudioQueueAllocateBuffer(queue, 960, &buffer)  // 10 ms
            AudioQueueEnqueueBuffer(queue, try XCTUnwrap(buffer), 0, nil)
        }
        // The application's queue is busy: the filled buffers' callbacks wait on it.
        let held = DispatchSemaphore(value: 0)
        callbacks.async { held.wait() }
        XCTAssertEqual(AudioQueueStart(queue, nil), noErr)
        var stamp = AudioTimeStamp()
        XCTAssertTrue(
            waitUntil(timeout: 10) {
                AudioQueueGetCurrentTime(queue, nil, &stamp, nil)
                return stamp.mSampleTime >= 4 * 480
            }, "the four buffers are filled")
        AudioQueueDispose(queue, true)
        held.signal()
        callbacks.sync {}
        XCTAssertEqual(calls.lock.withLock { calls.count }, 0, "no callback after disposal")
    }

    /// The virtual microphone's 440 Hz tone (mono, 16-bit, 48 kHz) recorded in the queue's own
    /// format, 16-bit stereo at 16 kHz: both channels carry the tone at its pitch, and the
    /// application's mute makes them silent.
    func testARecordingQueueHearsTheMicrophoneInItsFormatAndSilenceWhileMuted() throws {
        setenv("LINUXAVFOUNDATION_DEVICES", "virtual", 1)
        defer { unsetenv("LINUXAVFOUNDATION_DEVICES") }
        final class Heard: @unchecked Sendable {
            let lock = NSLock()
            var samples: [Int16] = []
        }
        let heard = Heard()
        var format = pcm(rate: 16000, channels: 2)
        var made: AudioQueueRef?
        XCTAssertEqual(
            AudioQueueNewInputWithDispatchQueue(&made, &format, 0, DispatchQueue(label: "recording")) { queue, buffer, _, _, _ in
                let data = UnsafeBufferPointer(
                    start: buffer.pointee.mAudioData.assumingMemoryBound(to: Int16.self), count: Int(buffer.pointee.mAudioDataByteSize) / 2)
                heard.lock.withLock { heard.samples += data }
                AudioQueueEnqueueBuffer(queue, buffer, 0, nil)
            }, noErr)
        let queue = try XCTUnwrap(made)
        defer { AudioQueueDispose(queue, true) }
        for _ in 0..<4 {
            var buffer: AudioQueueBufferRef?
            AudioQueueAllocateBuffer(queue, 3200, &buffer)  // 50 ms of 16-bit stereo
            AudioQueueEnqueueBuffer(queue, try XCTUnwrap(buffer), 0, nil)
        }
        /// What the queue hears in the next half second, as left and right channels.
        func record() throws -> (left: [Double], right: [Double]) {
            heard.lock.withLock { heard.samples = [] }
            XCTAssertTrue(waitUntil(timeout: 10) { heard.lock.withLock { heard.samples.count >= 2 * 8000 } }, "half a second recorded")
            let samples = heard.lock.withLock { Array(heard.samples.prefix(2 * 8000)) }
            return (
                stride(from: 0, to: samples.count, by: 2).map { Double(samples[$0]) / 32768 },
                stride(from: 1, to: samples.count, by: 2).map { Double(samples[$0]) / 32768 }
            )
        }
        XCTAssertEqual(AudioQueueStart(queue, nil), noErr)
        let (left, right) = try record()
        for channel in [left, right] {
            let peak = channel.map(abs).max() ?? 0
            XCTAssertGreaterThan(peak, 0.1, "the tone is heard")
            XCTAssertLessThan(peak, 0.35, "at the microphone's level")
            // Rising zero crossings in half a second: 440 Hz (with a 2% vibrato) gives about 220.
            let rising = zip(channel, channel.dropFirst()).filter { $0 < 0 && $1 >= 0 }.count
            XCTAssertEqual(Double(rising), 220, accuracy: 12, "the tone's pitch survives the change of rate")
        }
        XCTAssertEqual(left, right, "a mono microphone fills both channels")
        try AVAudioApplication.shared.setInputMuted(true)
        defer { try? AVAudioApplication.shared.setInputMuted(false) }
        // What was recorded before the mute may still be in buffers: the second half second is after it.
        _ = try record()
        let muted = try record()
        XCTAssertEqual(muted.left.map(abs).max() ?? 1, 0, "silence while muted")
        AudioQueueStop(queue, true)
    }
}
