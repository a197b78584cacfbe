import Foundation

/// Methods you can implement to handle resource-loading requests coming from a URL asset.
public protocol AVAssetResourceLoaderDelegate: NSObjectProtocol {
    /// Asks the delegate if it wants to load the requested resource.
    func resourceLoader(_ resourceLoader: AVAssetResourceLoader, shouldWaitForLoadingOfRequestedResource loadingRequest: AVAssetResourceLoadingRequest)
        -> Bool
    /// Asks the delegate if it wants to renew the requested resource.
    func resourceLoader(_ resourceLoader: AVAssetResourceLoader, shouldWaitForRenewalOfRequestedResource renewalRequest: AVAssetResourceRenewalRequest)
        -> Bool
    /// Tells the delegate that a prior loading request was cancelled.
    func resourceLoader(_ resourceLoader: AVAssetResourceLoader, didCancel loadingRequest: AVAssetResourceLoadingRequest)
    /// Asks the delegate whether it wants to respond to an authentication challenge.
    func resourceLoader(_ resourceLoader: AVAssetResourceLoader, shouldWaitForResponseTo authenticationChallenge: URLAuthenticationChallenge) -> Bool
    /// Tells the delegate that a prior authentication challenge was cancelled.
    func resourceLoader(_ resourceLoader: AVAssetResourceLoader, didCancel authenticationChallenge: URLAuthenticationChallenge)
}

extension AVAssetResourceLoaderDelegate {
    /// Declines to load the resource: the asset fails to load it.
    public func resourceLoader(
        _ resourceLoader: AVAssetResourceLoader, shouldWaitForLoadingOfRequestedResource loadingRequest: AVAssetResourceLoadingRequest
    ) -> Bool { false }
    /// Declines to renew the resource.
    public func resourceLoader(
        _ resourceLoader: AVAssetResourceLoader, shouldWaitForRenewalOfRequestedResource renewalRequest: AVAssetResourceRenewalRequest
    ) -> Bool { false }
    /// Does nothing when a request is cancelled.
    public func resourceLoader(_ resourceLoader: AVAssetResourceLoader, didCancel loadingRequest: AVAssetResourceLoadingRequest) {}
    /// Declines to respond to the challenge.
    public func resourceLoader(_ resourceLoader: AVAssetResourceLoader, shouldWaitForResponseTo authenticationChallenge: URLAuthenticationChallenge)
        -> Bool
    { false }
    /// Does nothing when a challenge is cancelled.
    public func resourceLoader(_ resourceLoader: AVAssetResourceLoader, didCancel authenticationChallenge: URLAuthenticationChallenge) {}
}

/// An object that mediates resource requests from a URL asset.
///
/// When an asset's URL has a scheme the system does not read itself (anything but `file`), the
/// asset asks its resource loader's delegate for the bytes: first for the resource's content
/// information and its first bytes, then for each range FFmpeg's demuxer reads, each as an
/// `AVAssetResourceLoadingRequest` handed to the delegate on its queue. The reading thread waits
/// for the delegate to finish each request, for up to 30 seconds; a request not finished by then
/// is cancelled (the delegate hears `didCancel`) and the read fails. Thread-safe.
open class AVAssetResourceLoader: NSObject, @unchecked Sendable {
    private struct State {
        weak var delegate: (any AVAssetResourceLoaderDelegate)?
        var queue: DispatchQueue?
    }
    private let state = LockedValue(State())

    /// How long a reading thread waits for the delegate to finish one request before the read fails.
    static let requestTimeout = LockedValue<TimeInterval>(30)

    /// Whether the loader loads content keys it finds eligible before they are asked for (no content keys are read here).
    open var preloadsEligibleContentKeys = false
    /// Whether common media client data is sent as HTTP headers (no HTTP requests are made here).
    open var sendsCommonMediaClientDataAsHTTPHeaders = false

    override init() { super.init() }

    /// The loader's delegate, held weakly.
    open var delegate: (any AVAssetResourceLoaderDelegate)? { state.withLock { $0.delegate } }
    /// The queue the delegate's methods are called on.
    open var delegateQueue: DispatchQueue? { state.withLock { $0.queue } }

    /// Sets the delegate and the dispatch queue on which its methods are called.
    open func setDelegate(_ delegate: (any AVAssetResourceLoaderDelegate)?, queue delegateQueue: DispatchQueue?) {
        state.withLock {
            $0.delegate = delegate
            $0.queue = delegateQueue
        }
    }

    /// Whether a delegate and a queue are set, so that requests can be made.
    var canLoad: Bool { state.withLock { $0.delegate != nil && $0.queue != nil } }

    /// Hands `request` to the delegate on its queue; the request fails at once when there is no
    /// delegate or the delegate declines it.
    func issue(_ request: AVAssetResourceLoadingRequest) {
        let (delegate, queue) = state.withLock { ($0.delegate, $0.queue) }
        guard let delegate, let queue else {
            return request.finishLoading(
                with: AVError(.failedToLoadMediaData, userInfo: [NSLocalizedDescriptionKey: "The asset's resource loader has no delegate."]))
        }
        // The delegate is called only on the queue the app gave for it.
        let called = UncheckedSendable(delegate)
        queue.async { [self] in
            let delegate = called.value
            guard !request.isFinished, !request.isCancelled else { return }
            if !delegate.resourceLoader(self, shouldWaitForLoadingOfRequestedResource: request) {
                request.finishLoading(
                    with: AVError(
                        .failedToLoadMediaData,
                        userInfo: [
                            NSLocalizedDescriptionKey: "The resource loader's delegate does not load \(request.request.url?.absoluteString ?? "the resource")."
                        ]))
            }
        }
    }

    /// Cancels a request the reading thread stopped waiting for, and tells the delegate on its queue.
    func cancel(_ request: AVAssetResourceLoadingRequest) {
        guard request.markCancelled() else { return }
        let (delegate, queue) = state.withLock { ($0.delegate, $0.queue) }
        guard let delegate, let queue else { return }
        let called = UncheckedSendable(delegate)
        queue.async { [self] in called.value.resourceLoader(self, didCancel: request) }
    }
}
