import CoreGraphics
import CoreImage
import CoreMedia
import Foundation
import QuartzCore

/// An object used to incorporate Core Animation layers into a video composition.
///
/// Linux has no Core Animation renderer: the tool draws what a layer tree holds still: each
/// layer's background colour and image contents (a `CGImage`) in its frame, its opacity, hidden
/// layers left out, sublayers in order of `zPosition`, and the composed video in the video layers'
/// frames. The still layers are drawn once, with Core Image; each frame is then placed between
/// them by pixman (or, with the app's own filters, the whole is drawn by Core Image). Geometry is Core Animation's for this tool: the origin at
/// the bottom left. Animations, text layers, corner radii, masks and borders are not drawn.
open class AVVideoCompositionCoreAnimationTool: NSObject, @unchecked Sendable {
    let videoLayers: [CALayer]
    let animationLayer: CALayer
    /// The track ID an additional layer is composed as, for a tool made with one; nil for post-processing.
    let additionalTrackID: CMPersistentTrackID?

    /// Composes the composited video frames with the Core Animation layers, placing the video in `videoLayer`.
    public convenience init(postProcessingAsVideoLayer videoLayer: CALayer, in animationLayer: CALayer) {
        self.init(postProcessingAsVideoLayers: [videoLayer], in: animationLayer)
    }

    /// Composes the composited video frames with the Core Animation layers, placing the video in each of `videoLayers`.
    public init(postProcessingAsVideoLayers videoLayers: [CALayer], in animationLayer: CALayer) {
        self.videoLayers = videoLayers
        self.animationLayer = animationLayer
        additionalTrackID = nil
        super.init()
    }

    /// Adds a Core Animation layer to the video composition as an additional track, which layer instructions name by `trackID`.
    public init(additionalLayer layer: CALayer, asTrackID trackID: CMPersistentTrackID) {
        videoLayers = []
        animationLayer = layer
        additionalTrackID = trackID
        super.init()
    }

    /// The additional layer's picture at the render size: the layer tree drawn in its frame (render
    /// coordinates, origin at the bottom left), transparent where it draws nothing.
    func additionalPicture(renderSize: CGSize) -> CIImage {
        let bounds = CGRect(origin: .zero, size: renderSize)
        var picture = CIImage.empty()
        draw(animationLayer, at: animationLayer.frame, opacity: 1, scale: .identity, video: picture, renderSize: renderSize, over: &picture)
        return picture.cropped(to: bounds)
    }

    /// The frame's picture, `video` of `renderSize`, placed in the layer tree and drawn at the render size.
    func composite(video: CIImage, renderSize: CGSize) -> CIImage {
        let bounds = CGRect(origin: .zero, size: renderSize)
        let rootSize = animationLayer.bounds.size
        // The tree is drawn at the render size: a root of another size is scaled to it.
        let scale = CGAffineTransform(
            scaleX: rootSize.width > 0 ? renderSize.width / rootSize.width : 1, y: rootSize.height > 0 ? renderSize.height / rootSize.height : 1)
        var picture = CIImage(color: CIColor(red: 0, green: 0, blue: 0)).cropped(to: bounds)
        draw(animationLayer, at: CGRect(origin: .zero, size: rootSize), opacity: 1, scale: scale, video: video, renderSize: renderSize, over: &picture)
        return picture.cropped(to: bounds)
    }

    /// One step of drawing the tree over a frame: still layers drawn once, or the frame placed in a video layer.
    enum Step {
        /// Still layers, drawn at the render size (origin at the bottom left), transparent elsewhere.
        case still(CIImage)
        /// The frame, scaled into `rect` (render coordinates, origin at the bottom left), faded by `opacity`.
        case video(rect: CGRect, opacity: CGFloat)
    }

    /// The tree as steps over a black background: the still layers between video layers gathered
    /// into one picture each, so that they can be drawn once and the frames placed between them.
    func steps(renderSize: CGSize) -> [Step] {
        let rootSize = animationLayer.bounds.size
        let scale = CGAffineTransform(
            scaleX: rootSize.width > 0 ? renderSize.width / rootSize.width : 1, y: rootSize.height > 0 ? renderSize.height / rootSize.height : 1)
        var steps: [Step] = []
        var still: CIImage?
        walk(animationLayer, at: CGRect(origin: .zero, size: rootSize), opacity: 1, scale: scale) { part in
            switch part {
            case .still(let image): still = image.composited(over: still ?? CIImage.empty())
            case .video:
                if let gathered = still { steps.append(.still(gathered.cropped(to: CGRect(origin: .zero, size: renderSize)))) }
                still = nil
                steps.append(part)
            }
        }
        if let still { steps.append(.still(still.cropped(to: CGRect(origin: .zero, size: renderSize)))) }
        return steps
    }

    /// Draws `layer` (in `rect`, root coordinates before `scale`) and its sublayers over `picture`.
    private func draw(
        _ layer: CALayer, at rect: CGRect, opacity inherited: CGFloat, scale: CGAffineTransform, video: CIImage, renderSize: CGSize, over picture: inout CIImage
    ) {
        walk(layer, at: rect, opacity: inherited, scale: scale) { part in
            switch part {
            case .still(let image): picture = image.composited(over: picture)
            case .video(let placed, let opacity): picture = Self.faded(Self.fit(video, from: renderSize, into: placed), opacity).composited(over: picture)
            }
        }
    }

    /// Hands each thing `layer` (in `rect`) and its sublayers draw to `body`, bottom first.
    private func walk(_ layer: CALayer, at rect: CGRect, opacity inherited: CGFloat, scale: CGAffineTransform, _ body: (Step) -> Void) {
        let opacity = inherited * CGFloat(layer.opacity)
        guard !layer.isHidden, opacity > 0 else { return }
        let placed = rect.applying(scale)
        if let colour = layer.backgroundColor {
            body(.still(Self.faded(CIImage(color: CIColor(cgColor: colour)).cropped(to: placed), opacity)))
        }
        if videoLayers.contains(where: { $0 === layer }) {
            body(.video(rect: placed, opacity: opacity))
        } else if let image = layer.contents as? CGImage {
            body(.still(Self.faded(Self.fit(CIImage(cgImage: image), from: CGSize(width: image.width, height: image.height), into: placed), opacity)))
        }
        let children = (layer.sublayers ?? []).enumerated().sorted { ($0.element.zPosition, $0.offset) < ($1.element.zPosition, $1.offset) }
        for (_, child) in children {
            walk(child, at: child.frame.offsetBy(dx: rect.minX, dy: rect.minY), opacity: opacity, scale: scale, body)
        }
    }

    /// An image of `size` scaled into `rect`.
    private static func fit(_ image: CIImage, from size: CGSize, into rect: CGRect) -> CIImage {
        guard size.width > 0, size.height > 0 else { return image }
        return image.transformed(by: CGAffineTransform(a: rect.width / size.width, b: 0, c: 0, d: rect.height / size.height, tx: rect.minX, ty: rect.minY))
    }

    /// An image faded by `opacity` (its alpha scaled, as Apple's colour matrix takes colours not premultiplied).
    private static func faded(_ image: CIImage, _ opacity: CGFloat) -> CIImage {
        guard opacity < 1 else { return image }
        return image.applyingFilter("CIColorMatrix", parameters: ["inputAVector": CIVector(x: 0, y: 0, z: 0, w: opacity)])
    }
}
