import CoreAudioTypes
import CoreMedia
import Foundation
import MediaToolbox

/// Runs one track's audio processing tap on the blocks of interleaved float a mixer or a player
/// renders: prepared once with the most frames a block has, unprepared when the pipeline stops,
/// with its non-interleaved scratch and buffer list made once, so a block allocates nothing.
///
/// Thread ownership: the rendering thread that made it; `stop()` from that thread too.
final class AudioTapRunner {
    let tap: MTAudioProcessingTap
    private let channels: Int
    private let maxFrames: Int
    private let sampleRate: Double
    private let planes: UnsafeMutablePointer<Float>
    private let list: UnsafeMutableAudioBufferListPointer
    private var started = false
    private var stopped = false

    /// Prepares `tap` for blocks of at most `maxFrames` frames of `channels` channels; nil when another pipeline uses it.
    init?(tap: MTAudioProcessingTap, sampleRate: Double, channels: Int, maxFrames: Int) {
        guard channels > 0, maxFrames > 0, tap.prepare(maxFrames: maxFrames, sampleRate: sampleRate, channels: channels) else { return nil }
        self.tap = tap
        self.channels = channels
        self.maxFrames = maxFrames
        self.sampleRate = sampleRate
        planes = .allocate(capacity: channels * maxFrames)
        planes.initialize(repeating: 0, count: channels * maxFrames)
        list = AudioBufferList.allocate(maximumBuffers: channels)
    }

    deinit {
        stop()
        planes.deallocate()
        list.unsafeMutablePointer.deallocate()
    }

    /// Passes a block through the tap in place, starting at `frame` of the timeline; longer blocks go through in pieces.
    func process(_ samples: UnsafeMutableBufferPointer<Float>, at frame: Int) {
        guard !stopped else { return }
        var done = 0
        let frames = samples.count / channels
        while done < frames {
            let count = min(maxFrames, frames - done)
            let piece = UnsafeMutableBufferPointer(rebasing: samples[(done * channels)..<((done + count) * channels)])
            let start = CMTime(value: CMTimeValue(frame + done), timescale: CMTimeScale(sampleRate.rounded()))
            let range = CMTimeRange(start: start, duration: CMTime(value: CMTimeValue(count), timescale: CMTimeScale(sampleRate.rounded())))
            _ = tap.process(
                piece, channels: channels, planes: planes, list: list, timeRange: range, flags: started ? 0 : kMTAudioProcessingTapFlag_StartOfStream)
            started = true
            done += count
        }
    }

    /// Tells the tap processing has stopped.
    func stop() {
        guard !stopped else { return }
        stopped = true
        tap.unprepare()
    }
}
