import Foundation

/// Where a camera's picture lands in a preview layer: the sensor's landscape frame, turned
/// clockwise by the connection's rotation, mirrored horizontally as displayed, and fitted into the
/// layer's bounds by its gravity. Device coordinates run from (0,0) at the top left to (1,1) at the
/// bottom right of the unturned sensor frame (the AV Foundation Programming Guide, WWDC 2013 session 610).
struct PreviewGeometry: Equatable {
    var sensorSize: CGSize
    var rotationDegrees: Int
    var mirrored: Bool
    var gravity: AVLayerVideoGravity
    var bounds: CGRect

    /// The picture's size as displayed: the sensor's, with sides swapped for a quarter turn.
    var displayedSize: CGSize {
        rotationDegrees == 90 || rotationDegrees == 270 ? CGSize(width: sensorSize.height, height: sensorSize.width) : sensorSize
    }

    /// The rect, in layer coordinates, the whole picture occupies (beyond the bounds for aspect fill).
    var videoRect: CGRect {
        let shown = displayedSize
        guard shown.width > 0, shown.height > 0, gravity != .resize else { return bounds }
        let scaleX = bounds.width / shown.width, scaleY = bounds.height / shown.height
        let scale = gravity == .resizeAspectFill ? max(scaleX, scaleY) : min(scaleX, scaleY)
        let size = CGSize(width: shown.width * scale, height: shown.height * scale)
        return CGRect(x: bounds.midX - size.width / 2, y: bounds.midY - size.height / 2, width: size.width, height: size.height)
    }

    /// The device point under a point of the layer.
    func devicePoint(fromLayerPoint point: CGPoint) -> CGPoint {
        let rect = videoRect
        guard rect.width > 0, rect.height > 0 else { return CGPoint(x: 0.5, y: 0.5) }
        var u = (point.x - rect.minX) / rect.width
        let v = (point.y - rect.minY) / rect.height
        if mirrored { u = 1 - u }
        switch rotationDegrees {
        case 90: return CGPoint(x: v, y: 1 - u)
        case 180: return CGPoint(x: 1 - u, y: 1 - v)
        case 270: return CGPoint(x: 1 - v, y: u)
        default: return CGPoint(x: u, y: v)
        }
    }

    /// The layer point that shows a device point.
    func layerPoint(fromDevicePoint point: CGPoint) -> CGPoint {
        var u: CGFloat, v: CGFloat
        switch rotationDegrees {
        case 90: (u, v) = (1 - point.y, point.x)
        case 180: (u, v) = (1 - point.x, 1 - point.y)
        case 270: (u, v) = (point.y, 1 - point.x)
        default: (u, v) = (point.x, point.y)
        }
        if mirrored { u = 1 - u }
        let rect = videoRect
        return CGPoint(x: rect.minX + u * rect.width, y: rect.minY + v * rect.height)
    }

    /// A layer rect in device (metadata output) coordinates.
    func deviceRect(fromLayerRect rect: CGRect) -> CGRect {
        Self.bounding(devicePoint(fromLayerPoint: CGPoint(x: rect.minX, y: rect.minY)), devicePoint(fromLayerPoint: CGPoint(x: rect.maxX, y: rect.maxY)))
    }

    /// A device (metadata output) rect in layer coordinates.
    func layerRect(fromDeviceRect rect: CGRect) -> CGRect {
        Self.bounding(layerPoint(fromDevicePoint: CGPoint(x: rect.minX, y: rect.minY)), layerPoint(fromDevicePoint: CGPoint(x: rect.maxX, y: rect.maxY)))
    }

    private static func bounding(_ a: CGPoint, _ b: CGPoint) -> CGRect {
        CGRect(x: min(a.x, b.x), y: min(a.y, b.y), width: abs(a.x - b.x), height: abs(a.y - b.y))
    }
}
