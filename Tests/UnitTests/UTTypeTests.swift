import AVFoundation
import UniformTypeIdentifiers
import XCTest

/// Uniform type identifiers as capture, player and export code uses them.
final class UTTypeTests: XCTestCase {
    func testMediaTypesHaveApplesIdentifiersExtensionsAndMIMETypes() {
        let expected: [(UTType, String, String, String)] = [
            (.jpeg, "public.jpeg", "jpeg", "image/jpeg"), (.png, "public.png", "png", "image/png"), (.tiff, "public.tiff", "tiff", "image/tiff"),
            (.heic, "public.heic", "heic", "image/heic"), (.heif, "public.heif-standard", "heif", "image/heif"),
            (.quickTimeMovie, "com.apple.quicktime-movie", "mov", "video/quicktime"), (.mpeg4Movie, "public.mpeg-4", "mp4", "video/mp4"),
            (.mpeg4Audio, "public.mpeg-4-audio", "m4a", "audio/mp4"), (.wav, "com.microsoft.waveform-audio", "wav", "audio/vnd.wave"),
            (.mp3, "public.mp3", "mp3", "audio/mpeg"),
        ]
        for (type, identifier, fileExtension, mime) in expected {
            XCTAssertEqual(type.identifier, identifier)
            XCTAssertEqual(type.preferredFilenameExtension, fileExtension, identifier)
            XCTAssertEqual(type.preferredMIMEType, mime, identifier)
            XCTAssertTrue(type.isDeclared && !type.isDynamic, identifier)
            XCTAssertEqual(UTType(identifier), type)
            XCTAssertEqual(UTType(mimeType: mime), type, mime)
        }
        for abstract in [UTType.image, .movie, .audio, .data] { XCTAssertNil(abstract.preferredFilenameExtension, abstract.identifier) }
        XCTAssertNil(UTType("org.example.unknown"), "an unknown identifier is no type")
        XCTAssertEqual("\(UTType.png)", "public.png")
    }

    func testExtensionsNameTheirTypesAndTheHierarchyHolds() throws {
        XCTAssertEqual(UTType(filenameExtension: "JPG"), .jpeg)
        XCTAssertEqual(UTType(filenameExtension: "mov"), .quickTimeMovie)
        XCTAssertTrue(try XCTUnwrap(UTType(filenameExtension: "heic")).conforms(to: .heif))
        XCTAssertTrue(UTType.heic.conforms(to: .image) && UTType.heic.conforms(to: .data) && UTType.heic.conforms(to: .item))
        XCTAssertTrue(UTType.quickTimeMovie.conforms(to: .movie) && UTType.quickTimeMovie.conforms(to: .audiovisualContent))
        XCTAssertFalse(UTType.quickTimeMovie.conforms(to: .image))
        XCTAssertTrue(UTType.mpeg4Audio.conforms(to: .audio) && UTType.wav.conforms(to: .audio) && !UTType.wav.conforms(to: .movie))
        XCTAssertTrue(UTType.image.isSupertype(of: .png) && UTType.png.isSubtype(of: .image))
        XCTAssertFalse(UTType.png.isSupertype(of: .png), "a type is not its own supertype")
        XCTAssertTrue(UTType.heic.supertypes.isSuperset(of: [.heif, .image, .data, .content, .item]))
        XCTAssertNil(UTType(filenameExtension: "png", conformingTo: .movie), "a PNG is no movie")
        let unknown = try XCTUnwrap(UTType(filenameExtension: "xyz"))
        XCTAssertTrue(unknown.isDynamic && !unknown.isDeclared && !unknown.isPublic)
        XCTAssertEqual(unknown.preferredFilenameExtension, "xyz")
        XCTAssertTrue(unknown.conforms(to: .data), "a dynamic type conforms to the supertype asked for")
    }

    func testFileTypesAndUTTypesRoundTrip() throws {
        for fileType in [AVFileType.mov, .mp4, .m4v, .m4a, .jpg, .heic, .tif, .wav, .aiff, .caf, .mp3] {
            let type = try XCTUnwrap(UTType(fileType.rawValue), fileType.rawValue)
            XCTAssertEqual(AVFileType(rawValue: type.identifier), fileType)
            XCTAssertEqual(UTType(filenameExtension: try XCTUnwrap(type.preferredFilenameExtension)), type, fileType.rawValue)
        }
    }

    func testAWriterSaysWhichFileTypesItWrites() {
        XCTAssertEqual(AVFileType.wav.rawValue, UTType.wav.identifier)
        XCTAssertEqual(AVFileType.caf.rawValue, "com.apple.coreaudio-format")
        XCTAssertEqual(AVFileType.heif.rawValue, "public.heif", "Apple's file type, not UTType.heif's public.heif-standard")
        let url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("never.wav")
        XCTAssertThrowsError(try AVAssetWriter(outputURL: url, fileType: .wav)) { error in
            XCTAssertTrue("\(error.localizedDescription)".contains(".mov, .mp4, .m4v or .m4a"), error.localizedDescription)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: url.path))
    }

    /// A URL takes a type's preferred extension, unless its name already has one of a type that
    /// conforms (puppy.jpg stays puppy.jpg for an image), or the type has none.
    func testURLsTakeATypesPreferredExtension() {
        let folder = URL(fileURLWithPath: "/tmp/clips")
        XCTAssertEqual(folder.appendingPathComponent("clip").appendingPathExtension(for: .quickTimeMovie).lastPathComponent, "clip.mov")
        XCTAssertEqual(folder.appendingPathComponent("puppy.jpg").appendingPathExtension(for: .image).lastPathComponent, "puppy.jpg")
        XCTAssertEqual(folder.appendingPathComponent("puppy.jpg").appendingPathExtension(for: .png).lastPathComponent, "puppy.jpg.png")
        XCTAssertEqual(folder.appendingPathComponent("notes").appendingPathExtension(for: .data).lastPathComponent, "notes", "no preferred extension")
        XCTAssertEqual(folder.appendingPathComponent("take 2", conformingTo: .mpeg4Movie).lastPathComponent, "take 2.mp4")
        var url = folder
        url.appendPathComponent("voice", conformingTo: .mpeg4Audio)
        XCTAssertEqual(url.path, "/tmp/clips/voice.m4a")
        var movie = folder.appendingPathComponent("export")
        movie.appendPathExtension(for: .quickTimeMovie)
        XCTAssertEqual(movie.lastPathComponent, "export.mov")
    }
}
