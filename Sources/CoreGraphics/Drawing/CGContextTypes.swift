/// A callback that releases the memory a bitmap context was given.
public typealias CGBitmapContextReleaseDataCallback = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void

/// How finely an image is resampled when it is drawn at another size.
public enum CGInterpolationQuality: Int32, Sendable {
    /// The context's default (medium).
    case `default` = 0
    /// No interpolation: the nearest pixel.
    case none = 1
    /// Fast, low-quality interpolation.
    case low = 2
    /// Slower, high-quality interpolation.
    case high = 3
    /// Medium quality.
    case medium = 4
}

/// How a drawing is composited with what is already in the context.
public enum CGBlendMode: Int32, Sendable {
    /// The source over the destination.
    case normal, multiply, screen, overlay, darken, lighten, colorDodge, colorBurn, softLight, hardLight, difference, exclusion, hue,
        saturation, color, luminosity, clear, copy, sourceIn, sourceOut, sourceAtop, destinationOver, destinationIn, destinationOut,
        destinationAtop, xor, plusDarker, plusLighter
}

/// How the ends of stroked lines are drawn.
public enum CGLineCap: Int32, Sendable {
    /// Squared off at the end point.
    case butt = 0
    /// A half circle beyond the end point.
    case round = 1
    /// Squared off half the line's width beyond the end point.
    case square = 2
}

/// How the corners of stroked paths are drawn.
public enum CGLineJoin: Int32, Sendable {
    /// A sharp corner, up to the miter limit.
    case miter = 0
    /// A rounded corner.
    case round = 1
    /// A squared-off corner.
    case bevel = 2
}
