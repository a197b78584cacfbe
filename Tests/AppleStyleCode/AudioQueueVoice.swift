import AVFoundation

/// A voice recorder as speech SDKs write one on Audio Queue services: 16 kHz mono 16-bit PCM,
/// three 100 ms buffers, level metering, and a C callback that keeps each filled buffer and
/// enqueues it again.
public final class AudioQueueVoiceRecorder: @unchecked Sendable {
    private var queue: AudioQueueRef?
    private let lock = NSLock()
    private var recorded: [Int16] = []
    private var startTimes: [Float64] = []
    private var running = false
    public private(set) var peakLevel: Float = 0

    public init() {}

    /// The samples recorded so far.
    public var samples: [Int16] { lock.withLock { recorded } }
    /// The sample time of each buffer's first frame, as the queue stamped it.
    public var bufferStartTimes: [Float64] { lock.withLock { startTimes } }

    public func start() throws {
        var format = AudioStreamBasicDescription(
            mSampleRate: 16000, mFormatID: kAudioFormatLinearPCM, mFormatFlags: kLinearPCMFormatFlagIsSignedInteger | kLinearPCMFormatFlagIsPacked,
            mBytesPerPacket: 2, mFramesPerPacket: 1, mBytesPerFrame: 2, mChannelsPerFrame: 1, mBitsPerChannel: 16, mReserved: 0)
        let callback: AudioQueueInputCallback = { userData, queue, buffer, startTime, _, _ in
            let recorder = Unmanaged<AudioQueueVoiceRecorder>.fromOpaque(userData!).takeUnretainedValue()
            recorder.keep(buffer, at: startTime.pointee.mSampleTime)
            if recorder.lock.withLock({ recorder.running }) { AudioQueueEnqueueBuffer(queue, buffer, 0, nil) }
        }
        var status = AudioQueueNewInput(&format, callback, Unmanaged.passUnretained(self).toOpaque(), nil, nil, 0, &queue)
        guard status == noErr, let queue else { throw NSError(domain: NSOSStatusErrorDomain, code: Int(status)) }
        var enable: UInt32 = 1
        AudioQueueSetProperty(queue, kAudioQueueProperty_EnableLevelMetering, &enable, UInt32(MemoryLayout<UInt32>.size))
        for _ in 0..<3 {
            var buffer: AudioQueueBufferRef?
            AudioQueueAllocateBuffer(queue, 3200, &buffer)
            if let buffer { AudioQueueEnqueueBuffer(queue, buffer, 0, nil) }
        }
        lock.withLock { running = true }
        status = AudioQueueStart(queue, nil)
        guard status == noErr else { throw NSError(domain: NSOSStatusErrorDomain, code: Int(status)) }
    }

    private func keep(_ buffer: AudioQueueBufferRef, at sampleTime: Float64) {
        let count = Int(buffer.pointee.mAudioDataByteSize) / 2
        let samples = buffer.pointee.mAudioData.assumingMemoryBound(to: Int16.self)
        var level = AudioQueueLevelMeterState()
        var size = UInt32(MemoryLayout<AudioQueueLevelMeterState>.size)
        if let queue { AudioQueueGetProperty(queue, kAudioQueueProperty_CurrentLevelMeter, &level, &size) }
        lock.withLock {
            recorded.append(contentsOf: UnsafeBufferPointer(start: samples, count: count))
            startTimes.append(sampleTime)
            peakLevel = max(peakLevel, level.mPeakPower)
        }
    }

    public func stop() {
        guard let queue else { return }
        lock.withLock { running = false }
        AudioQueueStop(queue, true)
        AudioQueueDispose(queue, true)
        self.queue = nil
    }
}

/// A tone player on Audio Queue services, as games and signal generators write one: 44.1 kHz
/// stereo floats, three buffers refilled by a block on a dispatch queue, a volume, a listener for
/// the running state, and a stop that lets what is enqueued play out.
public final class AudioQueueTonePlayer: @unchecked Sendable {
    private var queue: AudioQueueRef?
    private let lock = NSLock()
    private var phase: Double = 0
    private var buffersPlayed = 0
    private var runningChanges: [Bool] = []
    private var finishing = false
    private let callbacks = DispatchQueue(label: "tone player")
    public let frequency: Double

