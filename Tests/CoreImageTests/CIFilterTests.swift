import CoreGraphics
import CoreImage
import CoreImage.CIFilterBuiltins
import CoreVideo
import XCTest
import AVFoundation

/// Filters by name and in their typed forms: their inputs and attributes as Apple describes
/// them, the extents they give, and their pixels once rendered.
final class CIFilterTests: XCTestCase {
    typealias RGBA = Pictures.RGBA
    let context = CIContext()

    /// A solid colour as an image 32 pixels square.
    private func solid(_ colour: RGBA) -> CIImage { CIImage(cvPixelBuffer: Pictures.solid(colour)) }

    /// The colour at the middle of a filter's output over the first image's extent.
    private func middle(_ image: CIImage?, of extent: CGRect = CGRect(x: 0, y: 0, width: 32, height: 32)) throws -> RGBA {
        let picture = try XCTUnwrap(context.createCGImage(try XCTUnwrap(image), from: extent), String(describing: CIContext.lastRenderingProblem))
        return Pictures.pixel(picture, x: picture.width / 2, y: picture.height / 2)
    }

    func testFiltersAreMadeByNameWithTheirInputsDefaultsAndAttributes() throws {
        XCTAssertNil(CIFilter(name: "CINoSuchFilter"))
        let blur = try XCTUnwrap(CIFilter(name: "CIGaussianBlur"))
        XCTAssertEqual(blur.name, "CIGaussianBlur")
        XCTAssertEqual(blur.inputKeys, [kCIInputImageKey, kCIInputRadiusKey])
        XCTAssertEqual(blur.outputKeys, [kCIOutputImageKey])
        XCTAssertEqual((blur.value(forKey: kCIInputRadiusKey) as? NSNumber)?.doubleValue, 10, "defaults are set")
        XCTAssertNil(blur.outputImage, "no input image, no output")
        let radius = try XCTUnwrap(blur.attributes[kCIInputRadiusKey] as? [String: Any])
        XCTAssertEqual(radius[kCIAttributeClass] as? String, "NSNumber")
        XCTAssertEqual((radius[kCIAttributeDefault] as? NSNumber)?.doubleValue, 10)
        XCTAssertEqual((radius[kCIAttributeMin] as? NSNumber)?.doubleValue, 0)
        XCTAssertEqual(blur.attributes[kCIAttributeFilterName] as? String, "CIGaussianBlur")
        XCTAssertTrue((blur.attributes[kCIAttributeFilterCategories] as? [String])?.contains(kCICategoryBlur) == true)
        XCTAssertTrue(CIFilter.filterNames(inCategory: kCICategoryBlur).contains("CIGaussianBlur"))
        XCTAssertFalse(CIFilter.filterNames(inCategory: kCICategoryBlur).contains("CIColorControls"))
        XCTAssertEqual(CIFilter.filterNames(inCategory: kCICategoryBuiltIn).count, 232)
        let made = try XCTUnwrap(CIFilter(name: "CIColorControls", parameters: [kCIInputSaturationKey: 0.25]))
        XCTAssertEqual((made.value(forKey: kCIInputSaturationKey) as? NSNumber)?.doubleValue ?? (made.value(forKey: kCIInputSaturationKey) as? Double), 0.25)
        made.setDefaults()
        XCTAssertEqual((made.value(forKey: kCIInputSaturationKey) as? NSNumber)?.doubleValue, 1)
        XCTAssertEqual(solid(.red).applyingFilter("CINoSuchFilter").extent, .null, "an unknown filter gives an empty image")
    }

