import CoreGraphics
import CoreImage
import TestSupport
import XCTest

/// A libvips that cannot be loaded: rendering gives nothing and says why, files are not left
/// behind, and making images and filters (recipes) still works. Checked in a child process whose
/// library path finds a broken libvips first, since a process loads libvips once.
final class MissingLibvipsTests: XCTestCase {
    static let childVariable = "COREIMAGE_TESTS_BROKEN_LIBVIPS"

    func testABrokenLibvipsIsAClearErrorAndNoFile() throws {
        try XCTSkipIf(ProcessInfo.processInfo.environment[Self.childVariable] != nil)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("broken-libvips-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = FileManager.default.createFile(atPath: folder.appendingPathComponent("libvips.so.42").path, contents: Data())
        let result = runCommand([
            "/usr/bin/env", "LD_LIBRARY_PATH=\(folder.path)", "\(Self.childVariable)=\(folder.path)", CommandLine.arguments[0],
            "CoreImageTests.MissingLibvipsTests/testRenderingWithoutLibvipsSaysWhy",
        ])
        XCTAssertEqual(result.status, 0, result.text)
        XCTAssertTrue(result.text.contains("Executed 1 test, with 0 failures"), result.text)
    }

    /// Run by the test above, in the child process.
    func testRenderingWithoutLibvipsSaysWhy() throws {
        guard let folder = ProcessInfo.processInfo.environment[Self.childVariable] else {
            throw XCTSkip("run by testABrokenLibvipsIsAClearErrorAndNoFile, in a process of its own")
        }
        let image = CIImage(cvPixelBuffer: Pictures.quadrants()).applyingFilter("CISepiaTone")
        XCTAssertEqual(image.extent, CGRect(x: 0, y: 0, width: 64, height: 48), "recipes need no libvips")
        XCTAssertNil(CIContext().createCGImage(image, from: image.extent))
        let problem = try XCTUnwrap(CIContext.lastRenderingProblem)
        XCTAssertTrue(problem.contains("libvips.so.42") && problem.contains("libvips42"), problem)
        let file = URL(fileURLWithPath: folder).appendingPathComponent("never.jpg")
        XCTAssertThrowsError(try CIContext().writeJPEGRepresentation(of: image, to: file, colorSpace: CGColorSpaceCreateDeviceRGB())) { error in
            XCTAssertTrue("\(error)".contains("libvips42"), "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: file.path))
    }
}
