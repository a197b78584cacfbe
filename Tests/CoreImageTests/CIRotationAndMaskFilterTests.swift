import CoreGraphics
import CoreImage
import CoreImage.CIFilterBuiltins
import Foundation
import XCTest

/// The perspective rotation, the keystone corrections, mask to alpha, depth and disparity, and
/// the mesh generator. The keystone corrections are checked as a user sees them: lines that a
/// turned camera made converge are found in the picture, given as guides, and come out upright.
final class CIRotationAndMaskFilterTests: XCTestCase {
    let context = CIContext()
    let ramp = CIImage(cvPixelBuffer: Pictures.ramp(width: 64, height: 48))

    private func floats(_ image: CIImage?, _ x: Int, _ y: Int) throws -> [Float] {
        var values = [Float](repeating: .nan, count: 4)
        context.render(try XCTUnwrap(image), toBitmap: &values, rowBytes: 16, bounds: CGRect(x: x, y: y, width: 1, height: 1), format: .RGBAf, colorSpace: nil)
        return values
    }

    /// Two red lines on black, from (x, 20) to (x, 180) for each x given (200 x 200), or level
    /// from (20, y) to (180, y) for each y.
    private func lines(upright: [Double] = [], level: [Double] = []) -> CIImage {
        let mesh = CIFilter.meshGenerator()
        mesh.width = 3
        mesh.color = CIColor(red: 1, green: 0, blue: 0)
        mesh.mesh = upright.map { CIVector(x: $0, y: 20, z: $0, w: 180) } + level.map { CIVector(x: 20, y: $0, z: 180, w: $0) }
        let black = CIImage(color: CIColor(red: 0, green: 0, blue: 0)).cropped(to: CGRect(x: 0, y: 0, width: 200, height: 200))
        return mesh.outputImage!.composited(over: black)
    }

    /// The red-weighted mean x of a row of an image between two x's (or y of a column, `across` false).
    private func redCentre(_ image: CIImage, at line: Int, from low: Int, to high: Int, across: Bool = true) -> Double? {
        let count = high - low
        var pixels = [UInt8](repeating: 0, count: count * 4)
        let bounds = across ? CGRect(x: low, y: line, width: count, height: 1) : CGRect(x: line, y: low, width: 1, height: count)
        context.render(image, toBitmap: &pixels, rowBytes: across ? count * 4 : 4, bounds: bounds, format: .RGBA8, colorSpace: nil)
        // Rows of a column come top first.
        let reds = (0..<count).map { Double(pixels[$0 * 4]) }
        let total = reds.reduce(0, +)
        guard total > 50 else { return nil }
        let weighted = reds.enumerated().reduce(0.0) { $0 + Double($1.offset) * $1.element } / total
        return across ? Double(low) + weighted + 0.5 : Double(high) - weighted - 0.5
    }

    func testAPerspectiveRotationsRollTurnsThePictureAboutItsMiddle() throws {
        let rotate = CIFilter.perspectiveRotate()
        XCTAssertEqual(rotate.focalLength, 28, "Apple's default")
        rotate.inputImage = ramp
        XCTAssertEqual(rotate.outputImage?.extent, ramp.extent, "no turn: the image")
        rotate.roll = Float.pi / 2
        let image = try XCTUnwrap(rotate.outputImage)
        XCTAssertEqual(image.extent, CGRect(x: 8, y: -8, width: 48, height: 64), "a quarter turn about the middle")
        // The output's (qx, qy) comes from (cx + qy - cy, cy - (qx - cx)).
        for (x, y) in [(20, 10), (40, 40), (30, 0)] {
            let (qx, qy) = (Double(x) + 0.5, Double(y) + 0.5)
            let got = Pictures.rampSource(image, x: x, y: y, context: context)
            XCTAssertEqual(got.x, 32 + (qy - 24), accuracy: 0.3, "(\(x), \(y))")
            XCTAssertEqual(got.y, 24 - (qx - 32), accuracy: 0.3, "(\(x), \(y))")
        }
        rotate.roll = 0
        rotate.pitch = 0.3
        let tilted = try XCTUnwrap(rotate.outputImage)
        XCTAssertNotEqual(tilted.extent.width, ramp.extent.width, "a pitch makes a trapezoid: its box differs")
    }

