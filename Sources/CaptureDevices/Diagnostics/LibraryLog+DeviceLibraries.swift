import CALSA
import CPipeWire
import CoreVideo

extension LibraryLog {
    /// Installs the handlers of the device libraries; called before any of them is first used.
    package static let installed: Void = {
        cpw_set_log_handler(level == nil ? nil : pipeWireHandler, level?.rawValue ?? 0)
        calsa_set_log_handler(level == nil ? nil : alsaHandler)
    }()
}

private let pipeWireHandler: cpw_log_handler = { LibraryLog.write(library: "pipewire", severity: $0, message: $1) }
private let alsaHandler: calsa_log_handler = { LibraryLog.write(library: "alsa", severity: $0, message: $1) }
