import CoreMedia
import Foundation

/// What virtual cameras and microphones add to a backend: an imaging model, a scene, and the
/// stream configuration their producer threads read.
package class VirtualDeviceBase: HardwareDeviceBase, VirtualSceneDevice, @unchecked Sendable {
    package let imaging: ImagingModel
    /// What the device sees and hears.
    public let scene: VirtualScene
    /// The configuration the producer renders with; it changes with the stream's generation.
    let configuration = LockedValue<VideoStreamConfiguration?>(nil)
    /// The clock a new producer paces itself by, and the clock's time when its stream started:
    /// taken when the stream starts, not when its thread first runs, so that time a manual clock
    /// is moved on by after `start` always counts.
    private let origin = LockedValue<(clock: VirtualClock, nanoseconds: Int64)>((.host, 0))

    init(descriptor: CaptureDeviceDescriptor, imaging: ImagingModel) {
        self.imaging = imaging
        self.scene = VirtualScene(imaging: imaging)
        super.init(descriptor: descriptor)
        scene.device = self
    }

    /// Returns the device and its scene to their initial state: connected, allowed, lit, uninterrupted, default controls.
    package func resetToDefaults() {
        stop()
        setConnected(true)
        setAuthorized(true)
        scene.content.withLock { $0 = VirtualScene.Content() }
        scene.clock = .host
        let initial = initialImaging
        imaging.update { $0 = initial }
    }

    /// The imaging state the device starts with.
    var initialImaging: ImagingState { ImagingState() }

    /// A runtime error stops a virtual device, as it would stop real hardware.
    override func report(_ event: CaptureDeviceEvent) {
        if case .runtimeError = event { stop() }
        super.report(event)
    }

    override func setAuthorized(_ authorized: Bool) { super.setAuthorized(authorized) }

    /// Starts the producer thread, or hands a running one its new configuration.
    func startStream(_ configuration: VideoStreamConfiguration?, sink: CaptureSampleSink, name: String) throws(CaptureBackendError) -> Int {
        guard isConnected else { throw .notConnected }
        self.configuration.withLock { $0 = configuration }
        let (generation, token) = beginStream(sink: sink)
        imaging.update { $0.isStreaming = true }
        if let token {
            let clock = scene.clock
            origin.withLock { $0 = (clock, clock.nanoseconds) }
            // A producer counts on a manual clock from now on, so that its owner waits for its first frame.
            clock.join()
            spawnProducer(token: token, name: name) { [self] token in
                produce(thread: token)
                clock.leave()
            }
        }
        return generation
    }

    /// The clock the producer paces itself by and its time when the stream started.
    var streamOrigin: (clock: VirtualClock, nanoseconds: Int64) { origin.withLock { $0 } }

    /// The time now on the clock the device paces and stamps its samples by.
    package var now: CMTime { streamOrigin.clock.now }

    override func didStop() {
        imaging.update { $0.isStreaming = false }
    }

    /// The producer loop; runs on the device's thread until the stream stops.
    func produce(thread token: Int) {}
}
