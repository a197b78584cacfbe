import Foundation

/// Face tracking for a detector that is given a video's frames one after another: a face that
/// overlaps one of the last frame's (by at least a third of their union) keeps its identifier and
/// counts one more frame; a new face gets the next identifier.
struct FaceTracking {
    private var previous: [(bounds: CGRect, id: Int32, frames: Int32)] = []
    private var nextID: Int32 = 1

    /// Gives each face its tracking identifier and frame count, and remembers them for the next frame.
    mutating func follow(_ faces: inout [CIFaceFeature.Facts]) {
        var unmatched = previous
        var seen: [(bounds: CGRect, id: Int32, frames: Int32)] = []
        for index in faces.indices {
            let bounds = faces[index].bounds
            let best = unmatched.indices.max { Self.overlap(unmatched[$0].bounds, bounds) < Self.overlap(unmatched[$1].bounds, bounds) }
            let tracked: (bounds: CGRect, id: Int32, frames: Int32)
            if let best, Self.overlap(unmatched[best].bounds, bounds) >= 1.0 / 3 {
                tracked = (bounds, unmatched[best].id, unmatched[best].frames &+ 1)
                unmatched.remove(at: best)
            } else {
                tracked = (bounds, nextID, 1)
                nextID = nextID == .max ? 1 : nextID + 1
            }
            faces[index].tracking = (tracked.id, tracked.frames)
            seen.append(tracked)
        }
        previous = seen
    }

    /// The area two rectangles share over the area of their union.
    static func overlap(_ a: CGRect, _ b: CGRect) -> Double {
        let shared = a.intersection(b)
        guard !shared.isNull, shared.width > 0, shared.height > 0 else { return 0 }
        let common = shared.width * shared.height
        return Double(common / (a.width * a.height + b.width * b.height - common))
    }
}
