import CaptureDevices
import CoreMedia
import CoreVideo
import Foundation

/// The object behind an `AudioQueueRef`: a recording queue fills the buffers the application
/// enqueues from the current microphone, converted to the queue's format; a playing queue plays
/// them, in order, to the sound server (or, where none runs, paced by the host clock).
///
/// Thread ownership: the functions run on any thread and take `condition`'s lock briefly; the
/// microphone's thread converts and copies into the enqueued buffers; the queue's own thread plays
/// buffers and calls the callbacks, never holding the lock across one. Buffers, the conversion
/// buffer and the playing samples are made when allocated or when the device changes, not per buffer.
final class AudioQueueObject: CaptureSampleSink, @unchecked Sendable {
    enum Callback {
        case inputProc(AudioQueueInputCallback, UnsafeMutableRawPointer?)
        case outputProc(AudioQueueOutputCallback, UnsafeMutableRawPointer?)
        case inputBlock(AudioQueueInputCallbackBlock, DispatchQueue)
        case outputBlock(AudioQueueOutputCallbackBlock, DispatchQueue)
    }

    let isInput: Bool
    let format: AudioStreamBasicDescription
    private let callback: Callback
    private let runLoop: RunLoop?
    private let condition = NSCondition()

    // Under `condition`.
    private var allocated: [AudioQueueBufferRef] = []
    private var queued: [AudioQueueBufferRef] = []
    /// Buffers filled (recording) or played (playing), waiting for their callback, with the sample time of their first frame.
    private var finished: [(buffer: AudioQueueBufferRef, sampleTime: Double)] = []
    private var running = false, paused = false, draining = false, disposed = false
    /// The threads running a callback handed to the application's run loop or dispatch queue.
    private var callbackThreads: [pthread_t] = []
    private var volume: Float = 1
    /// Frames recorded into buffers, or played, since the queue was created.
    private var frames: Double = 0
    /// The sample time of the first frame of the buffer being filled.
    private var headStart: Double = 0
    private var metering = false
    private var levels: [AudioQueueLevelMeterState]
    private var listeners: [(proc: AudioQueuePropertyListenerProc, userData: UnsafeMutableRawPointer?)] = []
    private var device: CaptureDeviceBackend?
    /// How long what is played waits before it is heard, in seconds, as the sound server last said.
    private var outputLatency: Double = 0

    // The microphone's thread (recording).
    private var converter: QueueInputConverter?

    // The queue's thread (playing).
    private var output: PacedSoundOutput?
    private var samples: [Float] = []

    /// The queue's formats: interleaved linear PCM of 16-bit integers or 32-bit floats, native
    /// endian, 1 to 8 channels, 8 to 192 kHz.
    static func isSupported(_ format: AudioStreamBasicDescription) -> Bool {
        guard format.mFormatID == kAudioFormatLinearPCM, format.mFormatFlags & kAudioFormatFlagIsNonInterleaved == 0,
            format.mFormatFlags & kAudioFormatFlagIsBigEndian == 0, (1...8).contains(format.mChannelsPerFrame),
            format.mSampleRate.isFinite, (8000...192_000).contains(format.mSampleRate), format.mFramesPerPacket == 1
        else { return false }
        let isFloat = format.mFormatFlags & kAudioFormatFlagIsFloat != 0
        let bits = isFloat ? 32 : 16
        guard format.mBitsPerChannel == bits, isFloat || format.mFormatFlags & kAudioFormatFlagIsSignedInteger != 0 else { return false }
        return format.mBytesPerFrame == UInt32(bits / 8) * format.mChannelsPerFrame && format.mBytesPerPacket == format.mBytesPerFrame
    }

    private var isFloat: Bool { format.mFormatFlags & kAudioFormatFlagIsFloat != 0 }
    private var channels: Int { Int(format.mChannelsPerFrame) }
    private var bytesPerFrame: Int { Int(format.mBytesPerFrame) }

