import CMediaCodecs
import CoreMedia
import Foundation
import Synchronization

/// One packet kept for an output that has not asked for it yet.
struct KeptPacket {
    var bytes: [UInt8]
    var pts: Int64
    var dts: Int64
    var duration: Int64
    var keyframe: Bool
    var skipSamples: Int32
    var discardPadding: Int32
}

/// The packets of an asset reader's file, shared by its outputs: each output asks for its own
/// stream's next packet, and packets read on the way for other outputs' streams are kept for
/// them (packets of streams no output reads are skipped).
///
/// Thread ownership: outputs call from any thread; the file is read under the demuxer's lock,
/// and a packet is handed to the asking output inside it, so the reader's memory is never read
/// after the next read.
package final class Demuxer: @unchecked Sendable {
    /// What came of asking for a packet.
    package enum Next {
        /// A packet was handed over.
        case packet
        /// The file has no more packets.
        case end
        /// The file could not be read further.
        case failure(MovieFileError)
    }

    /// The file the packets come from.
    package let file: MovieFile
    private struct State {
        var kept: [Int: [KeptPacket]] = [:]
        var wanted: Set<Int> = []
        var ended = false
        var failure: MovieFileError?
    }
    private let state = Mutex(State())

    /// Creates a demuxer over an opened file.
    package init(file: MovieFile) { self.file = file }

    /// Says which streams have outputs; packets of other streams are skipped.
    package func want(_ streams: Set<Int>) { state.withLock { $0.wanted = streams } }

    /// Stops keeping packets for a stream whose output now reads on its own, and drops those kept.
    package func forget(_ stream: Int) {
        state.withLock { state in
            state.wanted.remove(stream)
            state.kept[stream] = nil
        }
    }

    /// Moves every stream to the keyframe at or before `time`, by the stream given.
    package func seek(stream: Int, to time: CMTime, timeBase: (Int32, Int32)) {
        let value = Int64((time.seconds * Double(timeBase.1) / Double(timeBase.0)).rounded(.down))
        state.withLock { state in
            state.kept.removeAll()
            // Reading starts again from the new place, even after the end or a damaged packet.
            state.ended = false
            state.failure = nil
            _ = cmc_reader_seek(file.reader, Int32(stream), value)
        }
    }

    /// Hands `body` the next packet of `stream`, or says the file ended or failed.
    package func next(for stream: Int, _ body: (MoviePacket) -> Void) -> Next {
        state.withLock { state in
            if var queue = state.kept[stream], !queue.isEmpty {
                let kept = queue.removeFirst()
                state.kept[stream] = queue
                kept.bytes.withUnsafeBufferPointer { bytes in
                    body(
                        MoviePacket(
                            cmc_packet(
                                stream: Int32(stream), data: bytes.baseAddress, size: Int32(bytes.count), pts: kept.pts,
                                dts: kept.dts, duration: kept.duration, keyframe: kept.keyframe ? 1 : 0,
                                skip_samples: kept.skipSamples, discard_padding: kept.discardPadding, origin: nil)))
                }
                return .packet
            }
            if let failure = state.failure { return .failure(failure) }
            if state.ended { return .end }
            var packet = cmc_packet()
            while true {
                let result = cmc_reader_read(file.reader, &packet)
                if result == 1 { state.ended = true; return .end }
                if result < 0 {
                    let error = MovieFileError(url: file.url, problem: .damaged(code: result))
                    state.failure = error
                    return .failure(error)
                }
                let index = Int(packet.stream)
                guard packet.size > 0, let data = packet.data else { continue }
                if index == stream {
                    body(MoviePacket(packet))
                    return .packet
                }
                guard state.wanted.contains(index) else { continue }
                state.kept[index, default: []].append(
                    KeptPacket(
                        bytes: Array(UnsafeBufferPointer(start: data, count: Int(packet.size))),
                        pts: packet.pts, dts: packet.dts, duration: packet.duration,
                        keyframe: packet.keyframe != 0, skipSamples: packet.skip_samples, discardPadding: packet.discard_padding))
            }
        }
    }
}
