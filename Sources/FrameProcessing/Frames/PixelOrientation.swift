/// How a frame's pixels are turned on their way to a client: a clockwise quarter-turn rotation,
/// then a horizontal mirror, as a connection's `videoRotationAngle` and `isVideoMirrored` ask.
package struct PixelOrientation: Hashable, Sendable {
    /// 0, 90, 180 or 270 degrees clockwise.
    package var rotationDegrees: Int
    /// Whether the rotated picture is mirrored left to right.
    package var mirrored: Bool

    package init(rotationDegrees: Int, mirrored: Bool) {
        self.rotationDegrees = ((rotationDegrees % 360) + 360) % 360 / 90 * 90
        self.mirrored = mirrored
    }

    /// The pixels as they come.
    package static let identity = PixelOrientation(rotationDegrees: 0, mirrored: false)

    package var isIdentity: Bool { self == .identity }
    /// Whether width and height trade places.
    package var swapsDimensions: Bool { rotationDegrees == 90 || rotationDegrees == 270 }

    /// The same result as a rotation applied to the picture turned upside down (read bottom row
    /// first), which is how libyuv mirrors within a rotation: mirroring after a quarter turn is
    /// that turn of the flipped picture; after none or a half turn, the other of the two.
    package var asRotationOfFlippedSource: (rotationDegrees: Int, flipped: Bool) {
        guard mirrored else { return (rotationDegrees, false) }
        return (swapsDimensions ? rotationDegrees : (rotationDegrees + 180) % 360, true)
    }
}