    init(format: AudioStreamBasicDescription, callback: Callback, runLoop: RunLoop?) {
        self.format = format
        self.callback = callback
        self.runLoop = runLoop
        switch callback {
        case .inputProc, .inputBlock: isInput = true
        case .outputProc, .outputBlock: isInput = false
        }
        levels = Array(repeating: AudioQueueLevelMeterState(), count: Int(format.mChannelsPerFrame))
        allocated.reserveCapacity(16)
        queued.reserveCapacity(16)
        finished.reserveCapacity(16)
        let thread = Thread { [self] in serve() }
        thread.name = isInput ? "AudioQueue input" : "AudioQueue output"
        thread.qualityOfService = .userInteractive
        self.thread = thread
        thread.start()
    }

    /// The queue's own thread, which plays and calls the callbacks.
    private var thread: Thread?

    /// The reference the application holds; the registry keeps the queue alive until it is disposed of.
    var reference: AudioQueueRef { AudioQueueRef(Unmanaged.passUnretained(self).toOpaque()) }

    // MARK: Buffers

    func allocateBuffer(bytes: UInt32, packetDescriptions: UInt32) -> AudioQueueBufferRef? {
        guard bytes > 0, bytes <= 64 << 20 else { return nil }
        let data = UnsafeMutableRawPointer.allocate(byteCount: Int(bytes), alignment: 16)
        data.initializeMemory(as: UInt8.self, repeating: 0, count: Int(bytes))
        let descriptions = packetDescriptions > 0 ? UnsafeMutablePointer<AudioStreamPacketDescription>.allocate(capacity: Int(packetDescriptions)) : nil
        let buffer = AudioQueueBufferRef.allocate(capacity: 1)
        buffer.initialize(
            to: AudioQueueBuffer(
                mAudioDataBytesCapacity: bytes, mAudioData: data, mAudioDataByteSize: 0, mUserData: nil,
                mPacketDescriptionCapacity: packetDescriptions, mPacketDescriptions: descriptions, mPacketDescriptionCount: 0))
        condition.withLock { allocated.append(buffer) }
        return buffer
    }

    func freeBuffer(_ buffer: AudioQueueBufferRef) -> OSStatus {
        let status: OSStatus = condition.withLock {
            guard let index = allocated.firstIndex(of: buffer) else { return kAudioQueueErr_InvalidBuffer }
            if queued.contains(buffer) || finished.contains(where: { $0.buffer == buffer }) { return kAudioQueueErr_BufferInQueue }
            allocated.remove(at: index)
            return noErr
        }
        if status == noErr { Self.release(buffer) }
        return status
    }

    private static func release(_ buffer: AudioQueueBufferRef) {
        buffer.pointee.mAudioData.deallocate()
        buffer.pointee.mPacketDescriptions?.deallocate()
        buffer.deinitialize(count: 1)
        buffer.deallocate()
    }

    func enqueue(_ buffer: AudioQueueBufferRef) -> OSStatus {
        condition.withLock {
            guard !disposed else { return kAudioQueueErr_DisposalPending }
            guard allocated.contains(buffer) else { return kAudioQueueErr_InvalidBuffer }
            guard !queued.contains(buffer) else { return kAudioQueueErr_BufferEnqueuedTwice }
            if isInput {
                // A recording queue fills the buffer from its start.
                buffer.pointee.mAudioDataByteSize = 0
            } else {
                let size = buffer.pointee.mAudioDataByteSize
                guard size > 0 else { return kAudioQueueErr_BufferEmpty }
                guard size <= buffer.pointee.mAudioDataBytesCapacity, Int(size) % bytesPerFrame == 0 else { return kAudio_ParamError }
            }
            queued.append(buffer)
            condition.broadcast()
            return noErr
        }
    }

    // MARK: Running

    func start() -> OSStatus {
        let (wasRunning, status): (Bool, OSStatus) = condition.withLock {
            guard !disposed else { return (false, kAudioQueueErr_DisposalPending) }
            let wasRunning = running
            paused = false
            draining = false
            running = true
            condition.broadcast()
            return (wasRunning, noErr)
        }
        guard status == noErr else { return status }
        if isInput, device == nil {
            guard let microphone = Microphones.current() else { return stopWith(kAudioQueueErr_InvalidDevice) }
            guard microphone.isAuthorized else { return stopWith(kAudioQueueErr_Permissions) }
            do { try microphone.start(nil, sink: self) } catch { return stopWith(kAudioQueueErr_CannotStart) }
            condition.withLock { device = microphone }
        }
        if !wasRunning { tellListeners(kAudioQueueProperty_IsRunning) }
        return noErr
    }

