@_exported import CoreGraphics
import Foundation

/// An object that manages image-based content and its geometry.
///
/// Linux has no Core Animation compositor: a layer here is its geometry and its place in a layer
/// tree, which capture API types such as the preview layer and `AVCaptureDevice.RotationCoordinator`
/// take and read, and which apps build to lay out their views. Its frame, bounds, position and
/// anchor point stay consistent as Core Animation keeps them (without a transform). Thread-safe.
open class CALayer: NSObject, @unchecked Sendable {
    private struct Geometry {
        var bounds = CGRect.zero
        var position = CGPoint.zero
        var anchorPoint = CGPoint(x: 0.5, y: 0.5)
    }

    private let lock = NSLock()
    private var geometry = Geometry()
    private var children: [CALayer] = []
    private weak var parent: CALayer?

    /// Creates a layer with an empty frame.
    public override init() { super.init() }

    /// Creates a copy of a layer's geometry (not its place in a tree).
    public init(layer: Any) {
        super.init()
        if let other = layer as? CALayer {
            geometry = other.lock.withLock { other.geometry }
            name = other.name
            isHidden = other.isHidden
            opacity = other.opacity
        }
    }

    // MARK: Geometry

    /// The layer's bounds rectangle, in its own coordinate space.
    open var bounds: CGRect {
        get { lock.withLock { geometry.bounds } }
        set { lock.withLock { geometry.bounds = newValue } }
    }

    /// The layer's position in its superlayer's coordinate space: where its anchor point is.
    open var position: CGPoint {
        get { lock.withLock { geometry.position } }
        set { lock.withLock { geometry.position = newValue } }
    }

    /// Defines the anchor point of the layer's bounds rectangle, in unit coordinates of the bounds.
    open var anchorPoint: CGPoint {
        get { lock.withLock { geometry.anchorPoint } }
        set { lock.withLock { geometry.anchorPoint = newValue } }
    }

    /// The layer's frame rectangle, in its superlayer's coordinate space: derived from its bounds,
    /// position and anchor point, and setting it moves the position and resizes the bounds.
    open var frame: CGRect {
        get {
            lock.withLock {
                let size = geometry.bounds.size
                return CGRect(
                    x: geometry.position.x - geometry.anchorPoint.x * size.width, y: geometry.position.y - geometry.anchorPoint.y * size.height,
                    width: size.width, height: size.height)
            }
        }
        set {
            lock.withLock {
                let frame = newValue.standardized
                geometry.bounds.size = frame.size
                geometry.position = CGPoint(
                    x: frame.minX + geometry.anchorPoint.x * frame.width, y: frame.minY + geometry.anchorPoint.y * frame.height)
            }
        }
    }

    /// The layer's position on the z axis.
    open var zPosition: CGFloat = 0
    /// The name of the layer.
    open var name: String?
    /// A Boolean indicating whether the layer is displayed.
    open var isHidden = false
    /// The opacity of the layer, from 0 to 1.
    open var opacity: Float = 1
    /// The background color of the layer.
    open var backgroundColor: CGColor?
    /// The radius to use when drawing rounded corners for the layer's background.
    open var cornerRadius: CGFloat = 0
    /// A Boolean indicating whether sublayers are clipped to the layer's bounds.
    open var masksToBounds = false
    /// The scale factor applied to the layer.
    open var contentsScale: CGFloat = 1
    /// An object that provides the contents of the layer.
    open var contents: Any?

    // MARK: The layer tree

    /// An array containing the layer's sublayers, back to front; nil when it has none.
    open var sublayers: [CALayer]? {
        get { lock.withLock { children.isEmpty ? nil : children } }
        set {
            for layer in sublayers ?? [] { layer.removeFromSuperlayer() }
            for layer in newValue ?? [] { addSublayer(layer) }
        }
    }

    /// The superlayer of the layer.
    open var superlayer: CALayer? { lock.withLock { parent } }

    /// Appends the layer to the layer's list of sublayers, taking it from any superlayer it had.
    open func addSublayer(_ layer: CALayer) { insert(layer) { $0.count } }

