import CoreMedia
import Foundation
import MovieEngine
import Synchronization

/// An object that reads media data from an asset: its samples as they are, or decoded.
///
/// Thread-safe: outputs may be read on different threads.
open class AVAssetReader: NSObject, @unchecked Sendable {
    /// The states an asset reader passes through.
    public enum Status: Int, Sendable {
        /// Reading has not started.
        case unknown = 0
        /// The reader is reading.
        case reading = 1
        /// Every output has given all its samples.
        case completed = 2
        /// Reading failed; `error` says why.
        case failed = 3
        /// Reading was cancelled.
        case cancelled = 4
    }

    /// The asset the reader reads.
    public let asset: AVAsset

    private struct State {
        var status = Status.unknown
        var error: (any Error)?
        var timeRange = CMTimeRange(start: .zero, duration: .positiveInfinity)
        var outputs: [AVAssetReaderOutput] = []
        var demuxer: Demuxer?
    }
    private let state = Mutex(State())

    /// Creates a reader for an asset; throws when the asset's media cannot be read.
    public init(asset: AVAsset) throws {
        _ = try asset.loadedContents()
        self.asset = asset
        super.init()
    }

    /// The reader's state.
    open var status: Status { state.withLock { $0.status } }
    /// Why reading failed, when it did.
    open var error: (any Error)? { state.withLock { $0.error } }
    /// The outputs added to the reader.
    open var outputs: [AVAssetReaderOutput] { state.withLock { $0.outputs } }

    /// The part of the asset to read; all of it by default. Set it before reading starts.
    open var timeRange: CMTimeRange {
        get { state.withLock { $0.timeRange } }
        set {
            state.withLock { state in
                if state.status != .unknown { ProgrammingError.invalidState("-[AVAssetReader setTimeRange:] cannot be called after reading has started") }
                guard newValue.start.isNumeric, newValue.start >= .zero, newValue.duration >= .zero else {
                    ProgrammingError.invalidArgument(
                        "-[AVAssetReader setTimeRange:] the time range must start at a number of seconds, 0 or more, and last 0 or more")
                }
                state.timeRange = newValue
            }
        }
    }

    /// Whether an output can be added: reading has not started, and the output reads one of the asset's tracks.
    open func canAdd(_ output: AVAssetReaderOutput) -> Bool {
        state.withLock { state in
            state.status == .unknown && output.reader == nil && output.belongs(to: asset)
        }
    }

    /// Adds an output.
    open func add(_ output: AVAssetReaderOutput) {
        state.withLock { state in
            if state.status != .unknown { ProgrammingError.invalidState("-[AVAssetReader addOutput:] cannot add an output after reading has started") }
            if output.reader != nil { ProgrammingError.invalidArgument("-[AVAssetReader addOutput:] the output is already added to a reader") }
            if !output.belongs(to: asset) { ProgrammingError.invalidArgument("-[AVAssetReader addOutput:] the output reads a track of another asset") }
            output.reader = self
            state.outputs.append(output)
        }
    }

    /// Starts reading; returns false, with `status` `.failed` and an `error`, when it cannot.
    @discardableResult
    open func startReading() -> Bool {
        let (outputs, range): ([AVAssetReaderOutput], CMTimeRange) = state.withLock { state in
            if state.status != .unknown {
                ProgrammingError.invalidState("-[AVAssetReader startReading] cannot be called again after reading has already started")
            }
            return (state.outputs, state.timeRange)
        }
        do {
            if asset is AVComposition {
                // A composition's outputs read their segments' sources themselves.
                for output in outputs { try output.prepare(demuxer: nil, timeRange: range) }
                state.withLock { $0.status = .reading }
                return true
            }
            let file = try asset.openMovie()
            let demuxer = Demuxer(file: file)
            demuxer.want(Set(outputs.compactMap { $0.streamIndex }))
            for output in outputs { try output.prepare(demuxer: demuxer, timeRange: range) }
            if range.start > .zero, let first = outputs.compactMap({ $0.seekStream }).first {
                demuxer.seek(stream: first.index, to: range.start, timeBase: first.timeBase)
            }
            state.withLock { state in
                state.demuxer = demuxer
                state.status = .reading
            }
            return true
        } catch {
            fail(error)
            return false
        }
    }

    /// Stops reading; outputs give no more samples.
    open func cancelReading() {
        state.withLock { state in
            if state.status == .reading || state.status == .unknown { state.status = .cancelled }
            state.demuxer = nil
        }
        for output in outputs { output.release() }
    }

    /// An output reads its stream from a demuxer of its own from now on: the shared one stops keeping its packets.
    func readsOnItsOwn(_ stream: Int) {
        state.withLock { $0.demuxer }?.forget(stream)
    }

    /// Marks the reader failed with an error, unless it already ended.
    func fail(_ error: any Error) {
        state.withLock { state in
            guard state.status == .reading || state.status == .unknown else { return }
            state.status = .failed
            state.error = error
        }
    }

    /// Marks the reader completed once every output has given its last sample.
    func outputFinished() {
        let outputs = self.outputs
        guard outputs.allSatisfy({ $0.isFinished }) else { return }
        state.withLock { state in
            if state.status == .reading { state.status = .completed }
        }
    }
}
