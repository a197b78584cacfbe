import Foundation
import Photos
import XCTest

/// Albums as folders of the Pictures and Videos folders; each test points HOME at a folder of its own.
final class AlbumTests: XCTestCase {
    private var library: LibraryHome!
    private var home: URL { library.url }
    private let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10]) + Data("JFIF\0 rest of a photo".utf8)
    private let movie = Data([0, 0, 0, 20]) + Data("ftypqt  \0\0\0\0qt  movie bytes".utf8)

    override func setUpWithError() throws { library = try LibraryHome("albums") }

    override func tearDownWithError() throws { library.restore() }

    private func files(in folder: String) -> [String] { library.files(in: folder) }

    private func album(titled title: String) -> PHAssetCollection? {
        let options = PHFetchOptions()
        options.predicate = NSPredicate(format: "title = %@", title)
        return PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: options).firstObject
    }

    func testAnAlbumIsMadeFoundAndFilledWithWhatTheChangeCreates() throws {
        XCTAssertNil(album(titled: "Trips"))
        var created: PHObjectPlaceholder?
        try PHPhotoLibrary.shared().performChangesAndWait {
            created = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Trips").placeholderForCreatedAssetCollection
        }
        let trips = try XCTUnwrap(album(titled: "Trips"))
        XCTAssertEqual(created?.localIdentifier, trips.localIdentifier)
        XCTAssertEqual(trips.localizedTitle, "Trips")
        XCTAssertEqual(trips.assetCollectionType, .album)
        XCTAssertEqual(trips.assetCollectionSubtype, .albumRegular)
        XCTAssertEqual(trips.estimatedAssetCount, 0)
        XCTAssertEqual(PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [trips.localIdentifier], options: nil).firstObject, trips)
        XCTAssertEqual(PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: .any, options: nil).count, 0, "no smart albums")

        // A photo and a movie created and added in one change go into the album's folders.
        let photoFile = home.appendingPathComponent("photo.jpg"), movieFile = home.appendingPathComponent("clip.mov")
        try jpeg.write(to: photoFile)
        try movie.write(to: movieFile)
        try PHPhotoLibrary.shared().performChangesAndWait {
            let photo = PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: photoFile)
            let clip = PHAssetChangeRequest.creationRequestForAssetFromVideo(atFileURL: movieFile)
            let request = PHAssetCollectionChangeRequest(for: trips)
            request?.addAssets([photo!.placeholderForCreatedAsset!, clip!.placeholderForCreatedAsset!] as NSArray)
        }
        XCTAssertEqual(files(in: "Pictures/Trips").map { ($0 as NSString).pathExtension }, ["jpg"])
        XCTAssertEqual(files(in: "Videos/Trips").map { ($0 as NSString).pathExtension }, ["mov"])
        XCTAssertEqual(files(in: "Pictures"), ["Trips"], "album assets live in the album's folder")
        XCTAssertEqual(trips.estimatedAssetCount, 2)

        // Several albums: found in title order, by predicate; an asset added to two is in both.
        try PHPhotoLibrary.shared().performChangesAndWait {
            let home = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Home")
            let work = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Work")
            let photo = PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: photoFile)!
            home.addAssets([photo.placeholderForCreatedAsset!])
            work.addAssets([photo.placeholderForCreatedAsset!])
        }
        let all = PHAssetCollection.fetchAssetCollections(with: .album, subtype: .albumRegular, options: nil)
        var titles: [String] = []
        all.enumerateObjects { collection, _, _ in titles.append(collection.localizedTitle ?? "") }
        XCTAssertEqual(titles, ["Home", "Trips", "Work"])
        XCTAssertEqual(files(in: "Pictures/Home").count, 1)
        XCTAssertEqual(files(in: "Pictures/Work"), files(in: "Pictures/Home"), "the same photo in both")
        let inHome = home.appendingPathComponent("Pictures/Home").appendingPathComponent(files(in: "Pictures/Home")[0])
        let inWork = home.appendingPathComponent("Pictures/Work").appendingPathComponent(files(in: "Pictures/Work")[0])
        XCTAssertEqual(try Data(contentsOf: inWork), try Data(contentsOf: inHome))
        let options = PHFetchOptions()
        options.predicate = NSPredicate(format: "title BEGINSWITH[c] %@ OR estimatedAssetCount > 1", "w")
        XCTAssertEqual(PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: options).count, 2)
        options.fetchLimit = 1
        XCTAssertEqual(PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: options).count, 1)

        // Renaming an album renames its folders.
        try PHPhotoLibrary.shared().performChangesAndWait { PHAssetCollectionChangeRequest(for: trips)?.title = "Travels" }
        XCTAssertNil(album(titled: "Trips"))
        XCTAssertEqual(album(titled: "Travels")?.estimatedAssetCount, 2)
    }

    func testBadAlbumChangesFailWholeAndLeaveNothing() throws {
        // A title that cannot be a folder's name.
        XCTAssertThrowsError(
            try PHPhotoLibrary.shared().performChangesAndWait {
                _ = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "a/b")
            })
        // Something that is not an asset the change creates, with a new album and a photo: all or none.
        let photoFile = home.appendingPathComponent("photo.jpg")
        try jpeg.write(to: photoFile)
        XCTAssertThrowsError(
            try PHPhotoLibrary.shared().performChangesAndWait {
                let album = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Mixed")
                let photo = PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: photoFile)!
                album.addAssets([photo.placeholderForCreatedAsset!, "not an asset"] as NSArray)
            }
        ) { error in
            XCTAssertEqual((error as? PHPhotosError)?.code, .changeNotSupported)
        }
        XCTAssertEqual(files(in: "Pictures"), [], "neither the album nor the photo was made")
        XCTAssertEqual(PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil).count, 0)
    }
}