    /// Inserts the specified layer into the receiver's list of sublayers at the specified index.
    open func insertSublayer(_ layer: CALayer, at index: UInt32) { insert(layer) { Swift.min(Int(index), $0.count) } }

    /// Inserts the specified sublayer below a different sublayer that already belongs to the receiver.
    open func insertSublayer(_ layer: CALayer, below sibling: CALayer?) {
        insert(layer) { children in sibling.flatMap { sibling in children.firstIndex { $0 === sibling } } ?? 0 }
    }

    /// Inserts the specified sublayer above a different sublayer that already belongs to the receiver.
    open func insertSublayer(_ layer: CALayer, above sibling: CALayer?) {
        insert(layer) { children in sibling.flatMap { sibling in children.firstIndex { $0 === sibling }.map { $0 + 1 } } ?? children.count }
    }

    /// Replaces the specified sublayer with a different layer object.
    open func replaceSublayer(_ oldLayer: CALayer, with newLayer: CALayer) {
        guard oldLayer.superlayer === self, oldLayer !== newLayer else { return }
        insertSublayer(newLayer, above: oldLayer)
        oldLayer.removeFromSuperlayer()
    }

    /// Detaches the layer from its parent layer.
    open func removeFromSuperlayer() {
        guard let parent = superlayer else { return }
        parent.lock.withLock { parent.children.removeAll { $0 === self } }
        lock.withLock { self.parent = nil }
    }

    private func insert(_ layer: CALayer, at index: ([CALayer]) -> Int) {
        guard layer !== self else { return }
        layer.removeFromSuperlayer()
        lock.withLock { children.insert(layer, at: index(children)) }
        layer.lock.withLock { layer.parent = self }
    }

    // MARK: Layout

    /// Tells the layer its sublayers need laying out, which this system does at once.
    open func setNeedsLayout() { layoutSublayers() }
    /// Lays out the layer's sublayers if a layout is pending.
    open func layoutIfNeeded() {}
    /// Tells the layer to update its layout; subclasses override it to place their sublayers.
    open func layoutSublayers() {}
    /// Marks the layer's contents as needing to be updated.
    open func setNeedsDisplay() {}

    // MARK: Coordinate spaces

    /// Converts a point from the coordinate system of the layer given to that of the receiver;
    /// nil for the root of the receiver's tree.
    open func convert(_ point: CGPoint, from layer: CALayer?) -> CGPoint {
        let inRoot = layer?.pointInRoot(point) ?? point
        return pointFromRoot(inRoot)
    }

    /// Converts a point from the receiver's coordinate system to that of the layer given (or its tree's root).
    open func convert(_ point: CGPoint, to layer: CALayer?) -> CGPoint {
        let inRoot = pointInRoot(point)
        return layer?.pointFromRoot(inRoot) ?? inRoot
    }

    /// Converts a rectangle from the coordinate system of the layer given to that of the receiver.
    open func convert(_ rect: CGRect, from layer: CALayer?) -> CGRect {
        CGRect(origin: convert(rect.origin, from: layer), size: rect.size)
    }

    /// Converts a rectangle from the receiver's coordinate system to that of the layer given.
    open func convert(_ rect: CGRect, to layer: CALayer?) -> CGRect {
        CGRect(origin: convert(rect.origin, to: layer), size: rect.size)
    }

    /// A point in this layer's space, in its tree's root's.
    private func pointInRoot(_ point: CGPoint) -> CGPoint {
        var point = point
        var layer: CALayer? = self
        while let current = layer, let parent = current.superlayer {
            let frame = current.frame, origin = current.bounds.origin
            point = CGPoint(x: point.x - origin.x + frame.minX, y: point.y - origin.y + frame.minY)
            layer = parent
        }
        return point
    }

    /// A point in this layer's tree's root's space, in this layer's.
    private func pointFromRoot(_ point: CGPoint) -> CGPoint {
        let origin = pointInRoot(.zero)
        return CGPoint(x: point.x - origin.x, y: point.y - origin.y)
    }
}
