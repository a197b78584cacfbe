import CoreVideo
import Foundation

/// A grey picture (a photograph of a face, say) placed in the virtual scene at any
/// quadrilateral, so detectors can be tested on moving, turned and tilted subjects.
package struct ScenePicture: Sendable {
    package let id: Int
    package let width: Int
    package let height: Int
    /// Grey levels, 0 black to 255 white, row after row.
    package let pixels: [UInt8]
    /// Where the picture's corners (top left, top right, bottom right, bottom left) lie in scene coordinates.
    package var corners: [CGPoint]

    /// A scene picture of an 8-bit grey pixel buffer.
    package init(id: Int, grey image: CVPixelBuffer, corners: [CGPoint]) {
        self.id = id
        width = image.width
        height = image.height
        let plane = image.planes[0]
        let base = plane.baseAddress.assumingMemoryBound(to: UInt8.self)
        var pixels = [UInt8](repeating: 0, count: image.width * image.height)
        pixels.withUnsafeMutableBufferPointer { target in
            for row in 0..<image.height {
                target.baseAddress!.advanced(by: row * image.width).update(from: base + row * plane.bytesPerRow, count: image.width)
            }
        }
        self.pixels = pixels
        self.corners = corners
    }

    /// Where a point of the picture (in its pixels) lies in scene coordinates.
    package func scenePoint(_ point: CGPoint) -> CGPoint {
        Homography(unitSquareTo: corners).apply(CGPoint(x: point.x / CGFloat(width), y: point.y / CGFloat(height)))
    }

    /// Corners for a picture `width` wide (a fraction of the frame's width) centred at `center`, turned `rotation`
    /// radians clockwise, upright in a frame `aspectRatio` times as wide as high.
    package static func corners(
        width pictureWidth: Int, height pictureHeight: Int, center: CGPoint, width: CGFloat, rotation: CGFloat,
        aspectRatio: CGFloat
    ) -> [CGPoint] {
        let halfW = width * aspectRatio / 2, halfH = halfW * CGFloat(pictureHeight) / CGFloat(pictureWidth)
        let c = cos(rotation), s = sin(rotation)
        return [(-halfW, -halfH), (halfW, -halfH), (halfW, halfH), (-halfW, halfH)].map { (x, y) in
            CGPoint(x: center.x + (x * c - y * s) / aspectRatio, y: center.y + (x * s + y * c))
        }
    }
}
