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
}

/// The packets of an asset reader's file, shared by its outputs: each output asks for its own
/// stream's next packet, and packets read on the way for other outputs' streams are kept for
/// them (packets of streams no output reads are skipped).
///
/// Thread ownership: outputs call from any thread; the file is read under the demuxer's lock,
/// and a packet is handed to the asking output inside it, so the reader's memory is never read
/// after the next read.
final class Demuxer: @unchecked Sendable {
    /// What came of asking for a packet.
    enum Next { case packet, end, failure(AVError) }

    let file: MovieFile
    private struct State {
        var kept: [Int: [KeptPacket]] = [:]
        var wanted: Set<Int> = []
        var ended = false
        var failure: AVError?
    }
    private let state = Mutex(State())

    init(file: MovieFile) { self.file = file }

    /// Says which streams have outputs; packets of other streams are skipped.
    func want(_ streams: Set<Int>) { state.withLock { $0.wanted = streams } }

    /// Moves every stream to the keyframe at or before `seconds`, by the stream given.
    func seek(stream: Int, to time: CMTime, timeBase: (Int32, Int32)) {
        let value = Int64((time.seconds * Double(timeBase.1) / Double(timeBase.0)).rounded(.down))
        state.withLock { state in
            state.kept.removeAll()
            _ = cmc_reader_seek(file.reader, Int32(stream), value)
        }
    }

    /// Hands `body` the next packet of `stream`, or says the file ended or failed.
    func next(for stream: Int, _ body: (cmc_packet) -> Void) -> Next {
        state.withLock { state in
            if var queue = state.kept[stream], !queue.isEmpty {
                let kept = queue.removeFirst()
                state.kept[stream] = queue
                kept.bytes.withUnsafeBufferPointer { bytes in
                    body(
                        cmc_packet(
                            stream: Int32(stream), data: bytes.baseAddress, size: Int32(bytes.count), pts: kept.pts,
                            dts: kept.dts, duration: kept.duration, keyframe: kept.keyframe ? 1 : 0))
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
                    let error = MovieFile.error(result, url: file.url, reading: true)
                    state.failure = error
                    return .failure(error)
                }
                let index = Int(packet.stream)
                guard packet.size > 0, let data = packet.data else { continue }
                if index == stream {
                    body(packet)
                    return .packet
                }
                guard state.wanted.contains(index) else { continue }
                state.kept[index, default: []].append(
                    KeptPacket(
                        bytes: Array(UnsafeBufferPointer(start: data, count: Int(packet.size))),
                        pts: packet.pts, dts: packet.dts, duration: packet.duration,
                        keyframe: packet.keyframe != 0))
            }
        }
    }
}
