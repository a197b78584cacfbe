import CoreServices
import MobileCoreServices
import UniformTypeIdentifiers
import XCTest

/// Core Services' type identifier functions, as code written before UTType calls them.
final class UTTypeFunctionsTests: XCTestCase {
    func testTagsAndIdentifiersConvertBothWays() {
        XCTAssertEqual(UTTypeCreatePreferredIdentifierForTag(kUTTagClassFilenameExtension, "jpg" as CFString, nil)?.takeRetainedValue(), kUTTypeJPEG)
        XCTAssertEqual(UTTypeCreatePreferredIdentifierForTag(kUTTagClassMIMEType, "video/mp4" as CFString, nil)?.takeRetainedValue(), kUTTypeMPEG4)
        XCTAssertEqual(
            UTTypeCreatePreferredIdentifierForTag(kUTTagClassFilenameExtension, "m4a" as CFString, kUTTypeAudio)?.takeRetainedValue(),
            "com.apple.m4a-audio" as CFString, "the type that conforms to the one asked for")
        XCTAssertTrue(UTTypeConformsTo("com.apple.m4a-audio" as CFString, kUTTypeMPEG4Audio))
        XCTAssertNil(
            UTTypeCreatePreferredIdentifierForTag(kUTTagClassFilenameExtension, "jpg" as CFString, kUTTypeMovie), "a JPEG is no movie")
        XCTAssertNil(UTTypeCreatePreferredIdentifierForTag("public.unknown-class" as CFString, "jpg" as CFString, nil))
        XCTAssertEqual(UTTypeCopyPreferredTagWithClass(kUTTypeQuickTimeMovie, kUTTagClassFilenameExtension)?.takeRetainedValue(), "mov")
        XCTAssertEqual(UTTypeCopyPreferredTagWithClass(kUTTypeHEICForTests, kUTTagClassMIMEType)?.takeRetainedValue(), "image/heic")
        XCTAssertNil(UTTypeCopyPreferredTagWithClass(kUTTypeMovie, kUTTagClassFilenameExtension), "an abstract type has no extension")
    }

    func testAnUndeclaredTagGetsADynamicTypeThatKeepsIt() throws {
        let dynamic = try XCTUnwrap(UTTypeCreatePreferredIdentifierForTag(kUTTagClassFilenameExtension, "xyz" as CFString, nil)?.takeRetainedValue())
        XCTAssertTrue(UTTypeIsDynamic(dynamic))
        XCTAssertFalse(UTTypeIsDeclared(dynamic))
        XCTAssertEqual(UTTypeCopyPreferredTagWithClass(dynamic, kUTTagClassFilenameExtension)?.takeRetainedValue(), "xyz")
        XCTAssertNil(UTTypeCopyPreferredTagWithClass(dynamic, kUTTagClassMIMEType))
        XCTAssertTrue(UTTypeConformsTo(dynamic, kUTTypeData))
    }

    func testConformanceAndEquality() {
        XCTAssertTrue(UTTypeConformsTo(kUTTypeQuickTimeMovie, kUTTypeMovie))
        XCTAssertTrue(UTTypeConformsTo(kUTTypeJPEG, kUTTypeImage))
        XCTAssertTrue(UTTypeConformsTo(kUTTypeJPEG, kUTTypeData))
        XCTAssertFalse(UTTypeConformsTo(kUTTypeJPEG, kUTTypeAudio))
        XCTAssertTrue(UTTypeEqual(kUTTypeJPEG, "PUBLIC.JPEG" as CFString))
        XCTAssertTrue(UTTypeIsDeclared(kUTTypeMP3))
        XCTAssertEqual(kUTTypeWaveformAudio as String, UTType.wav.identifier, "the constants are UTType's identifiers")
    }

    /// HEIC's identifier, which Core Services never declared a constant for.
    private let kUTTypeHEICForTests: CFString = "public.heic"
}
