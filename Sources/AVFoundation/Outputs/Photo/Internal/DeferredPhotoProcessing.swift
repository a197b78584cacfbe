import Foundation

/// Photos a camera delivered as proxies, waiting to be finished: each proxy's bytes with the work
/// that makes the final photo from the pixels the camera kept. When a proxy is saved to the
/// library as a `.photoProxy` resource, the library finishes it in the background and puts the
/// final photo in its place; a proxy that is never saved is let go of when newer ones push it out.
///
/// Thread-safe.
package enum DeferredPhotoProcessing {
    /// The final photo's bytes and its file name extension (such as "heic").
    package typealias Finish = @Sendable () throws -> (data: Data, fileExtension: String)

    private struct Job {
        let proxy: Data
        let finish: Finish
    }

    /// The most proxies kept waiting (each keeps its photo's pixels).
    package static let capacity = 8
    private static let jobs = LockedJobs()

    /// Keeps `finish` for the proxy whose bytes are `proxy`.
    package static func register(proxy: Data, finish: @escaping Finish) {
        jobs.withLock { jobs in
            jobs.waiting.append(Job(proxy: proxy, finish: finish))
            if jobs.waiting.count > capacity { jobs.waiting.removeFirst(jobs.waiting.count - capacity) }
        }
    }

    /// Takes the work waiting for the proxy whose bytes are `proxy`, if any; the taker runs it
    /// and calls `didFinish()` once the final photo is in place (or could not be made).
    package static func take(proxy: Data) -> Finish? {
        jobs.withLock { jobs in
            guard let index = jobs.waiting.firstIndex(where: { $0.proxy.count == proxy.count && $0.proxy == proxy }) else { return nil }
            jobs.finishing += 1
            return jobs.waiting.remove(at: index).finish
        }
    }

    /// Notes that work taken with `take(proxy:)` is done.
    package static func didFinish() {
        jobs.withLock { $0.finishing -= 1 }
    }

    /// How many proxies wait.
    package static var pending: Int { jobs.withLock { $0.waiting.count } }

    /// How many proxies taken are still being finished.
    package static var finishing: Int { jobs.withLock { $0.finishing } }

    private final class LockedJobs: @unchecked Sendable {
        private let lock = NSLock()
        private var jobs = Jobs()
        func withLock<T>(_ body: (inout Jobs) -> T) -> T { lock.withLock { body(&jobs) } }
    }

    /// The proxies waiting, and the count of those taken and not finished yet.
    private struct Jobs {
        var waiting: [Job] = []
        var finishing = 0
    }
}
