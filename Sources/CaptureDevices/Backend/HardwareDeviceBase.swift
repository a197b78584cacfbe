import CoreMedia
import Foundation

/// What device backends share: connection and authorisation, events, and a producer
/// thread whose stop is synchronous, so that the device is free again when `stop` returns.
///
/// Thread ownership: subclasses produce on the thread `spawnProducer` starts and hand
/// samples over with `deliver` and `drop`, which drop samples of a superseded stream.
package class HardwareDeviceBase: @unchecked Sendable {
    package let descriptor: CaptureDeviceDescriptor
    private struct Flags {
        var connected = true
        var authorized = true
        /// When the device last went away, on the host clock.
        var disconnectedAt: Int64 = 0
        weak var eventSink: CaptureDeviceEventSink?
    }
    private let flags = LockedValue(Flags())
    struct Stream {
        var sink: CaptureSampleSink?
        var generation = 0
        var running = false
        var thread = 0
    }
    let stream = LockedValue(Stream())
    private let deliveryLock = NSLock()
    private let producer = LockedValue<(thread: Thread?, finished: DispatchSemaphore?)>((nil, nil))

    init(descriptor: CaptureDeviceDescriptor) { self.descriptor = descriptor }

    package var isConnected: Bool { flags.withLock { $0.connected } }
    package var isAuthorized: Bool { flags.withLock { $0.authorized } }
    /// When the device last went away, in host nanoseconds; 0 if it never did.
    package var disconnectedAt: Int64 { flags.withLock { $0.disconnectedAt } }
    package func setEventSink(_ sink: CaptureDeviceEventSink?) { flags.withLock { $0.eventSink = sink } }
    /// Marks the device allowed or not.
    func setAuthorized(_ authorized: Bool) { flags.withLock { $0.authorized = authorized } }

    /// Reports an event to the device's owner.
    func report(_ event: CaptureDeviceEvent) {
        flags.withLock { $0.eventSink }?.device(descriptor.uniqueID, didReport: event)
    }

    /// The device appeared again, or went away (its media server still there).
    package func setConnected(_ connected: Bool) { setConnected(connected, serverLost: false) }

    /// The device appeared again, or went away; with its media server (`serverLost`), a stream
    /// it was running ends with the server's loss (`mediaServicesWereReset`) before it goes, as
    /// the stream itself would have said had it noticed first.
    package func setConnected(_ connected: Bool, serverLost: Bool) {
        let changed = flags.withLock { flags -> Bool in
            defer { flags.connected = connected }
            if !connected, flags.connected { flags.disconnectedAt = CMClock.hostTimeNanoseconds() }
            return flags.connected != connected
        }
        guard changed else { return }
        if !connected {
            let streaming = stream.withLock { $0.running }
            stop()
            if serverLost, streaming { report(.runtimeError(code: -11819)) }
        }
        report(connected ? .reconnected : .disconnected)
    }

    /// Records a new stream for `sink`; returns its generation, and a producer token when a thread must start.
    func beginStream(sink: CaptureSampleSink) -> (generation: Int, token: Int?) {
        stream.withLock { stream in
            stream.sink = sink
            stream.generation += 1
            if stream.running { return (stream.generation, nil) }
            stream.running = true
            stream.thread += 1
            return (stream.generation, stream.thread)
        }
    }

    /// Starts the producer thread, which runs `body` until the stream stops.
    func spawnProducer(token: Int, name: String, body: @escaping @Sendable (Int) -> Void) {
        let finished = DispatchSemaphore(value: 0)
        let thread = Thread {
            body(token)
            finished.signal()
        }
        producer.withLock { $0 = (thread, finished) }
        thread.name = name
        thread.qualityOfService = .userInteractive
        thread.start()
    }

    /// The current stream's generation while producer `token` should go on, or nil when it should end.
    func currentGeneration(token: Int) -> Int? {
        stream.withLock { $0.running && $0.thread == token ? $0.generation : nil }
    }

    /// Stops the stream and waits for the producer to let go of the device, unless this is the producer.
    package func stop() {
        deliveryLock.lock()
        stream.withLock { stream in
            stream.running = false
            stream.sink = nil
            stream.generation += 1
        }
        deliveryLock.unlock()
        didStop()
        let (thread, finished) = producer.withLock { $0 }
        if let thread, let finished, thread !== Thread.current {
            _ = finished.wait(timeout: .now() + 2)
            finished.signal()
        }
    }

    /// Called when the stream stops, before waiting for the producer.
    func didStop() {}

    func deliver(_ sampleBuffer: CMSampleBuffer, generation: Int) {
        deliveryLock.lock()
        defer { deliveryLock.unlock() }
        stream.withLock { $0.running && $0.generation == generation ? $0.sink : nil }?.deviceDidProduce(sampleBuffer, generation: generation)
    }

    func drop(at time: CMTime, duration: CMTime, reason: FrameDropReason, generation: Int) {
        deliveryLock.lock()
        defer { deliveryLock.unlock() }
        stream.withLock { $0.running && $0.generation == generation ? $0.sink : nil }?.deviceDidDrop(
            at: time, duration: duration, reason: reason, generation: generation)
    }
}
