import CoreGraphics
import CoreImage
import CoreMedia
import CoreVideo
import FrameProcessing
import Foundation

/// Composes an instruction's layers in two-plane 4:2:0 itself, without Core Image, when every
/// layer showing is only cropped, scaled, moved, turned by quarter turns or mirrored (whole
/// frames), and faded, onto whole, even pixels: the frames of editing's common cases (cuts,
/// crossfades, picture in picture, letterboxing, phone clips made upright) are turned, copied,
/// scaled and mixed by libyuv into the output buffer, in the frames' own Y'CbCr, with nothing
/// allocated once the scratch buffers exist. Anything else is left to Core Image.
///
/// Thread ownership: owned by one compositing, used under its output's lock.
final class YCbCrLayering {
    /// One layer as it is drawn: where from, where to, how much of it.
    private struct Placement {
        var frame: CVPixelBuffer
        var region: PlaneBlending.Region
        var placement: PlaneBlending.Region
        var fraction: Int
        /// The quarter turn or mirror the layer's transform makes of the whole frame, first.
        var orientation: PixelOrientation
        /// Where the turned frame goes, for a layer that is turned.
        var turned: CVPixelBuffer?
    }

    private let width: Int
    private let height: Int
    private let pixelFormat: OSType
    /// Where a scaled layer that is mixed is scaled first; grown when a larger one comes.
    private var scratch: CVPixelBuffer?
    /// Where turned layers are turned, one for each layer position, kept while their sizes stay.
    private var turnedScratch: [CVPixelBuffer] = []
    private let turning = PixelFormatConverter()
    /// The last instruction's background colour in Y'CbCr, for the matrix it was worked out in.
    private var knownBackground: (instruction: ObjectIdentifier, matrix: VideoColorimetry.Matrix, colour: PlaneBlending.Colour?)?
    /// The layers of the frame being drawn, bottom first; kept to reuse their storage.
    private var placements: [Placement] = []

    /// A layering for output of `renderSize` in `pixelFormat`; nil when it cannot do that format or size.
    init?(renderSize: CGSize, pixelFormat: OSType) {
        guard pixelFormat == kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange || pixelFormat == kCVPixelFormatType_420YpCbCr8BiPlanarFullRange else {
            return nil
        }
        width = Int(renderSize.width)
        height = Int(renderSize.height)
        guard width % 2 == 0, height % 2 == 0 else { return nil }
        self.pixelFormat = pixelFormat
        placements.reserveCapacity(8)
    }

    /// Composes `instruction`'s layers at `time` into `buffer`, reading each layer's frame with
    /// `picture`; false, with the buffer untouched, when a layer is not plain enough.
    func compose(
        _ instruction: AVVideoCompositionInstruction, at time: CMTime, into buffer: CVPixelBuffer, picture: (CMPersistentTrackID) -> CVPixelBuffer?
    ) -> Bool {
        placements.removeAll(keepingCapacity: true)
        var matrix: VideoColorimetry.Matrix?
        // Top layer first: a layer that covers the whole picture hides the ones under it.
        for layer in instruction.layerInstructions {
            let opacity = layer.opacity(at: time)
            guard opacity.isFinite else { return false }
            let fraction = Int((Double(opacity) * 256).rounded())
            guard fraction > 0, let frame = picture(layer.trackID) else { continue }
            guard frame.pixelFormatType == pixelFormat else { return false }
            let frameMatrix = VideoColorimetry.matrix(of: frame)
            if let matrix, matrix != frameMatrix { return false }
            matrix = frameMatrix
            guard let region = Self.region(layer.crop(at: time), of: frame),
                let (placement, orientation) = Self.placement(of: region, by: layer.transform(at: time)), placement.isPlaceable(within: width, height),
                orientation.isIdentity || region == PlaneBlending.Region(x: 0, y: 0, width: frame.width, height: frame.height)
            else { return false }
            placements.append(Placement(frame: frame, region: region, placement: placement, fraction: fraction, orientation: orientation))
            if fraction >= 256, placement == PlaneBlending.Region(x: 0, y: 0, width: width, height: height) { break }
        }
        let covered = placements.last.map { $0.fraction >= 256 && $0.placement == PlaneBlending.Region(x: 0, y: 0, width: width, height: height) } ?? false
        var background: PlaneBlending.Colour?
        if !covered {
            // A background that lets through what is under it needs Core Image's blending.
            guard let colour = backgroundColour(of: instruction, matrix: matrix ?? .bt709) else { return false }
            background = colour
        }
        for index in placements.indices where !placements[index].orientation.isIdentity {
            // A turned layer is turned whole into memory of its own, then placed as an upright frame.
            let frame = placements[index].frame, turnsSides = placements[index].orientation.swapsDimensions
            let (turnedWidth, turnedHeight) = turnsSides ? (frame.height, frame.width) : (frame.width, frame.height)
            while turnedScratch.count <= index {
                guard let made = CVPixelBuffer(width: turnedWidth, height: turnedHeight, pixelFormatType: pixelFormat) else { return false }
                turnedScratch.append(made)
            }
            if turnedScratch[index].width != turnedWidth || turnedScratch[index].height != turnedHeight {
                guard let made = CVPixelBuffer(width: turnedWidth, height: turnedHeight, pixelFormatType: pixelFormat) else { return false }
                turnedScratch[index] = made
            }
            placements[index].turned = turnedScratch[index]
            placements[index].region = PlaneBlending.Region(x: 0, y: 0, width: turnedWidth, height: turnedHeight)
        }
        for layer in placements where layer.fraction < 256 && (layer.region.width != layer.placement.width || layer.region.height != layer.placement.height) {
            if (scratch?.width ?? 0) < layer.placement.width || (scratch?.height ?? 0) < layer.placement.height {
                scratch = CVPixelBuffer(
                    width: max(layer.placement.width, scratch?.width ?? 0), height: max(layer.placement.height, scratch?.height ?? 0),
                    pixelFormatType: pixelFormat)
                guard scratch != nil else { return false }
            }
        }
        if let background { PlaneBlending.fill(buffer, PlaneBlending.Region(x: 0, y: 0, width: width, height: height), with: background) }
        for layer in placements.reversed() {
            var source = layer.frame
            if let turned = layer.turned {
                guard turning.convert(layer.frame, into: turned, orientation: layer.orientation) else { return false }
                source = turned
            }
            guard PlaneBlending.place(source, region: layer.region, into: buffer, placement: layer.placement, fraction: layer.fraction, scratch: scratch)
            else { return false }
        }
        if let first = placements.first {
            VideoColorimetry.copy(from: first.frame, to: buffer)
        } else {
            // The background alone, in the matrix it was worked out in.
            VideoColorimetry.tagMatrix(.bt709, of: buffer)
        }
        placements.removeAll(keepingCapacity: true)
        return true
    }

