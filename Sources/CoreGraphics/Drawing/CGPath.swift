import Foundation

/// An immutable graphics path: a mathematical description of shapes or lines to be drawn.
///
/// Arcs and ellipses are kept as cubic Bézier curves, as Quartz keeps them. Immutable and thread-safe;
/// a `CGMutablePath` belongs to one thread at a time.
open class CGPath: @unchecked Sendable {
    /// One element of a path.
    enum Element: Equatable {
        case move(CGPoint)
        case line(CGPoint)
        case quad(CGPoint, CGPoint)
        case cubic(CGPoint, CGPoint, CGPoint)
        case close
    }
    var elements: [Element] = []
    /// Where the current subpath started, for closing it.
    var subpathStart = CGPoint.zero

    init(elements: [Element] = []) { self.elements = elements }

    /// Creates a path of a rectangle.
    public convenience init(rect: CGRect, transform: UnsafePointer<CGAffineTransform>?) {
        let path = CGMutablePath()
        path.addRect(rect, transform: transform?.pointee ?? .identity)
        self.init(elements: path.elements)
    }

    /// Creates a path of the ellipse that fits in a rectangle.
    public convenience init(ellipseIn rect: CGRect, transform: UnsafePointer<CGAffineTransform>?) {
        let path = CGMutablePath()
        path.addEllipse(in: rect, transform: transform?.pointee ?? .identity)
        self.init(elements: path.elements)
    }

    /// Creates a path of a rectangle with rounded corners.
    public convenience init(roundedRect rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat, transform: UnsafePointer<CGAffineTransform>?) {
        let path = CGMutablePath()
        path.addRoundedRect(in: rect, cornerWidth: cornerWidth, cornerHeight: cornerHeight, transform: transform?.pointee ?? .identity)
        self.init(elements: path.elements)
    }

    /// Whether every point of the path is finite.
    var isFinite: Bool {
        elements.allSatisfy { element in
            switch element {
            case .move(let p), .line(let p): p.x.isFinite && p.y.isFinite
            case .quad(let c, let p): c.x.isFinite && c.y.isFinite && p.x.isFinite && p.y.isFinite
            case .cubic(let c1, let c2, let p): [c1.x, c1.y, c2.x, c2.y, p.x, p.y].allSatisfy(\.isFinite)
            case .close: true
            }
        }
    }

    /// Whether the path has no elements.
    public var isEmpty: Bool { elements.isEmpty }

    /// The point where the next element starts.
    public var currentPoint: CGPoint {
        switch elements.last {
        case .move(let point), .line(let point), .quad(_, let point), .cubic(_, _, let point): point
        case .close: subpathStart
        case nil: .zero
        }
    }

    /// The smallest rectangle that holds every point of the path, control points included.
    public var boundingBox: CGRect {
        let points = elements.flatMap { element -> [CGPoint] in
            switch element {
            case .move(let p), .line(let p): [p]
            case .quad(let c, let p): [c, p]
            case .cubic(let c1, let c2, let p): [c1, c2, p]
            case .close: []
            }
        }
        guard let first = points.first else { return .null }
        return points.dropFirst().reduce(CGRect(origin: first, size: .zero)) { $0.union(CGRect(origin: $1, size: .zero)) }
    }

    /// Returns an immutable copy of the path.
    public func copy() -> CGPath? { CGPath(elements: elements) }

    /// Returns a mutable copy of the path.
    public func mutableCopy() -> CGMutablePath? {
        let copy = CGMutablePath()
        copy.elements = elements
        copy.subpathStart = subpathStart
        return copy
    }
}

extension CGPath: Equatable {
    /// Whether two paths have the same elements.
    public static func == (lhs: CGPath, rhs: CGPath) -> Bool { lhs.elements == rhs.elements }
}

/// A mutable graphics path.
open class CGMutablePath: CGPath, @unchecked Sendable {
    /// Creates an empty path.
    public init() { super.init() }

    /// Starts a new subpath at a point.
    public func move(to point: CGPoint, transform: CGAffineTransform = .identity) {
        let p = point.applying(transform)
        elements.append(.move(p))
        subpathStart = p
    }

