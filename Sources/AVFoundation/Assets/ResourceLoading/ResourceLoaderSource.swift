import Foundation
import MovieEngine

/// A movie's bytes as an asset's resource loader delegate serves them, read by FFmpeg in
/// chunks: first the content information with the first two bytes (as Apple's first request
/// asks), then 256 KiB at a time wherever the demuxer reads, or the whole resource at once when
/// the delegate says it cannot serve ranges.
///
/// Thread ownership: used by the one thread reading the movie; the delegate answers on its queue.
final class ResourceLoaderSource: MovieByteSource {
    private let loader: AVAssetResourceLoader
    private let url: URL
    private(set) var length: Int64?
    private let byteRanges: Bool
    /// The bytes the last request brought, and where they start.
    private var chunk: (offset: Int64, data: Data)
    /// What the delegate said when a request failed, to explain the failed read.
    private(set) var failure: (any Error)?
    /// How much one request asks for.
    static let chunkSize = 256 * 1024

    /// Asks the delegate for the resource's content information and first bytes; throws what it
    /// answered when it declined or failed, or when it did not answer in time.
    init(url: URL, loader: AVAssetResourceLoader) throws {
        self.loader = loader
        self.url = url
        let first = AVAssetResourceLoadingRequest(url: url, contentInformation: true, offset: 0, length: 2, toEnd: false)
        try Self.perform(first, loader: loader)
        let information = first.contentInformationRequest!
        length = information.contentLength > 0 ? information.contentLength : nil
        byteRanges = information.isByteRangeAccessSupported
        chunk = (0, first.dataRequest!.data)
        if !byteRanges {
            // No ranges: the whole resource, once.
            let whole = AVAssetResourceLoadingRequest(url: url, contentInformation: false, offset: 0, length: Int(length ?? 0), toEnd: true)
            try Self.perform(whole, loader: loader)
            chunk = (0, whole.dataRequest!.data)
            length = Int64(chunk.data.count)
        }
    }

    /// Hands a request to the delegate and waits for it to finish.
    private static func perform(_ request: AVAssetResourceLoadingRequest, loader: AVAssetResourceLoader) throws {
        if Thread.isMainThread, loader.delegateQueue === DispatchQueue.main {
            throw AVError(
                .failedToLoadMediaData,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "The resource loader's delegate queue is the main queue, which this call blocks: load the asset asynchronously or give the delegate another queue."
                ])
        }
        loader.issue(request)
        let timeout = AVAssetResourceLoader.requestTimeout.withLock { $0 }
        switch request.wait(seconds: timeout) {
        case nil:
            loader.cancel(request)
            throw AVError(
                .failedToLoadMediaData,
                userInfo: [NSLocalizedDescriptionKey: "The resource loader's delegate did not finish a request in \(timeout) s."])
        case .some(let error?): throw error
        case .some(nil): return
        }
    }

    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws -> Int {
        if let length, offset >= length { return 0 }
        let end = chunk.offset + Int64(chunk.data.count)
        if offset < chunk.offset || offset >= end {
            // Past what a resource without ranges gave is its end.
            guard byteRanges else { return 0 }
            let wanted = length.map { Int(min(Int64(Self.chunkSize), $0 - offset)) } ?? Self.chunkSize
            let request = AVAssetResourceLoadingRequest(url: url, contentInformation: false, offset: offset, length: wanted, toEnd: false)
            do { try Self.perform(request, loader: loader) } catch {
                failure = error
                throw error
            }
            chunk = (offset, request.dataRequest!.data)
            if chunk.data.isEmpty { return 0 }
        }
        let start = Int(offset - chunk.offset)
        let count = min(buffer.count, chunk.data.count - start)
        chunk.data.withUnsafeBytes { bytes in buffer.baseAddress!.copyMemory(from: bytes.baseAddress! + start, byteCount: count) }
        return count
    }

    /// Opens the movie `url` names through `loader`'s delegate, or throws why it cannot be read:
    /// the delegate's own error when it gave one.
    static func open(_ url: URL, loader: AVAssetResourceLoader) throws -> MovieFile {
        let source = try ResourceLoaderSource(url: url, loader: loader)
        do { return try MovieFile(source: source, url: url) } catch {
            if let failure = source.failure {
                throw AVError(
                    .failedToLoadMediaData,
                    userInfo: [
                        NSURLErrorKey: url, NSUnderlyingErrorKey: failure,
                        NSLocalizedDescriptionKey: "\(url.absoluteString) could not be loaded: \(failure.localizedDescription)",
                    ])
            }
            throw AVError(error)
        }
    }
}
