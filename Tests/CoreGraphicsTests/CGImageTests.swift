import CoreGraphics
import XCTest

/// Images over data providers: the memory they read, cropping that shares it, and colour spaces.
final class CGImageTests: XCTestCase {
    /// Counts the releases of caller memory.
    nonisolated(unsafe) static var released = 0

    func testAnImageOverCallerMemoryReadsItWhereItIsAndReleasesItOnce() throws {
        let memory = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 16)
        memory.initializeMemory(as: UInt8.self, repeating: 7, count: 64)
        Self.released = 0
        do {
            let provider = try XCTUnwrap(
                CGDataProvider(dataInfo: nil, data: memory, size: 64) { _, data, size in
                    CGImageTests.released += 1
                    UnsafeMutableRawPointer(mutating: data).deallocate()
                })
            let image = try XCTUnwrap(
                CGImage(
                    width: 4, height: 4, bitsPerComponent: 8, bitsPerPixel: 32, bytesPerRow: 16, space: CGColorSpaceCreateDeviceRGB(),
                    bitmapInfo: CGBitmapInfo(rawValue: CGBitmapInfo.byteOrder32Little.rawValue | CGImageAlphaInfo.premultipliedFirst.rawValue),
                    provider: provider, decode: nil, shouldInterpolate: true, intent: .defaultIntent))
            memory.storeBytes(of: 9, as: UInt8.self)
            XCTAssertEqual(image.dataProvider?.data?.first, 9, "the image reads the memory itself, not a copy made when it was created")
            let crop = try XCTUnwrap(image.cropping(to: CGRect(x: 1, y: 2, width: 2, height: 2)))
            XCTAssertEqual(crop.width, 2)
            XCTAssertEqual(crop.bytesPerRow, 16, "a crop shares its parent's rows")
            memory.storeBytes(of: 42, toByteOffset: 2 * 16 + 4, as: UInt8.self)
            XCTAssertEqual(crop.dataProvider?.data?.first, 42, "and its memory")
            XCTAssertNil(image.cropping(to: CGRect(x: 10, y: 10, width: 2, height: 2)), "a rectangle outside the image")
            XCTAssertEqual(Self.released, 0)
        }
        XCTAssertEqual(Self.released, 1, "released once, when the last image reading it went")
    }

    func testLayoutsThatDoNotFitTheirProviderAreRefused() {
        let provider = CGDataProvider(data: Data(count: 15) as CFData)!
        XCTAssertNil(
            CGImage(
                width: 2, height: 2, bitsPerComponent: 8, bitsPerPixel: 32, bytesPerRow: 8, space: CGColorSpaceCreateDeviceRGB(),
                bitmapInfo: CGBitmapInfo(alphaInfo: .premultipliedLast), provider: provider, decode: nil, shouldInterpolate: true,
                intent: .defaultIntent), "16 bytes are needed")
        XCTAssertNil(
            CGImage(
                width: 2, height: 2, bitsPerComponent: 8, bitsPerPixel: 16, bytesPerRow: 8, space: CGColorSpaceCreateDeviceRGB(),
                bitmapInfo: CGBitmapInfo(alphaInfo: .premultipliedLast), provider: provider, decode: nil, shouldInterpolate: true,
                intent: .defaultIntent), "four components do not fit in 16 bits")
    }

    /// The HDR and extended colour spaces media code names (HDR10 and HLG video, extended P3
    /// for wide-gamut pixel buffers), with their models and the type identifier Core Foundation gives.
    func testHDRAndExtendedColourSpacesAndTheirTypeIdentifier() throws {
        let names: [(CFString, String)] = [
            (CGColorSpace.itur_2100_PQ, "kCGColorSpaceITUR_2100_PQ"), (CGColorSpace.itur_2100_HLG, "kCGColorSpaceITUR_2100_HLG"),
            (CGColorSpace.extendedLinearDisplayP3, "kCGColorSpaceExtendedLinearDisplayP3"), (CGColorSpace.displayP3_PQ, "kCGColorSpaceDisplayP3_PQ"),
            (CGColorSpace.displayP3_HLG, "kCGColorSpaceDisplayP3_HLG"), (CGColorSpace.extendedLinearITUR_2020, "kCGColorSpaceExtendedLinearITUR_2020"),
            (CGColorSpace.linearDisplayP3, "kCGColorSpaceLinearDisplayP3"), (CGColorSpace.extendedDisplayP3, "kCGColorSpaceExtendedDisplayP3"),
        ]
        for (name, text) in names {
            XCTAssertEqual(name as String, text)
            let space = try XCTUnwrap(CGColorSpace(name: name), text)
            XCTAssertEqual(space.model, .rgb, text)
            XCTAssertTrue(space.isWideGamutRGB, text)
            XCTAssertEqual(CFGetTypeID(space), CGColorSpace.typeID, text)
        }
        XCTAssertEqual(kCGColorSpaceITUR_2100_PQ as String, CGColorSpace.itur_2100_PQ as String)
        XCTAssertEqual(CGColorSpace(name: CGColorSpace.extendedLinearGray)?.model, .monochrome)
        XCTAssertNotEqual(CGColorSpace.typeID, CFStringGetTypeID(), "a colour space is not a string")
        XCTAssertEqual(CFGetTypeID(CGColorSpaceCreateDeviceRGB()), CGColorSpace.typeID, "device spaces are colour spaces too")
    }

    func testColourSpacesByNameAndModel() throws {
        XCTAssertEqual(CGColorSpaceCreateDeviceRGB().numberOfComponents, 3)
        XCTAssertEqual(CGColorSpaceCreateDeviceGray().model, .monochrome)
        let p3 = try XCTUnwrap(CGColorSpace(name: CGColorSpace.displayP3))
        XCTAssertEqual(p3.name, CGColorSpace.displayP3)
        XCTAssertTrue(p3.isWideGamutRGB)
        XCTAssertEqual(CGColorSpace(name: kCGColorSpaceITUR_709)?.model, .rgb)
        XCTAssertNil(CGColorSpace(name: "not a colour space"))
        let image = try XCTUnwrap(
            CGImage(
                width: 1, height: 1, bitsPerComponent: 8, bitsPerPixel: 32, bytesPerRow: 4, space: CGColorSpaceCreateDeviceRGB(),
                bitmapInfo: CGBitmapInfo(alphaInfo: .noneSkipLast), provider: CGDataProvider(data: Data(count: 4) as CFData)!, decode: nil,
                shouldInterpolate: true, intent: .defaultIntent))
        XCTAssertEqual(image.copy(colorSpace: p3)?.colorSpace?.name, CGColorSpace.displayP3)
        XCTAssertNil(image.copy(colorSpace: CGColorSpaceCreateDeviceGray()), "a grey space has one component, not three")
        XCTAssertEqual(CGColor(red: 1, green: 0.5, blue: 0, alpha: 1).components, [1, 0.5, 0, 1])
        XCTAssertEqual(CGColor.white.copy(alpha: 0.5)?.alpha, 0.5)
    }

    func testPathsKeepTheirGeometry() {
        let path = CGMutablePath()
        path.addRect(CGRect(x: 1, y: 2, width: 3, height: 4))
        XCTAssertEqual(path.boundingBox, CGRect(x: 1, y: 2, width: 3, height: 4))
        XCTAssertEqual(path.currentPoint, CGPoint(x: 1, y: 2), "a closed subpath ends where it began")
        let circle = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 10, height: 10), transform: nil)
        XCTAssertEqual(circle.boundingBox.width, 10, accuracy: 1e-9)
        let arc = CGMutablePath()
        arc.addArc(center: .zero, radius: 5, startAngle: 0, endAngle: .pi, clockwise: false)
        XCTAssertEqual(arc.currentPoint.x, -5, accuracy: 1e-9, "half a turn counterclockwise ends on the left")
        XCTAssertEqual(arc.currentPoint.y, 0, accuracy: 1e-9)
        XCTAssertGreaterThan(arc.boundingBox.maxY, 4.9, "through the top")
        var shift = CGAffineTransform(translationX: 10, y: 0)
        XCTAssertEqual(CGPath(rect: CGRect(x: 0, y: 0, width: 1, height: 1), transform: &shift).boundingBox.minX, 10)
    }
}