    func testTheTypedFormsSetTheSameInputs() throws {
        let blur = CIFilter.gaussianBlur()
        XCTAssertEqual(blur.radius, 10)
        blur.radius = 4
        XCTAssertEqual((blur.value(forKey: kCIInputRadiusKey) as? NSNumber)?.floatValue, 4)
        blur.inputImage = solid(.red)
        XCTAssertEqual(blur.outputImage?.extent, CGRect(x: -12, y: -12, width: 56, height: 56), "a blur grows its extent by three radii")
        let controls = CIFilter.colorControls()
        XCTAssertEqual([controls.saturation, controls.brightness, controls.contrast], [1, 0, 1])
        let lanczos = CIFilter.lanczosScaleTransform()
        lanczos.inputImage = solid(.red)
        lanczos.scale = 0.5
        lanczos.aspectRatio = 2
        XCTAssertEqual(lanczos.outputImage?.extent, CGRect(x: 0, y: 0, width: 32, height: 16))
        let over = CIFilter.sourceOverCompositing()
        over.inputImage = solid(.red)
        XCTAssertNil(over.outputImage, "no background, no output")
        over.backgroundImage = solid(.blue).transformed(by: CGAffineTransform(translationX: 16, y: 0))
        XCTAssertEqual(over.outputImage?.extent, CGRect(x: 0, y: 0, width: 48, height: 32), "the union of the two")
    }

    func testABlurSpreadsAnEdgeAndFadesBeyondTheImage() throws {
        let image = CIImage(cvPixelBuffer: Pictures.quadrants()).applyingGaussianBlur(sigma: 3)
        XCTAssertEqual(image.extent, CGRect(x: -9, y: -9, width: 82, height: 66))
        let picture = try XCTUnwrap(Pictures.render(image))
        // Offsets by the blur's reach: the quadrants' top-left pixel is at (9, 9).
        XCTAssertEqual(Pictures.pixel(picture, x: 9 + 8, y: 9 + 8), .red, "far from every edge: unchanged")
        let edge = Pictures.pixel(picture, x: 9 + 32, y: 9 + 8)
        XCTAssertEqual(edge.r, 128, accuracy: 30, "across the red-green edge, half of each: \(edge)")
        XCTAssertEqual(edge.g, 128, accuracy: 30, "\(edge)")
        XCTAssertEqual(Pictures.pixel(picture, x: 9 + 8, y: 9).a, 128, accuracy: 30, "at the image's edge, half covered")
        XCTAssertLessThan(Pictures.pixel(picture, x: 1, y: 30).a, 10, "beyond the edge, nearly clear")
        XCTAssertEqual(
            try middle(solid(.green).applyingFilter("CIGaussianBlur", parameters: [kCIInputRadiusKey: 2])), .green, "a solid colour stays itself inside")
    }