    func testAVerticalKeystoneCorrectionMakesConvergingUprightsParallel() throws {
        let rotate = CIFilter.perspectiveRotate()
        rotate.inputImage = lines(upright: [50, 150])
        rotate.pitch = 0.35
        let tilted = try XCTUnwrap(rotate.outputImage)
        let box = tilted.extent
        let (low, high) = (Int(box.minY + box.height * 0.3), Int(box.minY + box.height * 0.7))
        let middle = Int(box.midX)
        let found = [
            redCentre(tilted, at: low, from: Int(box.minX), to: middle), redCentre(tilted, at: high, from: Int(box.minX), to: middle),
            redCentre(tilted, at: low, from: middle, to: Int(box.maxX)), redCentre(tilted, at: high, from: middle, to: Int(box.maxX)),
        ]
        let (leftLow, leftHigh, rightLow, rightHigh) = (try XCTUnwrap(found[0]), try XCTUnwrap(found[1]), try XCTUnwrap(found[2]), try XCTUnwrap(found[3]))
        XCTAssertGreaterThan(abs((rightHigh - leftHigh) - (rightLow - leftLow)), 5, "the turned camera made the uprights converge")
        let keystone = CIFilter.keystoneCorrectionVertical()
        XCTAssertEqual(keystone.focalLength, 28, "Apple's default")
        keystone.inputImage = tilted
        keystone.bottomLeft = CGPoint(x: leftLow, y: Double(low) + 0.5)
        keystone.topLeft = CGPoint(x: leftHigh, y: Double(high) + 0.5)
        keystone.bottomRight = CGPoint(x: rightLow, y: Double(low) + 0.5)
        keystone.topRight = CGPoint(x: rightHigh, y: Double(high) + 0.5)
        let corrected = try XCTUnwrap(keystone.outputImage)
        let out = corrected.extent
        let (bottom, top) = (Int(out.minY + out.height * 0.3), Int(out.minY + out.height * 0.7))
        let centre = Int(out.midX)
        let left = (redCentre(corrected, at: bottom, from: Int(out.minX), to: centre), redCentre(corrected, at: top, from: Int(out.minX), to: centre))
        let right = (redCentre(corrected, at: bottom, from: centre, to: Int(out.maxX)), redCentre(corrected, at: top, from: centre, to: Int(out.maxX)))
        XCTAssertEqual(try XCTUnwrap(left.0), try XCTUnwrap(left.1), accuracy: 1.5, "the left guide is upright")
        XCTAssertEqual(try XCTUnwrap(right.0), try XCTUnwrap(right.1), accuracy: 1.5, "the right guide is upright")
        // Without its guides, the image unchanged.
        let bare = CIFilter.keystoneCorrectionVertical()
        bare.inputImage = tilted
        XCTAssertEqual(bare.outputImage?.extent, tilted.extent)
    }

