import Foundation
@testable import Photos
import XCTest

/// The library is the user's XDG folders; each test points HOME and XDG_CONFIG_HOME at a folder of its own.
final class PHPhotoLibraryTests: XCTestCase {
    private var library: LibraryHome!
    private var home: URL { library.url }
    private let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10]) + Data("JFIF\0 rest of a photo".utf8)
    private let movie = Data([0, 0, 0, 20]) + Data("ftypqt  \0\0\0\0qt  movie bytes".utf8)

    override func setUpWithError() throws { library = try LibraryHome("photos") }

    override func tearDownWithError() throws { library.restore() }

    private func files(in folder: String) -> [String] { library.files(in: folder) }

    private func save(_ data: Data, type: PHAssetResourceType = .photo, name: String? = nil) throws -> String? {
        var placeholder: PHObjectPlaceholder?
        try PHPhotoLibrary.shared().performChangesAndWait {
            let request = PHAssetCreationRequest.forAsset()
            let options = PHAssetResourceCreationOptions()
            options.originalFilename = name
            request.addResource(with: type, data: data, options: options)
            placeholder = request.placeholderForCreatedAsset
        }
        return placeholder?.localIdentifier
    }

    /// Waits up to 10 s for the Pictures folder to hold exactly `names`.
    private func waitForPictures(_ names: [String]) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while files(in: "Pictures") != names, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        return files(in: "Pictures") == names
    }

    func testAProxyIsSavedAsItIsAndReplacedByItsFinishedPhotoNeverOverAnotherFile() throws {
        XCTAssertTrue(PHAssetCreationRequest.supportsAssetResourceTypes([NSNumber(value: PHAssetResourceType.photoProxy.rawValue)]))
        // A proxy nothing waits for stays the photo.
        _ = try save(jpeg + Data([9]), type: .photoProxy, name: "alone.jpg")
        XCTAssertEqual(try Data(contentsOf: home.appendingPathComponent("Pictures/alone.jpg")), jpeg + Data([9]))
        // A proxy whose pixels wait is finished in the background: a HEIC under its name, the proxy gone;
        // a HEIC of that name already there is left alone and the finished photo gets a number.
        let heic = Data([0, 0, 0, 24]) + Data("ftypheic\0\0\0\0mif1heic final".utf8)
        try FileManager.default.createDirectory(at: home.appendingPathComponent("Pictures"), withIntermediateDirectories: true)
        try Data("someone else's".utf8).write(to: home.appendingPathComponent("Pictures/shot.heic"))
        let proxy = jpeg + Data([7])
        DeferredPhotoProcessing.register(proxy: proxy) { (heic, "heic") }
        _ = try save(proxy, type: .photoProxy, name: "shot.jpg")
        XCTAssertTrue(waitForPictures(["alone.jpg", "shot 2.heic", "shot.heic"]), "\(files(in: "Pictures"))")
        XCTAssertEqual(try Data(contentsOf: home.appendingPathComponent("Pictures/shot 2.heic")), heic)
        XCTAssertEqual(try Data(contentsOf: home.appendingPathComponent("Pictures/shot.heic")), Data("someone else's".utf8))
        XCTAssertNil(DeferredPhotoProcessing.take(proxy: proxy), "taken once")
        // A finished photo of the proxy's own type is written over the proxy.
        let better = jpeg + Data("better".utf8)
        DeferredPhotoProcessing.register(proxy: jpeg + Data([8])) { (better, "jpg") }
        _ = try save(jpeg + Data([8]), type: .photoProxy, name: "same.jpg")
        let deadline = Date().addingTimeInterval(10)
        while (try? Data(contentsOf: home.appendingPathComponent("Pictures/same.jpg"))) != better, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        XCTAssertEqual(try Data(contentsOf: home.appendingPathComponent("Pictures/same.jpg")), better)
        // Only the newest proxies wait.
        for index in 0..<(DeferredPhotoProcessing.capacity + 2) { DeferredPhotoProcessing.register(proxy: Data([UInt8(index)])) { (Data(), "jpg") } }
        XCTAssertEqual(DeferredPhotoProcessing.pending, DeferredPhotoProcessing.capacity)
        XCTAssertNil(DeferredPhotoProcessing.take(proxy: Data([0])), "the oldest were let go of")
        XCTAssertNotNil(DeferredPhotoProcessing.take(proxy: Data([UInt8(DeferredPhotoProcessing.capacity + 1)])))
    }

    func testAPhotoGoesIntoThePicturesFolderTheUserDirsFileNamesWithItsBytesExactly() throws {
        let config = home.appendingPathComponent("conf", isDirectory: true)
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try "# user dirs\nXDG_PICTURES_DIR=\"$HOME/Bilder\"\nXDG_VIDEOS_DIR=\"\(home.path)/Filme\"\n".write(
            to: config.appendingPathComponent("user-dirs.dirs"), atomically: true, encoding: .utf8)
        setenv("XDG_CONFIG_HOME", config.path, 1)
        let identifier = try save(jpeg, name: "beach.jpg")
        XCTAssertEqual(files(in: "Bilder"), ["beach.jpg"])
        XCTAssertEqual(identifier, home.appendingPathComponent("Bilder/beach.jpg").path, "the placeholder names the file once the change is made")
        XCTAssertEqual(try Data(contentsOf: home.appendingPathComponent("Bilder/beach.jpg")), jpeg)
        _ = try save(movie, type: .video, name: "clip.mov")
        XCTAssertEqual(files(in: "Filme"), ["clip.mov"])
        XCTAssertTrue(files(in: "Pictures").isEmpty)
    }

    func testWithoutAUserDirsFileThePicturesAndVideosFoldersInHomeAreMade() throws {
        _ = try save(jpeg)
        let pictures = files(in: "Pictures")
        XCTAssertEqual(pictures.count, 1)
        XCTAssertTrue(pictures[0].hasPrefix("IMG_") && pictures[0].hasSuffix(".jpg"), pictures[0])
        _ = try save(movie, type: .video)
        XCTAssertEqual(files(in: "Videos").count, 1)
        XCTAssertTrue(files(in: "Videos")[0].hasSuffix(".mov"))
    }

    func testAFileThatExistsIsNeverOverwrittenTheNewOneGetsANumber() throws {
        _ = try save(jpeg, name: "shot.jpg")
        _ = try save(jpeg + Data([1]), name: "shot.jpg")
        _ = try save(jpeg + Data([2]), name: "shot.jpg")
        XCTAssertEqual(files(in: "Pictures"), ["shot 2.jpg", "shot 3.jpg", "shot.jpg"])
        XCTAssertEqual(try Data(contentsOf: home.appendingPathComponent("Pictures/shot.jpg")), jpeg)
        XCTAssertEqual(try Data(contentsOf: home.appendingPathComponent("Pictures/shot 3.jpg")), jpeg + Data([2]))
    }

    func testALivePhotosStillAndMovieShareOneBaseNameAndAMovedMovieLeavesItsPlace() throws {
        let movieURL = home.appendingPathComponent("companion.mov")
        try movie.write(to: movieURL)
        // A photo of the same name already exists: both files move on to the next free base name.
        try FileManager.default.createDirectory(at: home.appendingPathComponent("Pictures"), withIntermediateDirectories: true)
        try Data().write(to: home.appendingPathComponent("Pictures/live.mov"))
        let done = expectation(description: "saved")
        PHPhotoLibrary.shared().performChanges(
            {
                let request = PHAssetCreationRequest.forAsset()
                let photoOptions = PHAssetResourceCreationOptions()
                photoOptions.originalFilename = "live.jpg"
                request.addResource(with: .photo, data: self.jpeg, options: photoOptions)
                let movieOptions = PHAssetResourceCreationOptions()
                movieOptions.shouldMoveFile = true
                request.addResource(with: .pairedVideo, fileURL: movieURL, options: movieOptions)
            },
            completionHandler: { success, error in
                XCTAssertTrue(success)
                XCTAssertNil(error)
                done.fulfill()
            })
        wait(for: [done], timeout: 10)
        XCTAssertEqual(files(in: "Pictures"), ["live 2.jpg", "live 2.mov", "live.mov"])
        XCTAssertEqual(try Data(contentsOf: home.appendingPathComponent("Pictures/live 2.mov")), movie)
        XCTAssertFalse(FileManager.default.fileExists(atPath: movieURL.path), "shouldMoveFile moves the movie")
    }

    func testACopiedVideoStaysWhereItWasAndThePlaceholderNamesTheNewFile() async throws {
        let movieURL = home.appendingPathComponent("take.mov")
        try movie.write(to: movieURL)
        let placeholder = LockedBox<PHObjectPlaceholder?>(nil)
        try await PHPhotoLibrary.shared().performChanges {
            placeholder.value = PHAssetChangeRequest.creationRequestForAssetFromVideo(atFileURL: movieURL)?.placeholderForCreatedAsset
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: movieURL.path))
        let saved = try XCTUnwrap(placeholder.value?.localIdentifier)
        XCTAssertTrue(saved.hasPrefix(home.appendingPathComponent("Videos").path), saved)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: saved)), movie)
    }

    func testDataThatIsNotAPhotoIsRefusedAndNothingIsWritten() throws {
        XCTAssertThrowsError(try save(Data("not a picture".utf8))) { error in
            XCTAssertEqual((error as? PHPhotosError)?.code, .invalidResource)
            XCTAssertEqual((error as NSError).domain, PHPhotosErrorDomain)
        }
        XCTAssertThrowsError(try save(jpeg, type: .video)) { error in
            XCTAssertEqual((error as? PHPhotosError)?.code, .invalidResource)
        }
        XCTAssertTrue(files(in: "Pictures").isEmpty)
        XCTAssertTrue(files(in: "Videos").isEmpty)
    }

    func testAChangeBlockIsWrittenAllOrNoneAndAMovedFileIsPutBack() throws {
        let movieURL = home.appendingPathComponent("first.mov")
        try movie.write(to: movieURL)
        XCTAssertThrowsError(
            try PHPhotoLibrary.shared().performChangesAndWait {
                let good = PHAssetCreationRequest.forAsset()
                good.addResource(with: .photo, data: self.jpeg, options: nil)
                let options = PHAssetResourceCreationOptions()
                options.shouldMoveFile = true
                good.addResource(with: .pairedVideo, fileURL: movieURL, options: options)
                let missing = PHAssetCreationRequest.forAsset()
                missing.addResource(with: .photo, fileURL: self.home.appendingPathComponent("nowhere.jpg"), options: nil)
            }
        ) { error in
            XCTAssertEqual((error as? PHPhotosError)?.code, .missingResource)
        }
        XCTAssertTrue(files(in: "Pictures").isEmpty, "\(files(in: "Pictures"))")
        XCTAssertEqual(try Data(contentsOf: movieURL), movie, "the moved movie is back where it was")
    }

    func testAPicturesFolderThatCannotBeMadeIsAnError() throws {
        try Data("a file".utf8).write(to: home.appendingPathComponent("Pictures"))
        XCTAssertThrowsError(try save(jpeg)) { error in
            XCTAssertEqual((error as? PHPhotosError)?.code, .libraryVolumeOffline)
        }
    }

    func testTheUsersOwnFoldersNeedNoGrant() async {
        XCTAssertEqual(PHPhotoLibrary.authorizationStatus(for: .addOnly), .authorized)
        let status = await PHPhotoLibrary.requestAuthorization(for: .readWrite)
        XCTAssertEqual(status, .authorized)
        XCTAssertTrue(PHAssetCreationRequest.supportsAssetResourceTypes([NSNumber(value: 1), NSNumber(value: 9)]))
        XCTAssertFalse(PHAssetCreationRequest.supportsAssetResourceTypes([NSNumber(value: 1), NSNumber(value: 1)]))
    }
}

/// A value a change block sets and the test reads afterwards.
final class LockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
