// Apps routinely give CMTime the operators Core Media leaves out, as global functions; Apple's SDK
// declares only + and - (and the comparisons), so these are not ambiguous there and must not be
// here. Written as a trimming screen or a scrubber declares them.
import AVFoundation

public func += (left: inout CMTime, right: CMTime) { left = left + right }
public func -= (left: inout CMTime, right: CMTime) { left = left - right }
public func * (time: CMTime, multiplier: Int32) -> CMTime { CMTimeMultiply(time, multiplier: multiplier) }
public func * (time: CMTime, multiplier: Float64) -> CMTime { CMTimeMultiplyByFloat64(time, multiplier: multiplier) }
public func / (time: CMTime, divisor: Int32) -> CMTime { CMTimeMultiplyByRatio(time, multiplier: 1, divisor: divisor) }
public func *= (time: inout CMTime, multiplier: Int32) { time = time * multiplier }
public func /= (time: inout CMTime, divisor: Int32) { time = time / divisor }

/// The handles of a trimming bar over a clip: where each thumbnail sits, and a window around the playhead.
public struct TrimmingBar {
    public var duration: CMTime
    public var thumbnails: Int32

    public init(duration: CMTime, thumbnails: Int32) {
        self.duration = duration
        self.thumbnails = thumbnails
    }

    /// The times of the thumbnails, evenly spread.
    public var thumbnailTimes: [CMTime] {
        let step = duration / thumbnails
        var time = CMTime.zero
        var times: [CMTime] = []
        for _ in 0..<thumbnails {
            times.append(time)
            time += step
        }
        return times
    }

    /// A window of `seconds` centred on the playhead, kept inside the clip.
    public func window(around playhead: CMTime, seconds: Float64) -> CMTimeRange {
        var half = CMTime(seconds: seconds, preferredTimescale: 600) * 0.5
        half *= 1
        var start = playhead
        start -= half
        start = CMTimeMaximum(start, .zero)
        let end = CMTimeMinimum(playhead + half, duration)
        return CMTimeRange(start: start, end: end)
    }
}
