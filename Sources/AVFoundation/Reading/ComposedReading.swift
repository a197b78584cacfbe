import CoreMedia
import Foundation

/// Reads a composition track's samples: each run of its segments (consecutive segments that
/// continue each other in one source track) through an asset reader of the source, every
/// sample moved to, and stretched by, the segment that holds it.
///
/// Pictures and stored samples are read a run at a time, so a scaled section's edges need no
/// second decode from the keyframe before them. Decoded sound is read a segment at a time and
/// cut at the segment's edges; in a scaled segment it is stretched as the output's time-pitch
/// algorithm says (`.varispeed`: resampled, so its pitch follows the rate).
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
                    throw AVError(.operationNotSupportedForAsset, userInfo: [NSLocalizedDescriptionKey:
                        "Sound in a scaled time range cannot be read as stored packets: ask for linear PCM, which is stretched."])
                }
                guard algorithm == .varispeed else {
                    throw AVError(.operationNotSupportedForAsset, userInfo: [NSLocalizedDescriptionKey:
                        "Sound in a scaled time range is stretched with .varispeed here; \(algorithm.rawValue) is not available yet."])
                }
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
            // Varispeed: resampled to rate x stretch and shown at the rate, so it lasts that much longer.
            let rate = (sound[AVSampleRateKey] as? NSNumber)?.intValue ?? (sound[AVSampleRateKey] as? Int) ?? run.track.facts.sampleRate
            let stretch = segment.timeMapping.target.duration.seconds / segment.timeMapping.source.duration.seconds
            sound[AVSampleRateKey] = max(1000, min(768_000, Int((Double(rate) * stretch).rounded())))
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
        let pts = sample.presentationTimeStamp
        let holder = segment(holding: pts.isNumeric ? pts : sample.decodeTimeStamp, in: run)
        let mapping = holder.timeMapping
        var timing = CMSampleTimingInfo(
            duration: sample.duration.isNumeric ? CMTimeMapDurationFromRangeToRange(sample.duration, fromRange: mapping.source, toRange: mapping.target) : sample.duration,
            presentationTimeStamp: pts.isNumeric ? CMTimeMapTimeFromRangeToRange(pts, fromRange: mapping.source, toRange: mapping.target) : pts,
            decodeTimeStamp: sample.decodeTimeStamp.isNumeric
                ? CMTimeMapTimeFromRangeToRange(sample.decodeTimeStamp, fromRange: mapping.source, toRange: mapping.target) : sample.decodeTimeStamp)
        var placed: CMSampleBuffer?
        CMSampleBufferCreateCopyWithNewTiming(allocator: nil, sampleBuffer: sample, sampleTimingEntryCount: 1, sampleTimingArray: &timing, sampleBufferOut: &placed)
        return placed
    }

    /// Decoded sound: shown at the output's rate from its segment's target start, cut at the segment's edges.
    private func placeSound(_ sample: CMSampleBuffer, in segment: AVCompositionTrackSegment, track: AVAssetTrack) throws -> CMSampleBuffer? {
        guard let block = sample.dataBuffer, let asbd = sample.formatDescription?.audioStreamBasicDescription, asbd.mBytesPerFrame > 0 else { return nil }
        let mapping = segment.timeMapping
        let readRate = asbd.mSampleRate
        let stretch = mapping.target.duration.seconds / mapping.source.duration.seconds
        // The rate the samples are shown at: the one asked for (a scaled segment was read faster or slower).
        let rate = segment.isScaled ? Double((settings?[AVSampleRateKey] as? NSNumber)?.intValue ?? (settings?[AVSampleRateKey] as? Int) ?? track.facts.sampleRate) : readRate
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
        var format = soundFormats[Int(scale)]
        if format == nil {
            var shown = asbd
            shown.mSampleRate = rate
            var made: CMAudioFormatDescription?
            CMAudioFormatDescriptionCreate(allocator: nil, asbd: &shown, layoutSize: 0, layout: nil, magicCookieSize: 0, magicCookie: nil, extensions: nil, formatDescriptionOut: &made)
            format = made
            soundFormats[Int(scale)] = made
        }
        var timing = CMSampleTimingInfo(duration: CMTime(value: 1, timescale: scale), presentationTimeStamp: start, decodeTimeStamp: .invalid)
        var size = bytesPerFrame
        var placed: CMSampleBuffer?
        CMSampleBufferCreate(allocator: nil, dataBuffer: kept, dataReady: true, makeDataReadyCallback: nil, refcon: nil, formatDescription: format,
                             sampleCount: keepTo - keepFrom, sampleTimingEntryCount: 1, sampleTimingArray: &timing, sampleSizeEntryCount: 1,
                             sampleSizeArray: &size, sampleBufferOut: &placed)
        return placed
    }
}
