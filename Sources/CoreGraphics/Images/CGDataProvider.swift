import Foundation

/// A callback that releases the memory a data provider was given.
public typealias CGDataProviderReleaseDataCallback = @convention(c) (UnsafeMutableRawPointer?, UnsafeRawPointer, Int) -> Void

/// An abstraction for data-reading tasks that eliminates the need to manage a raw memory buffer.
///
/// A provider over caller memory (`init(dataInfo:data:size:releaseData:)`) reads that memory
/// where it is, without copying it, and calls the release callback when the provider goes.
/// Immutable and thread-safe.
public final class CGDataProvider: @unchecked Sendable {
    private enum Storage {
        case owned(Data)
        case borrowed(UnsafeRawPointer, Int, info: UnsafeMutableRawPointer?, release: CGDataProviderReleaseDataCallback)
        case slice(CGDataProvider, offset: Int, count: Int)
    }
    private let storage: Storage

    private init(storage: Storage) { self.storage = storage }

    /// Creates a provider that reads from a copy of `data`.
    public convenience init?(data: CFData) { self.init(storage: .owned(Data(copying: data))) }

    /// Creates a provider that reads from `bytes`.
    package convenience init(bytes: Data) { self.init(storage: .owned(bytes)) }

    /// Creates a provider that reads `size` bytes at `data` where they are, and calls `releaseData` when it is released.
    public convenience init?(
        dataInfo info: UnsafeMutableRawPointer?, data: UnsafeRawPointer, size: Int, releaseData: @escaping CGDataProviderReleaseDataCallback
    ) {
        guard size >= 0 else { return nil }
        self.init(storage: .borrowed(data, size, info: info, release: releaseData))
    }

    /// Creates a provider that reads a file's bytes; nil when the file cannot be read.
    public convenience init?(url: CFURL) {
        guard let data = try? Data(contentsOf: url as URL, options: .mappedIfSafe) else { return nil }
        self.init(storage: .owned(data))
    }

    /// Creates a provider that reads a file's bytes; nil when the file cannot be read.
    public convenience init?(filename: UnsafePointer<CChar>) { self.init(url: NSURL(fileURLWithPath: String(cString: filename))) }

    /// A provider of `count` bytes of another, from `offset`, sharing its memory.
    convenience init(slicing parent: CGDataProvider, offset: Int, count: Int) { self.init(storage: .slice(parent, offset: offset, count: count)) }

    deinit {
        if case .borrowed(let bytes, let size, let info, let release) = storage { release(info, bytes, size) }
    }

    /// A copy of the provider's data.
    public var data: CFData? { withBytes { NSData(bytes: $0.baseAddress, length: $0.count) } }

    /// How many bytes the provider has.
    var count: Int {
        switch storage {
        case .owned(let data): data.count
        case .borrowed(_, let size, _, _): size
        case .slice(_, _, let count): count
        }
    }

    /// Calls `body` with the provider's bytes, where they are.
    package func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        switch storage {
        case .owned(let data): return try data.withUnsafeBytes(body)
        case .borrowed(let bytes, let size, _, _): return try body(UnsafeRawBufferPointer(start: bytes, count: size))
        case .slice(let parent, let offset, let count):
            return try parent.withBytes { try body(UnsafeRawBufferPointer(rebasing: $0[offset..<(offset + count)])) }
        }
    }
}

/// Returns a copy of a data provider's data.
public func CGDataProviderCopyData(_ provider: CGDataProvider?) -> CFData? { provider?.data }
