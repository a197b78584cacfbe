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

    override init() { super.init() }

    /// The kind of media the output gives.
    open var mediaType: AVMediaType { .video }

    /// Whether the output gives copies of sample data the client may change: samples are always
    /// the output's own, so this only records the client's wish.
    open var alwaysCopiesSampleData: Bool {
        get { settings.withLock { $0.alwaysCopies } }
        set { settings.withLock { $0.alwaysCopies = newValue } }
    }

    /// Whether `reset(forReadingTimeRanges:)` may be called once the output has given its samples.
    open var supportsRandomAccess: Bool {
        get { settings.withLock { $0.randomAccess } }
        set { settings.withLock { $0.randomAccess = newValue } }
    }

    /// Says that the output's configuration will not change.
    open func markConfigurationAsFinal() {}

    /// Returns the next sample buffer, or nil when there are no more or reading failed or was cancelled.
    open func copyNextSampleBuffer() -> CMSampleBuffer? {
        guard let reader else { ProgrammingError.invalidState("-[AVAssetReaderOutput copyNextSampleBuffer] the output is not added to an asset reader") }
        switch reader.status {
        case .unknown: ProgrammingError.invalidState("-[AVAssetReaderOutput copyNextSampleBuffer] cannot copy the next sample buffer before startReading")
        case .reading: break
        case .completed, .failed, .cancelled: return nil
        }
        do {
            if let buffer = try nextSampleBuffer() { return buffer }
            finished.store(true, ordering: .releasing)
            reader.outputFinished()
        } catch {
            finished.store(true, ordering: .releasing)
            reader.fail(error)
        }
        return nil
    }

    /// Whether the output has given its last sample.
    var isFinished: Bool { finished.load(ordering: .acquiring) }

    // MARK: What each kind of output provides

    /// The stream the output reads, if it reads one.
    var streamIndex: Int? { nil }
    /// The stream and time base to seek by for a time range that starts later than zero.
    var seekStream: (index: Int, timeBase: (Int32, Int32))? { nil }
    /// Whether the output reads one of an asset's tracks.
    func belongs(to asset: AVAsset) -> Bool { false }
    /// Gets ready to read from a demuxer.
    func prepare(demuxer: Demuxer?, timeRange: CMTimeRange) throws {}
    /// Makes the next sample buffer: nil at the end.
    func nextSampleBuffer() throws -> CMSampleBuffer? { nil }
    /// Lets go of decoders and memory once reading ends.
    func release() {}
}
