import Foundation

/// Gives faces identities that last while they stay in view: a face in a new frame takes the
/// identity of the face it overlaps most in the frames before (at least a third of their
/// union), and a face that has not been seen for `memory` seconds is forgotten, so one that
/// comes back is a new face.
///
/// Thread ownership: one tracker belongs to the detector's thread.
package struct FaceTracker {
    private struct Track {
        let id: Int
        var bounds: CGRect
        var lastSeen: Double
    }
    private var tracks: [Track] = []
    private var nextID = 1
    /// How long a face out of view keeps its identity, in seconds.
    package var memory = 0.5

    package init() {}

    /// The identities of `faces` (normalized boxes) seen at `time` seconds.
    package mutating func identify(_ faces: [CGRect], at time: Double) -> [Int] {
        tracks.removeAll { time - $0.lastSeen > memory }
        var taken = Set<Int>()
        var ids: [Int] = []
        for face in faces {
            var best: (index: Int, overlap: Double)?
            for (index, track) in tracks.enumerated() where !taken.contains(track.id) {
                let overlap = Self.overlap(face, track.bounds)
                if overlap >= 1.0 / 3, overlap > (best?.overlap ?? 0) { best = (index, overlap) }
            }
            if let best {
                tracks[best.index].bounds = face
                tracks[best.index].lastSeen = time
                taken.insert(tracks[best.index].id)
                ids.append(tracks[best.index].id)
            } else {
                let track = Track(id: nextID, bounds: face, lastSeen: time)
                nextID += 1
                tracks.append(track)
                taken.insert(track.id)
                ids.append(track.id)
            }
        }
        return ids
    }

    /// Intersection over union.
    static func overlap(_ a: CGRect, _ b: CGRect) -> Double {
        let common = a.intersection(b)
        guard !common.isNull, common.width > 0, common.height > 0 else { return 0 }
        let shared = Double(common.width * common.height)
        return shared / (Double(a.width * a.height) + Double(b.width * b.height) - shared)
    }
}
