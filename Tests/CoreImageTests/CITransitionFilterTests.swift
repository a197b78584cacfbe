import CoreGraphics
import CoreImage
import CoreImage.CIFilterBuiltins
import Foundation
import XCTest

/// The swipe, copy machine, bars swipe and disintegrate transitions: the image at time 0, the
/// target at 1, and between them the parts each geometry says.
final class CITransitionFilterTests: XCTestCase {
    let context = CIContext()
    let red = CIImage(color: CIColor(red: 1, green: 0, blue: 0)).cropped(to: CGRect(x: 0, y: 0, width: 100, height: 40))
    let blue = CIImage(color: CIColor(red: 0, green: 0, blue: 1)).cropped(to: CGRect(x: 0, y: 0, width: 100, height: 40))

    private func value(_ image: CIImage?, _ x: Int, _ y: Int = 5) throws -> [Double] { Pictures.value(try XCTUnwrap(image), x: x, y: y, context: context) }

    private func assertEnds(_ filter: CIFilter & CITransitionFilter, line: UInt = #line) throws {
        filter.inputImage = red
        filter.targetImage = blue
        filter.time = 0
        for x in [0, 50, 99] { XCTAssertEqual(try value(filter.outputImage, x, 20), [255, 0, 0, 255], "\(filter.name) at 0, x \(x)", line: line) }
        filter.time = 1
        for x in [0, 50, 99] { XCTAssertEqual(try value(filter.outputImage, x, 20), [0, 0, 255, 255], "\(filter.name) at 1, x \(x)", line: line) }
    }

    func testASwipeMovesAnEdgeAcrossTheExtentWithABandBehindIt() throws {
        let swipe = CIFilter.swipeTransition()
        XCTAssertEqual(swipe.width, 300, "Apple's default")
        swipe.extent = CGRect(x: 0, y: 0, width: 100, height: 40)
        swipe.width = 20
        try assertEnds(swipe)
        // At one half the edge is at 60: the target behind the band (40-60), the image ahead.
        swipe.time = 0.5
        XCTAssertEqual(try value(swipe.outputImage, 10), [0, 0, 255, 255])
        XCTAssertEqual(try value(swipe.outputImage, 80), [255, 0, 0, 255])
        let f = (49.5 - 40) / 20
        let middle = try value(swipe.outputImage, 49)
        XCTAssertEqual(middle[0], 255 * f, accuracy: 2, "mixed across the band")
        XCTAssertEqual(middle[2], 255 * (1 - f), accuracy: 2)
        swipe.opacity = 1
        swipe.color = CIColor(red: 0, green: 1, blue: 0)
        XCTAssertEqual(try value(swipe.outputImage, 49), [0, 255, 0, 255], "the colour over the band at full opacity")
        XCTAssertEqual(try value(swipe.outputImage, 80), [255, 0, 0, 255], "and not ahead of it")
    }

    func testTheCopyMachinesLightBarBrightensTheBand() throws {
        let copier = CIFilter.copyMachineTransition()
        XCTAssertEqual(copier.width, 200)
        XCTAssertEqual(copier.opacity, 1.3, accuracy: 1e-6)
        copier.extent = CGRect(x: 0, y: 0, width: 100, height: 40)
        copier.width = 20
        try assertEnds(copier)
        copier.time = 0.5
        let nearEdge = try value(copier.outputImage, 58)
        XCTAssertGreaterThan(nearEdge[1], 50, "the light's green where neither image has any: \(nearEdge)")
        XCTAssertEqual(try value(copier.outputImage, 10), [0, 0, 255, 255], "the target behind the light")
    }

    func testBarsSwipeInTurnsOneBarAnOffsetBehindTheNext() throws {
        let bars = CIFilter.barsSwipeTransition()
        XCTAssertEqual(bars.width, 30)
        XCTAssertEqual(bars.barOffset, 10)
        bars.angle = 0
        bars.width = 10
        bars.barOffset = 10
        try assertEnds(bars)
        // At one half the even bars' edge is at 55, the odd bars' at 45.
        bars.time = 0.5
        XCTAssertEqual(try value(bars.outputImage, 50, 5), [0, 0, 255, 255], "an even bar: past x 50")
        XCTAssertEqual(try value(bars.outputImage, 50, 15), [255, 0, 0, 255], "an odd bar: not yet")
        XCTAssertEqual(try value(bars.outputImage, 40, 15), [0, 0, 255, 255])
    }

    func testDisintegratingChangesDarkPartsOfTheMaskFirstUnderTheShadowOfTheRest() throws {
        let filter = CIFilter.disintegrateWithMaskTransition()
        XCTAssertEqual(filter.shadowRadius, 8)
        XCTAssertEqual(filter.shadowOffset, CGPoint(x: 0, y: -10))
        filter.maskImage = CIImage(color: CIColor(red: 1, green: 1, blue: 1)).cropped(to: CGRect(x: 50, y: 0, width: 50, height: 40)).composited(
            over: CIImage(color: CIColor(red: 0, green: 0, blue: 0)).cropped(to: CGRect(x: 0, y: 0, width: 100, height: 40)))
        filter.shadowDensity = 0
        try assertEnds(filter)
        filter.time = 0.5
        XCTAssertEqual(try value(filter.outputImage, 20), [0, 0, 255, 255], "the mask's black part has changed")
        XCTAssertEqual(try value(filter.outputImage, 80), [255, 0, 0, 255], "its white part has not")
        // A hard shadow of the part still to change, moved ten pixels left, darkens the target there.
        filter.shadowDensity = 1
        filter.shadowRadius = 0
        filter.shadowOffset = CGPoint(x: -10, y: 0)
        XCTAssertEqual(try value(filter.outputImage, 45), [0, 0, 0, 255], "in the shadow")
        XCTAssertEqual(try value(filter.outputImage, 20), [0, 0, 255, 255], "out of it")
    }
}