    func testColourFiltersChangeColoursAsAppleDescribesThem() throws {
        let grey = try middle(solid(.red).applyingFilter("CIColorControls", parameters: [kCIInputSaturationKey: 0]))
        XCTAssertTrue(grey.isClose(to: RGBA(r: 54, g: 54, b: 54, a: 255), tolerance: 1), "no saturation: red's luma, \(grey)")
        let brighter = try middle(solid(RGBA(r: 100, g: 100, b: 100, a: 255)).applyingFilter("CIColorControls", parameters: [kCIInputBrightnessKey: 0.2]))
        XCTAssertTrue(brighter.isClose(to: RGBA(r: 151, g: 151, b: 151, a: 255), tolerance: 1), "brightness adds: \(brighter)")
        let contrast = try middle(solid(RGBA(r: 64, g: 128, b: 191, a: 255)).applyingFilter("CIColorControls", parameters: [kCIInputContrastKey: 2]))
        XCTAssertTrue(contrast.isClose(to: RGBA(r: 0, g: 128, b: 255, a: 255), tolerance: 2), "contrast about middle grey, clipped: \(contrast)")
        XCTAssertEqual(try middle(solid(.red).applyingFilter("CIColorInvert")), RGBA(r: 0, g: 255, b: 255, a: 255))
        let swapped = CIFilter.colorMatrix()
        swapped.inputImage = solid(RGBA(r: 200, g: 100, b: 50, a: 255))
        swapped.rVector = CIVector(x: 0, y: 0, z: 1, w: 0)
        swapped.bVector = CIVector(x: 1, y: 0, z: 0, w: 0)
        swapped.biasVector = CIVector(x: 0, y: 0.2, z: 0, w: 0)
        XCTAssertTrue(try middle(swapped.outputImage).isClose(to: RGBA(r: 50, g: 151, b: 200, a: 255), tolerance: 1), "red and blue swapped, green biased")
        // The matrix takes colours not premultiplied: scaling alpha alone fades a picture (Apple's idiom),
        // so half of red over black is dark red, not red.
        let faded = solid(.red).applyingFilter("CIColorMatrix", parameters: ["inputAVector": CIVector(x: 0, y: 0, z: 0, w: 0.5)])
        let overBlack = try middle(faded.composited(over: solid(RGBA(r: 0, g: 0, b: 0, a: 255))))
        XCTAssertTrue(overBlack.isClose(to: RGBA(r: 128, g: 0, b: 0, a: 255), tolerance: 1), "half of red over black: \(overBlack)")
        let sepia = try middle(solid(.white).applyingFilter("CISepiaTone"))
        XCTAssertTrue(sepia.r >= sepia.g && sepia.g > sepia.b, "sepia is warm: \(sepia)")
        XCTAssertEqual(try middle(solid(.white).applyingFilter("CISepiaTone", parameters: [kCIInputIntensityKey: 0])), .white, "no intensity, no change")
        let mono = try middle(solid(.green).applyingFilter("CIPhotoEffectMono"))
        XCTAssertTrue(mono.r == mono.g && mono.g == mono.b && abs(mono.g - 182) <= 1, "green's luma: \(mono)")
        let exposed = try middle(solid(RGBA(r: 100, g: 100, b: 100, a: 255)).applyingFilter("CIExposureAdjust", parameters: [kCIInputEVKey: 1]))
        XCTAssertEqual(exposed.r, 137, accuracy: 2, "one stop: twice the light, 2^(1/2.2) in sRGB's encoded values: \(exposed)")
        XCTAssertEqual(
            try middle(solid(.red).applyingFilter("CIColorControls", parameters: [kCIInputSaturationKey: Double.nan])), .red, "NaN is taken as absent")
        // Two colour filters in a row make one operation.
        let twice = solid(.red).applyingFilter("CIColorInvert").applyingFilter("CIColorInvert")
        XCTAssertEqual(try middle(twice), .red)
    }

    func testGeometryAndCompositingFilters() throws {
        let image = CIImage(cvPixelBuffer: Pictures.quadrants())
        let half = image.applyingFilter("CILanczosScaleTransform", parameters: [kCIInputScaleKey: 0.5])
        XCTAssertEqual(half.extent, CGRect(x: 0, y: 0, width: 32, height: 24))
        let picture = try XCTUnwrap(Pictures.render(half))
        XCTAssertEqual(Pictures.pixel(picture, x: 4, y: 4), .red)
        XCTAssertEqual(Pictures.pixel(picture, x: 28, y: 20), .white)
        let cropped = image.applyingFilter("CICrop", parameters: ["inputRectangle": CIVector(cgRect: CGRect(x: 32, y: 24, width: 32, height: 24))])
        XCTAssertEqual(cropped.extent, CGRect(x: 32, y: 24, width: 32, height: 24))
        XCTAssertEqual(try middle(cropped, of: cropped.extent), .green)
        let moved = image.applyingFilter("CIAffineTransform", parameters: [kCIInputTransformKey: CGAffineTransform(translationX: 5, y: 5)])
        XCTAssertEqual(moved.extent, CGRect(x: 5, y: 5, width: 64, height: 48))
        // Half-transparent red over blue: premultiplied, half of each.
        let translucent = CIImage(color: CIColor(red: 1, green: 0, blue: 0, alpha: 0.5)).cropped(to: CGRect(x: 0, y: 0, width: 32, height: 32))
        let mixed = try middle(translucent.composited(over: solid(.blue)))
        XCTAssertTrue(mixed.isClose(to: RGBA(r: 128, g: 0, b: 127, a: 255), tolerance: 2), "\(mixed)")
        let generated = try XCTUnwrap(CIFilter(name: "CIConstantColorGenerator", parameters: [kCIInputColorKey: CIColor.yellow])?.outputImage)
        XCTAssertTrue(generated.extent.isInfinite)
        XCTAssertEqual(try middle(generated.cropped(to: CGRect(x: 0, y: 0, width: 32, height: 32))), RGBA(r: 255, g: 255, b: 0, a: 255))
    }

