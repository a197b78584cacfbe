import Foundation

/// Where a segmented movie's segments go: kept in order until the writer's owner takes them.
///
/// Thread ownership: the writer thread that owns the `MovieEncoder` fills and empties it; nothing
/// else touches it.
package final class SegmentSink {
    /// A segment: the initialization segment (ftyp and moov) or a separable one (moof and mdat).
    package struct Segment: Sendable {
        /// The segment's bytes.
        package var data: Data
        /// Whether it is the initialization segment.
        package var isInitialization: Bool
    }

    private var waiting: [Segment] = []

    /// Creates an empty sink.
    package init() {}

    /// Keeps a segment the writer made.
    func receive(_ data: Data, initialization: Bool) {
        waiting.append(Segment(data: data, isInitialization: initialization))
    }

    /// The segments made since the last call, oldest first.
    package func take() -> [Segment] {
        defer { waiting.removeAll(keepingCapacity: true) }
        return waiting
    }
}
