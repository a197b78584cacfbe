import Foundation

/// A range of frame rates a format supports.
public final class AVFrameRateRange: NSObject, @unchecked Sendable {
    /// The lowest frame rate, in frames per second.
    public let minFrameRate: Float64
    /// The highest frame rate, in frames per second.
    public let maxFrameRate: Float64

    init(_ range: ClosedRange<Double>) {
        minFrameRate = range.lowerBound
        maxFrameRate = range.upperBound
    }

    /// The shortest frame duration: one over the highest frame rate.
    public var minFrameDuration: CMTime { Self.duration(forRate: maxFrameRate) }
    /// The longest frame duration: one over the lowest frame rate.
    public var maxFrameDuration: CMTime { Self.duration(forRate: minFrameRate) }

    static func duration(forRate rate: Double) -> CMTime {
        let whole = rate.rounded()
        if abs(rate - whole) < 0.0001 { return CMTime(value: 1, timescale: Int32(whole)) }
        return CMTime(value: 1000, timescale: Int32((rate * 1000).rounded()))
    }

    /// Whether a frame duration lies within the range.
    func contains(_ duration: CMTime) -> Bool {
        duration.isNumeric && duration >= minFrameDuration && duration <= maxFrameDuration
    }

    /// A description such as `1-30 fps`.
    public override var description: String { "\(minFrameRate)-\(maxFrameRate) fps" }
}