    private func stopWith(_ status: OSStatus) -> OSStatus {
        condition.withLock { running = false }
        return status
    }

    func pause() -> OSStatus {
        condition.withLock {
            paused = true
            condition.broadcast()
        }
        return noErr
    }

    /// Stops at once, or (playing, not immediate) once the enqueued buffers have played.
    func stop(immediately: Bool) -> OSStatus {
        if !isInput, !immediately {
            let drainsLater = condition.withLock {
                guard running, !queued.isEmpty else { return false }
                draining = true
                paused = false
                condition.broadcast()
                return true
            }
            if drainsLater { return noErr }
        }
        let microphone = condition.withLock { () -> CaptureDeviceBackend? in
            defer { device = nil }
            return device
        }
        // Nothing arrives from the microphone once it has stopped.
        microphone?.stop()
        let wasRunning = condition.withLock {
            defer {
                running = false
                draining = false
                paused = false
            }
            if isInput, let head = queued.first, head.pointee.mAudioDataByteSize > 0 {
                // What was recorded into the buffer being filled is delivered.
                queued.removeFirst()
                finished.append((head, headStart))
            }
            if immediately { queued.removeAll(keepingCapacity: true) }
            condition.broadcast()
            return running
        }
        if wasRunning { tellListeners(kAudioQueueProperty_IsRunning) }
        return noErr
    }

    /// Removes every enqueued buffer.
    func reset() -> OSStatus {
        condition.withLock {
            queued.removeAll(keepingCapacity: true)
            condition.broadcast()
        }
        return noErr
    }

    /// Stops, ends the queue's thread and frees its buffers.
    func dispose() {
        _ = stop(immediately: true)
        let buffers: [AudioQueueBufferRef] = condition.withLock {
            disposed = true
            condition.broadcast()
            // The queue's thread is between callbacks or waiting: wait for it to leave, unless
            // this is that thread, disposing of its queue from a callback.
            if Thread.current !== thread { while threadRunning { condition.wait() } }
            // A callback already on the application's queue or run loop may be running: the buffers
            // stay until it returns, unless this is its thread (a callback disposing of its queue).
            while callbackThreads.contains(where: { pthread_equal($0, pthread_self()) == 0 }) { condition.wait() }
            defer { allocated.removeAll() }
            return allocated
        }
        for buffer in buffers { Self.release(buffer) }
    }

    // MARK: Properties and parameters

    var isRunning: Bool { condition.withLock { running } }

    func parameter(_ id: AudioQueueParameterID) -> AudioQueueParameterValue? {
        id == kAudioQueueParam_Volume ? condition.withLock { volume } : nil
    }

    func setParameter(_ id: AudioQueueParameterID, _ value: AudioQueueParameterValue) -> OSStatus {
        guard id == kAudioQueueParam_Volume else { return kAudioQueueErr_InvalidParameter }
        guard value.isFinite, (0...1).contains(value) else { return kAudio_ParamError }
        condition.withLock { volume = value }
        return noErr
    }

    var isMetering: Bool {
        get { condition.withLock { metering } }
        set { condition.withLock { metering = newValue } }
    }

    /// Each channel's level over the last buffer, linear or in decibels.
    func levels(decibels: Bool) -> [AudioQueueLevelMeterState] {
        let linear = condition.withLock { levels }
        guard decibels else { return linear }
        return linear.map {
            AudioQueueLevelMeterState(mAveragePower: Self.decibels($0.mAveragePower), mPeakPower: Self.decibels($0.mPeakPower))
        }
    }

    private static func decibels(_ level: Float) -> Float { level > 0 ? max(-120, 20 * log10(level)) : -120 }

    /// The sample time of the queue: frames recorded, or frames heard, since it was created.
    var sampleTime: Double {
        let (count, latency) = condition.withLock { (frames, outputLatency) }
        return max(0, count - latency * format.mSampleRate)
    }

