import CaptureDevices
import Foundation

extension AVCaptureDevice {
    private struct PreferredCameras {
        var user: AVCaptureDevice?
        var system: AVCaptureDevice?
        var isKnown = false
    }
    private static let preferredCameras = LockedValue(PreferredCameras())
    /// Where the system's choice is worked out, one change after another, so that observers hear
    /// of each in order and read the value that change made.
    private static let preferredCameraQueue: DispatchQueue = {
        let queue = DispatchQueue(label: "AVCaptureDevice.systemPreferredCamera")
        queue.setSpecific(key: preferredCameraQueueKey, value: ())
        return queue
    }()
    private static let preferredCameraQueueKey = DispatchSpecificKey<Void>()
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
            onPreferredCameraQueue { updateSystemPreferredCamera() }
        }
    }

    /// The camera the system suggests: the user's preferred camera while it is connected,
    /// otherwise the default camera. It follows cameras coming and going a moment after they do;
    /// observe it with `AVCaptureDevice.self.observe(\.systemPreferredCamera)`.
    public class var systemPreferredCamera: AVCaptureDevice? {
        if let known = preferredCameras.withLock({ $0.isKnown ? Optional($0.system) : nil }) { return known }
        onPreferredCameraQueue { updateSystemPreferredCamera() }
        return preferredCameras.withLock { $0.system }
    }

    /// Works the system's choice out again after a camera came or went. Device events arrive
    /// while the device list is being read, which this reads again: it runs a moment later.
    static func camerasDidChange() {
        preferredCameraQueue.async { updateSystemPreferredCamera() }
    }

    /// Runs `body` on the preferred-camera queue, at once when already there.
    private static func onPreferredCameraQueue(_ body: () -> Void) {
        if DispatchQueue.getSpecific(key: preferredCameraQueueKey) != nil { body() } else { preferredCameraQueue.sync(execute: body) }
    }

    /// Works out the system's choice and tells observers when it names another camera; on the queue.
    private static func updateSystemPreferredCamera() {
        let user = preferredCameras.withLock { $0.user }
        let current = user.flatMap { $0.isConnected ? $0 : nil } ?? AVCaptureDevice.default(for: .video)
        let changed = preferredCameras.withLock { cameras -> Bool in
            defer { cameras.system = current; cameras.isKnown = true }
            return cameras.isKnown && cameras.system != current
        }
        if changed { classObservations.didChange([\AVCaptureDevice.Type.systemPreferredCamera]) }
    }

    /// Observes a class property of `AVCaptureDevice` (`systemPreferredCamera`): `changeHandler`
    /// runs after each change of its value, on a queue of the class's own.
    public static func observe<Value>(
        _ keyPath: KeyPath<AVCaptureDevice.Type, Value>, options: NSKeyValueObservingOptions = [],
        changeHandler: @escaping @Sendable (AVCaptureDevice.Type, NSKeyValueObservedChange<Value>) -> Void
    )
        -> NSKeyValueObservation
    {
        nonisolated(unsafe) let path = keyPath
        return classObservations.observe(
            keyPath, options: options, read: { AVCaptureDevice.self[keyPath: path] },
            deliver: { changeHandler(AVCaptureDevice.self, $0) })
    }
}
