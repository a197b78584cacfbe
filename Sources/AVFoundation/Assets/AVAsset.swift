import CoreGraphics
import CoreMedia
import Foundation
import MovieEngine

/// What an asset holds, learnt once from its file.
struct AssetContents: @unchecked Sendable {
    var duration: CMTime
    var tracks: [AVAssetTrack]
    var metadata: [AVMetadataItem]
    var commonMetadata: [AVMetadataItem]
    var creationDate: AVMetadataItem?
    var isPlayable: Bool
}

/// An object that models timed audiovisual media, such as a movie file.
///
/// An asset opens its file the first time one of its properties is asked for, through the
/// asynchronous `load(_:)` forms (which never block the caller) or the older synchronous
/// properties (which do), and keeps what it learnt. Thread-safe.
open class AVAsset: NSObject, NSCopying, AVAsynchronousKeyValueLoading, _AssetTrackList, @unchecked Sendable {
    /// The file the asset reads, if it reads one.
    let sourceURL: URL?
    private enum State { case unloaded, loaded(AssetContents), failed(Error) }
    private let state = LockedValue<State>(.unloaded)
    /// Serializes the one opening of the file (a test holds it to keep an asset loading).
    let opening = LockedValue<Void>(())

    init(sourceURL: URL?) {
        self.sourceURL = sourceURL
        super.init()
    }

    /// Creates an asset for the media at a URL.
    public convenience init(url URL: URL) {
        self.init(sourceURL: URL)
    }

    /// Returns the asset itself: assets are immutable.
    open func copy(with zone: NSZone? = nil) -> Any { self }

    // MARK: Loading

    /// What the asset holds, opening its file the first time; throws the error that kept it from loading.
    func loadedContents() throws -> AssetContents {
        if let result = currentContents() { return try result.get() }
        return try opening.withLock { _ in
            if let result = currentContents() { return try result.get() }
            let result = Result { try makeContents() }
            state.withLock { state in
                switch result {
                case .success(let contents): state = .loaded(contents)
                case .failure(let error): state = .failed(error)
                }
            }
            return try result.get()
        }
    }

    private func currentContents() -> Result<AssetContents, Error>? {
        state.withLock { state in
            switch state {
            case .unloaded: return nil
            case .loaded(let contents): return .success(contents)
            case .failed(let error): return .failure(error)
            }
        }
    }

    /// Reads the asset's contents; subclasses that hold media another way override it.
    func makeContents() throws -> AssetContents {
        let file = try openMovie()
        let tracks = file.tracks.map { AVAssetTrack(asset: self, facts: $0) }
        var duration = CMTime.zero
        for track in tracks where track.facts.timeRange.end.isValid { duration = max(duration, track.facts.timeRange.end) }
        if tracks.isEmpty, let micros = file.durationMicroseconds { duration = CMTime(value: micros, timescale: 1_000_000) }
        let metadata = AVMetadataItem.items(fromContainer: file.metadataEntries)
        let common = AVMetadataItem.commonItems(of: metadata)
        return AssetContents(
            duration: duration, tracks: tracks, metadata: metadata, commonMetadata: common,
            creationDate: common.first { $0.keyString == AVMetadataKey.commonKeyCreationDate.rawValue },
            isPlayable: tracks.contains { $0.facts.isDecodable && $0.mediaType != .metadata })
    }

    /// Opens the asset's movie: its file, or for a URL of another scheme, the bytes its resource
    /// loader's delegate serves.
    func openMovie() throws -> MovieFile {
        guard let url = sourceURL else { throw AVError(.operationNotSupportedForAsset) }
        if !url.isFileURL, let loader = (self as? AVURLAsset)?.resourceLoader {
            guard loader.canLoad else {
                throw AVError(
                    .fileFormatNotRecognized,
                    userInfo: [
                        NSURLErrorKey: url,
                        NSLocalizedDescriptionKey: "\(url.absoluteString) is not a file, and the asset's resource loader has no delegate and queue to load it.",
                    ])
            }
            return try ResourceLoaderSource.open(url, loader: loader)
        }
        return try MovieFile.open(url)
    }

    /// The error that kept the asset's contents from loading, as it was thrown.
    var loadingError: (any Error)? {
        if case .failure(let error)? = currentContents() { return error }
        return nil
    }

