import VideoToolbox
import XCTest

/// Pixel transfer and rotation sessions as streaming and editing code uses them: formats
/// converted, pictures scaled by each scaling mode, turned and flipped as Apple's properties say,
/// images made from buffers, and every misuse answered with Apple's error.
final class PixelSessionTests: XCTestCase {
    private func buffer(_ width: Int, _ height: Int, _ format: OSType = kCVPixelFormatType_32BGRA) throws -> CVPixelBuffer {
        var made: CVPixelBuffer?
        XCTAssertEqual(CVPixelBufferCreate(nil, width, height, format, nil, &made), kCVReturnSuccess)
        return try XCTUnwrap(made)
    }

    /// A BGRA buffer whose pixel at (x, y) is `colour(x, y)`, as 0xAARRGGBB.
    private func painted(_ width: Int, _ height: Int, _ colour: (Int, Int) -> UInt32) throws -> CVPixelBuffer {
        let made = try buffer(width, height)
        CVPixelBufferLockBaseAddress(made, [])
        defer { CVPixelBufferUnlockBaseAddress(made, []) }
        let base = try XCTUnwrap(CVPixelBufferGetBaseAddress(made)), stride = CVPixelBufferGetBytesPerRow(made)
        for y in 0..<height {
            for x in 0..<width { (base + y * stride + x * 4).storeBytes(of: colour(x, y), as: UInt32.self) }
        }
        return made
    }

