import CoreGraphics
import CoreImage
import CoreMedia
import CoreVideo
import FrameProcessing
import Foundation

/// Composes an animation tool's layer tree around each frame without Core Image at each frame:
/// the tree's still layers are drawn once (with Core Image) into pictures of the render size, and
/// each frame (the instruction's layers composed by pixman) is placed between them, scaled into
/// its video layers and faded, by pixman. The pictures, the frame's scratch and pixman's views
/// of them are made once, so a steady composition allocates nothing.
///
/// Thread ownership: owned by one compositing, used under its output's lock.
final class AnimationToolLayering {
    private enum Step {
        case still(CVPixelBuffer)
        case video(transform: CGAffineTransform, opacity: Double)
    }

    private let width: Int
    private let height: Int
    private let pixelFormat: OSType
    private let steps: [Step]
    private let blending: AffineBlending
    /// The instruction's layers composed, before the tree is drawn around them.
    private let video: CVPixelBuffer
    private let videoLayering: AffineLayering
    /// Where the tree is drawn for Y'CbCr output, before conversion; nil for BGRA output.
    private let canvas: CVPixelBuffer?
    private let converter = PixelFormatConverter()

    /// A layering of `tool`'s tree for output of `renderSize` in `pixelFormat`; nil when it cannot
    /// do that format or a still picture cannot be drawn.
    init?(tool: AVVideoCompositionCoreAnimationTool, renderSize: CGSize, pixelFormat: OSType) {
        width = Int(renderSize.width)
        height = Int(renderSize.height)
        guard let canvas = AffineLayering.canvas(width: width, height: height, output: pixelFormat) else { return nil }
        self.canvas = canvas
        guard let blending = AffineBlending(), let videoLayering = AffineLayering(renderSize: renderSize, pixelFormat: kCVPixelFormatType_32BGRA),
            let video = CVPixelBuffer(width: width, height: height, pixelFormatType: kCVPixelFormatType_32BGRA)
        else { return nil }
        let bounds = CGRect(origin: .zero, size: renderSize)
        let context = CIContext()
        var steps: [Step] = []
        for step in tool.steps(renderSize: renderSize) {
            switch step {
            case .still(let image):
                // Transparent where the still layers draw nothing.
                guard let picture = CVPixelBuffer(width: width, height: height, pixelFormatType: kCVPixelFormatType_32BGRA),
                    context.renderingProblem(image.composited(over: CIImage(color: .clear).cropped(to: bounds)), to: picture) == nil
                else { return nil }
                steps.append(.still(picture))
            case .video(let rect, let opacity):
                // From the frame's pixels into the layer's rectangle, both from the top left.
                guard rect.width > 0, rect.height > 0 else { continue }
                let transform = CGAffineTransform(
                    a: rect.width / renderSize.width, b: 0, c: 0, d: rect.height / renderSize.height, tx: rect.minX, ty: renderSize.height - rect.maxY)
                steps.append(.video(transform: transform, opacity: Double(opacity)))
            }
        }
        self.steps = steps
        self.blending = blending
        self.videoLayering = videoLayering
        self.video = video
        self.pixelFormat = pixelFormat
    }

    /// Composes `instruction`'s layers at `time` and draws the tree around them into `buffer`;
    /// false when a layer cannot be composed this way.
    func compose(
        _ instruction: AVVideoCompositionInstruction, at time: CMTime, into buffer: CVPixelBuffer, picture: (CMPersistentTrackID) -> CVPixelBuffer?
    ) -> Bool {
        guard buffer.width == width, buffer.height == height, buffer.pixelFormatType == pixelFormat,
            videoLayering.compose(instruction, at: time, into: video, picture: picture)
        else { return false }
        let target = canvas ?? buffer
        CVPixelBufferLockBaseAddress(buffer, [])
        defer { CVPixelBufferUnlockBaseAddress(buffer, []) }
        // Black under the tree, as Core Animation's render of it starts.
        blending.fill(target, red: 0, green: 0, blue: 0, alpha: 1)
        for step in steps {
            switch step {
            case .still(let picture): guard blending.draw(picture, transform: .identity, opacity: 1, onto: target) else { return false }
            case .video(let transform, let opacity): guard blending.draw(video, transform: transform, opacity: opacity, onto: target) else { return false }
            }
        }
        if let canvas { return converter.convert(canvas, into: buffer) }
        return true
    }
}