    /// Returns whether the asset's contents are loaded (every key loads with them), and the error when they failed.
    open func statusOfValue(forKey key: String, error outError: NSErrorPointer) -> AVKeyValueStatus {
        switch currentContents() {
        case nil: return .unknown
        case .success?: return .loaded
        case .failure(let error)?:
            outError?.pointee = error as NSError
            return .failed
        }
    }

    /// Loads the asset's contents off the caller's thread, then calls the handler.
    open func loadValuesAsynchronously(forKeys keys: [String], completionHandler handler: (@Sendable () -> Void)? = nil) {
        if currentContents() != nil {
            if let handler { DispatchQueue.global().async(execute: handler) }
            return
        }
        DispatchQueue.global().async { [self] in
            _ = try? loadedContents()
            handler?()
        }
    }

    /// Cancels loading values: loading an asset's file is short, and completes.
    open func cancelLoading() {}

    // MARK: Properties, loaded synchronously

    /// The asset's duration; invalid when it cannot be read.
    open var duration: CMTime { (try? loadedContents().duration) ?? .invalid }
    /// The asset's metadata in every key space.
    open var metadata: [AVMetadataItem] { (try? loadedContents().metadata) ?? [] }
    /// The asset's metadata in the common key space.
    open var commonMetadata: [AVMetadataItem] { (try? loadedContents().commonMetadata) ?? [] }
    /// The date the asset was created, from its metadata.
    open var creationDate: AVMetadataItem? { (try? loadedContents().creationDate) ?? nil }
    /// Whether the asset can be played.
    open var isPlayable: Bool { (try? loadedContents().isPlayable) ?? false }
    /// Whether the asset's media data can be read by an asset reader.
    open var isReadable: Bool { (try? loadedContents()) != nil }
    /// Whether the asset can be exported.
    open var isExportable: Bool { (try? loadedContents()) != nil }
    /// Whether the asset can be inserted into a composition.
    open var isComposable: Bool { (try? loadedContents()) != nil }
    /// Whether the asset's duration and timing are precise: a movie's index gives them exactly.
    open var providesPreciseDurationAndTiming: Bool { true }
    /// The rate at which to play the asset.
    open var preferredRate: Float { 1 }
    /// The volume at which to play the asset.
    open var preferredVolume: Float { 1 }
    /// The transform to apply to the asset's visual content when it is displayed.
    open var preferredTransform: CGAffineTransform { .identity }

    /// The asset's track with an identifier.
    open func track(withTrackID trackID: CMPersistentTrackID) -> AVAssetTrack? { tracks.first { $0.trackID == trackID } }
    /// The asset's tracks whose media have a characteristic.
    open func tracks(withMediaCharacteristic mediaCharacteristic: AVMediaCharacteristic) -> [AVAssetTrack] {
        tracks.filter { $0.hasMediaCharacteristic(mediaCharacteristic) }
    }

    /// Loads the asset's tracks of a media type.
    public func loadTracks(withMediaType mediaType: AVMediaType) async throws -> [AVAssetTrack] {
        try await load(.tracks).filter { $0.mediaType == mediaType }
    }

    /// Loads the asset's tracks of a media type and passes them, or the error, to a handler.
    public func loadTracks(withMediaType mediaType: AVMediaType, completionHandler: @escaping @Sendable ([AVAssetTrack]?, (any Error)?) -> Void) {
        loadValuesAsynchronously(forKeys: ["tracks"]) { [self] in
            do { completionHandler(try loadedContents().tracks.filter { $0.mediaType == mediaType }, nil) } catch { completionHandler(nil, error) }
        }
    }

    /// Loads the asset's tracks whose media have a characteristic.
    public func loadTracks(withMediaCharacteristic mediaCharacteristic: AVMediaCharacteristic) async throws -> [AVAssetTrack] {
        try await load(.tracks).filter { $0.hasMediaCharacteristic(mediaCharacteristic) }
    }