    /// The BGRA pixel at (x, y), as 0xAARRGGBB.
    private func pixel(_ buffer: CVPixelBuffer, _ x: Int, _ y: Int) -> UInt32 {
        CVPixelBufferLockBaseAddress(buffer, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
        return (CVPixelBufferGetBaseAddress(buffer)! + y * CVPixelBufferGetBytesPerRow(buffer) + x * 4).load(as: UInt32.self)
    }

    /// The luma of a bi-planar 4:2:0 buffer at (x, y).
    private func luma(_ buffer: CVPixelBuffer, _ x: Int, _ y: Int) -> Int {
        CVPixelBufferLockBaseAddress(buffer, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
        return Int((CVPixelBufferGetBaseAddressOfPlane(buffer, 0)! + y * CVPixelBufferGetBytesPerRowOfPlane(buffer, 0) + x).load(as: UInt8.self))
    }

    private func transferSession() throws -> VTPixelTransferSession {
        var session: VTPixelTransferSession?
        XCTAssertEqual(VTPixelTransferSessionCreate(allocator: nil, pixelTransferSessionOut: &session), noErr)
        return try XCTUnwrap(session)
    }

    private static let red: UInt32 = 0xFFFF_0000, blue: UInt32 = 0xFF00_00FF, white: UInt32 = 0xFFFF_FFFF, black: UInt32 = 0xFF00_0000

    /// Whether two BGRA pixels are within `tolerance` in each channel.
    private func near(_ a: UInt32, _ b: UInt32, _ tolerance: Int = 6) -> Bool {
        (0..<4).allSatisfy { byte in
            let shift = UInt32(byte * 8)
            let (x, y) = (Int((a >> shift) & 0xFF), Int((b >> shift) & 0xFF))
            return abs(x - y) <= tolerance
        }
    }

    func testATransferConvertsAndScalesTheWholePictureAndCarriesItsColour() throws {
        let source = try painted(64, 48) { x, _ in x < 32 ? Self.red : Self.blue }
        CVBufferSetAttachment(source, kCVImageBufferYCbCrMatrixKey, kCVImageBufferYCbCrMatrix_ITU_R_709_2, .shouldPropagate)
        let destination = try buffer(32, 24, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange)
        let session = try transferSession()
        XCTAssertEqual(VTPixelTransferSessionTransferImage(session, from: source, to: destination), noErr)
        // Video-range luma of pure red and pure blue (BT.601): 81 and 41.
        XCTAssertEqual(Double(luma(destination, 4, 12)), 81, accuracy: 5, "the left half is red")
        XCTAssertEqual(Double(luma(destination, 28, 12)), 41, accuracy: 5, "the right half is blue")
        XCTAssertEqual(CVBufferCopyAttachment(destination, kCVImageBufferYCbCrMatrixKey, nil) as? String, kCVImageBufferYCbCrMatrix_ITU_R_709_2 as String)
        // And back to BGRA, at four times the size.
        let back = try buffer(128, 96)
        XCTAssertEqual(VTPixelTransferSessionTransferImage(session, from: destination, to: back), noErr)
        XCTAssertTrue(near(pixel(back, 10, 50), Self.red, 40), String(pixel(back, 10, 50), radix: 16))
        XCTAssertTrue(near(pixel(back, 120, 50), Self.blue, 40), String(pixel(back, 120, 50), radix: 16))
    }

    func testLetterboxKeepsTheAspectWithBlackBarsAndTrimFillsWithTheMiddle() throws {
        // A 2:1 picture: red, white in the middle half, blue.
        let wide = try painted(64, 32) { x, _ in x < 16 ? Self.red : x >= 48 ? Self.blue : Self.white }
        let session = try transferSession()
        XCTAssertEqual(VTSessionSetProperty(session, key: kVTPixelTransferPropertyKey_ScalingMode, value: kVTScalingMode_Letterbox), noErr)
        let square = try painted(64, 64) { _, _ in 0xFF12_3456 }
        XCTAssertEqual(VTPixelTransferSessionTransferImage(session, from: wide, to: square), noErr)
        XCTAssertEqual(pixel(square, 32, 4), Self.black, "a bar above")
        XCTAssertEqual(pixel(square, 32, 60), Self.black, "a bar below")
        XCTAssertTrue(near(pixel(square, 32, 32), Self.white), "the picture between")
        XCTAssertTrue(near(pixel(square, 2, 32), Self.red), "the whole picture's width")
        XCTAssertTrue(near(pixel(square, 61, 32), Self.blue))
        // Trim: the middle square of the picture fills the destination.
        XCTAssertEqual(VTSessionSetProperty(session, key: kVTPixelTransferPropertyKey_ScalingMode, value: kVTScalingMode_Trim), noErr)
        XCTAssertEqual(VTPixelTransferSessionTransferImage(session, from: wide, to: square), noErr)
        for (x, y) in [(1, 1), (62, 62), (32, 32)] { XCTAssertTrue(near(pixel(square, x, y), Self.white), "(\(x), \(y)) is the middle: white") }
        // Normal: the whole picture, stretched.
        XCTAssertEqual(VTSessionSetProperty(session, key: kVTPixelTransferPropertyKey_ScalingMode, value: kVTScalingMode_Normal), noErr)
        XCTAssertEqual(VTPixelTransferSessionTransferImage(session, from: wide, to: square), noErr)
        XCTAssertTrue(near(pixel(square, 2, 2), Self.red) && near(pixel(square, 61, 61), Self.blue), "stretched")
    }

    func testCroppingToTheCleanApertureTakesTheApertureOnly() throws {
        // White inside a 32x16 aperture moved 8 pixels right of the centre; red outside it.
        let source = try painted(64, 32) { x, y in (24..<56).contains(x) && (8..<24).contains(y) ? Self.white : Self.red }
        CVBufferSetAttachment(
            source, kCVImageBufferCleanApertureKey,
            [
                kCVImageBufferCleanApertureWidthKey as String: 32, kCVImageBufferCleanApertureHeightKey as String: 16,
                kCVImageBufferCleanApertureHorizontalOffsetKey as String: 8, kCVImageBufferCleanApertureVerticalOffsetKey as String: 0,
            ] as CFDictionary,
            .shouldPropagate)
        let session = try transferSession()
        XCTAssertEqual(
            VTSessionSetProperty(session, key: kVTPixelTransferPropertyKey_ScalingMode, value: kVTScalingMode_CropSourceToCleanAperture), noErr)
        let destination = try buffer(32, 16)
        XCTAssertEqual(VTPixelTransferSessionTransferImage(session, from: source, to: destination), noErr)
        for (x, y) in [(0, 0), (31, 15), (16, 8)] {
            XCTAssertTrue(near(pixel(destination, x, y), Self.white), "(\(x), \(y)): \(String(pixel(destination, x, y), radix: 16))")
        }
    }

    func testPropertiesAreReadBackAndWhatTheSessionCannotTakeIsRefused() throws {
        let session = try transferSession()
        XCTAssertEqual(VTSessionSetProperty(session, key: kVTPixelTransferPropertyKey_ScalingMode, value: "Sideways" as CFString), kVTPropertyNotSupportedErr)
        XCTAssertEqual(VTSessionSetProperty(session, key: "NoSuchProperty" as CFString, value: kCFBooleanTrue), kVTPropertyNotSupportedErr)
        XCTAssertEqual(
            VTSessionSetProperties(
                session,
                propertyDictionary: [kVTPixelTransferPropertyKey_ScalingMode: kVTScalingMode_Trim, kVTPixelTransferPropertyKey_RealTime: true] as CFDictionary),
            noErr)
        var value: CFTypeRef?
        XCTAssertEqual(
            withUnsafeMutablePointer(to: &value) { VTSessionCopyProperty(session, key: kVTPixelTransferPropertyKey_ScalingMode, allocator: nil, valueOut: $0) },
            noErr)
        XCTAssertEqual(value as? String, kVTScalingMode_Trim as String)
        XCTAssertEqual(
            withUnsafeMutablePointer(to: &value) { VTSessionCopyProperty(session, key: "NoSuchProperty" as CFString, allocator: nil, valueOut: $0) },
            kVTPropertyNotSupportedErr)
        var supported: CFDictionary?
        XCTAssertEqual(VTSessionCopySupportedPropertyDictionary(session, supportedPropertyDictionaryOut: &supported), noErr)
        let modes = ((supported as? [String: Any])?[kVTPixelTransferPropertyKey_ScalingMode as String] as? [String: Any])?[
            kVTPropertySupportedValueListKey as String]
        XCTAssertEqual((modes as? [String])?.sorted(), ["CropSourceToCleanAperture", "Letterbox", "Normal", "Trim"])
        // A format libyuv does not write (a depth map), and a session torn down.
        let source = try painted(8, 8) { _, _ in Self.white }
        XCTAssertEqual(
            VTPixelTransferSessionTransferImage(session, from: source, to: try buffer(8, 8, kCVPixelFormatType_DepthFloat32)), kVTPixelTransferNotSupportedErr)
        VTPixelTransferSessionInvalidate(session)
        XCTAssertEqual(VTPixelTransferSessionTransferImage(session, from: source, to: try buffer(8, 8)), kVTInvalidSessionErr)
        XCTAssertEqual(VTSessionSetProperty(session, key: kVTPixelTransferPropertyKey_RealTime, value: kCFBooleanFalse), kVTInvalidSessionErr)
    }

    func testRotationTurnsThenFlipsAsApplesPropertiesSay() throws {
        // A 4x2 picture whose every pixel is its own: 0xFF0000xy.
        let source = try painted(4, 2) { x, y in 0xFF00_0000 | UInt32(x << 4 | y) }
        var made: VTPixelRotationSession?
        XCTAssertEqual(VTPixelRotationSessionCreate(allocator: nil, pixelRotationSessionOut: &made), noErr)
        let session = try XCTUnwrap(made)
        /// The source pixel each destination pixel shows, as (x, y), row by row.
        func rotated(_ rotation: CFString, flipH: Bool = false, flipV: Bool = false) throws -> [[Int]] {
            XCTAssertEqual(VTSessionSetProperty(session, key: kVTPixelRotationPropertyKey_Rotation, value: rotation), noErr)
            XCTAssertEqual(VTSessionSetProperty(session, key: kVTPixelRotationPropertyKey_FlipHorizontalOrientation, value: flipH as CFBoolean), noErr)
            XCTAssertEqual(VTSessionSetProperty(session, key: kVTPixelRotationPropertyKey_FlipVerticalOrientation, value: flipV as CFBoolean), noErr)
            let quarter = rotation == kVTRotation_CW90 || rotation == kVTRotation_CCW90
            let destination = try buffer(quarter ? 2 : 4, quarter ? 4 : 2)
            XCTAssertEqual(VTPixelRotationSessionRotateImage(session, from: source, to: destination), noErr)
            return (0..<CVPixelBufferGetHeight(destination)).map { y in
                (0..<CVPixelBufferGetWidth(destination)).map { x in Int(pixel(destination, x, y) & 0xFF) }
            }
        }
        // Source rows: [00 10 20 30] and [01 11 21 31] (x in the high digit, y in the low).
        XCTAssertEqual(try rotated(kVTRotation_0), [[0x00, 0x10, 0x20, 0x30], [0x01, 0x11, 0x21, 0x31]])
        XCTAssertEqual(try rotated(kVTRotation_CW90), [[0x01, 0x00], [0x11, 0x10], [0x21, 0x20], [0x31, 0x30]], "a quarter turn clockwise")
        XCTAssertEqual(try rotated(kVTRotation_CCW90), [[0x30, 0x31], [0x20, 0x21], [0x10, 0x11], [0x00, 0x01]])
        XCTAssertEqual(try rotated(kVTRotation_180), [[0x31, 0x21, 0x11, 0x01], [0x30, 0x20, 0x10, 0x00]])
        XCTAssertEqual(try rotated(kVTRotation_CW90, flipH: true), [[0x00, 0x01], [0x10, 0x11], [0x20, 0x21], [0x30, 0x31]], "the flip after the turn")
        XCTAssertEqual(try rotated(kVTRotation_CW90, flipV: true), [[0x31, 0x30], [0x21, 0x20], [0x11, 0x10], [0x01, 0x00]])
        XCTAssertEqual(try rotated(kVTRotation_0, flipH: true, flipV: true), try rotated(kVTRotation_180), "both flips are a half turn")
        XCTAssertEqual(VTSessionSetProperty(session, key: kVTPixelRotationPropertyKey_Rotation, value: "Rotation_45" as CFString), kVTPropertyNotSupportedErr)
        XCTAssertEqual(
            VTPixelRotationSessionRotateImage(session, from: source, to: try buffer(4, 4)), kVTPixelRotationNotSupportedErr, "a destination of the wrong size")
        VTPixelRotationSessionInvalidate(session)
        XCTAssertEqual(VTPixelRotationSessionRotateImage(session, from: source, to: try buffer(4, 2)), kVTInvalidSessionErr)
    }

    func testAnImageIsMadeFromAnyBufferLibyuvReads() throws {
        let source = try painted(16, 8) { x, _ in x < 8 ? Self.red : Self.blue }
        let yuv = try buffer(16, 8, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange)
        XCTAssertEqual(VTPixelTransferSessionTransferImage(try transferSession(), from: source, to: yuv), noErr)
        var image: CGImage?
        XCTAssertEqual(VTCreateCGImageFromCVPixelBuffer(yuv, options: nil, imageOut: &image), noErr)
        let made = try XCTUnwrap(image)
        XCTAssertEqual([made.width, made.height], [16, 8])
        let bytes = try XCTUnwrap(made.dataProvider?.data as Data?)
        let left = bytes.withUnsafeBytes { $0.load(fromByteOffset: 2 * 4, as: UInt32.self) }
        XCTAssertTrue(near(left, Self.red, 40), String(left, radix: 16))
        XCTAssertEqual(
            VTCreateCGImageFromCVPixelBuffer(try buffer(8, 8, kCVPixelFormatType_DepthFloat32), options: nil, imageOut: &image), kVTPixelTransferNotSupportedErr
        )
        XCTAssertNil(image)
        XCTAssertFalse(VTIsHardwareDecodeSupported(kCMVideoCodecType_H264), "no hardware decoder is used")
    }
}
