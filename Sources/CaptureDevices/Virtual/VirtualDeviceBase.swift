import CoreMedia
import Foundation

/// What virtual cameras and microphones share: connection, authorisation, events and the
/// producer thread's life cycle.
package class VirtualDeviceBase: @unchecked Sendable, VirtualSceneDevice {
    package let descriptor: CaptureDeviceDescriptor
    package let imaging: ImagingModel
    /// What the device sees and hears.
    public let scene: VirtualScene

    private struct Flags {
        var connected = true
        var authorized = true
        weak var eventSink: CaptureDeviceEventSink?
    }
    private let flags = LockedValue(Flags())

    struct Stream {
        var configuration: VideoStreamConfiguration?
        var sink: CaptureSampleSink?
        var generation = 0
        var running = false
        /// Which producer thread is current; an older one exits when it sees another.
        var thread = 0
    }
    let stream = LockedValue(Stream())
    /// Held while a sample is handed to the sink, so that `stop` can promise no new call begins after it returns.
    let deliveryLock = NSLock()

    init(descriptor: CaptureDeviceDescriptor, imaging: ImagingModel) {
        self.descriptor = descriptor
        self.imaging = imaging
        self.scene = VirtualScene(imaging: imaging)
        scene.device = self
    }

    /// Returns the device and its scene to their initial state: connected, allowed, lit, uninterrupted, default controls.
    package func resetToDefaults() {
        stop()
        flags.withLock { flags in
            flags.connected = true
            flags.authorized = true
        }
        scene.content.withLock { $0 = VirtualScene.Content() }
        let initial = initialImaging
        imaging.update { $0 = initial }
    }

    /// The imaging state the device starts with.
    var initialImaging: ImagingState { ImagingState() }

    package var isConnected: Bool { flags.withLock { $0.connected } }
    package var isAuthorized: Bool { flags.withLock { $0.authorized } }

    package func setEventSink(_ sink: CaptureDeviceEventSink?) { flags.withLock { $0.eventSink = sink } }

    func report(_ event: CaptureDeviceEvent) {
        if case .runtimeError = event { stop() }
        flags.withLock { $0.eventSink }?.device(descriptor.uniqueID, didReport: event)
    }

    func setConnected(_ connected: Bool) {
        let changed = flags.withLock { flags -> Bool in
            defer { flags.connected = connected }
            return flags.connected != connected
        }
        guard changed else { return }
        if !connected { stop() }
        report(connected ? .reconnected : .disconnected)
    }

    func setAuthorized(_ authorized: Bool) { flags.withLock { $0.authorized = authorized } }

    /// Starts the producer thread, or hands a running one its new configuration.
    func startStream(_ configuration: VideoStreamConfiguration?, sink: CaptureSampleSink, name: String) throws(CaptureBackendError) -> Int {
        guard isConnected else { throw .notConnected }
        let (spawn, generation) = stream.withLock { stream -> (Int?, Int) in
            stream.configuration = configuration
            stream.sink = sink
            stream.generation += 1
            if stream.running { return (nil, stream.generation) }
            stream.running = true
            stream.thread += 1
            return (stream.thread, stream.generation)
        }
        imaging.update { $0.isStreaming = true }
        guard let token = spawn else { return generation }
        let thread = Thread { [self] in produce(thread: token) }
        thread.name = name
        thread.qualityOfService = .userInteractive
        thread.start()
        return generation
    }

    /// Stops the producer; no sink call begins after this returns.
    package func stop() {
        deliveryLock.lock()
        stream.withLock { stream in
            stream.running = false
            stream.sink = nil
            stream.generation += 1
        }
        deliveryLock.unlock()
        imaging.update { $0.isStreaming = false }
    }

    /// The producer loop; runs on the device's thread until the stream stops.
    func produce(thread token: Int) {}

    /// The stream as the producer thread `token` should see it, or `nil` if that thread should exit.
    func currentStream(thread token: Int) -> Stream? {
        stream.withLock { $0.running && $0.thread == token ? $0 : nil }
    }

    /// Hands a sample to the sink unless the stream stopped meanwhile.
    func deliver(_ sampleBuffer: CMSampleBuffer, generation: Int) {
        deliveryLock.lock()
        defer { deliveryLock.unlock() }
        let sink = stream.withLock { $0.running && $0.generation == generation ? $0.sink : nil }
        sink?.deviceDidProduce(sampleBuffer, generation: generation)
    }

    /// Reports a dropped sample unless the stream stopped meanwhile.
    func drop(at time: CMTime, duration: CMTime, reason: FrameDropReason, generation: Int) {
        deliveryLock.lock()
        defer { deliveryLock.unlock() }
        let sink = stream.withLock { $0.running && $0.generation == generation ? $0.sink : nil }
        sink?.deviceDidDrop(at: time, duration: duration, reason: reason, generation: generation)
    }
}
