import Foundation

/// The loading state of one of an asset's properties.
public enum AVKeyValueStatus: Int, Sendable {
    /// The property's value has not been asked for.
    case unknown = 0
    /// The property's value is being loaded.
    case loading = 1
    /// The property's value is ready to use.
    case loaded = 2
    /// The property's value could not be loaded.
    case failed = 3
    /// Loading the property's value was cancelled.
    case cancelled = 4
}

/// A protocol that defines the interface to load media data asynchronously.
public protocol AVAsynchronousKeyValueLoading {
    /// Returns the loading status of the property with a key, and the error when it failed.
    func statusOfValue(forKey key: String, error outError: NSErrorPointer) -> AVKeyValueStatus
    /// Loads the values of the properties with the given keys, then calls the handler on an arbitrary thread.
    func loadValuesAsynchronously(forKeys keys: [String], completionHandler handler: (@Sendable () -> Void)?)
}

extension AVAsynchronousKeyValueLoading {
    /// Loads a property asynchronously and returns the value.
    public func load<T>(_ property: AVAsyncProperty<Self, T>, isolation: isolated (any Actor)? = #isolation) async throws -> T {
        try await _loadValues(forKeys: [property.key], isolation: isolation)
        return try property.value(of: self)
    }

    /// Loads two or more properties asynchronously and returns the values.
    public func load<A, B, each C>(
        _ firstProperty: AVAsyncProperty<Self, A>, _ secondProperty: AVAsyncProperty<Self, B>,
        _ properties: repeat AVAsyncProperty<Self, each C>,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> (A, B, repeat each C) {
        var keys = [firstProperty.key, secondProperty.key]
        repeat keys.append((each properties).key)
        try await _loadValues(forKeys: keys, isolation: isolation)
        return (try firstProperty.value(of: self), try secondProperty.value(of: self), repeat try (each properties).value(of: self))
    }

    /// Returns the loading status of a property.
    public func status<T>(of property: AVAsyncProperty<Self, T>) -> AVAsyncProperty<Self, T>.Status {
        var error: NSError?
        switch statusOfValue(forKey: property.key, error: &error) {
        case .unknown: return .notYetLoaded
        case .loading: return .loading
        case .loaded:
            do { return .loaded(try property.value(of: self)) } catch { return .failed(error as NSError) }
        case .failed, .cancelled: return .failed(error ?? (AVError(.unknown) as NSError))
        }
    }

    /// Waits for the keys to load and throws the first key's error, if any failed.
    private func _loadValues(forKeys keys: [String], isolation: isolated (any Actor)?) async throws {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            loadValuesAsynchronously(forKeys: keys) { continuation.resume() }
        }
        for key in keys {
            var error: NSError?
            switch statusOfValue(forKey: key, error: &error) {
            case .loaded: continue
            case .cancelled: throw CancellationError()
            default:
                // The error as it was made (an AVError stays one), where the loader kept it.
                if let kept = (self as? AVAsset)?.loadingError { throw kept }
                throw error ?? (AVError(.unknown) as NSError)
            }
        }
    }
}
