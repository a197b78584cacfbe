import CaptureDevices
import Foundation

extension AVCaptureDevice {
    private static let preferredCameras = LockedValue<(user: AVCaptureDevice?, system: AVCaptureDevice?)>((nil, nil))
    /// Observers of the class properties (`systemPreferredCamera`).
    static let classObservations = KeyValueObservationRegistry()

    /// The camera the user chose, for apps that let the user pick one; the system's choice
    /// (`systemPreferredCamera`) follows it while it is connected. Setting a device that is not a
    /// camera has no effect.
    public class var userPreferredCamera: AVCaptureDevice? {
        get { preferredCameras.withLock { $0.user } }
        set {
            guard newValue == nil || newValue!.hasMediaType(.video) else { return }
            preferredCameras.withLock { $0.user = newValue }
            systemPreferredCameraMayHaveChanged()
        }
    }

    /// The camera the system suggests: the user's preferred camera while it is connected,
    /// otherwise the default camera. Observe it with `AVCaptureDevice.self.observe(\.systemPreferredCamera)`.
    public class var systemPreferredCamera: AVCaptureDevice? {
        if let user = userPreferredCamera, user.isConnected { return user }
        return AVCaptureDevice.default(for: .video)
    }

    private static let preferredCameraQueue = DispatchQueue(label: "AVCaptureDevice.systemPreferredCamera")

    /// Looks again at `systemPreferredCamera` after a camera came or went, on a queue of its own:
    /// device events arrive while the device list is being read, which the look reads again.
    static func camerasDidChange() {
        preferredCameraQueue.async { systemPreferredCameraMayHaveChanged() }
    }

    /// Tells observers of `systemPreferredCamera` when it names another camera (after a choice
    /// of the user's, or a camera that came or went).
    static func systemPreferredCameraMayHaveChanged() {
        let current = systemPreferredCamera
        let changed = preferredCameras.withLock { cameras -> Bool in
            defer { cameras.system = current }
            return cameras.system != current
        }
        if changed { classObservations.didChange([\AVCaptureDevice.Type.systemPreferredCamera]) }
    }

    /// Observes a class property of `AVCaptureDevice` (`systemPreferredCamera`): `changeHandler`
    /// runs after each change of its value: on the thread that set `userPreferredCamera`, or on
    /// a queue of the class's own after a camera came or went.
    public static func observe<Value>(_ keyPath: KeyPath<AVCaptureDevice.Type, Value>, options: NSKeyValueObservingOptions = [],
                                      changeHandler: @escaping @Sendable (AVCaptureDevice.Type, NSKeyValueObservedChange<Value>) -> Void)
        -> NSKeyValueObservation {
        // Start from the value now, so that the first change is measured from it.
        if keyPath == \AVCaptureDevice.Type.systemPreferredCamera { systemPreferredCameraMayHaveChanged() }
        nonisolated(unsafe) let path = keyPath
        let last = LockedValue<Value?>(AVCaptureDevice.self[keyPath: keyPath])
        let id = classObservations.add(keyPath: keyPath) {
            let new = AVCaptureDevice.self[keyPath: path]
            let old = last.withLock { last -> Value? in
                defer { last = new }
                return last
            }
            changeHandler(AVCaptureDevice.self, NSKeyValueObservedChange(kind: .setting, newValue: options.contains(.new) ? new : nil,
                                                                         oldValue: options.contains(.old) ? old : nil, indexes: nil, isPrior: false))
        }
        if options.contains(.initial) {
            changeHandler(AVCaptureDevice.self, NSKeyValueObservedChange(kind: .setting, newValue: options.contains(.new) ? AVCaptureDevice.self[keyPath: keyPath] : nil,
                                                                         oldValue: nil, indexes: nil, isPrior: false))
        }
        let registry = classObservations
        return NSKeyValueObservation { registry.remove(id) }
    }
}
