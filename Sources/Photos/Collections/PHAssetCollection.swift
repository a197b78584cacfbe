import Foundation

/// A Photos asset grouping, such as an album.
///
/// On Linux an album is a folder named by its title in the user's Pictures folder (photos) and
/// Videos folder (movies), as `UserFolders` finds them; it holds the files directly in those
/// folders. Smart albums and moments are the library's own groupings, which a folder tree does not
/// keep: fetching them finds none.
open class PHAssetCollection: PHCollection, @unchecked Sendable {
    private let title: String
    private let folders: UserFolders

    init(title: String, folders: UserFolders) {
        self.title = title
        self.folders = folders
        super.init(localIdentifier: Self.identifier(title: title, folders: folders))
    }

    /// The identifier of the album of a title: the path of its folder in the Pictures folder.
    static func identifier(title: String, folders: UserFolders) -> String { folders.pictures.appendingPathComponent(title, isDirectory: true).path }

    /// The album's title.
    open override var localizedTitle: String? { title }
    /// Albums hold assets.
    open override var canContainAssets: Bool { true }
    /// The kind of collection: an album.
    open var assetCollectionType: PHAssetCollectionType { .album }
    /// The collection's subtype: an album an app or the user made.
    open var assetCollectionSubtype: PHAssetCollectionSubtype { .albumRegular }
    /// The number of assets in the album: its photo and movie files.
    open var estimatedAssetCount: Int { files.count }
    /// The earliest date of the album's files.
    open var startDate: Date? { dates.min() }
    /// The latest date of the album's files.
    open var endDate: Date? { dates.max() }

    /// The album's folders: in the Pictures and Videos folders.
    var albumFolders: [URL] { [folders.pictures, folders.videos].map { $0.appendingPathComponent(title, isDirectory: true) } }

    /// The album's files (not hidden, not being written).
    var files: [URL] {
        albumFolders.flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: [.isRegularFileKey])) ?? []).filter {
                !$0.lastPathComponent.hasPrefix(".") && ((try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) ?? false)
            }
        }
    }

    private var dates: [Date] { files.compactMap { try? $0.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate } }

    // MARK: Fetching

    /// Fetches the collections of a type and subtype that satisfy the options' predicate, by title.
    open class func fetchAssetCollections(with type: PHAssetCollectionType, subtype: PHAssetCollectionSubtype, options: PHFetchOptions?)
        -> PHFetchResult<PHAssetCollection>
    {
        guard type == .album, subtype == .any || subtype == .albumRegular else { return PHFetchResult(objects: []) }
        return fetch(allAlbums(in: .current()), options: options)
    }

    /// Fetches the collections with the given identifiers, in their order.
    open class func fetchAssetCollections(withLocalIdentifiers identifiers: [String], options: PHFetchOptions?) -> PHFetchResult<PHAssetCollection> {
        let albums = allAlbums(in: .current())
        return fetch(identifiers.compactMap { identifier in albums.first { $0.localIdentifier == identifier } }, options: options)
    }

    /// The albums: the folders in the Pictures and Videos folders, by title, in title order.
    static func allAlbums(in folders: UserFolders) -> [PHAssetCollection] {
        var titles = Set<String>()
        for folder in [folders.pictures, folders.videos] {
            for entry in (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: [.isDirectoryKey])) ?? [] {
                guard !entry.lastPathComponent.hasPrefix("."), (try? entry.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true else { continue }
                titles.insert(entry.lastPathComponent)
            }
        }
        return titles.sorted().map { PHAssetCollection(title: $0, folders: folders) }
    }

    private static func fetch(_ albums: [PHAssetCollection], options: PHFetchOptions?) -> PHFetchResult<PHAssetCollection> {
        var chosen = albums.filter { options?.predicate?.evaluate(with: $0) ?? true }
        if let limit = options?.fetchLimit, limit > 0 { chosen = Array(chosen.prefix(limit)) }
        return PHFetchResult(objects: chosen)
    }
}

extension PHAssetCollection: PredicateKeyValueReading {
    package func predicateValue(forKeyPath keyPath: String) -> Any? {
        switch keyPath {
        case "title", "localizedTitle": title
        case "localIdentifier": localIdentifier
        case "estimatedAssetCount": estimatedAssetCount
        case "startDate": startDate
        case "endDate": endDate
        default: nil
        }
    }
}