    func testPerspectiveCorrectionUndoesAPerspectiveTransformCornerForCorner() throws {
        // The four quarters (red top left, green top right, blue bottom left, white bottom right) drawn
        // into a quadrilateral, then that quadrilateral drawn back upright.
        let source = CIImage(cvPixelBuffer: Pictures.quadrants(width: 160, height: 120))
        let (topLeft, topRight, bottomRight, bottomLeft) = (CGPoint(x: 40, y: 190), CGPoint(x: 230, y: 170), CGPoint(x: 210, y: 30), CGPoint(x: 20, y: 50))
        let transform = CIFilter.perspectiveTransform()
        transform.inputImage = source
        (transform.topLeft, transform.topRight, transform.bottomRight, transform.bottomLeft) = (topLeft, topRight, bottomRight, bottomLeft)
        let skewed = try XCTUnwrap(transform.outputImage)
        XCTAssertEqual(skewed.extent, CGRect(x: 20, y: 30, width: 210, height: 160), "the corners' bounding box")
        let drawn = try XCTUnwrap(context.createCGImage(skewed, from: skewed.extent))
        // Just inside each corner (Core Image's y up; the picture's rows top down), that corner's quarter.
        func seen(_ point: CGPoint, toward: CGPoint) -> RGBA {
            let inside = CGPoint(x: point.x + (toward.x - point.x) * 0.15, y: point.y + (toward.y - point.y) * 0.15)
            return Pictures.pixel(drawn, x: Int(inside.x - skewed.extent.minX), y: Int(skewed.extent.maxY - inside.y))
        }
        let centre = CGPoint(x: 125, y: 110)
        XCTAssertTrue(seen(topLeft, toward: centre).isClose(to: .red, tolerance: 8), "\(seen(topLeft, toward: centre))")
        XCTAssertTrue(seen(topRight, toward: centre).isClose(to: .green, tolerance: 8), "\(seen(topRight, toward: centre))")
        XCTAssertTrue(seen(bottomLeft, toward: centre).isClose(to: .blue, tolerance: 8), "\(seen(bottomLeft, toward: centre))")
        XCTAssertTrue(seen(bottomRight, toward: centre).isClose(to: .white, tolerance: 8), "\(seen(bottomRight, toward: centre))")
        XCTAssertEqual(Pictures.pixel(drawn, x: 1, y: 1).a, 0, "outside the quadrilateral: transparent")

        let correction = CIFilter.perspectiveCorrection()
        correction.inputImage = skewed
        (correction.topLeft, correction.topRight, correction.bottomRight, correction.bottomLeft) = (topLeft, topRight, bottomRight, bottomLeft)
        XCTAssertTrue(correction.crop, "cropped by default")
        let upright = try XCTUnwrap(correction.outputImage)
        // As wide as the longer of the top and bottom sides, as tall as the longer of the left and right.
        XCTAssertEqual(upright.extent.width, (hypot(190, 20) as CGFloat).rounded())
        XCTAssertEqual(upright.extent.height, (hypot(20, 140) as CGFloat).rounded())
        let back = try XCTUnwrap(context.createCGImage(upright, from: upright.extent))
        let (w, h) = (back.width, back.height)
        XCTAssertTrue(Pictures.pixel(back, x: w / 4, y: h / 4).isClose(to: .red, tolerance: 8))
        XCTAssertTrue(Pictures.pixel(back, x: 3 * w / 4, y: h / 4).isClose(to: .green, tolerance: 8))
        XCTAssertTrue(Pictures.pixel(back, x: w / 4, y: 3 * h / 4).isClose(to: .blue, tolerance: 8))
        XCTAssertTrue(Pictures.pixel(back, x: 3 * w / 4, y: 3 * h / 4).isClose(to: .white, tolerance: 8))
        // By name, as document scanners call it, and uncropped.
        let byName = skewed.applyingFilter(
            "CIPerspectiveCorrection",
            parameters: [
                "inputTopLeft": CIVector(cgPoint: topLeft), "inputTopRight": CIVector(cgPoint: topRight), "inputBottomLeft": CIVector(cgPoint: bottomLeft),
                "inputBottomRight": CIVector(cgPoint: bottomRight), "inputCrop": false,
            ])
        XCTAssertTrue(byName.extent.contains(upright.extent), "uncropped, the rest of the picture stays: \(byName.extent)")
        XCTAssertGreaterThan(byName.extent.width, upright.extent.width)
    }

