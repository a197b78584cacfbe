import CoreMedia
import MovieEngine

extension MovieEncoder {
    /// Encodes a sample buffer of interleaved 16-bit sound whose first sample is sample `first` of
    /// the movie, leaving out samples from `limit` on; false when none was left to encode.
    func appendSound(_ sampleBuffer: CMSampleBuffer, first: Int64, upTo limit: Int64? = nil) throws(MovieEncoderError) -> Bool {
        guard let block = sampleBuffer.dataBuffer else { return false }
        let channels = Int(sampleBuffer.formatDescription?.audioStreamBasicDescription?.mChannelsPerFrame ?? 1)
        var frames = block.length / (2 * max(1, channels))
        if let limit { frames = Int(max(0, min(Int64(frames), limit - first))) }
        guard frames > 0 else { return false }
        try appendAudio(UnsafePointer(block.bytes.assumingMemoryBound(to: Int16.self)), frames: frames, first: first)
        return true
    }

    /// Writes an already-compressed sample as it is, a keyframe unless it is marked otherwise.
    func appendCompressed(_ sampleBuffer: CMSampleBuffer, video: Bool, presentationTime: CMTime, decodeTime: CMTime) throws(MovieEncoderError) {
        guard let block = sampleBuffer.dataBuffer else { return }
        try appendPacket(
            video: video, block.bytes, count: block.length, presentationTime: presentationTime, decodeTime: decodeTime, keyframe: sampleBuffer.isSyncSample)
    }
}

/// When a fragmented movie asks its encoder for the next fragment: at an interval, the first one
/// possibly sooner, so that a process killed early still leaves media; and, where a bound is given,
/// as soon as the fragment's samples reach it, since the muxer keeps a fragment's samples in memory
/// until it is cut (its index goes before them).
///
/// Thread ownership: a value owned by a writer thread.
struct FragmentSchedule {
    /// The time between fragments; not numeric or not positive for none.
    var interval: CMTime
    /// The longest the first fragment waits, whatever the interval.
    var firstInterval = CMTime.positiveInfinity
    /// The most bytes of samples a fragment gathers before it is asked for, or nil for no bound.
    var maximumBytes: Int64?
    private var last = CMTime.zero
    private var lastBytes: Int64 = 0

    /// A schedule of fragments every `interval`, the first after `firstInterval` at the most, each
    /// asked for sooner once `maximumBytes` of samples have been muxed since the last.
    init(interval: CMTime, firstInterval: CMTime = .positiveInfinity, maximumBytes: Int64? = nil) {
        self.interval = interval
        self.firstInterval = firstInterval
        self.maximumBytes = maximumBytes
    }

    /// Whether a fragment is due at movie time `time`, with `bytesMuxed` of samples muxed so far;
    /// when it is, the next is counted from there.
    mutating func isDue(at time: CMTime, bytesMuxed: Int64 = 0) -> Bool {
        guard interval.isNumeric, interval > .zero else { return false }
        let wait = last == .zero ? min(interval, firstInterval) : interval
        let full = maximumBytes.map { bytesMuxed - lastBytes >= $0 } ?? false
        guard time - last >= wait || full else { return false }
        last = time
        lastBytes = bytesMuxed
        return true
    }
}
