import Foundation

/// An object that encapsulates information about a resource request from a resource loader object.
///
/// The delegate answers it with content information, data, or an error, then calls one of the
/// `finishLoading` methods; the reading thread waits for that. Thread-safe.
open class AVAssetResourceLoadingRequest: NSObject, @unchecked Sendable {
    private struct State {
        var finished = false
        var cancelled = false
        var error: (any Error)?
        var response: URLResponse?
        var redirect: URLRequest?
    }
    private let state = LockedValue(State())
    private let done = DispatchSemaphore(value: 0)

    /// The URL request object for the resource.
    public let request: URLRequest
    /// The request for information about the resource, when its content type and length are asked for.
    public let contentInformationRequest: AVAssetResourceLoadingContentInformationRequest?
    /// The range of the resource's bytes asked for.
    public let dataRequest: AVAssetResourceLoadingDataRequest?
    /// The object that made the request.
    public let requestor = AVAssetResourceLoadingRequestor()

    init(url: URL, contentInformation: Bool, offset: Int64, length: Int, toEnd: Bool) {
        var request = URLRequest(url: url)
        request.setValue(toEnd ? "bytes=\(offset)-" : "bytes=\(offset)-\(offset + Int64(length) - 1)", forHTTPHeaderField: "Range")
        self.request = request
        contentInformationRequest = contentInformation ? AVAssetResourceLoadingContentInformationRequest() : nil
        dataRequest = AVAssetResourceLoadingDataRequest(offset: offset, length: length, toEnd: toEnd)
        super.init()
    }

    /// Whether loading of the resource is finished.
    open var isFinished: Bool { state.withLock { $0.finished } }
    /// Whether the request was cancelled.
    open var isCancelled: Bool { state.withLock { $0.cancelled } }
    /// The URL response for the loading request, set by the delegate.
    open var response: URLResponse? {
        get { state.withLock { $0.response } }
        set { state.withLock { $0.response = newValue } }
    }
    /// A redirect the delegate sets to send the request elsewhere (redirects are not followed here).
    open var redirect: URLRequest? {
        get { state.withLock { $0.redirect } }
        set { state.withLock { $0.redirect = newValue } }
    }

    /// Causes the receiver to treat the processing of the request as complete.
    open func finishLoading() { finish(nil) }

    /// Causes the receiver to treat the request as having failed.
    open func finishLoading(with error: (any Error)?) {
        finish(error ?? AVError(.unknown, userInfo: [NSLocalizedDescriptionKey: "The resource loader's delegate finished a request with no error given."]))
    }

    private func finish(_ error: (any Error)?) {
        let first = state.withLock { state -> Bool in
            guard !state.finished, !state.cancelled else { return false }
            state.finished = true
            state.error = error
            return true
        }
        if first { done.signal() }
    }

    /// Marks the request cancelled; false when it had already finished or been cancelled.
    func markCancelled() -> Bool {
        state.withLock { state in
            guard !state.finished, !state.cancelled else { return false }
            state.cancelled = true
            return true
        }
    }

    /// Waits until the delegate finishes the request: nil when it did, the error it gave, or a
    /// timeout error after `seconds`.
    func wait(seconds: TimeInterval) -> (any Error)?? {
        guard done.wait(timeout: .now() + seconds) == .success else { return nil }
        return .some(state.withLock { $0.error })
    }
}

/// A loading request made to renew a resource (none are made here: no resource expires).
open class AVAssetResourceRenewalRequest: AVAssetResourceLoadingRequest, @unchecked Sendable {}

/// The object that made a resource loading request.
open class AVAssetResourceLoadingRequestor: NSObject, @unchecked Sendable {
    /// Whether the requestor may ask for a content key's response to be given as encrypted data (no content keys here).
    open var providesExpiredSessionReports: Bool { false }
}

/// A query for retrieving essential information about a resource that an asset resource loader requests.
open class AVAssetResourceLoadingContentInformationRequest: NSObject, @unchecked Sendable {
    private struct State {
        var contentType: String?
        var contentLength: Int64 = 0
        var isByteRangeAccessSupported = false
        var renewalDate: Date?
        var isEntireLengthAvailableOnDemand = false
    }
    private let state = LockedValue(State())

    override init() { super.init() }

    /// The uniform type identifier of the requested resource, such as `public.mpeg-4`.
    open var contentType: String? {
        get { state.withLock { $0.contentType } }
        set { state.withLock { $0.contentType = newValue } }
    }
    /// The content types the requestor accepts: those of the movies FFmpeg reads here.
    open var allowedContentTypes: [String]? {
        ["public.mpeg-4", "com.apple.quicktime-movie", "com.apple.m4v-video", "com.apple.m4a-audio", "public.mp3", "com.microsoft.waveform-audio"]
    }
    /// The length, in bytes, of the requested resource.
    open var contentLength: Int64 {
        get { state.withLock { $0.contentLength } }
        set { state.withLock { $0.contentLength = newValue } }
    }
    /// Whether the resource supports arbitrary ranges of bytes being requested.
    open var isByteRangeAccessSupported: Bool {
        get { state.withLock { $0.isByteRangeAccessSupported } }
        set { state.withLock { $0.isByteRangeAccessSupported = newValue } }
    }
    /// The date after which the resource needs renewing (resources are never renewed here).
    open var renewalDate: Date? {
        get { state.withLock { $0.renewalDate } }
        set { state.withLock { $0.renewalDate = newValue } }
    }
    /// Whether the whole resource can be had on demand, however long it takes.
    open var isEntireLengthAvailableOnDemand: Bool {
        get { state.withLock { $0.isEntireLengthAvailableOnDemand } }
        set { state.withLock { $0.isEntireLengthAvailableOnDemand = newValue } }
    }
}

/// An object for requesting data from a resource that an asset resource loader manages.
///
/// Data the delegate gives beyond the requested range is not kept.
open class AVAssetResourceLoadingDataRequest: NSObject, @unchecked Sendable {
    /// The position within the resource of the first byte requested.
    public let requestedOffset: Int64
    /// The length of the data requested.
    public let requestedLength: Int
    /// Whether the whole resource from the requested offset is asked for, whatever its length.
    public let requestsAllDataToEndOfResource: Bool
    private let received = LockedValue(Data())
    /// The most a request to the end keeps: 1 GiB.
    private static let limit = 1 << 30

    init(offset: Int64, length: Int, toEnd: Bool) {
        requestedOffset = offset
        requestedLength = length
        requestsAllDataToEndOfResource = toEnd
        super.init()
    }

    /// The position within the resource of the next byte after the data given so far.
    open var currentOffset: Int64 { requestedOffset + Int64(received.withLock { $0.count }) }

    /// Provides data to the requestor: bytes that follow those already given.
    open func respond(with data: Data) {
        received.withLock { received in
            let room = (requestsAllDataToEndOfResource ? Self.limit : requestedLength) - received.count
            guard room > 0 else { return }
            received.append(data.count <= room ? data : data.prefix(room))
        }
    }

    /// The bytes given so far.
    var data: Data { received.withLock { $0 } }
}
