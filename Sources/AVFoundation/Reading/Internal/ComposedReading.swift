import CoreMedia
import Foundation
import MovieEngine

/// Reads a composition track's samples: each run of its segments (consecutive segments that
/// continue each other in one source track) through an asset reader of the source, every
/// sample moved to, and stretched by, the segment that holds it.
///
/// Pictures and stored samples are read a run at a time, so a scaled section's edges need no
/// second decode from the keyframe before them. Decoded sound is read a segment at a time and
/// cut at the segment's edges; in a scaled segment it is stretched as the output's time-pitch
/// algorithm says: `.varispeed` resamples it, so its pitch follows the rate; `.spectral` keeps
/// the pitch through Rubber Band, `.timeDomain` through SoundTouch, and `.lowQualityZeroLatency`
/// through SoundTouch at the nearest of the AV Foundation Programming Guide's snapped rates.
///
/// Thread ownership: owned by its output, and used under the output's lock.
final class ComposedReading {
    private struct Run {
        var asset: AVAsset
        var track: AVAssetTrack
        var segments: [AVCompositionTrackSegment]
        var source: CMTimeRange { CMTimeRange(start: segments[0].timeMapping.source.start, end: segments[segments.count - 1].timeMapping.source.end) }
    }

    private let runs: [Run]
    private let settings: [String: Any]?
    private let algorithm: AVAudioTimePitchAlgorithm
    private let mediaType: AVMediaType
    private var index = 0
    private var current: (reader: AVAssetReader, output: AVAssetReaderTrackOutput)?
    private var soundFormats: [Int: CMFormatDescription] = [:]

    /// A scaled segment's sound on its way through a stretcher that keeps its pitch.
    private final class Stretching {
        let stretcher: TimeStretcher
        let rate: Int, channels: Int
        let length: Int  // frames the segment lasts on the target timeline
        var made = 0  // frames given so far
        var inputEnded = false
        var scratch: [Float]
        init?(method: TimeStretcher.Method, rate: Int, channels: Int, ratio: Double, length: Int) {
            guard let made = TimeStretcher(method, sampleRate: rate, channels: channels, ratio: ratio) else { return nil }
            stretcher = made
            self.rate = rate
            self.channels = channels
            self.length = length
            scratch = [Float](repeating: 0, count: 4096 * channels)
        }
    }
    private var stretching: Stretching?

    /// The AV Foundation Programming Guide's rates for the low-quality algorithm, which snaps to the nearest.
    static let snappedRates: [Double] = [0.5, 0.666667, 0.8, 1.0, 1.25, 1.5, 2.0]

