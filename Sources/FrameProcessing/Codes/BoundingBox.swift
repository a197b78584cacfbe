import CoreGraphics

extension CGRect {
    /// The smallest rectangle holding every point; zero for none.
    package init(boundingBox points: [CGPoint]) {
        guard let first = points.first else {
            self = .zero
            return
        }
        self = points.dropFirst().reduce(CGRect(origin: first, size: .zero)) { $0.union(CGRect(origin: $1, size: .zero)) }
    }
}
