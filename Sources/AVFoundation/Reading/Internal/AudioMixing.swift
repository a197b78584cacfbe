import CoreMedia
import Foundation

/// Mixes the sound of several tracks: each read as float at the mix's rate and channels by an
/// asset reader of its own, scaled by its volume in the audio mix sample by sample, and summed,
/// a block of `blockFrames` at a time on one timeline (a track that starts later, or ends
/// earlier, adds silence there).
///
/// Thread ownership: owned by its output, and used under the output's lock.
final class AudioMixing {
    private final class Source {
        let reader: AVAssetReader
        let output: AVAssetReaderTrackOutput
        let trackID: CMPersistentTrackID
        /// Samples read and not yet mixed, interleaved, from the frame `first` of the timeline.
        var pending: [Float] = []
        var first = 0
        var ended = false
        /// The track's audio processing tap, with a block of scratch it processes in place.
        var tap: AudioTapRunner?
        var tapped: [Float] = []
        init(reader: AVAssetReader, output: AVAssetReaderTrackOutput, trackID: CMPersistentTrackID) {
            self.reader = reader
            self.output = output
            self.trackID = trackID
        }
    }

    private let sources: [Source]
    private let rate: Int
    private let channels: Int
    private let isFloat: Bool
    private let ramps: [CMPersistentTrackID: [(Double, Double, Float, Float)]]
    private var position: Int
    private let end: Int?
    private let format: CMAudioFormatDescription?
    private let blockFrames = 1024
    private var mixed: [Float]

    init(tracks: [AVAssetTrack], settings: [String: Any]?, mix: AVAudioMix?, algorithm: AVAudioTimePitchAlgorithm, timeRange: CMTimeRange) throws {
        func number(_ key: String) -> Int? { (settings?[key] as? NSNumber)?.intValue ?? (settings?[key] as? Int) }
        func flag(_ key: String) -> Bool? { (settings?[key] as? NSNumber)?.boolValue ?? (settings?[key] as? Bool) }
        rate = number(AVSampleRateKey) ?? max(8000, tracks[0].facts.sampleRate)
        channels = number(AVNumberOfChannelsKey) ?? max(1, tracks[0].facts.channels)
        isFloat = settings == nil ? true : (flag(AVLinearPCMIsFloatKey) ?? false)
        let bits = number(AVLinearPCMBitDepthKey) ?? (isFloat ? 32 : 16)
        guard rate > 0, rate <= 768_000, channels > 0, channels <= 64, (isFloat && bits == 32) || (!isFloat && bits == 16),
            !(flag(AVLinearPCMIsNonInterleaved) ?? false), !(flag(AVLinearPCMIsBigEndianKey) ?? false)
        else {
            ProgrammingError.invalidArgument(
                "-[AVAssetReaderAudioMixOutput initWithAudioTracks:audioSettings:] the mix is interleaved little-endian 16-bit integer or 32-bit float linear PCM"
            )
        }
        var ramps: [CMPersistentTrackID: [(Double, Double, Float, Float)]] = [:]
        for parameters in mix?.inputParameters ?? [] {
            ramps[parameters.trackID] = parameters.state.withLock { $0.ramps }.map { ($0.timeRange.start.seconds, $0.timeRange.end.seconds, $0.start, $0.end) }
        }
        self.ramps = ramps
        var sources: [Source] = []
        for track in tracks {
            guard let asset = track.asset else { throw AVError(.failedToLoadMediaData) }
            let reader = try AVAssetReader(asset: asset)
            reader.timeRange = timeRange
            let output = AVAssetReaderTrackOutput(
                track: track,
                outputSettings: [
                    AVFormatIDKey: kAudioFormatLinearPCM, AVLinearPCMIsFloatKey: true, AVLinearPCMBitDepthKey: 32,
                    AVSampleRateKey: rate, AVNumberOfChannelsKey: channels,
                ])
            output.audioTimePitchAlgorithm = algorithm
            reader.add(output)
            guard reader.startReading() else { throw reader.error ?? AVError(.failedToLoadMediaData) }
            let source = Source(reader: reader, output: output, trackID: track.trackID)
            if let tap = mix?.inputParameters.first(where: { $0.trackID == track.trackID })?.audioTapProcessor {
                source.tap = AudioTapRunner(tap: tap, sampleRate: Double(rate), channels: channels, maxFrames: blockFrames)
                source.tapped = [Float](repeating: 0, count: blockFrames * channels)
            }
            sources.append(source)
        }
        self.sources = sources
        position = timeRange.start.isNumeric ? Int((timeRange.start.seconds * Double(rate)).rounded()) : 0
        end = timeRange.end.isNumeric ? Int((timeRange.end.seconds * Double(rate)).rounded()) : nil
        format = LinearPCM.format(rate: Double(rate), channels: channels, isFloat: isFloat)
        mixed = [Float](repeating: 0, count: blockFrames * channels)
    }

