/// The orientation of an image's pixels relative to how it is meant to be displayed, as EXIF numbers it.
@frozen
public enum CGImagePropertyOrientation: UInt32, Sendable {
    /// The pixels are upright.
    case up = 1
    /// The pixels are mirrored horizontally.
    case upMirrored = 2
    /// The pixels are turned 180°.
    case down = 3
    /// The pixels are mirrored vertically.
    case downMirrored = 4
    /// The pixels are mirrored horizontally, then turned 90° counterclockwise to display.
    case leftMirrored = 5
    /// The pixels are turned 90° clockwise to display.
    case right = 6
    /// The pixels are mirrored horizontally, then turned 90° clockwise to display.
    case rightMirrored = 7
    /// The pixels are turned 90° counterclockwise to display.
    case left = 8
}