    /// Adds a straight line from the current point.
    public func addLine(to point: CGPoint, transform: CGAffineTransform = .identity) {
        if elements.isEmpty { move(to: point, transform: transform) }
        elements.append(.line(point.applying(transform)))
    }

    /// Adds straight lines between the points, starting a subpath at the first.
    public func addLines(between points: [CGPoint], transform: CGAffineTransform = .identity) {
        guard let first = points.first else { return }
        move(to: first, transform: transform)
        for point in points.dropFirst() { addLine(to: point, transform: transform) }
    }

    /// Adds a quadratic Bézier curve from the current point.
    public func addQuadCurve(to end: CGPoint, control: CGPoint, transform: CGAffineTransform = .identity) {
        if elements.isEmpty { move(to: control, transform: transform) }
        elements.append(.quad(control.applying(transform), end.applying(transform)))
    }

    /// Adds a cubic Bézier curve from the current point.
    public func addCurve(to end: CGPoint, control1: CGPoint, control2: CGPoint, transform: CGAffineTransform = .identity) {
        if elements.isEmpty { move(to: control1, transform: transform) }
        elements.append(.cubic(control1.applying(transform), control2.applying(transform), end.applying(transform)))
    }

    /// Closes the current subpath with a line to its start.
    public func closeSubpath() {
        guard !elements.isEmpty else { return }
        elements.append(.close)
    }

    /// Adds a rectangle as a closed subpath.
    public func addRect(_ rect: CGRect, transform: CGAffineTransform = .identity) {
        let r = rect.standardized
        move(to: CGPoint(x: r.minX, y: r.minY), transform: transform)
        addLine(to: CGPoint(x: r.maxX, y: r.minY), transform: transform)
        addLine(to: CGPoint(x: r.maxX, y: r.maxY), transform: transform)
        addLine(to: CGPoint(x: r.minX, y: r.maxY), transform: transform)
        closeSubpath()
    }

    /// Adds rectangles, each as a closed subpath.
    public func addRects(_ rects: [CGRect], transform: CGAffineTransform = .identity) {
        for rect in rects { addRect(rect, transform: transform) }
    }

    /// Adds the ellipse that fits in a rectangle, as a closed subpath of four curves.
    public func addEllipse(in rect: CGRect, transform: CGAffineTransform = .identity) {
        let r = rect.standardized
        let (cx, cy, rx, ry) = (r.midX, r.midY, r.width / 2, r.height / 2)
        let k: CGFloat = 0.552_284_749_831
        move(to: CGPoint(x: r.maxX, y: cy), transform: transform)
        addCurve(
            to: CGPoint(x: cx, y: r.maxY), control1: CGPoint(x: r.maxX, y: cy + k * ry), control2: CGPoint(x: cx + k * rx, y: r.maxY), transform: transform)
        addCurve(
            to: CGPoint(x: r.minX, y: cy), control1: CGPoint(x: cx - k * rx, y: r.maxY), control2: CGPoint(x: r.minX, y: cy + k * ry), transform: transform)
        addCurve(
            to: CGPoint(x: cx, y: r.minY), control1: CGPoint(x: r.minX, y: cy - k * ry), control2: CGPoint(x: cx - k * rx, y: r.minY), transform: transform)
        addCurve(
            to: CGPoint(x: r.maxX, y: cy), control1: CGPoint(x: cx + k * rx, y: r.minY), control2: CGPoint(x: r.maxX, y: cy - k * ry), transform: transform)
        closeSubpath()
    }

