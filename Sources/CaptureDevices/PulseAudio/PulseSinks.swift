import CPulse
import CoreMedia
import Foundation

/// A sink of the sound server: an output, with what the server says of the device behind it.
package struct SoundOutputPort: Equatable, Sendable {
    /// The sink's name, unique on its server.
    package var name: String
    /// The sink's name for people.
    package var description: String
    /// The active port's name (`analog-output-headphones`), or empty.
    package var port = ""
    /// The active port's `pa_device_port_type_t`: 0 when unknown or portless.
    package var portType: Int32 = 0
    /// `device.form_factor`: `headphone`, `speaker`, `car`, ..., or empty.
    package var formFactor = ""
    /// `device.bus`: `usb`, `bluetooth`, `pci`, ..., or empty.
    package var bus = ""
    /// The Bluetooth or card profile (`a2dp-sink`, `headset-head-unit`), or empty.
    package var profile = ""
    /// The sink's channels.
    package var channels = 2
    /// Whether it is a real device rather than a null or remapped sink.
    package var isHardware = true
    /// Whether it plays over the network.
    package var isNetwork = false
    /// Whether it is the server's default sink.
    package var isDefault = false

    /// A sink described by hand, with the server's defaults for what is left out.
    package init(name: String, description: String) {
        self.name = name
        self.description = description
    }

    init(_ sink: cpulse_sink) {
        self.init(name: V4L2Node.string(sink.name), description: V4L2Node.string(sink.description))
        port = V4L2Node.string(sink.port)
        portType = sink.port_type
        formFactor = V4L2Node.string(sink.form_factor)
        bus = V4L2Node.string(sink.bus)
        profile = V4L2Node.string(sink.profile)
        channels = Int(max(1, sink.channels))
        isHardware = sink.is_hardware != 0
        isNetwork = sink.is_network != 0
        isDefault = sink.is_default != 0
    }

    /// What a route through it is: the sink and its active port (headphones plugged into the
    /// jack change the port, not the sink).
    package var routeKey: String { name + "|" + port }
}

/// The sound server's sinks, looked up at most once a second, and followed for listeners.
package enum PulseSinks {
    private static let lookup = LockedValue<(time: Int64, sinks: [SoundOutputPort])>((0, []))
    /// The sinks listeners were last told of.
    private static let told = LockedValue<[SoundOutputPort]>([])
    private static let listeners = LockedValue<[@Sendable (_ before: [SoundOutputPort], _ after: [SoundOutputPort]) -> Void]>([])

    /// The server's sinks, the default first; none when no server answers within half a second.
    package static func current() -> [SoundOutputPort] {
        let now = CMClock.hostTimeNanoseconds()
        let (time, cached) = lookup.withLock { $0 }
        guard now - time > 1_000_000_000 else { return cached }
        var sinks = [cpulse_sink](repeating: cpulse_sink(), count: 32)
        let count = Int(cpulse_list_sinks(&sinks, 32, 500))
        let found = count > 0 ? sinks.prefix(min(count, 32)).map(SoundOutputPort.init).sorted { $0.isDefault && !$1.isDefault } : []
        lookup.withLock { $0 = (now, found) }
        return found
    }

    /// Calls `listener` with the sinks before and after whenever they change (a sink comes or
    /// goes, its port or the default changes), on an arbitrary thread; starts following the server.
    package static func addListener(_ listener: @escaping @Sendable (_ before: [SoundOutputPort], _ after: [SoundOutputPort]) -> Void) {
        let first = listeners.withLock { list -> Bool in
            list.append(listener)
            return list.count == 1
        }
        guard first else { return }
        told.withLock { $0 = current() }
        PulseDiscovery.addListener { serverChanged() }
        following.withLock { $0 = true }
    }

    private static let following = LockedValue(false)

    /// The sinks as listeners last heard of them, once the server is followed; nil before.
    package static var followed: [SoundOutputPort]? { following.withLock { $0 } ? told.withLock { $0 } : nil }

    /// The server said something changed: look again, and tell listeners when the sinks differ.
    private static func serverChanged() {
        lookup.withLock { $0.time = 0 }
        let after = current()
        let before = told.withLock { told -> [SoundOutputPort] in
            defer { told = after }
            return told
        }
        guard before != after else { return }
        for listener in listeners.withLock({ $0 }) { listener(before, after) }
    }
}