    func addListener(_ proc: @escaping AudioQueuePropertyListenerProc, _ userData: UnsafeMutableRawPointer?) {
        condition.withLock { listeners.append((proc, userData)) }
    }

    func removeListener(_ proc: @escaping AudioQueuePropertyListenerProc, _ userData: UnsafeMutableRawPointer?) -> Bool {
        condition.withLock {
            guard
                let index = listeners.firstIndex(where: {
                    unsafeBitCast($0.proc, to: UnsafeRawPointer.self) == unsafeBitCast(proc, to: UnsafeRawPointer.self) && $0.userData == userData
                })
            else { return false }
            listeners.remove(at: index)
            return true
        }
    }

    private func tellListeners(_ property: AudioQueuePropertyID) {
        let current = condition.withLock { listeners }
        for listener in current { listener.proc(listener.userData, reference, property) }
    }

    // MARK: The microphone's thread

    func deviceDidProduce(_ sampleBuffer: CMSampleBuffer, generation: Int) {
        let taking = condition.withLock { running && !paused && !disposed }
        guard taking else { return }
        if converter == nil { converter = QueueInputConverter(to: format) }
        guard let converted = converter?.convert(sampleBuffer), let source = converted.baseAddress else { return }
        let muted = AudioPreferences.isInputMuted
        let total = converted.count
        condition.withLock {
            var offset = 0
            while offset < total, let head = queued.first {
                let capacity = Int(head.pointee.mAudioDataBytesCapacity) / bytesPerFrame * bytesPerFrame
                let filled = Int(head.pointee.mAudioDataByteSize)
                if filled == 0 { headStart = frames + Double(offset / bytesPerFrame) }
                let count = min(capacity - filled, total - offset)
                let destination = head.pointee.mAudioData + filled
                if muted {
                    destination.initializeMemory(as: UInt8.self, repeating: 0, count: count)
                } else {
                    destination.copyMemory(from: source + offset, byteCount: count)
                }
                head.pointee.mAudioDataByteSize = UInt32(filled + count)
                offset += count
                if filled + count >= capacity {
                    queued.removeFirst()
                    if metering { measure(head) }
                    finished.append((head, headStart))
                }
            }
            // What finds no enqueued buffer is dropped: the application is behind, and memory does not grow.
            frames += Double(offset / bytesPerFrame)
            condition.broadcast()
        }
    }

    func deviceDidDrop(at presentationTime: CMTime, duration: CMTime, reason: FrameDropReason, generation: Int) {}

    /// Measures a buffer's levels, under the lock.
    private func measure(_ buffer: AudioQueueBufferRef) {
        let count = Int(buffer.pointee.mAudioDataByteSize) / bytesPerFrame
        guard count > 0 else { return }
        for channel in 0..<channels {
            var peak: Float = 0, sum: Float = 0
            for frame in 0..<count {
                let value = abs(sample(buffer.pointee.mAudioData, frame * channels + channel))
                peak = max(peak, value)
                sum += value * value
            }
            levels[channel] = AudioQueueLevelMeterState(mAveragePower: (sum / Float(count)).squareRoot(), mPeakPower: peak)
        }
    }

    /// One sample of interleaved data as a float from -1 to 1.
    private func sample(_ data: UnsafeMutableRawPointer, _ index: Int) -> Float {
        isFloat ? data.load(fromByteOffset: index * 4, as: Float.self) : Float(data.load(fromByteOffset: index * 2, as: Int16.self)) / 32768
    }

    // MARK: The queue's thread

    private var threadRunning = true

    private func serve() {
        defer {
            output?.close()
            output = nil
            condition.withLock {
                threadRunning = false
                condition.broadcast()
            }
        }
        while true {
            condition.lock()
            while !disposed, finished.isEmpty, !(canPlay) { condition.wait() }
            if disposed {
                condition.unlock()
                return
            }
            if !finished.isEmpty {
                let (buffer, time) = finished.removeFirst()
                condition.unlock()
                deliver(buffer, sampleTime: time)
                continue
            }
            let buffer = queued.removeFirst()
            let (gain, metering) = (volume, self.metering)
            condition.unlock()
            let time = play(buffer, gain: gain, metering: metering)
            let ended = condition.withLock { () -> Bool in
                finished.append((buffer, time))
                guard draining, queued.isEmpty else { return false }
                running = false
                draining = false
                return true
            }
            if ended { tellListeners(kAudioQueueProperty_IsRunning) }
        }
    }