    func testAHorizontalKeystoneCorrectionMakesConvergingLevelsParallel() throws {
        let rotate = CIFilter.perspectiveRotate()
        rotate.inputImage = lines(level: [50, 150])
        rotate.yaw = 0.35
        let tilted = try XCTUnwrap(rotate.outputImage)
        let box = tilted.extent
        let (near, far) = (Int(box.minX + box.width * 0.3), Int(box.minX + box.width * 0.7))
        let middle = Int(box.midY)
        let bottomNear = try XCTUnwrap(redCentre(tilted, at: near, from: Int(box.minY), to: middle, across: false))
        let bottomFar = try XCTUnwrap(redCentre(tilted, at: far, from: Int(box.minY), to: middle, across: false))
        let topNear = try XCTUnwrap(redCentre(tilted, at: near, from: middle, to: Int(box.maxY), across: false))
        let topFar = try XCTUnwrap(redCentre(tilted, at: far, from: middle, to: Int(box.maxY), across: false))
        XCTAssertGreaterThan(abs((topFar - bottomFar) - (topNear - bottomNear)), 5, "the turned camera made the levels converge")
        let keystone = CIFilter.keystoneCorrectionHorizontal()
        keystone.inputImage = tilted
        keystone.bottomLeft = CGPoint(x: Double(near) + 0.5, y: bottomNear)
        keystone.bottomRight = CGPoint(x: Double(far) + 0.5, y: bottomFar)
        keystone.topLeft = CGPoint(x: Double(near) + 0.5, y: topNear)
        keystone.topRight = CGPoint(x: Double(far) + 0.5, y: topFar)
        let corrected = try XCTUnwrap(keystone.outputImage)
        let out = corrected.extent
        let (a, b) = (Int(out.minX + out.width * 0.3), Int(out.minX + out.width * 0.7))
        let centre = Int(out.midY)
        let lower = (
            redCentre(corrected, at: a, from: Int(out.minY), to: centre, across: false),
            redCentre(corrected, at: b, from: Int(out.minY), to: centre, across: false)
        )
        XCTAssertEqual(try XCTUnwrap(lower.0), try XCTUnwrap(lower.1), accuracy: 1.5, "the bottom guide is level")
    }

    func testMaskToAlphaMakesWhiteAsOpaqueAsTheMaskIsLight() throws {
        let mask = CIFilter.maskToAlpha()
        for grey in [0.0, 0.25, 1] {
            mask.inputImage = CIImage(color: CIColor(red: grey, green: grey, blue: grey)).cropped(to: CGRect(x: 0, y: 0, width: 4, height: 4))
            let got = Pictures.value(try XCTUnwrap(mask.outputImage), x: 1, y: 1, context: context)
            for band in got { XCTAssertEqual(band, grey * 255, accuracy: 1, "grey \(grey): premultiplied white of alpha \(grey): \(got)") }
        }
    }

    func testDepthAndDisparityAreEachOneOverTheOther() throws {
        let toDisparity = CIFilter.depthToDisparity(), toDepth = CIFilter.disparityToDepth()
        toDisparity.inputImage = CIImage(color: CIColor(red: 0.5, green: 0.25, blue: 0)).cropped(to: CGRect(x: 0, y: 0, width: 2, height: 2))
        let disparity = try floats(toDisparity.outputImage, 0, 0)
        XCTAssertEqual(disparity[0], 2, accuracy: 0.02, "half a metre: a disparity of 2")
        XCTAssertEqual(disparity[1], 4, accuracy: 0.05)
        XCTAssertEqual(disparity[2], 0, "no depth stays 0")
        XCTAssertEqual(disparity[3], 1, "alpha kept")
        toDepth.inputImage = toDisparity.outputImage
        let depth = try floats(toDepth.outputImage, 1, 1)
        XCTAssertEqual(depth[0], 0.5, accuracy: 0.01, "and back")
        XCTAssertEqual(depth[1], 0.25, accuracy: 0.01)
    }