    /// Refuses a scaled segment's rate outside the algorithm's range (the AV Foundation Programming Guide's table).
    static func checkRate(of segment: AVCompositionTrackSegment, algorithm: AVAudioTimePitchAlgorithm) throws {
        let rate = segment.timeMapping.source.duration.seconds / segment.timeMapping.target.duration.seconds
        let range = algorithm.rateRange
        guard range.contains(rate) else {
            throw AVError(
                .operationNotSupportedForAsset,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "\(algorithm.rawValue) plays sound at \(range.lowerBound)x to \(range.upperBound)x, not the \(String(format: "%.3g", rate))x a scaled section asks for."
                ])
        }
    }

    init(track: AVCompositionTrack, settings: [String: Any]?, algorithm: AVAudioTimePitchAlgorithm, timeRange: CMTimeRange) throws {
        self.settings = settings
        self.algorithm = algorithm
        self.mediaType = track.mediaType
        // The segments within the reader's time range, cut at its edges.
        var parts: [AVCompositionTrackSegment] = []
        for segment in track.segments where !segment.isEmpty {
            let target = segment.timeMapping.target.intersection(timeRange)
            guard target.duration > .zero else { continue }
            parts.append(target == segment.timeMapping.target ? segment : segment.part(target))
        }
        let decodedSound = track.mediaType == .audio && settings != nil
        var runs: [Run] = []
        for part in parts {
            guard let asset = part.sourceAsset, let source = part.sourceTrack else { continue }
            if part.isScaled, track.mediaType == .audio {
                guard settings != nil else {
                    throw AVError(
                        .operationNotSupportedForAsset,
                        userInfo: [
                            NSLocalizedDescriptionKey:
                                "Sound in a scaled time range cannot be read as stored packets: ask for linear PCM, which is stretched."
                        ])
                }
                try Self.checkRate(of: part, algorithm: algorithm)
            }
            if !decodedSound, var last = runs.last, last.track === source, last.segments.last!.timeMapping.source.end == part.timeMapping.source.start {
                last.segments.append(part)
                runs[runs.count - 1] = last
            } else {
                runs.append(Run(asset: asset, track: source, segments: [part]))
            }
        }
        self.runs = runs
    }

    /// The next sample on the composition's timeline, or nil after the last.
    func next() throws -> CMSampleBuffer? {
        while index < runs.count {
            let run = runs[index]
            if current == nil { current = try open(run) }
            guard let (reader, output) = current else { return nil }
            if let stretching {
                if let sample = try nextStretched(stretching, reader: reader, output: output, run: run) { return sample }
                self.stretching = nil
                current = nil
                index += 1
                continue
            }
            if let sample = output.copyNextSampleBuffer() {
                if let placed = try place(sample, in: run) { return placed }
                continue
            }
            if reader.status == .failed { throw reader.error ?? AVError(.decodeFailed) }
            current = nil
            index += 1
        }
        return nil
    }

    private func open(_ run: Run) throws -> (AVAssetReader, AVAssetReaderTrackOutput) {
        let reader = try AVAssetReader(asset: run.asset)
        reader.timeRange = run.source
        var settings = self.settings
        let segment = run.segments[0]
        if mediaType == .audio, segment.isScaled, var sound = settings {
            let rate = (sound[AVSampleRateKey] as? NSNumber)?.intValue ?? (sound[AVSampleRateKey] as? Int) ?? run.track.facts.sampleRate
            let channels = (sound[AVNumberOfChannelsKey] as? NSNumber)?.intValue ?? (sound[AVNumberOfChannelsKey] as? Int) ?? run.track.facts.channels
            let stretch = segment.timeMapping.target.duration.seconds / segment.timeMapping.source.duration.seconds
            if algorithm == .varispeed {
                // Resampled to rate x stretch and shown at the rate, so it lasts that much longer.
                sound[AVSampleRateKey] = max(1000, min(768_000, Int((Double(rate) * stretch).rounded())))
            } else {
                // Read as float at the output's rate and channels, and stretched keeping the pitch.
                sound[AVSampleRateKey] = rate
                sound[AVNumberOfChannelsKey] = channels
                sound[AVLinearPCMIsFloatKey] = true
                sound[AVLinearPCMBitDepthKey] = 32
                var ratio = stretch
                let method: TimeStretcher.Method = algorithm == .spectral ? .spectral : .timeDomain
                if algorithm == .snapping {
                    let wanted = 1 / stretch
                    ratio = 1 / (Self.snappedRates.min { abs($0 - wanted) < abs($1 - wanted) } ?? wanted)
                }
                let length = Int((segment.timeMapping.target.duration.seconds * Double(rate)).rounded())
                guard let made = Stretching(method: method, rate: rate, channels: channels, ratio: ratio, length: length) else {
                    let reason = TimeStretcher.libraryProblem ?? "The \(algorithm.rawValue) stretcher refused \(rate) Hz, \(channels) channels."
                    throw AVError(.operationNotSupportedForAsset, userInfo: [NSLocalizedDescriptionKey: reason])
                }
                stretching = made
            }
            settings = sound
        }
        let output = AVAssetReaderTrackOutput(track: run.track, outputSettings: settings)
        reader.add(output)
        guard reader.startReading() else { throw reader.error ?? AVError(.failedToLoadMediaData) }
        return (reader, output)
    }

    /// The segment of a run whose source holds a source time (the first or last for times outside it).
    private func segment(holding time: CMTime, in run: Run) -> AVCompositionTrackSegment {
        run.segments.first { $0.timeMapping.source.end > time } ?? run.segments[run.segments.count - 1]
    }

    /// Moves a source sample onto the composition's timeline; nil for sound wholly outside its segment.
    private func place(_ sample: CMSampleBuffer, in run: Run) throws -> CMSampleBuffer? {
        if mediaType == .audio, settings != nil { return try placeSound(sample, in: run.segments[0], track: run.track) }
        // Each time goes through the segment that holds it: the map is increasing, so decode times
        // stay in order and never pass their presentation times, B-frames at a section's edge included.
        func map(_ time: CMTime) -> CMTime {
            guard time.isNumeric else { return time }
            let mapping = segment(holding: time, in: run).timeMapping
            return CMTimeMapTimeFromRangeToRange(time, fromRange: mapping.source, toRange: mapping.target)
        }
        let pts = sample.presentationTimeStamp
        let mapping = segment(holding: pts.isNumeric ? pts : sample.decodeTimeStamp, in: run).timeMapping
        // Retimed where it is, not copied: the sample came from this reading's own output, and
        // nothing but that output's pool holds it until it is handed on.
        sample.timing = CMSampleTimingInfo(
            duration: sample.duration.isNumeric
                ? CMTimeMapDurationFromRangeToRange(sample.duration, fromRange: mapping.source, toRange: mapping.target) : sample.duration,
            presentationTimeStamp: map(pts), decodeTimeStamp: map(sample.decodeTimeStamp))
        return sample
    }

    /// The next block of a stretched segment: the stretcher's output, then silence to the segment's
    /// length if it falls short; nil once the segment is complete.
    private func nextStretched(_ s: Stretching, reader: AVAssetReader, output: AVAssetReaderTrackOutput, run: Run) throws -> CMSampleBuffer? {
        let segment = run.segments[0]
        while s.made < s.length {
            let room = min(4096, s.length - s.made)
            let got = s.scratch.withUnsafeMutableBufferPointer { s.stretcher.retrieve(into: $0.baseAddress!, capacity: room) }
            if got > 0 { return emit(s, frames: got, segment: segment) }
            if s.inputEnded {
                // The stretcher has given all it will: silence to the segment's end.
                s.scratch.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
                return emit(s, frames: room, segment: segment)
            }
            guard let sample = output.copyNextSampleBuffer() else {
                if reader.status == .failed { throw reader.error ?? AVError(.decodeFailed) }
                s.stretcher.finish()
                s.inputEnded = true
                continue
            }
            // Only the segment's own source range goes in.
            guard let block = sample.dataBuffer else { continue }
            let frames = sample.numSamples
            let offset = Int(((segment.timeMapping.source.start - sample.presentationTimeStamp).seconds * Double(s.rate)).rounded())
            let endOffset = Int(((segment.timeMapping.source.end - sample.presentationTimeStamp).seconds * Double(s.rate)).rounded())
            let from = max(0, offset), to = min(frames, endOffset)
            guard to > from else { continue }
            let floats = block.bytes.assumingMemoryBound(to: Float.self) + from * s.channels
            s.stretcher.process(floats, frames: to - from)
        }
        return nil
    }

    /// A buffer of the stretcher's scratch frames at the segment's next target time, in the output's sample format.
    private func emit(_ s: Stretching, frames: Int, segment: AVCompositionTrackSegment) -> CMSampleBuffer? {
        let isFloat = (settings?[AVLinearPCMIsFloatKey] as? NSNumber)?.boolValue ?? (settings?[AVLinearPCMIsFloatKey] as? Bool) ?? false
        let bytesPerFrame = s.channels * (isFloat ? 4 : 2)
        let block = s.scratch.withUnsafeBufferPointer { LinearPCM.block(from: $0, frames: frames, channels: s.channels, isFloat: isFloat) }
        let start = segment.timeMapping.target.start + CMTime(value: CMTimeValue(s.made), timescale: Int32(s.rate))
        s.made += frames
        let format = soundFormats[s.rate] ?? LinearPCM.format(rate: Double(s.rate), channels: s.channels, isFloat: isFloat)
        soundFormats[s.rate] = format
        return LinearPCM.sampleBuffer(block, format: format, frames: frames, bytesPerFrame: bytesPerFrame, start: start, rate: Int32(s.rate))
    }

    /// Decoded sound: shown at the output's rate from its segment's target start, cut at the segment's edges.
    private func placeSound(_ sample: CMSampleBuffer, in segment: AVCompositionTrackSegment, track: AVAssetTrack) throws -> CMSampleBuffer? {
        guard let block = sample.dataBuffer, let asbd = sample.formatDescription?.audioStreamBasicDescription, asbd.mBytesPerFrame > 0 else { return nil }
        let mapping = segment.timeMapping
        let readRate = asbd.mSampleRate
        let stretch = mapping.target.duration.seconds / mapping.source.duration.seconds
        // The rate the samples are shown at: the one asked for (a scaled segment was read faster or slower).
        let rate =
            segment.isScaled
            ? Double((settings?[AVSampleRateKey] as? NSNumber)?.intValue ?? (settings?[AVSampleRateKey] as? Int) ?? track.facts.sampleRate) : readRate
        let frames = sample.numSamples
        // Where the block's first sample lands, counted in samples at `rate` from the segment's target start.
        let sourceOffset = (sample.presentationTimeStamp - mapping.source.start).seconds
        let firstIndex = Int((sourceOffset * stretch * rate).rounded())
        let segmentLength = Int((mapping.target.duration.seconds * rate).rounded())
        let keepFrom = max(0, -firstIndex), keepTo = min(frames, segmentLength - firstIndex)
        guard keepTo > keepFrom else { return nil }
        let bytesPerFrame = Int(asbd.mBytesPerFrame)
        let kept = CMBlockBuffer(capacity: (keepTo - keepFrom) * bytesPerFrame)
        kept.bytes.copyMemory(from: block.bytes + keepFrom * bytesPerFrame, byteCount: (keepTo - keepFrom) * bytesPerFrame)
        kept.length = (keepTo - keepFrom) * bytesPerFrame
        let scale = Int32(rate.rounded())
        let start = mapping.target.start + CMTime(value: CMTimeValue(firstIndex + keepFrom), timescale: scale)
        let isFloat = asbd.mFormatFlags & kAudioFormatFlagIsFloat != 0
        let format = soundFormats[Int(scale)] ?? LinearPCM.format(rate: rate, channels: Int(asbd.mChannelsPerFrame), isFloat: isFloat)
        soundFormats[Int(scale)] = format
        return LinearPCM.sampleBuffer(kept, format: format, frames: keepTo - keepFrom, bytesPerFrame: bytesPerFrame, start: start, rate: scale)
    }
}