    /// Loads the asset's tracks whose media have a characteristic and passes them, or the error, to a handler.
    public func loadTracks(
        withMediaCharacteristic mediaCharacteristic: AVMediaCharacteristic, completionHandler: @escaping @Sendable ([AVAssetTrack]?, (any Error)?) -> Void
    ) {
        loadValuesAsynchronously(forKeys: ["tracks"]) { [self] in
            do { completionHandler(try loadedContents().tracks.filter { $0.hasMediaCharacteristic(mediaCharacteristic) }, nil) } catch {
                completionHandler(nil, error)
            }
        }
    }

    /// Loads the asset's track with an identifier.
    public func loadTrack(withTrackID trackID: CMPersistentTrackID) async throws -> AVAssetTrack? {
        try await load(.tracks).first { $0.trackID == trackID }
    }

    /// Returns an identifier that no other tracks in the asset use.
    open func unusedTrackID() -> CMPersistentTrackID { Self.unused(among: tracks) }

    /// Loads an identifier that no other track in the asset uses.
    public func findUnusedTrackID() async throws -> CMPersistentTrackID { Self.unused(among: try await load(.tracks)) }

    /// Loads an identifier that no other track in the asset uses and passes it, or the error, to a handler.
    public func findUnusedTrackID(completionHandler: @escaping @Sendable (CMPersistentTrackID, (any Error)?) -> Void) {
        loadValuesAsynchronously(forKeys: ["tracks"]) { [self] in
            do { completionHandler(Self.unused(among: try loadedContents().tracks), nil) } catch { completionHandler(kCMPersistentTrackID_Invalid, error) }
        }
    }

    /// One more than the largest track ID in use, or the smallest positive one free when that is the largest there is.
    private static func unused(among tracks: [AVAssetTrack]) -> CMPersistentTrackID {
        let used = Set(tracks.map(\.trackID))
        if let largest = used.max(), largest < .max { return max(1, largest + 1) }
        return (1...CMPersistentTrackID.max).first { !used.contains($0) } ?? kCMPersistentTrackID_Invalid
    }

    /// A description such as `<AVURLAsset: 0x...> URL = file:///...`.
    open override var description: String { "<\(type(of: self)): \(sourceURL?.absoluteString ?? "no URL")>" }
}

/// A key for `AVURLAsset`'s options: whether the asset should give precise duration and timing.
public let AVURLAssetPreferPreciseDurationAndTimingKey = "AVURLAssetPreferPreciseDurationAndTimingKey"

/// What gives every asset its `tracks` and `tracks(withMediaType:)`: declared apart from the class, so that a composition's
/// list can be of its own track type, as Apple's Objective-C declarations make it (a Swift class
/// cannot override an array property with an array of a subclass).
public protocol _AssetTrackList: AnyObject {}

extension _AssetTrackList where Self: AVAsset {
    /// The asset's tracks.
    public var tracks: [AVAssetTrack] { (try? loadedContents().tracks) ?? [] }
    /// The asset's tracks of a media type.
    public func tracks(withMediaType mediaType: AVMediaType) -> [AVAssetTrack] { tracks.filter { $0.mediaType == mediaType } }
}

/// An asset that models media at a URL.
open class AVURLAsset: AVAsset, @unchecked Sendable {
    /// The URL of the asset's media.
    public let url: URL
    /// The resource loader that asks its delegate for the bytes of a URL of a custom scheme.
    public let resourceLoader = AVAssetResourceLoader()

    /// Creates an asset for the media at a URL; options such as `AVURLAssetPreferPreciseDurationAndTimingKey`
    /// are accepted (a movie file's timing is always precise).
    public init(url URL: URL, options: [String: Any]? = nil) {
        self.url = URL
        super.init(sourceURL: URL)
    }

    /// The file types an asset can be made from.
    open class func audiovisualTypes() -> [AVFileType] { [.mov, .mp4, .m4v, .m4a] }
    /// The MIME types an asset can be made from.
    open class func audiovisualMIMETypes() -> [String] { ["video/quicktime", "video/mp4", "video/x-m4v", "audio/mp4", "audio/x-m4a"] }
    /// Whether an asset can be made from media of a MIME type.
    open class func isPlayableExtendedMIMEType(_ extendedMIMEType: String) -> Bool {
        audiovisualMIMETypes().contains { extendedMIMEType.lowercased().hasPrefix($0) }
    }
}
