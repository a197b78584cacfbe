import XCTest
@testable import AVFoundation

/// Layers turned by any angle, cropped and faded, composed by pixman (AffineLayering): each pixel
/// where the layer's transform puts it, as worked out here from the transform, and as Core Image
/// composes the same recipe.
final class AffineLayeringTests: XCTestCase {
    /// A 160x120 BGRA frame of four coloured quarters: red, green above; blue, yellow below.
    static func quarters() throws -> CVPixelBuffer {
        var made: CVPixelBuffer?
        CVPixelBufferCreate(nil, 160, 120, kCVPixelFormatType_32BGRA, nil, &made)
        let frame = try XCTUnwrap(made)
        CVPixelBufferLockBaseAddress(frame, [])
        let base = CVPixelBufferGetBaseAddress(frame)!.assumingMemoryBound(to: UInt8.self)
        for y in 0..<120 {
            for x in 0..<160 {
                let (r, g, b) = Self.quarterColour(x: Double(x) + 0.5, y: Double(y) + 0.5)
                let pixel = base + y * CVPixelBufferGetBytesPerRow(frame) + x * 4
                (pixel[0], pixel[1], pixel[2], pixel[3]) = (UInt8(b), UInt8(g), UInt8(r), 255)
            }
        }
        CVPixelBufferUnlockBaseAddress(frame, [])
        return frame
    }

    private static func quarterColour(x: Double, y: Double) -> (Int, Int, Int) {
        switch (x < 80, y < 60) {
        case (true, true): return (255, 0, 0)
        case (false, true): return (0, 255, 0)
        case (true, false): return (0, 0, 255)
        case (false, false): return (255, 255, 0)
        }
    }

    private func colour(_ buffer: CVPixelBuffer, _ x: Int, _ y: Int) -> [Int] {
        let base = CVPixelBufferGetBaseAddress(buffer)!.assumingMemoryBound(to: UInt8.self) + y * CVPixelBufferGetBytesPerRow(buffer) + x * 4
        return [Int(base[2]), Int(base[1]), Int(base[0])]
    }

