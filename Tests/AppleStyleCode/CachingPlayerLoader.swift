import AVFoundation
import UniformTypeIdentifiers

/// A caching player's loader, as such players are written: the movie's URL gets a custom scheme
/// so that AVFoundation asks the resource loader's delegate for its bytes, which come from the
/// cache (here, memory) a piece at a time, as a download delivers them.
public final class CachingPlayerLoader: NSObject, AVAssetResourceLoaderDelegate, @unchecked Sendable {
    public static let scheme = "cachingplayer"
    private let cached: Data
    private let lock = NSLock()
    private var seen: [(offset: Int64, length: Int, wantsInformation: Bool)] = []
    private var forwarded: [String] = []
    private let queue = DispatchQueue(label: "caching-player-loader")
    /// Whether the loader turns every request down, as a loader that lost its network would.
    public var failsEveryRequest = false

    public init(cached: Data) { self.cached = cached }

    /// The asset for a movie at `url`, read through this loader.
    public func asset(for url: URL) -> AVURLAsset {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)!
        components.scheme = Self.scheme
        components.host = "cache"
        let asset = AVURLAsset(url: components.url!)
        asset.resourceLoader.setDelegate(self, queue: queue)
        return asset
    }

    /// The ranges asked for, in order, and whether each asked for the content information.
    public var requests: [(offset: Int64, length: Int, wantsInformation: Bool)] { lock.withLock { seen } }
    /// The Range headers of the downloads a network cache would start for them.
    public var forwardedRanges: [String] { lock.withLock { forwarded } }

    public func resourceLoader(
        _ resourceLoader: AVAssetResourceLoader, shouldWaitForLoadingOfRequestedResource loadingRequest: AVAssetResourceLoadingRequest
    ) -> Bool {
        guard loadingRequest.request.url?.scheme == Self.scheme else { return false }
        if failsEveryRequest {
            loadingRequest.finishLoading(with: URLError(.notConnectedToInternet))
            return true
        }
        if let information = loadingRequest.contentInformationRequest {
            information.contentType = UTType.mpeg4Movie.identifier
            information.contentLength = Int64(cached.count)
            information.isByteRangeAccessSupported = true
        }
        guard let dataRequest = loadingRequest.dataRequest else {
            loadingRequest.finishLoading()
            return true
        }
        let download = rangeRequest(for: loadingRequest, from: URL(string: "https://example.com/movie.mp4")!)
        lock.withLock {
            seen.append((dataRequest.requestedOffset, dataRequest.requestedLength, loadingRequest.contentInformationRequest != nil))
            forwarded.append(download.value(forHTTPHeaderField: "Range") ?? "")
        }
        let start = Int(dataRequest.requestedOffset)
        let end = dataRequest.requestsAllDataToEndOfResource ? cached.count : min(cached.count, start + dataRequest.requestedLength)
        var offset = start
        while offset < end {
            let next = min(end, offset + 64 * 1024)
            dataRequest.respond(with: cached.subdata(in: offset..<next))
            offset = next
        }
        loadingRequest.finishLoading()
        return true
    }
}

/// The download a caching player starts for a range a loading request asks for, with URLSession as
/// Apple's Foundation offers it: nothing but AVFoundation imported.
public func rangeRequest(for loadingRequest: AVAssetResourceLoadingRequest, from origin: URL) -> URLRequest {
    var request = URLRequest(url: origin)
    request.setValue(loadingRequest.request.value(forHTTPHeaderField: "Range"), forHTTPHeaderField: "Range")
    request.cachePolicy = .reloadIgnoringLocalCacheData
    return request
}

/// A session for a caching player's downloads, delivering data to a delegate as it comes.
public final class RangeDownloads: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    public lazy var session = URLSession(configuration: .ephemeral, delegate: self, delegateQueue: nil)
}