    deinit {
        for source in sources {
            source.reader.cancelReading()
            source.tap?.stop()
        }
    }

    /// Reads a source until its pending samples reach `frame` or it ends.
    private func fill(_ source: Source, to frame: Int) throws {
        while !source.ended, source.first + source.pending.count / channels < frame {
            guard let sample = source.output.copyNextSampleBuffer() else {
                if source.reader.status == .failed { throw source.reader.error ?? AVError(.decodeFailed) }
                source.ended = true
                break
            }
            guard let block = sample.dataBuffer else { continue }
            let start = Int((sample.presentationTimeStamp.seconds * Double(rate)).rounded())
            if source.pending.isEmpty { source.first = start }
            // A gap before the block is silence; an overlap keeps the earlier samples.
            let expected = source.first + source.pending.count / channels
            let floats = UnsafeBufferPointer(start: block.bytes.assumingMemoryBound(to: Float.self), count: sample.numSamples * channels)
            if start > expected { source.pending.append(contentsOf: repeatElement(0, count: (start - expected) * channels)) }
            let skip = max(0, expected - start) * channels
            if skip < floats.count { source.pending.append(contentsOf: floats[skip...]) }
        }
    }

    /// The next block of the mix, or nil after the last.
    func next() throws -> CMSampleBuffer? {
        var frames = blockFrames
        if let end { frames = min(frames, end - position) }
        guard frames > 0 else {
            for source in sources { source.tap?.stop() }
            return nil
        }
        for source in sources { try fill(source, to: position + frames) }
        // The mix ends where the longest track ends.
        let available = sources.map { $0.first + $0.pending.count / channels - position }.max() ?? 0
        if sources.allSatisfy(\.ended) { frames = min(frames, available) }
        guard frames > 0 else {
            for source in sources { source.tap?.stop() }
            return nil
        }
        for index in 0..<(frames * channels) { mixed[index] = 0 }
        for source in sources {
            let offset = position - source.first
            let ramps = self.ramps[source.trackID] ?? []
            if let tap = source.tap {
                // The track's block through its tap: before the volume (pre-effects) or after it (post-effects).
                let post = tap.tap.isPostEffects
                source.pending.withUnsafeBufferPointer { pending in
                    for frame in 0..<frames {
                        let at = (offset + frame) * channels
                        let inside = at >= 0 && at + channels <= pending.count
                        let gain = !post || ramps.isEmpty ? 1 : AVAudioMixInputParameters.volume(at: Double(position + frame) / Double(rate), ramps: ramps)
                        for channel in 0..<channels { source.tapped[frame * channels + channel] = inside ? pending[at + channel] * gain : 0 }
                    }
                }
                source.tapped.withUnsafeMutableBufferPointer { tapped in
                    tap.process(UnsafeMutableBufferPointer(rebasing: tapped[0..<(frames * channels)]), at: position)
                }
                for frame in 0..<frames {
                    let gain = post || ramps.isEmpty ? 1 : AVAudioMixInputParameters.volume(at: Double(position + frame) / Double(rate), ramps: ramps)
                    for channel in 0..<channels { mixed[frame * channels + channel] += source.tapped[frame * channels + channel] * gain }
                }
            } else {
                source.pending.withUnsafeBufferPointer { pending in
                    for frame in 0..<frames {
                        let at = (offset + frame) * channels
                        guard at >= 0, at + channels <= pending.count else { continue }
                        let gain = ramps.isEmpty ? 1 : AVAudioMixInputParameters.volume(at: Double(position + frame) / Double(rate), ramps: ramps)
                        for channel in 0..<channels { mixed[frame * channels + channel] += pending[at + channel] * gain }
                    }
                }
            }
            // Samples before the next block are done with.
            let done = min(source.pending.count / channels, max(0, position + frames - source.first))
            if done > 0 {
                source.pending.removeFirst(done * channels)
                source.first += done
            }
        }
        let bytesPerFrame = channels * (isFloat ? 4 : 2)
        let block = mixed.withUnsafeBufferPointer { LinearPCM.block(from: $0, frames: frames, channels: channels, isFloat: isFloat) }
        let start = CMTime(value: CMTimeValue(position), timescale: Int32(rate))
        position += frames
        return LinearPCM.sampleBuffer(block, format: format, frames: frames, bytesPerFrame: bytesPerFrame, start: start, rate: Int32(rate))
    }
}
