import CoreMedia

/// The timeline of a movie encoded from capture: where its time zero is, the pauses it leaves
/// out, how much it holds, and whether (and why) it has ended.
///
/// Thread ownership: a value; a job keeps it under its lock, where device threads, the writer
/// thread and the client change it.
struct EncodingClock {
    /// The source time of the movie's time zero: its first video frame's, or, without video, its first sound's.
    private(set) var start: CMTime?
    /// How long a frame lasts, from the latest frame.
    private(set) var frameDuration = CMTime(value: 1, timescale: 30)
    /// Whether the timeline is paused: samples are not taken, and the pause leaves no gap.
    private(set) var isPaused = false
    /// Whether the timeline has ended; no sample is taken after.
    private(set) var ended = false
    /// Why it ended; nil when the client ended it.
    private(set) var endReason: AVError?
    /// How much the movie holds: the end of its latest sample.
    var recorded = CMTime.zero
    /// For a job that opens its encoder with a frame it does not write: whether that frame has gone
    /// to the writer thread, and whether the encoder is open (the movie starts with the frame after).
    var opening = false, isOpen = false

    private var pausedTotal = CMTime.zero
    private var resumePending = false
    private var lastVideo = CMTime.invalid

    /// The movie time of the newest frame taken, which may still wait to be written; invalid before the first.
    var newestVideoTime: CMTime {
        guard let start, lastVideo.isValid else { return .invalid }
        return lastVideo - start - pausedTotal
    }

    /// Whether samples are taken now.
    var isTaking: Bool { !ended && !isPaused }

    /// Ends the timeline; true the first time only, which the caller answers by finishing the job.
    mutating func end(reason: AVError?) -> Bool {
        guard !ended else { return false }
        ended = true
        endReason = reason
        return true
    }

    /// Pauses a timeline that has started; true when it was running.
    mutating func pause() -> Bool {
        guard !ended, !isPaused, start != nil else { return false }
        isPaused = true
        return true
    }

    /// Resumes a paused timeline; with video, it goes on from the next frame. True when it was paused.
    mutating func resume(hasVideo: Bool) -> Bool {
        guard !ended, isPaused else { return false }
        isPaused = false
        resumePending = hasVideo
        return true
    }

    /// Notes the duration of a frame, which the next frames are expected to last too.
    mutating func noteDuration(of sampleBuffer: CMSampleBuffer) {
        if sampleBuffer.timing.duration.isNumeric { frameDuration = sampleBuffer.timing.duration }
    }

    /// The movie time of a video frame presented at `pts`: the first frame starts the timeline, and
    /// a resumed pause leaves no gap (time stops while paused).
    mutating func videoTime(_ pts: CMTime) -> CMTime {
        if resumePending {
            pausedTotal = pausedTotal + (pts - lastVideo) - frameDuration
            resumePending = false
        }
        if start == nil { start = pts }
        lastVideo = pts
        return pts - start! - pausedTotal
    }

    /// The movie time of sound presented at `pts`, or nil when it is not taken: the timeline has
    /// ended or is paused, waits for the first frame after a pause, or waits for its first frame.
    mutating func soundTime(_ pts: CMTime, startsWithVideo: Bool) -> CMTime? {
        guard isTaking, !resumePending else { return nil }
        if start == nil {
            if startsWithVideo { return nil }
            start = pts
        }
        return pts - start! - pausedTotal
    }
}