    func testVignetteDarkensTowardTheCornersOnly() throws {
        let grey = CIImage(cvPixelBuffer: Pictures.solid(RGBA(r: 200, g: 200, b: 200, a: 255), width: 200, height: 100))
        let vignette = CIFilter.vignette()
        vignette.inputImage = grey
        XCTAssertEqual(vignette.intensity, 0, "Apple's default changes nothing")
        vignette.intensity = 1
        vignette.radius = 1
        let picture = try XCTUnwrap(context.createCGImage(try XCTUnwrap(vignette.outputImage), from: grey.extent))
        let centre = Pictures.pixel(picture, x: 100, y: 50), edge = Pictures.pixel(picture, x: 100, y: 2), corner = Pictures.pixel(picture, x: 0, y: 0)
        XCTAssertTrue(centre.isClose(to: RGBA(r: 200, g: 200, b: 200, a: 255), tolerance: 2), "the middle untouched: \(centre)")
        XCTAssertLessThan(corner.r, 15, "the corners near black: \(corner)")
        XCTAssertTrue(edge.r < centre.r && edge.r > corner.r, "between: \(edge)")
        XCTAssertEqual(corner.a, 255, "alpha kept")
        vignette.intensity = -0.5
        let lighter = try XCTUnwrap(context.createCGImage(try XCTUnwrap(vignette.outputImage), from: grey.extent))
        XCTAssertGreaterThan(Pictures.pixel(lighter, x: 0, y: 0).r, 200, "a negative intensity lightens")
    }

