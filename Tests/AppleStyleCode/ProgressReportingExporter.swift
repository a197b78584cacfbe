import AVFoundation

/// An exporter as published iOS code writes one: its progress a property it announces by key
/// around each change (`willChangeValue(forKey:)` and `didChangeValue(forKey:)`), for observers
/// by string key path, and polled from the export session while it runs.
public final class ProgressReportingExporter: NSObject, @unchecked Sendable {
    private let lock = NSLock()
    private var storedProgress: Float = 0
    private var poller: DispatchSourceTimer?
    /// The progresses announced, in order.
    public private(set) var announced: [Float] = []

    /// How far the export has come, 0 to 1.
    public var progress: Float {
        get { lock.withLock { storedProgress } }
        set {
            willChangeValue(forKey: "progress")
            lock.withLock {
                storedProgress = newValue
                announced.append(newValue)
            }
            didChangeValue(forKey: "progress")
        }
    }

    /// Exports `asset` with the lowest quality preset to `url`, announcing its progress as it goes.
    public func export(_ asset: AVAsset, to url: URL, completion: @escaping @Sendable (Error?) -> Void) {
        guard let session = AVAssetExportSession(asset: asset, presetName: AVAssetExportPresetLowQuality) else {
            return completion(NSError(domain: "ProgressReportingExporter", code: 1))
        }
        session.outputURL = url
        session.outputFileType = .mov
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(deadline: .now(), repeating: .milliseconds(20))
        timer.setEventHandler { [weak self] in self?.progress = session.progress }
        lock.withLock { poller = timer }
        timer.resume()
        session.exportAsynchronously { [self] in
            lock.withLock { poller }?.cancel()
            if session.status == .completed { progress = 1 }
            completion(session.error)
        }
    }
}
