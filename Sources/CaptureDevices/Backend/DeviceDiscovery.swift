/// How a backend finds its devices: what `DeviceRegistry` asks each backend listed in
/// `DeviceRegistry.discoveries`, the one place a new backend is added.
package protocol DeviceDiscovery: SendableMetatype {
    /// The kind of media the backend's devices capture.
    static var mediaKind: CaptureMediaKind { get }
    /// The backend's devices as they are now (those that went away last, disconnected), in the
    /// order `default(for:)` prefers them.
    static func devices() -> [CaptureDeviceBackend]
    /// Calls `listener` after the backend's devices appear or disappear.
    static func addListener(_ listener: @escaping @Sendable () -> Void)
}

extension DeviceDiscovery {
    /// A backend that cannot tell when its devices come and go calls no one.
    package static func addListener(_ listener: @escaping @Sendable () -> Void) {}
}

extension V4L2Discovery: DeviceDiscovery {
    /// The backend's devices capture pictures.
    package static var mediaKind: CaptureMediaKind { .video }
    /// The kernel's cameras.
    package static func devices() -> [CaptureDeviceBackend] { cameras() }
}

extension PipeWireDiscovery: DeviceDiscovery {
    /// The backend's devices capture pictures.
    package static var mediaKind: CaptureMediaKind { .video }
    /// PipeWire's cameras.
    package static func devices() -> [CaptureDeviceBackend] { cameras() }
}

extension PulseDiscovery: DeviceDiscovery {
    /// The backend's devices capture sound.
    package static var mediaKind: CaptureMediaKind { .audio }
    /// The sound server's sources, its default first.
    package static func devices() -> [CaptureDeviceBackend] { microphones() }
}

extension ALSADiscovery: DeviceDiscovery {
    /// The backend's devices capture sound.
    package static var mediaKind: CaptureMediaKind { .audio }
    /// The sound cards read directly.
    package static func devices() -> [CaptureDeviceBackend] { microphones() }
}