    func testTheMeshGeneratorDrawsEachSegmentAtItsWidth() throws {
        let mesh = CIFilter.meshGenerator()
        XCTAssertEqual(mesh.width, 1.5, accuracy: 1e-6, "Apple's default")
        XCTAssertEqual(mesh.color, CIColor(red: 1, green: 1, blue: 1), "Apple's default")
        XCTAssertNil(mesh.outputImage.flatMap { $0.extent.isEmpty ? nil : $0 }, "no lines: an empty image")
        mesh.width = 3
        mesh.color = CIColor(red: 1, green: 0, blue: 0)
        mesh.mesh = [CIVector(x: 10, y: 20, z: 50, w: 20), CIVector(x: 30, y: 0, z: 30, w: 40)]
        let image = try XCTUnwrap(mesh.outputImage)
        XCTAssertEqual(Pictures.value(image, x: 15, y: 20, context: context), [255, 0, 0, 255], "on the first line")
        XCTAssertEqual(Pictures.value(image, x: 30, y: 35, context: context), [255, 0, 0, 255], "on the second")
        XCTAssertEqual(Pictures.value(image, x: 15, y: 24, context: context)[3], 0, "3.5 off the line: beyond its half width")
        XCTAssertEqual(Pictures.value(image, x: 55, y: 20, context: context)[3], 0, "past its end")
        // The edge pixel, its centre 1.5 from the line (half the width): half covered.
        XCTAssertEqual(Pictures.value(image, x: 15, y: 21, context: context)[3], 127.5, accuracy: 1, "at the edge: half covered")
        XCTAssertEqual(Pictures.value(image, x: 15, y: 22, context: context)[3], 0, "2.5 from the line: uncovered")
    }
}

/// The depth of field: in focus along its line (saturated and sharpened, as the colour controls
/// and the unsharp mask do it), blurred (as a Gaussian of its radius) away from it, mixed between.
final class CIDepthOfFieldFilterTests: XCTestCase {
    let context = CIContext()

    func testTheFocusLineIsSharpAndTheRestBlurredBeyondHalfThePointsDistance() throws {
        let picture = CIImage(cvPixelBuffer: Pictures.quadrants(width: 64, height: 48))
        let depth = CIFilter.depthOfField()
        XCTAssertEqual(depth.point0, CGPoint(x: 0, y: 300), "Apple's default")
        XCTAssertEqual(depth.saturation, 1.5, accuracy: 1e-6, "Apple's default")
        XCTAssertEqual(depth.radius, 6, "Apple's default")
        depth.inputImage = picture
        depth.point0 = CGPoint(x: 0, y: 24.5)
        depth.point1 = CGPoint(x: 16, y: 24.5)
        let image = try XCTUnwrap(depth.outputImage)
        let controls = CIFilter.colorControls()
        controls.inputImage = picture
        controls.saturation = 1.5
        let sharpen = CIFilter.unsharpMask()
        sharpen.inputImage = controls.outputImage
        sharpen.radius = 2.5
        sharpen.intensity = 0.5
        let sharp = try XCTUnwrap(sharpen.outputImage)
        let blurred = picture.clampedToExtent().applyingGaussianBlur(sigma: 6).cropped(to: picture.extent)
        func value(_ image: CIImage, _ x: Int, _ y: Int) -> [Double] { Pictures.value(image, x: x, y: y, context: context) }
        func floats(_ image: CIImage, _ x: Int, _ y: Int) throws -> [Float] {
            var values = [Float](repeating: .nan, count: 4)
            context.render(image, toBitmap: &values, rowBytes: 16, bounds: CGRect(x: x, y: y, width: 1, height: 1), format: .RGBAf, colorSpace: nil)
            return values
        }
        for x in [10, 31, 33, 50] {
            let onLine = value(image, x, 24), want = value(sharp, x, 24)
            for band in 0..<4 { XCTAssertEqual(onLine[band], want[band], accuracy: 1, "(\(x), 24) on the line: in focus") }
            let far = value(image, x, 40), blur = value(blurred, x, 40)
            for band in 0..<4 { XCTAssertEqual(far[band], blur[band], accuracy: 1, "(\(x), 40), 16 away: blurred") }
            // 4 from the line, half of the falloff (8): half and half (in floats: sharpening overshoots 1).
            let between = try floats(image, x, 28), (a, b) = (try floats(sharp, x, 28), try floats(blurred, x, 28))
            for band in 0..<4 { XCTAssertEqual(between[band], (a[band] + b[band]) / 2, accuracy: 0.005, "(\(x), 28): mixed") }
        }
    }
}
