import CoreGraphics
import CoreImage
import CoreMedia
import CoreVideo
import FrameProcessing
import Foundation

/// Composes an instruction's layers through any affine transform (turned by any angle, sheared,
/// placed between pixels), cropped and faded, over its background, with pixman in BGRA: the
/// compositions the Y'CbCr layering cannot take, without Core Image. The canvas is the output
/// buffer itself for BGRA output, or a scratch picture converted into two-plane 4:2:0 (BT.601,
/// as libyuv writes it) for that output; frames, scratch pictures and pixman's views of them
/// are made once, so a steady composition allocates nothing.
///
/// Thread ownership: owned by one compositing, used under its output's lock.
final class AffineLayering {
    private let width: Int
    private let height: Int
    private let pixelFormat: OSType
    private let blending: AffineBlending
    /// Where layers are composed for Y'CbCr output, before conversion; nil for BGRA output.
    private let canvas: CVPixelBuffer?
    private let converter = PixelFormatConverter()
    /// The formats of the frames it composes: BGRA, and two-plane 4:2:0 (converted into a layer's scratch picture).
    private static let readable: Set<OSType> = [
        kCVPixelFormatType_32BGRA, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange,
    ]
    /// The last instruction's background colour, as red, green, blue and alpha.
    private var knownBackground: (instruction: ObjectIdentifier, colour: (Double, Double, Double, Double))?

    /// A layering for output of `renderSize` in `pixelFormat`; nil when it cannot do that format
    /// or pixman cannot be loaded.
    init?(renderSize: CGSize, pixelFormat: OSType) {
        width = Int(renderSize.width)
        height = Int(renderSize.height)
        guard let canvas = AffineLayering.canvas(width: width, height: height, output: pixelFormat) else { return nil }
        self.canvas = canvas
        guard let blending = AffineBlending() else { return nil }
        self.blending = blending
        self.pixelFormat = pixelFormat
    }

    /// Where BGRA layers are composed for output in `output`: none (`.some(nil)`: the output buffer
    /// itself) for BGRA, a BGRA picture of the render size for two-plane 4:2:0, and nil for any
    /// other format, which is not composed this way.
    static func canvas(width: Int, height: Int, output: OSType) -> CVPixelBuffer?? {
        switch output {
        case kCVPixelFormatType_32BGRA: return .some(nil)
        case kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange:
            return CVPixelBuffer(width: width, height: height, pixelFormatType: kCVPixelFormatType_32BGRA).map { .some($0) }
        default: return nil
        }
    }

    /// Composes `instruction`'s layers at `time` into `buffer`, reading each layer's frame with
    /// `picture`; false when a layer's frame is in a format it cannot read or a transform it
    /// cannot take (the buffer is then to be composed another way).
    func compose(
        _ instruction: AVVideoCompositionInstruction, at time: CMTime, into buffer: CVPixelBuffer, picture: (CMPersistentTrackID) -> CVPixelBuffer?
    ) -> Bool {
        guard buffer.width == width, buffer.height == height, buffer.pixelFormatType == pixelFormat else { return false }
        let target = canvas ?? buffer
        CVPixelBufferLockBaseAddress(buffer, [])
        defer { CVPixelBufferUnlockBaseAddress(buffer, []) }
        var filled = false
        // Bottom layer first: the instruction lists them top first.
        for (slot, layer) in instruction.layerInstructions.reversed().enumerated() {
            let opacity = Double(layer.opacity(at: time))
            guard opacity > 0, let frame = picture(layer.trackID) else { continue }
            guard Self.readable.contains(frame.pixelFormatType) else { return false }
            CVPixelBufferLockBaseAddress(frame, .readOnly)
            defer { CVPixelBufferUnlockBaseAddress(frame, .readOnly) }
            let crop = layer.crop(at: time), transform = layer.transform(at: time)
            if !filled {
                filled = true
                // A bottom layer that covers the whole canvas, opaque and unmoved, is converted into it: nothing shows through to fill.
                if covers(frame, crop: crop, transform: transform, opacity: opacity), converter.convert(frame, into: target, copyingColorTags: false) {
                    continue
                }
                fillBackground(target, instruction)
            }
            // A frame drawn at half its size or less is shrunk before it is converted; otherwise converted whole.
            if crop == nil, let (source, shrunkTransform) = blending.shrunkLayer(frame, transform: transform, slot: slot) {
                guard blending.draw(source, transform: shrunkTransform, opacity: opacity, onto: target) else { return false }
                continue
            }
            // A crop that leaves nothing shows nothing.
            guard let source = blending.layer(frame, crop: crop, slot: slot) else { continue }
            guard blending.draw(source, transform: transform, opacity: opacity, onto: target) else { return false }
        }
        if !filled { fillBackground(target, instruction) }
        if let canvas { return converter.convert(canvas, into: buffer) }
        return true
    }

    /// Whether a layer's frame, so placed, hides the whole canvas: two-plane 4:2:0 (opaque) of the
    /// render size, whole, fully opaque and not moved.
    private func covers(_ frame: CVPixelBuffer, crop: CGRect?, transform: CGAffineTransform, opacity: Double) -> Bool {
        frame.pixelFormatType != kCVPixelFormatType_32BGRA && frame.width == width && frame.height == height && opacity >= 1
            && transform.isIdentity && (crop.map { $0.standardized.contains(CGRect(x: 0, y: 0, width: width, height: height)) } ?? true)
    }

    /// Paints the canvas the instruction's background colour.
    private func fillBackground(_ target: CVPixelBuffer, _ instruction: AVVideoCompositionInstruction) {
        let (red, green, blue, alpha) = background(of: instruction)
        blending.fill(target, red: red, green: green, blue: blue, alpha: alpha)
    }

    /// An instruction's background colour, worked out once for each instruction.
    private func background(of instruction: AVVideoCompositionInstruction) -> (Double, Double, Double, Double) {
        if let known = knownBackground, known.instruction == ObjectIdentifier(instruction) { return known.colour }
        let colour = CIColor(cgColor: instruction.backgroundColor ?? CGColor(red: 0, green: 0, blue: 0, alpha: 1))
        let found = (Double(colour.red), Double(colour.green), Double(colour.blue), Double(colour.alpha))
        knownBackground = (ObjectIdentifier(instruction), found)
        return found
    }
}