    func testPhotoEffectsAreMadeByNameAndTheirLooksDiffer() throws {
        let orange = CIImage(cvPixelBuffer: Pictures.solid(RGBA(r: 220, g: 120, b: 40, a: 255)))
        let grey = CIImage(cvPixelBuffer: Pictures.solid(RGBA(r: 128, g: 128, b: 128, a: 255)))
        let dark = CIImage(cvPixelBuffer: Pictures.solid(RGBA(r: 60, g: 60, b: 60, a: 255)))
        let names = ["Chrome", "Fade", "Instant", "Noir", "Process", "Tonal", "Transfer"].map { "CIPhotoEffect\($0)" }
        for name in names {
            XCTAssertTrue(CIFilter.filterNames(inCategory: kCICategoryColorEffect).contains(name), name)
            XCTAssertNotEqual(try middle(orange.applyingFilter(name)), try middle(orange), "\(name) changes the picture")
        }
        for name in ["CIPhotoEffectNoir", "CIPhotoEffectTonal"] {
            let seen = try middle(orange.applyingFilter(name))
            XCTAssertTrue(abs(seen.r - seen.g) <= 1 && abs(seen.g - seen.b) <= 1, "\(name) is black and white: \(seen)")
        }
        // Noir's contrast is higher than Tonal's: the step between two greys is wider.
        func step(_ name: String) throws -> Int { try middle(grey.applyingFilter(name)).r - (try middle(dark.applyingFilter(name))).r }
        XCTAssertGreaterThan(try step("CIPhotoEffectNoir"), try step("CIPhotoEffectTonal"))
        // Chrome saturates; Fade desaturates; Instant and Transfer warm a grey, Process cools it.
        func spread(_ colour: RGBA) -> Int { max(colour.r, colour.g, colour.b) - min(colour.r, colour.g, colour.b) }
        XCTAssertGreaterThan(spread(try middle(orange.applyingFilter("CIPhotoEffectChrome"))), spread(try middle(orange)))
        XCTAssertLessThan(spread(try middle(orange.applyingFilter("CIPhotoEffectFade"))), spread(try middle(orange)))
        for name in ["CIPhotoEffectInstant", "CIPhotoEffectTransfer"] {
            let warmed = try middle(grey.applyingFilter(name))
            XCTAssertGreaterThan(warmed.r, warmed.b, "\(name) warms grey: \(warmed)")
        }
        let cooled = try middle(grey.applyingFilter("CIPhotoEffectProcess"))
        XCTAssertGreaterThan(cooled.b, cooled.r, "Process cools grey: \(cooled)")
        let typed = CIFilter.photoEffectNoir()
        typed.inputImage = orange
        XCTAssertEqual(try middle(typed.outputImage), try middle(orange.applyingFilter("CIPhotoEffectNoir")))
    }
}

/// The QR code generator: a code a reader reads back, at the correction level asked for.
final class QRCodeGeneratorTests: XCTestCase {
    func testTheGeneratedCodeReadsBackAndItsSizeFollowsTheCorrectionLevel() throws {
        let generator = CIFilter.qrCodeGenerator()
        XCTAssertEqual(generator.correctionLevel, "M", "M by default")
        XCTAssertNil(generator.outputImage, "no message, no code")
        generator.message = Data("https://example.com/linux".utf8)
        let code = try XCTUnwrap(generator.outputImage)
        XCTAssertEqual(code.extent.width, code.extent.height)
        // A version's modules (21, 25, 29, ...) and a module of white on each side.
        XCTAssertEqual((Int(code.extent.width) - 2 - 21) % 4, 0, "\(code.extent)")
        let context = CIContext()
        let small = try XCTUnwrap(context.createCGImage(code, from: code.extent))
        XCTAssertEqual(Pictures.pixel(small, x: 0, y: 0), .white, "the white border")
        XCTAssertEqual(Pictures.pixel(small, x: 1, y: 1), Pictures.RGBA(r: 0, g: 0, b: 0, a: 255), "the finder pattern's corner")
        // Scaled up as apps show it, and read back.
        let shown = code.transformed(by: CGAffineTransform(scaleX: 8, y: 8)).composited(over: CIImage(color: .white)).cropped(
            to: code.extent.applying(CGAffineTransform(scaleX: 8, y: 8)).insetBy(dx: -32, dy: -32))
        let png = try XCTUnwrap(context.pngRepresentation(of: shown, format: .RGBA8, colorSpace: CGColorSpaceCreateDeviceRGB()))
        let read = try AVCaptureMetadataOutput.linuxMachineReadableCodes(inImageData: png, types: [.qr])
        XCTAssertEqual(read.first?.stringValue, "https://example.com/linux")
        generator.correctionLevel = "H"
        XCTAssertGreaterThan(try XCTUnwrap(generator.outputImage).extent.width, code.extent.width, "more correction, more modules")
        generator.correctionLevel = "X"
        XCTAssertNil(generator.outputImage, "no such level")
        let byName = CIFilter(name: "CIQRCodeGenerator", parameters: ["inputMessage": Data("https://example.com/linux".utf8)])
        XCTAssertEqual(byName?.outputImage?.extent, code.extent)
    }

}
