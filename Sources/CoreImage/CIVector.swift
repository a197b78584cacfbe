import CoreGraphics
import Foundation

/// A container for coordinate values, direction vectors, matrices and other non-scalar values,
/// as Core Image filters take them.
open class CIVector: NSObject, @unchecked Sendable {
    private let values: [CGFloat]

    /// Initializes a vector with the given values.
    public init(values: UnsafePointer<CGFloat>, count: Int) {
        self.values = Array(UnsafeBufferPointer(start: values, count: max(0, count)))
        super.init()
    }

    private init(_ values: [CGFloat]) {
        self.values = values
        super.init()
    }

    /// Initializes a vector with one value.
    public convenience init(x: CGFloat) { self.init([x]) }
    /// Initializes a vector with two values.
    public convenience init(x: CGFloat, y: CGFloat) { self.init([x, y]) }
    /// Initializes a vector with three values.
    public convenience init(x: CGFloat, y: CGFloat, z: CGFloat) { self.init([x, y, z]) }
    /// Initializes a vector with four values.
    public convenience init(x: CGFloat, y: CGFloat, z: CGFloat, w: CGFloat) { self.init([x, y, z, w]) }
    /// Initializes a vector with a point's coordinates.
    public convenience init(cgPoint p: CGPoint) { self.init([p.x, p.y]) }
    /// Initializes a vector with a rectangle's origin and size (x, y, width, height).
    public convenience init(cgRect r: CGRect) { self.init([r.origin.x, r.origin.y, r.size.width, r.size.height]) }
    /// Initializes a vector with an affine transform's six values (a, b, c, d, tx, ty).
    public convenience init(cgAffineTransform t: CGAffineTransform) { self.init([t.a, t.b, t.c, t.d, t.tx, t.ty]) }
    /// Initializes a vector from a string of its values, such as "[1 2 3]".
    public convenience init(string representation: String) {
        self.init(representation.split { " [],".contains($0) }.compactMap { Double($0) }.map { CGFloat($0) })
    }

    /// The number of values in the vector.
    open var count: Int { values.count }
    /// The value at an index; 0 beyond the vector's end.
    open func value(at index: Int) -> CGFloat { values.indices.contains(index) ? values[index] : 0 }
    /// The first value.
    open var x: CGFloat { value(at: 0) }
    /// The second value.
    open var y: CGFloat { value(at: 1) }
    /// The third value.
    open var z: CGFloat { value(at: 2) }
    /// The fourth value.
    open var w: CGFloat { value(at: 3) }
    /// The first two values as a point.
    open var cgPointValue: CGPoint { CGPoint(x: x, y: y) }
    /// The first four values as a rectangle (x, y, width, height).
    open var cgRectValue: CGRect { CGRect(x: x, y: y, width: z, height: w) }
    /// The first six values as an affine transform.
    open var cgAffineTransformValue: CGAffineTransform {
        CGAffineTransform(a: value(at: 0), b: value(at: 1), c: value(at: 2), d: value(at: 3), tx: value(at: 4), ty: value(at: 5))
    }
    /// The values as a string, such as "[1 2 3]".
    open var stringRepresentation: String { "[" + values.map { "\($0)" }.joined(separator: " ") + "]" }

    /// Returns whether another object is a vector with the same values.
    open override func isEqual(_ object: Any?) -> Bool { (object as? CIVector)?.values == values }
    /// The vector's values, for hashing.
    open override var hash: Int { values.hashValue }
    /// The vector's values.
    open override var description: String { stringRepresentation }
}
