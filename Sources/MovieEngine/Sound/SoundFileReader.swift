import CoreMedia
import Foundation

/// Reads the first sound track of a file as interleaved 32-bit floats at the track's own rate
/// and channels, from any frame: what an audio file opened for reading is built on.
///
/// Thread ownership: one thread at a time (an audio file holds it under its lock). Decoded frames
/// wait in one buffer that grows to the largest block the decoder gives, then is reused.
package final class SoundFileReader {
    /// Why a file could not be read as sound.
    package enum Failure: Error, Sendable {
        /// The file could not be opened, or was damaged.
        case file(MovieFileError)
        /// The file has no sound track.
        case noSound
        /// The sound's decoder could not be opened or failed (FFmpeg's error code).
        case decoder(Int32)
    }

    /// The file.
    package var url: URL { file.url }
    /// The sound track read.
    package let track: TrackFacts
    /// Frames a second.
    package var sampleRate: Int { track.sampleRate }
    /// Channels in each frame.
    package var channels: Int { track.channels }
    /// The frame the next read starts at.
    package private(set) var position: Int64 = 0

    private let file: MovieFile
    private var demuxer: Demuxer
    private var decoder: MovieDecoder
    private var waiting: UnsafeMutablePointer<Float>
    private var waitingCapacity = 0
    /// Frames in `waiting`, from `waitingStart`.
    private var waitingFrames = 0, waitingStart = 0
    /// The file position of `waiting`'s first frame.
    private var waitingPosition: Int64 = 0
    /// At the start and after a seek: the next block is placed by its time, and frames before this are dropped.
    private var skipUntil: Int64? = 0
    private var ended = false
    private var knownLength: Int64?

    /// Opens a file's first sound track.
    package init(url: URL) throws(Failure) {
        let file: MovieFile
        do { file = try MovieFile(url: url) } catch { throw .file(error) }
        guard let track = file.tracks.first(where: { $0.kind == .audio && $0.sampleRate > 0 && $0.channels > 0 }) else { throw .noSound }
        self.file = file
        self.track = track
        demuxer = Demuxer(file: file)
        demuxer.want([track.streamIndex])
        do { decoder = try MovieDecoder(file: file, stream: track.streamIndex) } catch { throw .decoder(error.code) }
        waiting = UnsafeMutablePointer<Float>.allocate(capacity: 1)
    }

    deinit { waiting.deallocate() }

    /// Whether the file's sound is linear PCM, whose length the container states exactly.
    private var isLinearPCM: Bool { track.codecName.hasPrefix("pcm_") }

    /// The frames the container says the track holds: exact for linear PCM, FLAC, and QuickTime
    /// and MPEG-4 files, whose edit lists leave out the encoder's delay and padding; nil otherwise.
    private lazy var statedLength: Int64? = {
        let duration = track.timeRange.duration
        guard duration.isNumeric, duration > .zero else { return nil }
        // FLAC's stream header counts its samples exactly too.
        guard isLinearPCM || file.formatName.contains("mp4") || file.formatName.contains("mov") || file.formatName == "flac" else { return nil }
        return Int64((duration.seconds * Double(sampleRate)).rounded())
    }()

    /// The track's first frame's time, in frames: what positions count from.
    private var startFrame: Int64 {
        let start = track.timeRange.start
        return start.isNumeric ? Int64((start.seconds * Double(sampleRate)).rounded()) : 0
    }

    /// The number of frames in the file: as the container states it where it states it exactly,
    /// otherwise counted by decoding the track once (the first time it is asked for).
    package func length() throws(Failure) -> Int64 {
        if let knownLength { return knownLength }
        if let statedLength {
            knownLength = statedLength
            return statedLength
        }
        let counter = try SoundFileReader(url: url)
        var frames: Int64 = 0
        while true {
            let got = try counter.decodeMore()
            if got == 0 { break }
            frames += Int64(got)
            counter.waitingFrames = 0
        }
        knownLength = frames
        return frames
    }

    /// Reads up to `frames` frames into `destination` (interleaved, `channels` floats a frame); the
    /// frames read, fewer only at the end of the file.
    package func read(into destination: UnsafeMutablePointer<Float>, frames: Int) throws(Failure) -> Int {
        var done = 0
        // Past the stated length is the encoder's padding.
        let frames = statedLength.map { min(frames, Int(max(0, $0 - position))) } ?? frames
        while done < frames {
            if waitingFrames == 0, try decodeMore() == 0 { break }
            let take = min(waitingFrames, frames - done)
            (destination + done * channels).update(from: waiting + waitingStart * channels, count: take * channels)
            waitingStart += take
            waitingFrames -= take
            done += take
        }
        position += Int64(done)
        return done
    }

    /// Moves to a frame; the next read starts there.
    package func seek(to frame: Int64) throws(Failure) {
        let target = max(0, frame)
        if target == position { return }
        // Forwards within what is decoded: drop frames.
        if target > position, target < position + Int64(waitingFrames) {
            let drop = Int(target - position)
            waitingStart += drop
            waitingFrames -= drop
            position = target
            return
        }
        // Compressed sound decodes right only after the frames before it: start well before the
        // target (two of the longest codec frames and MP3's bit reservoir) and drop the lead-in.
        let lead: Int64 = isLinearPCM ? 0 : 8192
        if target - lead <= 0 {
            // From the start: the file opened again, so that the encoder's priming packets (which
            // a seek by time passes over) are decoded as on the first read, and the same frames come.
            let file: MovieFile
            do { file = try MovieFile(url: url) } catch { throw .file(error) }
            demuxer = Demuxer(file: file)
            demuxer.want([track.streamIndex])
            do { decoder = try MovieDecoder(file: file, stream: track.streamIndex) } catch { throw .decoder(error.code) }
        } else {
            let seconds = Double(target - lead + startFrame) / Double(sampleRate)
            demuxer.seek(stream: track.streamIndex, to: CMTime(seconds: seconds, preferredTimescale: 1_000_000), timeBase: track.timeBase)
            decoder.flush()
        }
        waitingFrames = 0
        waitingStart = 0
        ended = false
        skipUntil = target
        position = target
    }

    /// Decodes the next block into `waiting` (which must be empty); the frames it holds, 0 at the end.
    private func decodeMore() throws(Failure) -> Int {
        while true {
            if ended { return 0 }
            switch decoder.receive() {
            case .frame:
                let (pts, _) = decoder.frameTime
                let (made, samples) = decoder.convertSamples(.float32, sampleRate: sampleRate, channels: channels)
                if made < 0 { throw .decoder(made) }
                guard made > 0, let samples else { continue }
                var start = 0
                if let target = skipUntil {
                    // At the start and after a seek, the block's place comes from its time; frames
                    // before the target (a seek's lead-in, priming no container flagged) are dropped.
                    let blockPosition = pts == Int64.min ? target : framePosition(ofTime: pts)
                    let end = blockPosition + Int64(made)
                    if end <= target { continue }
                    start = Int(max(0, target - blockPosition))
                    skipUntil = nil
                }
                let count = Int(made) - start
                keep(UnsafeRawPointer(samples).assumingMemoryBound(to: Float.self) + start * channels, frames: count)
                return count
            case .needsPacket:
                // A packet the decoder refuses (damaged) is left out; the rest of the sound is kept.
                switch demuxer.next(for: track.streamIndex, { _ = decoder.send($0) }) {
                case .packet: continue
                case .end: decoder.sendEnd()
                case .failure(let error): throw .file(error)
                }
            case .ended:
                let (made, samples) = decoder.drainSamples()
                ended = true
                guard made > 0, let samples, skipUntil == nil else { return 0 }
                keep(UnsafeRawPointer(samples).assumingMemoryBound(to: Float.self), frames: Int(made))
                return Int(made)
            case .failure(let code):
                throw .decoder(code)
            }
        }
    }

    /// The frame a time in the track's time base falls on.
    private func framePosition(ofTime value: Int64) -> Int64 {
        let seconds = Double(value) * Double(track.timeBase.numerator) / Double(track.timeBase.denominator)
        return Int64((seconds * Double(sampleRate)).rounded()) - startFrame
    }

    /// Copies decoded frames into the waiting buffer, growing it only when a block is larger than any before.
    private func keep(_ samples: UnsafePointer<Float>, frames: Int) {
        let needed = frames * channels
        if needed > waitingCapacity {
            waiting.deallocate()
            waiting = UnsafeMutablePointer<Float>.allocate(capacity: needed)
            waitingCapacity = needed
        }
        waiting.update(from: samples, count: needed)
        waitingStart = 0
        waitingFrames = frames
    }
}