    /// An instruction's background colour in Y'CbCr, worked out once for each instruction and
    /// matrix; nil when it is not opaque.
    private func backgroundColour(of instruction: AVVideoCompositionInstruction, matrix: VideoColorimetry.Matrix) -> PlaneBlending.Colour? {
        if let known = knownBackground, known.instruction == ObjectIdentifier(instruction), known.matrix == matrix { return known.colour }
        let colour = CIColor(cgColor: instruction.backgroundColor ?? CGColor(red: 0, green: 0, blue: 0, alpha: 1))
        let converted =
            colour.alpha >= 1
            ? PlaneBlending.Colour(
                red: Double(colour.red), green: Double(colour.green), blue: Double(colour.blue), matrix: matrix,
                fullRange: pixelFormat == kCVPixelFormatType_420YpCbCr8BiPlanarFullRange) : nil
        knownBackground = (ObjectIdentifier(instruction), matrix, converted)
        return converted
    }

    /// The part of a frame a crop keeps, in whole even pixels; nil when it is not that.
    private static func region(_ crop: CGRect?, of frame: CVPixelBuffer) -> PlaneBlending.Region? {
        let bounds = CGRect(x: 0, y: 0, width: frame.width, height: frame.height)
        let kept = crop.map { $0.standardized.intersection(bounds) } ?? bounds
        guard !kept.isNull, let x = whole(kept.minX), let y = whole(kept.minY), let width = whole(kept.width), let height = whole(kept.height) else {
            return nil
        }
        let region = PlaneBlending.Region(x: x, y: y, width: width, height: height)
        return region.isPlaceable(within: frame.width, frame.height) ? region : nil
    }

    /// Where a transform that scales, moves and turns by quarter turns or mirrors puts a region, in
    /// whole pixels, and the turn it makes (clockwise on the screen, whose y goes down); nil for any other transform.
    private static func placement(of region: PlaneBlending.Region, by transform: CGAffineTransform) -> (PlaneBlending.Region, PixelOrientation)? {
        let (a, b, c, d) = (transform.a, transform.b, transform.c, transform.d)
        let orientation: PixelOrientation
        if b == 0, c == 0, a != 0, d != 0 {
            // Right stays right or turns left; down stays down or turns up.
            switch (a > 0, d > 0) {
            case (true, true): orientation = .identity
            case (false, false): orientation = PixelOrientation(rotationDegrees: 180, mirrored: false)
            case (false, true): orientation = PixelOrientation(rotationDegrees: 0, mirrored: true)
            case (true, false): orientation = PixelOrientation(rotationDegrees: 180, mirrored: true)
            }
        } else if a == 0, d == 0, b != 0, c != 0 {
            // Right turns down or up; down turns left or right.
            switch (b > 0, c > 0) {
            case (true, false): orientation = PixelOrientation(rotationDegrees: 90, mirrored: false)
            case (false, true): orientation = PixelOrientation(rotationDegrees: 270, mirrored: false)
            case (true, true): orientation = PixelOrientation(rotationDegrees: 90, mirrored: true)
            case (false, false): orientation = PixelOrientation(rotationDegrees: 270, mirrored: true)
            }
        } else {
            return nil
        }
        let moved = CGRect(x: region.x, y: region.y, width: region.width, height: region.height).applying(transform)
        guard let x = whole(moved.minX), let y = whole(moved.minY), let width = whole(moved.width), let height = whole(moved.height) else { return nil }
        return (PlaneBlending.Region(x: x, y: y, width: width, height: height), orientation)
    }

    /// A value as a whole number when it is one (within a millionth), else nil.
    private static func whole(_ value: CGFloat) -> Int? {
        guard value.isFinite, abs(value) < 1e8 else { return nil }
        let rounded = value.rounded()
        return abs(value - rounded) < 1e-6 ? Int(rounded) : nil
    }
}
