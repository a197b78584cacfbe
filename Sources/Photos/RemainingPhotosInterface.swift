// PhotoKit's API that is not implemented yet, so that parity is visible at a glance. Everything
// else here is what capture and camera-library code saves with.

// MARK: Fetching assets

// class PHAsset (fetchAssets(with:options:), fetchAssets(in:options:), mediaType, pixelWidth, ...), PHImageManager,
//     PHCachingImageManager, PHAssetResource and PHAssetResourceManager: the library is written, not read, apart from albums
// PHFetchOptions.sortDescriptors (key-value coding is not in swift-corelibs-foundation); predicates read keys of
//     PHAssetCollection only (title, localizedTitle, localIdentifier, estimatedAssetCount, startDate, endDate)

// MARK: Collections

// Smart albums and moments (fetchAssetCollections(with: .smartAlbum, ...) finds none: a folder tree keeps no such
//     groupings); PHCollectionList and folders of albums; PHAssetCollectionChangeRequest's deleteAssetCollections(_:),
//     removeAssets(_:), insertAssets(_:at:), init?(for:assets:); addAssets(_:) takes placeholders of assets the same
//     change block creates (an NSArray or a sequence), not existing PHAssets, and not `as NSFastEnumeration`
//     (swift-corelibs-foundation has no such protocol)
// NSPredicate(format:) reads comparisons, AND/OR/NOT and the common arguments; not MATCHES, IN, BETWEEN,
//     aggregates, key paths through collections or subqueries

// MARK: The library

// PHPhotoLibrary's change observers (register(_:), PHChange), availability observers, and the limited-library picker
