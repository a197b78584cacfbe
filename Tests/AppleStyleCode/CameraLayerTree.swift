// A camera screen's layers as a UIView subclass would build them: the preview layer fills the
// view's layer, a focus square and a badge ride above it, and a tap is converted between them.
import AVFoundation

/// The layers of a camera screen.
public final class CameraLayerTree {
    public let root = CALayer()
    public let preview: AVCaptureVideoPreviewLayer
    public let focusSquare = CALayer()
    public let badge = CALayer()

    public init(session: AVCaptureSession, size: CGSize) {
        preview = AVCaptureVideoPreviewLayer(session: session)
        preview.videoGravity = .resizeAspectFill
        root.frame = CGRect(origin: .zero, size: size)
        root.addSublayer(preview)
        root.addSublayer(badge)
        root.insertSublayer(focusSquare, above: preview)
        focusSquare.isHidden = true
        focusSquare.bounds = CGRect(x: 0, y: 0, width: 80, height: 80)
        badge.frame = CGRect(x: size.width - 60, y: 20, width: 40, height: 40)
        layout()
    }

    /// Lays the layers out for the root's size, as `layoutSubviews` does.
    public func layout() {
        preview.frame = root.bounds
    }

    /// Shows the focus square centred where the user tapped, in the root's coordinates, and
    /// returns the tap in the preview layer's coordinates.
    public func tap(at point: CGPoint) -> CGPoint {
        focusSquare.position = point
        focusSquare.isHidden = false
        return preview.convert(point, from: root)
    }

    /// Takes the badge off the screen.
    public func hideBadge() { badge.removeFromSuperlayer() }
}