    func testALayerTurnedByAnyAngleIsComposedWhereItsTransformPutsIt() throws {
        let frame = try Self.quarters()
        // Turned 30 degrees about its centre into the middle of a 320x240 render, its right
        // column of 20 pixels cropped away, 70% opaque over grey.
        let transform = CGAffineTransform(translationX: -80, y: -60).concatenating(CGAffineTransform(rotationAngle: .pi / 6))
            .concatenating(CGAffineTransform(translationX: 160, y: 120))
        let crop = CGRect(x: 0, y: 0, width: 140, height: 120)
        let layer = AVMutableVideoCompositionLayerInstruction()
        layer.trackID = 1
        layer.setTransform(transform, at: .zero)
        layer.setCropRectangle(crop, at: .zero)
        layer.setOpacity(0.7, at: .zero)
        let instruction = AVMutableVideoCompositionInstruction()
        instruction.timeRange = CMTimeRange(start: .zero, duration: CMTime(value: 1, timescale: 1))
        instruction.backgroundColor = CGColor(red: 0.5, green: 0.5, blue: 0.5, alpha: 1)
        instruction.layerInstructions = [layer]

        // What each render pixel shows, from the transform: a quarter's colour at 70% over grey,
        // or grey; nil within two pixels of an edge, where sampling smooths.
        let inverse = transform.inverted()
        func expected(_ x: Int, _ y: Int) -> [Int]? {
            let source = CGPoint(x: Double(x) + 0.5, y: Double(y) + 0.5).applying(inverse)
            let inside = crop.insetBy(dx: 2, dy: 2).contains(source), outside = !crop.insetBy(dx: -2, dy: -2).contains(source)
            let quarterEdge = abs(source.x - 80) < 2 || abs(source.y - 60) < 2
            if outside { return [128, 128, 128] }
            guard inside, !quarterEdge else { return nil }
            let (r, g, b) = Self.quarterColour(x: source.x, y: source.y)
            return [r, g, b].map { Int((0.7 * Double($0) + 0.3 * 127.5).rounded()) }
        }

        // The same recipe in Core Image, y up: crop, flip into Core Image's terms, transform, flip back.
        let flipFrame = CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: 120)
        let flipRender = CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: 240)
        let recipe = CIImage(cvPixelBuffer: frame).cropped(to: CGRect(x: 0, y: 0, width: 140, height: 120))
            .transformed(by: flipFrame.concatenating(transform).concatenating(flipRender))
            .applyingFilter("CIColorMatrix", parameters: ["inputAVector": CIVector(x: 0, y: 0, z: 0, w: 0.7)])
            .composited(over: CIImage(color: CIColor(red: 0.5, green: 0.5, blue: 0.5)).cropped(to: CGRect(x: 0, y: 0, width: 320, height: 240)))
        var madeReference: CVPixelBuffer?
        CVPixelBufferCreate(nil, 320, 240, kCVPixelFormatType_32BGRA, nil, &madeReference)
        let reference = try XCTUnwrap(madeReference)
        CIContext().render(recipe, to: reference)

        for format in [kCVPixelFormatType_32BGRA, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange] {
            let layering = try XCTUnwrap(AffineLayering(renderSize: CGSize(width: 320, height: 240), pixelFormat: format), "pixman is loaded")
            var made: CVPixelBuffer?
            CVPixelBufferCreate(nil, 320, 240, format, nil, &made)
            let output = try XCTUnwrap(made)
            // Twice, as a stream of frames is composed: the second frame is the same as the first.
            for _ in 0..<2 { XCTAssertTrue(layering.compose(instruction, at: .zero, into: output) { $0 == 1 ? frame : nil }, "composed by pixman") }
            var rgb = output
            if format != kCVPixelFormatType_32BGRA {
                XCTAssertEqual(
                    (CVBufferCopyAttachment(output, kCVImageBufferYCbCrMatrixKey, nil) as? NSString).map(String.init),
                    kCVImageBufferYCbCrMatrix_ITU_R_601_4 as String,
                    "converted from BGRA with BT.601, and says so")
                var converted: CVPixelBuffer?
                CVPixelBufferCreate(nil, 320, 240, kCVPixelFormatType_32BGRA, nil, &converted)
                rgb = try XCTUnwrap(converted)
                CIContext().render(CIImage(cvPixelBuffer: output), to: rgb)
            }
            var checked = 0, layerPixels = 0
            for y in stride(from: 3, to: 240, by: 7) {
                for x in stride(from: 3, to: 320, by: 7) {
                    guard let want = expected(x, y) else { continue }
                    let seen = colour(rgb, x, y)
                    let tolerance = format == kCVPixelFormatType_32BGRA ? 2 : 12
                    XCTAssertTrue(zip(seen, want).allSatisfy { abs($0 - $1) <= tolerance }, "\(format) at (\(x), \(y)): \(seen), not \(want)")
                    let core = colour(reference, x, y)
                    XCTAssertTrue(zip(seen, core).allSatisfy { abs($0 - $1) <= tolerance + 2 }, "\(format) at (\(x), \(y)): \(seen), Core Image \(core)")
                    checked += 1
                    if want != [128, 128, 128] { layerPixels += 1 }
                }
            }
            XCTAssertGreaterThan(layerPixels, 200, "the turned layer covers many of the pixels checked")
            XCTAssertGreaterThan(checked - layerPixels, 200, "so does the background")
        }
    }

    func testAPictureTurnedFortyFiveDegreesStandsOnItsCornerAndAFlatOneIsLeftToCoreImage() throws {
        let frame = try Self.quarters()
        let layer = AVMutableVideoCompositionLayerInstruction()
        layer.trackID = 7
        layer.setTransform(CGAffineTransform(rotationAngle: .pi / 4).concatenating(CGAffineTransform(translationX: 160, y: 20)), at: .zero)
        let instruction = AVMutableVideoCompositionInstruction()
        instruction.timeRange = CMTimeRange(start: .zero, duration: CMTime(value: 1, timescale: 1))
        instruction.layerInstructions = [layer]
        let layering = try XCTUnwrap(AffineLayering(renderSize: CGSize(width: 320, height: 240), pixelFormat: kCVPixelFormatType_32BGRA))
        var made: CVPixelBuffer?
        CVPixelBufferCreate(nil, 320, 240, kCVPixelFormatType_32BGRA, nil, &made)
        let output = try XCTUnwrap(made)
        XCTAssertTrue(layering.compose(instruction, at: .zero, into: output) { $0 == 7 ? frame : nil })
        // The frame's top-left corner sits at (160, 20); its top edge runs down to the right at 45
        // degrees, its left edge down to the left: red just below the corner, black either side.
        XCTAssertEqual(colour(output, 160, 40).map { $0 > 128 ? 255 : 0 }, [255, 0, 0], "red below the turned corner")
        XCTAssertEqual(colour(output, 140, 25), [0, 0, 0], "black left of the corner")
        XCTAssertEqual(colour(output, 180, 25), [0, 0, 0], "black right of the corner")
        // A layer that cannot be drawn (its transform squashes it flat) is left to Core Image.
        layer.setTransform(CGAffineTransform(scaleX: 0, y: 1), at: .zero)
        XCTAssertFalse(layering.compose(instruction, at: .zero, into: output) { $0 == 7 ? frame : nil })
    }

    /// A two-plane 4:2:0 video-range frame tagged BT.601, each pixel's luma and each 2x2 block's chroma given.
    static func planes(
        width: Int, height: Int, luma: (Int, Int) -> UInt8, chroma: (Int, Int) -> (cb: UInt8, cr: UInt8)
    ) throws -> CVPixelBuffer {
        var made: CVPixelBuffer?
        CVPixelBufferCreate(nil, width, height, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, nil, &made)
        let frame = try XCTUnwrap(made)
        CVBufferSetAttachment(frame, kCVImageBufferYCbCrMatrixKey, kCVImageBufferYCbCrMatrix_ITU_R_601_4, .shouldPropagate)
        CVPixelBufferLockBaseAddress(frame, [])
        defer { CVPixelBufferUnlockBaseAddress(frame, []) }
        let y = CVPixelBufferGetBaseAddressOfPlane(frame, 0)!.assumingMemoryBound(to: UInt8.self)
        let uv = CVPixelBufferGetBaseAddressOfPlane(frame, 1)!.assumingMemoryBound(to: UInt8.self)
        let (yRow, uvRow) = (CVPixelBufferGetBytesPerRowOfPlane(frame, 0), CVPixelBufferGetBytesPerRowOfPlane(frame, 1))
        for row in 0..<height {
            for column in 0..<width { y[row * yRow + column] = luma(column, row) }
        }
        for row in 0..<height / 2 {
            for column in 0..<width / 2 {
                let (cb, cr) = chroma(column * 2, row * 2)
                (uv[row * uvRow + column * 2], uv[row * uvRow + column * 2 + 1]) = (cb, cr)
            }
        }
        return frame
    }

    /// An instruction of one layer (track 1) at a transform and opacity, over a background colour.
    private func instruction(_ transform: CGAffineTransform, opacity: Float = 1, background: CGColor) -> AVMutableVideoCompositionInstruction {
        let layer = AVMutableVideoCompositionLayerInstruction()
        layer.trackID = 1
        layer.setTransform(transform, at: .zero)
        layer.setOpacity(opacity, at: .zero)
        let instruction = AVMutableVideoCompositionInstruction()
        instruction.timeRange = CMTimeRange(start: .zero, duration: CMTime(value: 1, timescale: 1))
        instruction.backgroundColor = background
        instruction.layerInstructions = [layer]
        return instruction
    }

    func testAFrameDrawnAtAQuarterOfItsSizeIsShrunkWithoutAliasingAndLandsWhereItsTransformPutsIt() throws {
        // 640x480: its top half a checkerboard of single black and white pixels, its bottom half red.
        let frame = try Self.planes(
            width: 640, height: 480, luma: { x, y in y >= 240 ? 81 : ((x + y) % 2 == 0 ? 16 : 235) },
            chroma: { _, y in y >= 240 ? (90, 240) : (128, 128) })
        // A quarter of its size (160x120), turned 10 degrees about its centre, in the middle of a 320x240 render over blue.
        let transform = CGAffineTransform(translationX: -320, y: -240).concatenating(CGAffineTransform(scaleX: 0.25, y: 0.25))
            .concatenating(CGAffineTransform(rotationAngle: .pi / 18)).concatenating(CGAffineTransform(translationX: 160, y: 120))
        let composition = instruction(transform, background: CGColor(red: 0, green: 0, blue: 1, alpha: 1))
        let layering = try XCTUnwrap(AffineLayering(renderSize: CGSize(width: 320, height: 240), pixelFormat: kCVPixelFormatType_32BGRA))
        var made: CVPixelBuffer?
        CVPixelBufferCreate(nil, 320, 240, kCVPixelFormatType_32BGRA, nil, &made)
        let output = try XCTUnwrap(made)
        for _ in 0..<2 { XCTAssertTrue(layering.compose(composition, at: .zero, into: output) { $0 == 1 ? frame : nil }) }
        CVPixelBufferLockBaseAddress(output, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(output, .readOnly) }
        let inverse = transform.inverted()
        var greys: [Int] = [], reds = 0, blues = 0
        for y in stride(from: 2, to: 240, by: 3) {
            for x in stride(from: 2, to: 320, by: 3) {
                // Where the pixel's centre comes from in the frame; pixels within 12 frame pixels (3 drawn) of an edge are left out.
                let source = CGPoint(x: Double(x) + 0.5, y: Double(y) + 0.5).applying(inverse)
                let seen = colour(output, x, y)
                if !CGRect(x: -12, y: -12, width: 664, height: 504).contains(source) {
                    XCTAssertEqual(seen, [0, 0, 255], "the background at (\(x), \(y))")
                    blues += 1
                } else if CGRect(x: 12, y: 12, width: 616, height: 216).contains(source) {
                    // Each drawn pixel stands for 16 of the checkerboard's: their mean, mid grey, wherever it falls between them.
                    XCTAssertTrue(seen.allSatisfy { abs($0 - 128) <= 12 }, "the checkerboard's mean at (\(x), \(y)): \(seen)")
                    greys.append(seen[0])
                } else if CGRect(x: 12, y: 252, width: 616, height: 216).contains(source) {
                    XCTAssertTrue(seen[0] > 230 && seen[1] < 25 && seen[2] < 25, "red at (\(x), \(y)): \(seen)")
                    reds += 1
                }
            }
        }
        XCTAssertGreaterThan(greys.count, 300, "the checkerboard covers many of the pixels checked")
        XCTAssertGreaterThan(reds, 300)
        XCTAssertGreaterThan(blues, 1_000)
        XCTAssertLessThanOrEqual((greys.max() ?? 255) - (greys.min() ?? 0), 12, "an even grey, not a pattern of its own")
    }

    func testAnOpaqueUnmovedBottomLayerOfTheRenderSizeIsTheFrameItselfAndAnyOtherShowsTheBackground() throws {
        // 320x240 BT.601 video range: a luma ramp across, chroma varying down.
        let frame = try Self.planes(
            width: 320, height: 240, luma: { x, _ in UInt8(16 + x * 219 / 319) }, chroma: { _, y in (UInt8(64 + y / 2), UInt8(192 - y / 2)) })
        var madeDirect: CVPixelBuffer?
        CVPixelBufferCreate(nil, 320, 240, kCVPixelFormatType_32BGRA, nil, &madeDirect)
        let direct = try XCTUnwrap(madeDirect)
        CIContext().render(CIImage(cvPixelBuffer: frame), to: direct)
        let layering = try XCTUnwrap(AffineLayering(renderSize: CGSize(width: 320, height: 240), pixelFormat: kCVPixelFormatType_32BGRA))
        var made: CVPixelBuffer?
        CVPixelBufferCreate(nil, 320, 240, kCVPixelFormatType_32BGRA, nil, &made)
        let output = try XCTUnwrap(made)
        let green = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
        let cases: [(name: String, transform: CGAffineTransform, opacity: Float)] = [
            ("unmoved", .identity, 1), ("moved a pixel right", CGAffineTransform(translationX: 1, y: 0), 1), ("half opaque", .identity, 0.5),
        ]
        for (name, transform, opacity) in cases {
            XCTAssertTrue(layering.compose(instruction(transform, opacity: opacity, background: green), at: .zero, into: output) { $0 == 1 ? frame : nil })
            CVPixelBufferLockBaseAddress(output, .readOnly)
            CVPixelBufferLockBaseAddress(direct, .readOnly)
            for y in stride(from: 1, to: 240, by: 13) {
                for x in stride(from: 1, to: 320, by: 11) {
                    let seen = colour(output, x, y), own = colour(direct, x - (name == "moved a pixel right" ? 1 : 0), y)
                    let want = opacity < 1 ? zip(own, [0, 255, 0]).map { Int((Double($0) + Double($1)) / 2) } : own
                    XCTAssertTrue(zip(seen, want).allSatisfy { abs($0 - $1) <= 3 }, "\(name) at (\(x), \(y)): \(seen), not \(want)")
                }
            }
            if name == "moved a pixel right" { XCTAssertEqual(colour(output, 0, 120), [0, 255, 0], "the background in the column left uncovered") }
            CVPixelBufferUnlockBaseAddress(direct, .readOnly)
            CVPixelBufferUnlockBaseAddress(output, .readOnly)
        }
    }
}

