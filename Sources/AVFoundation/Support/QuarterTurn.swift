import Foundation

extension CGAffineTransform {
    /// The clockwise quarter-turn rotation and mirroring a display transform describes (a track's
    /// preferred transform, a writer input's transform): the mirror first, then the rotation.
    var quarterTurn: (degrees: Int, mirrored: Bool) {
        let mirrored = a * d - b * c < 0
        // A mirrored transform is the mirror followed by a rotation: take the mirror off first.
        let rotation = mirrored ? CGAffineTransform(scaleX: -1, y: 1).concatenating(self) : self
        let degrees = Int((atan2(rotation.b, rotation.a) * 180 / .pi / 90).rounded()) * 90
        return ((degrees % 360 + 360) % 360, mirrored)
    }
}
