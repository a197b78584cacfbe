import Foundation

/// A machine-readable code printed in the virtual scene: its picture and where its four corners
/// (of the whole picture, quiet zone included: top left, top right, bottom right, bottom left) lie
/// in scene coordinates, so it can be moved, turned and seen in perspective.
package struct SceneCode: Sendable {
    package let id: Int
    package let symbology: CodeSymbology
    package let payload: String
    package let bitmap: CodeBitmap
    package var corners: [CGPoint]

    package init(id: Int, symbology: CodeSymbology, payload: String, bitmap: CodeBitmap, corners: [CGPoint]) {
        self.id = id
        self.symbology = symbology
        self.payload = payload
        self.bitmap = bitmap
        self.corners = corners
    }

    /// The mapping from the picture's unit square to the corners.
    package var mapping: Homography { Homography(unitSquareTo: corners) }

    /// Where the symbol itself (without its quiet zone) lies in scene coordinates, in the order of `corners`.
    package var symbolCorners: [CGPoint] {
        let b = bitmap.symbolBounds, w = CGFloat(bitmap.width), h = CGFloat(bitmap.height)
        let map = mapping
        return [
            CGPoint(x: b.minX / w, y: b.minY / h), CGPoint(x: b.maxX / w, y: b.minY / h),
            CGPoint(x: b.maxX / w, y: b.maxY / h), CGPoint(x: b.minX / w, y: b.maxY / h),
        ].map { map.apply($0) }
    }

    /// Corners for a picture `width` wide (a fraction of the frame's width) centred at `center` and turned by
    /// `rotation` radians clockwise, in a frame `aspectRatio` times as wide as it is high.
    package static func corners(for bitmap: CodeBitmap, center: CGPoint, width: CGFloat, rotation: CGFloat, aspectRatio: CGFloat) -> [CGPoint] {
        ScenePicture.corners(width: bitmap.width, height: bitmap.height, center: center, width: width, rotation: rotation, aspectRatio: aspectRatio)
    }
}

/// A projective mapping of the plane (a 3x3 matrix with its last element 1).
package struct Homography: Sendable {
    var a, b, c, d, e, f, g, h: Double

    /// The mapping that takes (0,0), (1,0), (1,1), (0,1) to the four points given.
    package init(unitSquareTo quad: [CGPoint]) {
        let (x0, y0, x1, y1) = (Double(quad[0].x), Double(quad[0].y), Double(quad[1].x), Double(quad[1].y))
        let (x2, y2, x3, y3) = (Double(quad[2].x), Double(quad[2].y), Double(quad[3].x), Double(quad[3].y))
        let dx3 = x0 - x1 + x2 - x3, dy3 = y0 - y1 + y2 - y3
        if abs(dx3) < 1e-12, abs(dy3) < 1e-12 {
            (a, b, c, d, e, f, g, h) = (x1 - x0, x3 - x0, x0, y1 - y0, y3 - y0, y0, 0, 0)
        } else {
            let dx1 = x1 - x2, dx2 = x3 - x2, dy1 = y1 - y2, dy2 = y3 - y2
            let det = dx1 * dy2 - dx2 * dy1
            g = (dx3 * dy2 - dx2 * dy3) / det
            h = (dx1 * dy3 - dx3 * dy1) / det
            (a, b, c) = (x1 - x0 + g * x1, x3 - x0 + h * x3, x0)
            (d, e, f) = (y1 - y0 + g * y1, y3 - y0 + h * y3, y0)
        }
    }

    private init(_ m: (Double, Double, Double, Double, Double, Double, Double, Double)) { (a, b, c, d, e, f, g, h) = m }

    /// Where the mapping takes a point.
    package func apply(_ p: CGPoint) -> CGPoint {
        let (u, v) = (Double(p.x), Double(p.y))
        let w = g * u + h * v + 1
        return CGPoint(x: (a * u + b * v + c) / w, y: (d * u + e * v + f) / w)
    }

    /// The mapping that undoes this one.
    package var inverse: Homography {
        // The adjugate of [[a b c] [d e f] [g h 1]], scaled so that its last element is 1.
        let A = e - f * h, B = c * h - b, C = b * f - c * e
        let D = f * g - d, E = a - c * g, F = c * d - a * f
        let G = d * h - e * g, H = b * g - a * h, I = a * e - b * d
        return Homography((A / I, B / I, C / I, D / I, E / I, F / I, G / I, H / I))
    }
}