    public init(frequency: Double = 440) { self.frequency = frequency }

    /// Buffers the queue has handed back, played.
    public var played: Int { lock.withLock { buffersPlayed } }
    /// What the running-state listener heard, in order.
    public var runningStates: [Bool] { lock.withLock { runningChanges } }

    public func start(volume: Float) throws {
        var format = AudioStreamBasicDescription(
            mSampleRate: 44100, mFormatID: kAudioFormatLinearPCM, mFormatFlags: kAudioFormatFlagsNativeFloatPacked, mBytesPerPacket: 8,
            mFramesPerPacket: 1, mBytesPerFrame: 8, mChannelsPerFrame: 2, mBitsPerChannel: 32, mReserved: 0)
        var status = AudioQueueNewOutputWithDispatchQueue(&queue, &format, 0, callbacks) { [weak self] queue, buffer in
            guard let self else { return }
            let finishing = self.lock.withLock { () -> Bool in
                self.buffersPlayed += 1
                return self.finishing
            }
            guard !finishing else { return }
            self.fill(buffer)
            AudioQueueEnqueueBuffer(queue, buffer, 0, nil)
        }
        guard status == noErr, let queue else { throw NSError(domain: NSOSStatusErrorDomain, code: Int(status)) }
        let listener: AudioQueuePropertyListenerProc = { userData, queue, property in
            let player = Unmanaged<AudioQueueTonePlayer>.fromOpaque(userData!).takeUnretainedValue()
            var running: UInt32 = 0
            var size = UInt32(MemoryLayout<UInt32>.size)
            AudioQueueGetProperty(queue, kAudioQueueProperty_IsRunning, &running, &size)
            player.lock.withLock { player.runningChanges.append(running != 0) }
        }
        AudioQueueAddPropertyListener(queue, kAudioQueueProperty_IsRunning, listener, Unmanaged.passUnretained(self).toOpaque())
        AudioQueueSetParameter(queue, kAudioQueueParam_Volume, volume)
        for _ in 0..<3 {
            var buffer: AudioQueueBufferRef?
            AudioQueueAllocateBuffer(queue, 4410 * 8, &buffer)
            if let buffer {
                fill(buffer)
                AudioQueueEnqueueBuffer(queue, buffer, 0, nil)
            }
        }
        status = AudioQueueStart(queue, nil)
        guard status == noErr else { throw NSError(domain: NSOSStatusErrorDomain, code: Int(status)) }
    }

    private func fill(_ buffer: AudioQueueBufferRef) {
        let frames = Int(buffer.pointee.mAudioDataBytesCapacity) / 8
        let samples = buffer.pointee.mAudioData.assumingMemoryBound(to: Float.self)
        lock.withLock {
            for frame in 0..<frames {
                let value = Float(sin(phase) * 0.5)
                samples[frame * 2] = value
                samples[frame * 2 + 1] = value
                phase += 2 * .pi * frequency / 44100
            }
        }
        buffer.pointee.mAudioDataByteSize = UInt32(frames * 8)
    }

    /// The frames the queue has played, by its own clock.
    public var sampleTime: Float64 {
        guard let queue else { return 0 }
        var stamp = AudioTimeStamp()
        AudioQueueGetCurrentTime(queue, nil, &stamp, nil)
        return stamp.mSampleTime
    }

    public var isRunning: Bool {
        guard let queue else { return false }
        var running: UInt32 = 0
        var size = UInt32(MemoryLayout<UInt32>.size)
        AudioQueueGetProperty(queue, kAudioQueueProperty_IsRunning, &running, &size)
        return running != 0
    }

    /// Stops once what is enqueued has played.
    public func finish() {
        lock.withLock { finishing = true }
        if let queue { AudioQueueStop(queue, false) }
    }

    public func dispose() {
        if let queue { AudioQueueDispose(queue, true) }
        queue = nil
    }
}