/// An animation tool's still layer tree drawn once and each frame placed in its video layer by
/// pixman (AnimationToolLayering): where the tree puts it, as the tool's Core Image drawing does.
final class AnimationToolLayeringTests: XCTestCase {
    func testTheFrameIsPlacedInTheVideoLayerBetweenTheStillLayers() throws {
        let frame = try AffineLayeringTests.quarters()
        var made: CVPixelBuffer?
        // A blue root; the video 80% opaque in (40, 30, 160, 120) from the bottom left; a half-opaque red card over it.
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 320, height: 240)
        root.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        let videoLayer = CALayer()
        videoLayer.frame = CGRect(x: 40, y: 30, width: 160, height: 120)
        videoLayer.opacity = 0.8
        let card = CALayer()
        card.frame = CGRect(x: 200, y: 150, width: 100, height: 60)
        card.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        card.opacity = 0.5
        root.addSublayer(videoLayer)
        root.addSublayer(card)
        let tool = AVVideoCompositionCoreAnimationTool(postProcessingAsVideoLayer: videoLayer, in: root)
        // The clip fills the render size.
        let layer = AVMutableVideoCompositionLayerInstruction()
        layer.trackID = 1
        layer.setTransform(CGAffineTransform(scaleX: 2, y: 2), at: .zero)
        let instruction = AVMutableVideoCompositionInstruction()
        instruction.timeRange = CMTimeRange(start: .zero, duration: CMTime(value: 1, timescale: 1))
        instruction.layerInstructions = [layer]
        let layering = try XCTUnwrap(AnimationToolLayering(tool: tool, renderSize: CGSize(width: 320, height: 240), pixelFormat: kCVPixelFormatType_32BGRA))
        CVPixelBufferCreate(nil, 320, 240, kCVPixelFormatType_32BGRA, nil, &made)
        let output = try XCTUnwrap(made)
        for _ in 0..<2 { XCTAssertTrue(layering.compose(instruction, at: .zero, into: output) { $0 == 1 ? frame : nil }) }
        // The same tree drawn by the tool's Core Image drawing, around the frame scaled to the render size.
        let video = CIImage(cvPixelBuffer: frame).transformed(by: CGAffineTransform(scaleX: 2, y: 2))
        CVPixelBufferCreate(nil, 320, 240, kCVPixelFormatType_32BGRA, nil, &made)
        let reference = try XCTUnwrap(made)
        CIContext().render(tool.composite(video: video, renderSize: CGSize(width: 320, height: 240)), to: reference)
        func colour(_ buffer: CVPixelBuffer, _ x: Int, _ y: Int) -> [Int] {
            let base = CVPixelBufferGetBaseAddress(buffer)!.assumingMemoryBound(to: UInt8.self) + y * CVPixelBufferGetBytesPerRow(buffer) + x * 4
            return [Int(base[2]), Int(base[1]), Int(base[0])]
        }
        for (x, y, expected, place) in [
            (10, 10, [0, 0, 255], "the blue root"), (80, 120, [204, 0, 51], "the video's red quarter, 80% over blue"),
            (160, 180, [204, 204, 51], "its yellow quarter"), (250, 60, [128, 0, 128], "the red card, half over blue"),
            (300, 220, [0, 0, 255], "the root again"),
        ] {
            let seen = colour(output, x, y), core = colour(reference, x, y)
            XCTAssertTrue(zip(seen, expected).allSatisfy { abs($0 - $1) <= 3 }, "\(place): \(seen), not \(expected)")
            XCTAssertTrue(zip(seen, core).allSatisfy { abs($0 - $1) <= 3 }, "\(place): \(seen), Core Image \(core)")
        }
        // Frames in two-plane 4:2:0, as a composition's tracks are read for such output, are composed too.
        CVPixelBufferCreate(nil, 160, 120, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, nil, &made)
        let ycbcr = try XCTUnwrap(made)
        CIContext().render(CIImage(cvPixelBuffer: frame), to: ycbcr)
        XCTAssertTrue(layering.compose(instruction, at: .zero, into: output) { $0 == 1 ? ycbcr : nil }, "4:2:0 frames are read")
        XCTAssertTrue(zip(colour(output, 80, 120), [204, 0, 51]).allSatisfy { abs($0 - $1) <= 14 }, "\(colour(output, 80, 120))")
    }
}
