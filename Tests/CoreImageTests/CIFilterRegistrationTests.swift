import CoreGraphics
import CoreImage
import Foundation
import XCTest

/// A custom filter, as Apple's programming guide has apps write them: a `CIFilter` subclass that
/// composes built-in filters in its `outputImage`, made by name through a registered constructor.
final class CIFilterRegistrationTests: XCTestCase {
    /// A blur tinted one colour: its inputs in properties, set by key through `setValue(_:forKey:)`.
    final class TintedBlur: CIFilter, @unchecked Sendable {
        var inputImage: CIImage?
        var inputRadius: Double = 4
        var inputColor = CIColor(red: 0.2, green: 0.4, blue: 1)

        override func setValue(_ value: Any?, forKey key: String) {
            switch key {
            case kCIInputImageKey: inputImage = value as? CIImage
            case kCIInputRadiusKey: inputRadius = (value as? Double) ?? inputRadius
            case kCIInputColorKey: inputColor = (value as? CIColor) ?? inputColor
            default: super.setValue(value, forKey: key)
            }
        }

        override var outputImage: CIImage? {
            guard let inputImage else { return nil }
            return inputImage.applyingGaussianBlur(sigma: inputRadius)
                .applyingFilter("CIColorMonochrome", parameters: [kCIInputColorKey: inputColor, kCIInputIntensityKey: 1.0])
                .cropped(to: inputImage.extent)
        }
    }

    struct Constructor: CIFilterConstructor {
        func filter(withName name: String) -> CIFilter? { name == "TestTintedBlur" ? TintedBlur() : nil }
    }

    private func pixels(_ image: CIImage?) throws -> [UInt8] {
        let image = try XCTUnwrap(image)
        var bytes = [UInt8](repeating: 0, count: 16 * 16 * 4)
        CIContext().render(image, toBitmap: &bytes, rowBytes: 64, bounds: CGRect(x: 0, y: 0, width: 16, height: 16), format: .RGBA8, colorSpace: nil)
        return bytes
    }

    func testARegisteredFilterIsMadeByNameAndMakesItsSubclasssImage() throws {
        XCTAssertNil(CIFilter(name: "TestTintedBlur"), "not registered yet")
        CIFilter.registerName(
            "TestTintedBlur", constructor: Constructor(),
            classAttributes: [kCIAttributeFilterDisplayName: "Tinted Blur", kCIAttributeFilterCategories: [kCICategoryBlur, kCICategoryStillImage]])
        let filter = try XCTUnwrap(CIFilter(name: "TestTintedBlur"))
        XCTAssertEqual(filter.name, "TestTintedBlur")
        XCTAssertEqual(Set(filter.inputKeys), ["inputImage", "inputRadius", "inputColor"])
        XCTAssertEqual(filter.attributes[kCIAttributeFilterDisplayName] as? String, "Tinted Blur")
        XCTAssertEqual(CIFilter.localizedName(forFilterName: "TestTintedBlur"), "Tinted Blur")
        XCTAssertTrue(CIFilter.filterNames(inCategory: kCICategoryBlur).contains("TestTintedBlur"))
        XCTAssertTrue(CIFilter.filterNames(inCategory: kCICategoryBlur).contains("CIGaussianBlur"), "the built-in ones too")
        XCTAssertFalse(CIFilter.filterNames(inCategory: kCICategoryGenerator).contains("TestTintedBlur"))
        XCTAssertNil(filter.outputImage, "no input image yet")

        let checkerboard = try XCTUnwrap(CIFilter(name: "CICheckerboardGenerator", parameters: [kCIInputWidthKey: 4.0])?.outputImage)
            .cropped(to: CGRect(x: 0, y: 0, width: 16, height: 16))
        filter.setValue(checkerboard, forKey: kCIInputImageKey)
        filter.setValue(2.0, forKey: kCIInputRadiusKey)
        XCTAssertEqual(filter.value(forKey: kCIInputRadiusKey) as? Double, 2, "read from the subclass's property")
        XCTAssertTrue(filter.value(forKey: kCIInputImageKey) is CIImage)
        // The same chain written out here.
        let direct = checkerboard.applyingGaussianBlur(sigma: 2)
            .applyingFilter("CIColorMonochrome", parameters: [kCIInputColorKey: CIColor(red: 0.2, green: 0.4, blue: 1), kCIInputIntensityKey: 1.0])
            .cropped(to: checkerboard.extent)
        let made = try pixels(filter.outputImage)
        XCTAssertEqual(made, try pixels(direct))
        XCTAssertNotEqual(made, try pixels(checkerboard), "the filter changed the picture")
        XCTAssertNil(CIFilter(name: "TestNotRegistered"))
    }

    func testASubclassIsNamedAfterItsClassAndReadsItsPropertiesByKey() throws {
        let filter = TintedBlur()
        XCTAssertEqual(filter.name, "TintedBlur")
        XCTAssertEqual(Set(filter.inputKeys), ["inputImage", "inputRadius", "inputColor"])
        XCTAssertNil(filter.value(forKey: kCIInputImageKey), "an empty optional is no value")
        XCTAssertEqual(filter.value(forKey: kCIInputRadiusKey) as? Double, 4)
        filter.setValue(CIImage(color: CIColor(red: 1, green: 1, blue: 1)).cropped(to: CGRect(x: 0, y: 0, width: 16, height: 16)), forKey: kCIInputImageKey)
        XCTAssertEqual(filter.outputImage?.extent, CGRect(x: 0, y: 0, width: 16, height: 16))
    }
}
