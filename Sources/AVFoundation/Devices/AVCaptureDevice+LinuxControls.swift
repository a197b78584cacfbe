import CaptureDevices
import Foundation

extension AVCaptureDevice {
    /// A control a Linux camera's driver offers beyond AVFoundation's own, such as brightness,
    /// gain or power-line frequency. A Linux extension.
    public struct LinuxControl: Sendable, Hashable {
        /// The driver's identifier for the control (a V4L2 control ID).
        public let id: UInt32
        /// The driver's name for the control.
        public let name: String
        /// The smallest value.
        public let minimum: Int64
        /// The largest value.
        public let maximum: Int64
        /// The step between values.
        public let step: Int64
        /// The value the driver starts with.
        public let defaultValue: Int64
        /// The names of a menu control's values.
        public let menuItems: [Int64: String]
        /// Whether the control can only be read.
        public let isReadOnly: Bool
        /// Whether the control is a button: pressing it performs an action, and it has no value.
        public let isButton: Bool
    }

    /// The driver's controls, for V4L2 cameras; empty for other devices.
    public var linuxControls: [LinuxControl] {
        guard let camera = backend as? V4L2Camera else { return [] }
        return camera.controls.map {
            LinuxControl(
                id: $0.id, name: $0.name, minimum: $0.minimum, maximum: $0.maximum, step: $0.step,
                defaultValue: $0.defaultValue, menuItems: $0.menu, isReadOnly: $0.isReadOnly, isButton: $0.isButton)
        }
    }

    /// The control with a name, if the driver has one.
    public func linuxControl(named name: String) -> LinuxControl? {
        linuxControls.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }
    }

    /// Reads a control's current value from the driver.
    public func value(of control: LinuxControl) throws -> Int64 {
        guard let camera = backend as? V4L2Camera else { throw AVError(.deviceNotConnected, userInfo: [AVErrorDeviceKey: self]) }
        do { return Int64(try camera.value(of: control.id)) } catch { throw AVCaptureSession.avError(for: error, device: self) }
    }

    /// Sets a control's value on the driver; the device must be locked for configuration.
    public func setValue(_ value: Int64, of control: LinuxControl) throws {
        ProgrammingError.requireConfigurationLock(self, "Value:ofControl:")
        guard let camera = backend as? V4L2Camera else { throw AVError(.deviceNotConnected, userInfo: [AVErrorDeviceKey: self]) }
        if control.isButton || control.isReadOnly || value < control.minimum || value > control.maximum {
            ProgrammingError.invalidArgument(
                "-[AVCaptureDevice setValue:ofControl:] \(value) is not a valid value for \(control.name) (\(control.minimum)...\(control.maximum))")
        }
        do { try camera.setValue(Int32(truncatingIfNeeded: value), of: control.id) } catch { throw AVCaptureSession.avError(for: error, device: self) }
    }
}

extension AVCaptureDevice {
    /// Presses a button control, such as a driver's test or reset action; the device must be locked for configuration.
    public func press(_ control: LinuxControl) throws {
        ProgrammingError.requireConfigurationLock(self, "Press:")
        guard control.isButton else { ProgrammingError.invalidArgument("-[AVCaptureDevice press:] \(control.name) is not a button") }
        guard let camera = backend as? V4L2Camera else { throw AVError(.deviceNotConnected, userInfo: [AVErrorDeviceKey: self]) }
        do { try camera.setValue(0, of: control.id) } catch { throw AVCaptureSession.avError(for: error, device: self) }
    }
}
