import XCTest
@testable import AVFoundation
@testable import CaptureDevices
@testable import FrameProcessing

/// Core Image's barcode descriptors as a metadata output's codes carry them: a QR code's version,
/// mask and level as read, a Data Matrix code's size, and codewords that parse back to the payload.
final class BarcodeDescriptorTests: XCTestCase {
    /// A binary PGM of `bitmap` printed at `scale` pixels a module on a light page.
    private func picture(_ bitmap: CodeBitmap, scale: Int) -> Data {
        let (width, height) = (bitmap.width * scale + 80, bitmap.height * scale + 80)
        var pixels = [UInt8](repeating: 230, count: width * height)
        for y in 0..<bitmap.height * scale {
            for x in 0..<bitmap.width * scale where bitmap.pixels[(y / scale) * bitmap.width + x / scale] < 128 {
                pixels[(y + 40) * width + x + 40] = 25
            }
        }
        return Data("P5\n\(width) \(height)\n255\n".utf8) + Data(pixels)
    }

    /// The bytes of a QR code's data codewords read as one 8-bit byte segment (mode 0100, then its count).
    private func byteSegment(_ codewords: Data, version: Int) -> [UInt8]? {
        let bits = codewords.flatMap { byte in (0..<8).map { (byte >> (7 - $0)) & 1 } }
        func number(_ start: Int, _ count: Int) -> Int { bits[start..<start + count].reduce(0) { $0 << 1 | Int($1) } }
        guard bits.count >= 12, number(0, 4) == 0b0100 else { return nil }
        let countBits = version <= 9 ? 8 : 16
        let count = number(4, countBits)
        guard bits.count >= 4 + countBits + count * 8 else { return nil }
        return (0..<count).map { UInt8(number(4 + countBits + $0 * 8, 8)) }
    }

    func testAQRCodeCarriesItsVersionMaskLevelAndCodewords() throws {
        let payload = "https://example.com/descriptor?q=1"
        let bitmap = try CodeBitmap(.qr, payload: payload)
        let code = try XCTUnwrap(AVCaptureMetadataOutput.linuxMachineReadableCodes(inImageData: picture(bitmap, scale: 4), types: [.qr]).first)
        let descriptor = try XCTUnwrap(code.descriptor as? CIQRCodeDescriptor, "\(String(describing: code.descriptor))")
        // A version v symbol is 17 + 4v modules a side.
        XCTAssertEqual(descriptor.symbolVersion, (Int(bitmap.symbolBounds.width) - 17) / 4)
        XCTAssertTrue((0...7).contains(descriptor.maskPattern))
        XCTAssertTrue([.levelL, .levelM, .levelQ, .levelH].contains(descriptor.errorCorrectionLevel))
        XCTAssertEqual(byteSegment(descriptor.errorCorrectedPayload, version: descriptor.symbolVersion), Array(payload.utf8))
        XCTAssertEqual(code.payloadData, Data(payload.utf8))
    }

    func testALargeQRCodeCountsItsBytesInSixteenBits() {
        let bytes = [UInt8](repeating: 0x41, count: 300)
        let codewords = SymbolCodewords.qrCode(bytes, version: 12)
        XCTAssertEqual(byteSegment(Data(codewords), version: 12), bytes)
        XCTAssertEqual(codewords.count, (4 + 16 + 300 * 8 + 4 + 7) / 8)
    }

    func testADataMatrixCodeCarriesItsSizeAndASCIICodewords() throws {
        let bitmap = try CodeBitmap(.dataMatrix, payload: "Data Matrix 2026")
        let code = try XCTUnwrap(AVCaptureMetadataOutput.linuxMachineReadableCodes(inImageData: picture(bitmap, scale: 5), types: [.dataMatrix]).first)
        let descriptor = try XCTUnwrap(code.descriptor as? CIDataMatrixCodeDescriptor)
        XCTAssertEqual(descriptor.rowCount, Int(bitmap.symbolBounds.height))
        XCTAssertEqual(descriptor.columnCount, Int(bitmap.symbolBounds.width))
        XCTAssertEqual(descriptor.eccVersion, .v200)
        // ASCII encodation: a character is its value plus one, a pair of digits 130 plus the pair's value.
        XCTAssertEqual(Array(descriptor.errorCorrectedPayload), Array("Data Matrix ".utf8).map { $0 + 1 } + [130 + 20, 130 + 26])
        XCTAssertEqual(SymbolCodewords.dataMatrix([0xE9]), [235, 0xE9 - 127], "a byte above 127 after Upper Shift")
    }

    func testOneDimensionalCodesHaveNoDescriptor() throws {
        let bitmap = try CodeBitmap(.ean13, payload: "4006381333931")
        let code = try XCTUnwrap(AVCaptureMetadataOutput.linuxMachineReadableCodes(inImageData: picture(bitmap, scale: 3), types: [.ean13]).first)
        XCTAssertNil(code.descriptor)
    }

    func testDescriptorsRefuseWhatTheirSpecificationsDoNotAllow() {
        let payload = Data([0x40, 0x10])
        XCTAssertNotNil(CIQRCodeDescriptor(payload: payload, symbolVersion: 40, maskPattern: 7, errorCorrectionLevel: .levelH))
        XCTAssertNil(CIQRCodeDescriptor(payload: payload, symbolVersion: 41, maskPattern: 0, errorCorrectionLevel: .levelL))
        XCTAssertNil(CIQRCodeDescriptor(payload: payload, symbolVersion: 1, maskPattern: 8, errorCorrectionLevel: .levelL))
        XCTAssertNotNil(CIDataMatrixCodeDescriptor(payload: payload, rowCount: 16, columnCount: 48, eccVersion: .v200))
        XCTAssertNil(CIDataMatrixCodeDescriptor(payload: payload, rowCount: 15, columnCount: 15, eccVersion: .v200), "ECC 200 sides are even")
        XCTAssertNotNil(CIAztecCodeDescriptor(payload: payload, isCompact: true, layerCount: 4, dataCodewordCount: 20))
        XCTAssertNil(CIAztecCodeDescriptor(payload: payload, isCompact: true, layerCount: 5, dataCodewordCount: 20), "compact codes have 1 to 4 layers")
        XCTAssertNotNil(CIPDF417CodeDescriptor(payload: payload, isCompact: false, rowCount: 90, columnCount: 30))
        XCTAssertNil(CIPDF417CodeDescriptor(payload: payload, isCompact: false, rowCount: 2, columnCount: 5))
        XCTAssertEqual(CIQRCodeDescriptor.ErrorCorrectionLevel.levelQ.rawValue, Int(UInt8(ascii: "Q")))
    }

    func testADescriptorCopiesAndArchivesAsItself() throws {
        let descriptor = try XCTUnwrap(CIQRCodeDescriptor(payload: Data([0x40, 0x21, 0x40]), symbolVersion: 3, maskPattern: 5, errorCorrectionLevel: .levelM))
        XCTAssertEqual(descriptor.copy() as? CIQRCodeDescriptor, descriptor)
        let archive = try NSKeyedArchiver.archivedData(withRootObject: descriptor, requiringSecureCoding: true)
        let restored = try XCTUnwrap(NSKeyedUnarchiver.unarchivedObject(ofClass: CIQRCodeDescriptor.self, from: archive))
        XCTAssertEqual(restored, descriptor)
        XCTAssertNotEqual(restored, CIQRCodeDescriptor(payload: Data([0x40, 0x21, 0x40]), symbolVersion: 3, maskPattern: 4, errorCorrectionLevel: .levelM))
    }
}
