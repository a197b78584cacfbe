import CoreMedia
import Foundation
import MovieEngine
import Synchronization

/// An abstract class that defines the interface to read media samples from an asset reader.
open class AVAssetReaderOutput: NSObject, @unchecked Sendable {
    /// The reader the output was added to.
    weak var reader: AVAssetReader?
    private let finished = Atomic<Bool>(false)
    private let settings = Mutex((alwaysCopies: true, randomAccess: false))
    /// Random access: whether the current time ranges have been read to their end, the ranges
    /// still to read after the current one, and whether the configuration is final.
    private let access = Mutex((rangesEnded: false, pending: [CMTimeRange](), isFinal: false))

    override init() { super.init() }

    /// The kind of media the output gives.
    open var mediaType: AVMediaType { .video }

    /// Whether the output gives copies of sample data the client may change: samples are always
    /// the output's own, so this only records the client's wish.
    open var alwaysCopiesSampleData: Bool {
        get { settings.withLock { $0.alwaysCopies } }
        set { settings.withLock { $0.alwaysCopies = newValue } }
    }

    /// Whether `reset(forReadingTimeRanges:)` may be called once the output has given its samples;
    /// set it before reading starts. Such an output's reader completes only once
    /// `markConfigurationAsFinal()` is called.
    open var supportsRandomAccess: Bool {
        get { settings.withLock { $0.randomAccess } }
        set {
            if let reader, reader.status != .unknown {
                ProgrammingError.invalidState("-[AVAssetReaderOutput setSupportsRandomAccess:] cannot be called after reading has started")
            }
            settings.withLock { $0.randomAccess = newValue }
        }
    }

    /// Says that the output's time ranges will not be reset again: once it has given its last
    /// sample, its part of the reading is complete.
    open func markConfigurationAsFinal() {
        let ended = access.withLock { access -> Bool in
            access.isFinal = true
            return access.rangesEnded && access.pending.isEmpty
        }
        if ended, let reader { finish(reader) }
    }

    /// Reads these time ranges of the track next, in order, once the output has given every sample
    /// of the ranges before (`copyNextSampleBuffer()` returned nil). The ranges must be valid,
    /// non-empty, in increasing order and not overlapping; `supportsRandomAccess` must be true.
    open func reset(forReadingTimeRanges timeRanges: [NSValue]) {
        let method = "-[AVAssetReaderOutput resetForReadingTimeRanges:]"
        guard supportsRandomAccess else { ProgrammingError.invalidState("\(method) cannot be called without setting supportsRandomAccess to YES") }
        guard let reader, reader.status == .reading else {
            ProgrammingError.invalidState("\(method) cannot be called before the reader has started reading or after it has ended")
        }
        let ranges = timeRanges.map(\.timeRangeValue)
        guard !ranges.isEmpty else { ProgrammingError.invalidArgument("\(method) the time ranges must not be empty") }
        for (index, range) in ranges.enumerated() {
            guard range.start.isNumeric, range.start >= .zero, range.duration > .zero, range.duration.isNumeric || range.duration == .positiveInfinity
            else { ProgrammingError.invalidArgument("\(method) time range \(index) is not a valid, non-empty time range from zero on") }
            if index > 0, range.start < ranges[index - 1].end {
                ProgrammingError.invalidArgument("\(method) the time ranges must be in increasing order and must not overlap")
            }
        }
        access.withLock { access in
            if access.isFinal { ProgrammingError.invalidState("\(method) cannot be called after markConfigurationAsFinal") }
            if !access.rangesEnded {
                ProgrammingError.invalidState("\(method) cannot be called before copyNextSampleBuffer has returned NULL for the time ranges before")
            }
            access.rangesEnded = false
            access.pending = Array(ranges.dropFirst())
        }
        do {
            try read(ranges[0], of: reader)
        } catch {
            finished.store(true, ordering: .releasing)
            reader.fail(error)
        }
    }

    /// Returns the next sample buffer, or nil when there are no more or reading failed or was cancelled.
    open func copyNextSampleBuffer() -> CMSampleBuffer? {
        guard let reader else { ProgrammingError.invalidState("-[AVAssetReaderOutput copyNextSampleBuffer] the output is not added to an asset reader") }
        switch reader.status {
        case .unknown: ProgrammingError.invalidState("-[AVAssetReaderOutput copyNextSampleBuffer] cannot copy the next sample buffer before startReading")
        case .reading: break
        case .completed, .failed, .cancelled: return nil
        }
        do {
            while true {
                if let buffer = try nextSampleBuffer() { return buffer }
                // The end of a time range: the next one given to reset, if any.
                let next = access.withLock { access -> CMTimeRange? in
                    if access.pending.isEmpty { return nil }
                    return access.pending.removeFirst()
                }
                guard let next else { break }
                try read(next, of: reader)
            }
            let more =
                supportsRandomAccess
                && access.withLock { access -> Bool in
                    access.rangesEnded = true
                    return !access.isFinal
                }
            // An output that may be reset keeps the reader reading until its configuration is final.
            if !more { finish(reader) }
        } catch {
            finished.store(true, ordering: .releasing)
            reader.fail(error)
        }
        return nil
    }

    /// Whether the output has given its last sample.
    var isFinished: Bool { finished.load(ordering: .acquiring) }

    private func finish(_ reader: AVAssetReader) {
        finished.store(true, ordering: .releasing)
        reader.outputFinished()
    }

    /// Starts reading a time range again, on a demuxer of the output's own.
    private func read(_ range: CMTimeRange, of reader: AVAssetReader) throws {
        if reader.asset is AVComposition {
            try prepare(demuxer: nil, timeRange: range)
            return
        }
        let demuxer = Demuxer(file: try reader.asset.openMovie())
        if let stream = streamIndex {
            reader.readsOnItsOwn(stream)
            demuxer.want([stream])
        }
        try prepare(demuxer: demuxer, timeRange: range)
        if range.start > .zero, let seek = randomAccessSeekStream { demuxer.seek(stream: seek.index, to: range.start, timeBase: seek.timeBase) }
    }

    // MARK: What each kind of output provides

    /// The stream the output reads, if it reads one.
    var streamIndex: Int? { nil }
    /// The stream and time base to seek by for a time range that starts later than zero.
    var seekStream: (index: Int, timeBase: (Int32, Int32))? { nil }
    /// The stream and time base to seek by when the output reads a time range on its own.
    var randomAccessSeekStream: (index: Int, timeBase: (Int32, Int32))? { nil }
    /// Whether the output reads one of an asset's tracks.
    func belongs(to asset: AVAsset) -> Bool { false }
    /// Gets ready to read from a demuxer.
    func prepare(demuxer: Demuxer?, timeRange: CMTimeRange) throws {}
    /// Makes the next sample buffer: nil at the end.
    func nextSampleBuffer() throws -> CMSampleBuffer? { nil }
    /// Lets go of decoders and memory once reading ends.
    func release() {}
}
