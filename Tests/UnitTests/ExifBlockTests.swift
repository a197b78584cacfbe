import CaptureDevices
import FrameProcessing
import XCTest

/// The EXIF block builder and its placement in JPEG files.
final class ExifBlockTests: XCTestCase {
    private func block(make: String) -> Data {
        let block = ExifBlock()
        block.set(0x010F, in: .image, ascii: make)
        block.set(0x829A, in: .exif, rationals: [1.0 / 120])
        return block.data()!
    }

    func testABlockStartsWithTheExifHeaderAndATIFFStructure() {
        let data = block(make: "Maker")
        XCTAssertEqual(Array(data.prefix(8)), Array("Exif\0\0II".utf8), "Intel byte order")
    }

    func testInsertingReplacesAnEarlierBlockAndKeepsTheImageBytes() throws {
        // SOI, a JFIF APP0, then a stand-in for the rest of the file.
        let jfif: [UInt8] = [0xFF, 0xE0, 0x00, 0x06] + Array("JFIF".utf8)
        let body: [UInt8] = [0xFF, 0xDB, 0x00, 0x03, 0x01, 0xFF, 0xDA, 0x00, 0x02, 0x11, 0x22, 0xFF, 0xD9]
        let jpeg = Data([0xFF, 0xD8] + jfif + body)
        let once = try XCTUnwrap(jpeg.insertingJPEGExif(block(make: "First")))
        let twice = try XCTUnwrap(once.insertingJPEGExif(block(make: "Second")))
        XCTAssertEqual(Array(twice.prefix(2 + jfif.count)), [0xFF, 0xD8] + jfif, "JFIF's APP0 stays first")
        XCTAssertLessThan(twice.count, once.count + 8, "the second block replaced the first rather than joining it")
        XCTAssertNotNil(twice.range(of: Data("Second".utf8)))
        XCTAssertNil(twice.range(of: Data("First".utf8)))
        XCTAssertEqual(Array(twice.suffix(body.count)), body, "the image data is untouched")
        XCTAssertNil(Data("not a jpeg".utf8).insertingJPEGExif(block(make: "x")))
    }

    func testExposureTimesAreWrittenAsOneOverN() {
        XCTAssertTrue(ExifBlock.rational(1.0 / 120) == (1, 120))
        XCTAssertTrue(ExifBlock.rational(2.4) == (12, 5))
        XCTAssertTrue(ExifBlock.rational(0) == (0, 1))
    }
}
