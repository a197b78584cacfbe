@_exported import CoreGraphics
import Foundation

/// An object that manages image-based content and its geometry.
///
/// Linux has no Core Animation compositor: a layer here is its geometry, which capture API
/// types such as the preview layer and `AVCaptureDevice.RotationCoordinator` take and read.
open class CALayer: NSObject, @unchecked Sendable {
    private let lock = NSLock()
    private var storedFrame = CGRect.zero

    /// Creates a layer with an empty frame.
    public override init() { super.init() }

    /// Creates a copy of a layer's geometry.
    public init(layer: Any) {
        super.init()
        if let other = layer as? CALayer { storedFrame = other.frame }
    }

    /// The layer's frame rectangle, in its superlayer's coordinate space.
    open var frame: CGRect {
        get { lock.withLock { storedFrame } }
        set { lock.withLock { storedFrame = newValue } }
    }

    /// The layer's bounds rectangle, in its own coordinate space: its frame's size at the origin.
    open var bounds: CGRect {
        get { CGRect(origin: .zero, size: frame.size) }
        set { frame = CGRect(origin: frame.origin, size: newValue.size) }
    }
}