    /// Whether a playing queue has a buffer to play now; under the lock.
    private var canPlay: Bool { !isInput && running && !paused && !queued.isEmpty }

    /// Plays a buffer; the sample time of its first frame.
    private func play(_ buffer: AudioQueueBufferRef, gain: Float, metering: Bool) -> Double {
        if output == nil { output = PacedSoundOutput(name: "AudioQueue", rate: Int(format.mSampleRate), channels: channels) }
        let count = Int(buffer.pointee.mAudioDataByteSize) / bytesPerFrame
        let values = count * channels
        // Room for the largest buffer played so far: made once, not per buffer.
        if samples.count < values { samples = Array(repeating: 0, count: values) }
        if metering { condition.withLock { measure(buffer) } }
        let start = condition.withLock { frames }
        samples.withUnsafeMutableBufferPointer { floats in
            for index in 0..<values { floats[index] = sample(buffer.pointee.mAudioData, index) * gain }
            output?.write(UnsafeBufferPointer(rebasing: floats[0..<values])) { [self] in condition.withLock { running && !disposed } }
        }
        let latency = output?.latency ?? 0
        condition.withLock {
            frames += Double(count)
            outputLatency = latency
        }
        return start
    }

    private func deliver(_ buffer: AudioQueueBufferRef, sampleTime: Double) {
        nonisolated(unsafe) let queue = reference
        var stamp = AudioTimeStamp()
        stamp.mSampleTime = sampleTime
        stamp.mHostTime = mach_absolute_time()
        stamp.mRateScalar = 1
        stamp.mFlags = [.sampleTimeValid, .hostTimeValid, .rateScalarValid]
        switch callback {
        case .inputProc(let proc, let userData):
            if let runLoop {
                nonisolated(unsafe) let (proc, userData, buffer) = (proc, userData, buffer)
                let taken = stamp
                runLoop.perform { [self] in
                    guard beginCallback() else { return }
                    defer { endCallback() }
                    var stamp = taken
                    proc(userData, queue, buffer, &stamp, 0, nil)
                }
            } else {
                proc(userData, queue, buffer, &stamp, 0, nil)
            }
        case .outputProc(let proc, let userData):
            if let runLoop {
                nonisolated(unsafe) let (proc, userData, buffer) = (proc, userData, buffer)
                runLoop.perform { [self] in
                    guard beginCallback() else { return }
                    defer { endCallback() }
                    proc(userData, queue, buffer)
                }
            } else {
                proc(userData, queue, buffer)
            }
        case .inputBlock(let block, let dispatchQueue):
            nonisolated(unsafe) let (block, buffer) = (block, buffer)
            let taken = stamp
            dispatchQueue.async { [self] in
                guard beginCallback() else { return }
                defer { endCallback() }
                var stamp = taken
                block(queue, buffer, &stamp, 0, nil)
            }
        case .outputBlock(let block, let dispatchQueue):
            nonisolated(unsafe) let (block, buffer) = (block, buffer)
            dispatchQueue.async { [self] in
                guard beginCallback() else { return }
                defer { endCallback() }
                block(queue, buffer)
            }
        }
    }

    /// Starts a callback on the application's queue or run loop; false, so that it is not made,
    /// once the queue is disposed of (its buffers are gone).
    private func beginCallback() -> Bool {
        condition.withLock {
            guard !disposed else { return false }
            callbackThreads.append(pthread_self())
            return true
        }
    }

    /// Ends a callback `beginCallback` started.
    private func endCallback() {
        condition.withLock {
            if let index = callbackThreads.firstIndex(where: { pthread_equal($0, pthread_self()) != 0 }) { callbackThreads.remove(at: index) }
            condition.broadcast()
        }
    }
}