    /// Adds a rectangle with rounded corners as a closed subpath.
    public func addRoundedRect(in rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat, transform: CGAffineTransform = .identity) {
        let r = rect.standardized
        let w = min(max(0, cornerWidth), r.width / 2), h = min(max(0, cornerHeight), r.height / 2)
        guard w > 0, h > 0 else { return addRect(r, transform: transform) }
        let k: CGFloat = 0.552_284_749_831
        move(to: CGPoint(x: r.minX + w, y: r.minY), transform: transform)
        addLine(to: CGPoint(x: r.maxX - w, y: r.minY), transform: transform)
        addCurve(
            to: CGPoint(x: r.maxX, y: r.minY + h), control1: CGPoint(x: r.maxX - w + k * w, y: r.minY), control2: CGPoint(x: r.maxX, y: r.minY + h - k * h),
            transform: transform)
        addLine(to: CGPoint(x: r.maxX, y: r.maxY - h), transform: transform)
        addCurve(
            to: CGPoint(x: r.maxX - w, y: r.maxY), control1: CGPoint(x: r.maxX, y: r.maxY - h + k * h), control2: CGPoint(x: r.maxX - w + k * w, y: r.maxY),
            transform: transform)
        addLine(to: CGPoint(x: r.minX + w, y: r.maxY), transform: transform)
        addCurve(
            to: CGPoint(x: r.minX, y: r.maxY - h), control1: CGPoint(x: r.minX + w - k * w, y: r.maxY), control2: CGPoint(x: r.minX, y: r.maxY - h + k * h),
            transform: transform)
        addLine(to: CGPoint(x: r.minX, y: r.minY + h), transform: transform)
        addCurve(
            to: CGPoint(x: r.minX + w, y: r.minY), control1: CGPoint(x: r.minX, y: r.minY + h - k * h), control2: CGPoint(x: r.minX + w - k * w, y: r.minY),
            transform: transform)
        closeSubpath()
    }

    /// Adds an arc of a circle, in radians, counterclockwise unless `clockwise` (in a flipped
    /// coordinate system, as UIKit's, the directions appear reversed), as cubic curves.
    public func addArc(
        center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool, transform: CGAffineTransform = .identity
    ) {
        var sweep = endAngle - startAngle
        if clockwise {
            while sweep > 0 { sweep -= 2 * .pi }
        } else {
            while sweep < 0 { sweep += 2 * .pi }
        }
        sweep = max(-2 * .pi, min(2 * .pi, sweep))
        let start = CGPoint(x: center.x + radius * cos(startAngle), y: center.y + radius * sin(startAngle))
        if elements.isEmpty || elements.last == .close { move(to: start, transform: transform) } else { addLine(to: start, transform: transform) }
        let pieces = max(1, Int((abs(sweep) / (.pi / 2)).rounded(.up)))
        let step = sweep / CGFloat(pieces)
        let k = 4 / 3 * tan(step / 4)
        var angle = startAngle
        for _ in 0..<pieces {
            let next = angle + step
            let (c0, s0, c1, s1) = (cos(angle), sin(angle), cos(next), sin(next))
            addCurve(
                to: CGPoint(x: center.x + radius * c1, y: center.y + radius * s1),
                control1: CGPoint(x: center.x + radius * (c0 - k * s0), y: center.y + radius * (s0 + k * c0)),
                control2: CGPoint(x: center.x + radius * (c1 + k * s1), y: center.y + radius * (s1 - k * c1)), transform: transform)
            angle = next
        }
    }

    /// Adds another path's elements.
    public func addPath(_ path: CGPath, transform: CGAffineTransform = .identity) {
        for element in path.elements {
            switch element {
            case .move(let p): move(to: p, transform: transform)
            case .line(let p): addLine(to: p, transform: transform)
            case .quad(let c, let p): addQuadCurve(to: p, control: c, transform: transform)
            case .cubic(let c1, let c2, let p): addCurve(to: p, control1: c1, control2: c2, transform: transform)
            case .close: closeSubpath()
            }
        }
    }
}

/// How the inside of a path is decided.
public enum CGPathFillRule: Int, Sendable {
    /// The non-zero winding rule.
    case winding = 0
    /// The even-odd rule.
    case evenOdd = 1
}

/// How a path is painted.
public enum CGPathDrawingMode: Int32, Sendable {
    /// Filled by the non-zero winding rule.
    case fill = 0
    /// Filled by the even-odd rule.
    case eoFill = 1
    /// Stroked.
    case stroke = 2
    /// Filled by the non-zero winding rule, then stroked.
    case fillStroke = 3
    /// Filled by the even-odd rule, then stroked.
    case eoFillStroke = 4
}
