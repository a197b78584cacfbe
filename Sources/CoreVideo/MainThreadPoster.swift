import Foundation

/// Posts AVFoundation's and AVFAudio's notifications on the main thread, as Apple's frameworks do.
///
/// A post from the main thread happens at once; one from any other thread is queued on the
/// main queue, which a run loop or `dispatchMain()` on the main thread services.
package enum MainThreadPoster {
    private struct Box: @unchecked Sendable {
        let name: NSNotification.Name
        let object: AnyObject?
        let userInfo: [AnyHashable: Any]?
    }

    package static func post(_ name: NSNotification.Name, object: AnyObject?, userInfo: [AnyHashable: Any]? = nil) {
        let box = Box(name: name, object: object, userInfo: userInfo)
        if Thread.isMainThread {
            NotificationCenter.default.post(name: box.name, object: box.object, userInfo: box.userInfo)
        } else {
            DispatchQueue.main.async {
                NotificationCenter.default.post(name: box.name, object: box.object, userInfo: box.userInfo)
            }
        }
    }
}
