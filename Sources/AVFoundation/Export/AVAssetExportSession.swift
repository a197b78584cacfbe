import CoreMedia
import Foundation
import Synchronization

/// An object that exports an asset's contents to a new file, as a preset describes: the samples
/// as they are (passthrough), or decoded and encoded again at a size and codec.
///
/// The export runs on a thread of the session's own: an asset reader's samples go to an asset
/// writer, interleaved by time. It never overwrites a file. Thread-safe.
open class AVAssetExportSession: NSObject, @unchecked Sendable {
    /// The states an export passes through.
    public enum Status: Int, Sendable {
        /// The export has not started.
        case unknown = 0
        /// The export waits to start.
        case waiting = 1
        /// The export is under way.
        case exporting = 2
        /// The file is written.
        case completed = 3
        /// The export failed; `error` says why.
        case failed = 4
        /// The export was cancelled; no file is left.
        case cancelled = 5
    }

    /// The asset the session exports.
    public let asset: AVAsset
    /// The name of the preset the session exports with.
    public let presetName: String
    private let preset: ExportPreset

    private struct State {
        var outputURL: URL?
        var outputFileType: AVFileType?
        var timeRange = CMTimeRange(start: .zero, duration: .positiveInfinity)
        var metadata: [AVMetadataItem]?
        var optimizeForNetwork = false
        var timePitch = AVAudioTimePitchAlgorithm.spectral
        var videoComposition: AVVideoComposition?
        var audioMix: AVAudioMix?
        var status = Status.unknown
        var error: (any Error)?
        var progress: Float = 0
        var cancelled = false
    }
    private let state = Mutex(State())

    /// Creates a session that exports an asset with a preset; nil for a preset this system does not have.
    public init?(asset: AVAsset, presetName: String) {
        guard let preset = ExportPreset.named(presetName) else { return nil }
        self.asset = asset
        self.presetName = presetName
        self.preset = preset
        super.init()
    }

    /// The names of every preset.
    open class func allExportPresets() -> [String] { ExportPreset.all }

    /// The presets an asset can be exported with: all of them for an asset with video, the
    /// passthrough and audio presets for one with only sound, none for one that cannot be read.
    open class func exportPresets(compatibleWith asset: AVAsset) -> [String] {
        guard let tracks = try? asset.loadedContents().tracks, !tracks.isEmpty else { return [] }
        if tracks.contains(where: { $0.mediaType == .video }) { return ExportPreset.all }
        return [AVAssetExportPresetPassthrough, AVAssetExportPresetAppleM4A]
    }

    /// The file to write; it must not exist yet.
    open var outputURL: URL? {
        get { state.withLock { $0.outputURL } }
        set { state.withLock { $0.outputURL = newValue } }
    }
    /// The type of file to write, one of `supportedFileTypes`.
    open var outputFileType: AVFileType? {
        get { state.withLock { $0.outputFileType } }
        set { state.withLock { $0.outputFileType = newValue } }
    }
    /// The file types the session's preset writes.
    open var supportedFileTypes: [AVFileType] { preset.fileTypes }
    /// The part of the asset to export; all of it by default.
    open var timeRange: CMTimeRange {
        get { state.withLock { $0.timeRange } }
        set { state.withLock { $0.timeRange = newValue } }
    }
    /// Metadata for the file; nil keeps the asset's own.
    open var metadata: [AVMetadataItem]? {
        get { state.withLock { $0.metadata } }
        set { state.withLock { $0.metadata = newValue } }
    }
    /// Whether the file's index goes first, so that it can play while it downloads.
    open var shouldOptimizeForNetworkUse: Bool {
        get { state.withLock { $0.optimizeForNetwork } }
        set { state.withLock { $0.optimizeForNetwork = newValue } }
    }
    /// How sound is stretched where the asset's time is scaled.
    open var audioTimePitchAlgorithm: AVAudioTimePitchAlgorithm {
        get { state.withLock { $0.timePitch } }
        set { state.withLock { $0.timePitch = newValue } }
    }
    /// How the pictures are put together: with one, they are encoded again at its render size and
    /// at its constant frame rate; a preset that encodes is needed.
    open var videoComposition: AVVideoComposition? {
        get { state.withLock { $0.videoComposition } }
        set { state.withLock { $0.videoComposition = newValue } }
    }
    /// The tracks' volumes over time; the sound is mixed into one track and encoded again (passthrough
    /// keeps the stored sound as it is and leaves the mix out).
    open var audioMix: AVAudioMix? {
        get { state.withLock { $0.audioMix } }
        set { state.withLock { $0.audioMix = newValue?.copy() as? AVAudioMix } }
    }
    /// The export's state.
    open var status: Status { state.withLock { $0.status } }
    /// Why the export failed, when it did.
    open var error: (any Error)? { state.withLock { $0.error } }
    /// How much of the export is done, from 0 to 1.
    open var progress: Float { state.withLock { $0.progress } }

    /// Starts exporting on the session's own thread; the handler runs when the export completes, fails or is cancelled.
    open func exportAsynchronously(completionHandler handler: @escaping @Sendable () -> Void) {
        let start = state.withLock { state -> Bool in
            guard state.status == .unknown else { return false }
            state.status = .waiting
            return true
        }
        guard start else {
            ProgrammingError.invalidState("-[AVAssetExportSession exportAsynchronouslyWithCompletionHandler:] an export session exports once")
        }
        let thread = Thread { [self] in
            run()
            handler()
        }
        thread.name = "AVAssetExportSession"
        thread.start()
    }

    /// Exports, and returns when the export completes, fails or is cancelled.
    open func export() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            exportAsynchronously { continuation.resume() }
        }
    }

    /// Exports to a file of a type, and throws the error when the export fails.
    open func export(to url: URL, as fileType: AVFileType, isolation: isolated (any Actor)? = #isolation) async throws {
        outputURL = url
        outputFileType = fileType
        await export()
        switch status {
        case .completed: return
        case .cancelled: throw CancellationError()
        default: throw error ?? AVError(.exportFailed)
        }
    }

    /// Stops the export; no file is left.
    open func cancelExport() {
        state.withLock { state in
            state.cancelled = true
            if state.status == .unknown || state.status == .waiting { state.status = .cancelled }
        }
    }

    // MARK: Exporting

    private func finish(_ status: Status, _ error: (any Error)? = nil) {
        state.withLock { state in
            state.status = status
            state.error = error
            if status == .completed { state.progress = 1 }
        }
    }

    private var isCancelled: Bool { state.withLock { $0.cancelled } }

    private func run() {
        let (url, fileType, range, metadata, optimize, algorithm, composition, mix) = state.withLock { state in
            if state.status == .waiting && !state.cancelled { state.status = .exporting }
            return (
                state.outputURL, state.outputFileType, state.timeRange, state.metadata, state.optimizeForNetwork, state.timePitch, state.videoComposition,
                state.audioMix
            )
        }
        guard !isCancelled else { return finish(.cancelled) }
        guard let url else { return finish(.failed, AVError(.exportFailed, userInfo: [NSLocalizedDescriptionKey: "The export session has no outputURL."])) }
        let type = fileType ?? AVFileType.forPathExtension(url.pathExtension)
        guard preset.fileTypes.contains(type) else {
            return finish(
                .failed,
                AVError(
                    .exportFailed,
                    userInfo: [
                        NSLocalizedDescriptionKey: "\(presetName) writes \(preset.fileTypes.map(\.rawValue).joined(separator: ", ")), not \(type.rawValue)."
                    ]))
        }
        if let composition,
            preset.passthrough || composition.renderSize.width < 2 || composition.renderSize.height < 2
                || !composition.frameDuration.isNumeric || composition.frameDuration <= .zero
        {
            return finish(
                .failed,
                AVError(
                    .invalidVideoComposition,
                    userInfo: [
                        NSLocalizedDescriptionKey: preset.passthrough
                            ? "A video composition is rendered and encoded again: passthrough copies samples as they are; use a preset that encodes."
                            : "The video composition needs a render size and a frame duration of more than zero."
                    ]))
        }
        if FileSystemEntry.exists(atPath: url.path) {
            return finish(
                .failed, AVError(.fileAlreadyExists, userInfo: [NSURLErrorKey: url, NSLocalizedDescriptionKey: "A file already exists at \(url.path)."]))
        }
        // The movie is written beside its destination and appears there only when complete: a
        // process killed while exporting leaves no half a movie in the way of the next try.
        let partial = url.deletingLastPathComponent()
            .appendingPathComponent(
                ".\(url.deletingPathExtension().lastPathComponent).export-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).\(url.pathExtension)")
        do {
            try export(to: partial, type: type, range: range, metadata: metadata, optimize: optimize, algorithm: algorithm, composition: composition, mix: mix)
            try PartialFile.commit(partial, to: url)
            finish(.completed)
        } catch {
            unlink(partial.path)
            finish(isCancelled ? .cancelled : .failed, isCancelled ? nil : error)
        }
    }

    /// A reader output and the writer input its samples go to.
    private struct Lane {
        var output: AVAssetReaderOutput
        var input: AVAssetWriterInput
        var next: CMSampleBuffer?
        /// Pictures at a video composition's constant rate, when there is one.
        var constantRate: ConstantRate?
        func pull() -> CMSampleBuffer? { constantRate.map { $0.next() } ?? output.copyNextSampleBuffer() }
    }

    /// The reader outputs and writer inputs an export needs: each picked track as it is stored
    /// (passthrough), or decoded, composed or mixed, and encoded again as the preset says.
    private func plannedLanes(
        contents: AssetContents, range clipped: CMTimeRange, algorithm: AVAudioTimePitchAlgorithm, composition: AVVideoComposition?,
        mix: AVAudioMix?
    ) throws -> [Lane] {
        var lanes: [Lane] = []
        let video =
            preset.audioOnly ? nil : contents.tracks.first { $0.mediaType == .video && $0.isEnabled } ?? contents.tracks.first { $0.mediaType == .video }
        let audio = contents.tracks.first { $0.mediaType == .audio && $0.isEnabled } ?? contents.tracks.first { $0.mediaType == .audio }
        if let video {
            if preset.passthrough {
                let input = AVAssetWriterInput(mediaType: .video, outputSettings: nil, sourceFormatHint: video.facts.formatDescription)
                input.transform = video.preferredTransform
                lanes.append(Lane(output: AVAssetReaderTrackOutput(track: video, outputSettings: nil), input: input))
            } else if let codec = preset.codec {
                let natural = (Int(video.naturalSize.width), Int(video.naturalSize.height))
                guard var (width, height) = preset.size(for: natural) else {
                    throw AVError(
                        .exportFailed,
                        userInfo: [
                            NSLocalizedDescriptionKey:
                                "A picture of \(natural.0)x\(natural.1) cannot be encoded: no size from 16 to 8192 on each side keeps its shape."
                        ])
                }
                if let composition { (width, height) = (Int(composition.renderSize.width) & ~1, Int(composition.renderSize.height) & ~1) }
                guard ExportPreset.encodableSides.contains(width), ExportPreset.encodableSides.contains(height) else {
                    throw AVError(
                        .invalidVideoComposition,
                        userInfo: [
                            NSLocalizedDescriptionKey:
                                "The render size \(width)x\(height) cannot be encoded: each side must be from 16 to 8192."
                        ])
                }
                // A damaged track can say any rate (a time scale of 0, 1 or 2^32 - 1): the encoder is told one it can take.
                let rate = EncodingPlan.expectedFrameRate(composition.map { 1 / $0.frameDuration.seconds } ?? Double(video.nominalFrameRate))
                let input = AVAssetWriterInput(
                    mediaType: .video,
                    outputSettings: [
                        AVVideoCodecKey: codec, AVVideoWidthKey: width, AVVideoHeightKey: height,
                        AVVideoCompressionPropertiesKey: [AVVideoExpectedSourceFrameRateKey: rate],
                    ])
                if let composition, !composition.onlyTurns(video) {
                    // Composed by the instructions, every video track a layer: the pictures come out upright.
                    let composing = AVAssetReaderVideoCompositionOutput(
                        videoTracks: contents.tracks.filter { $0.mediaType == .video },
                        videoSettings: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange])
                    composing.videoComposition = composition
                    lanes.append(Lane(output: composing, input: input))
                } else {
                    // One track as it is stored, scaled by the decoder, its turn kept in the movie's matrix.
                    let output = AVAssetReaderTrackOutput(
                        track: video,
                        outputSettings: [
                            kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange,
                            kCVPixelBufferWidthKey as String: width, kCVPixelBufferHeightKey as String: height,
                        ])
                    input.transform = video.preferredTransform
                    let steady = composition.map { ConstantRate(output: output, frameDuration: $0.frameDuration, start: clipped.start, end: clipped.end) }
                    lanes.append(Lane(output: output, input: input, constantRate: steady))
                }
            }
        }
        if let audio {
            // Sound in a scaled section cannot be retimed as it is stored: it is stretched and encoded again.
            let scaledSound = (audio as? AVCompositionTrack)?.segments.contains { $0.isScaled } ?? false
            if preset.passthrough && !scaledSound {
                lanes.append(
                    Lane(
                        output: AVAssetReaderTrackOutput(track: audio, outputSettings: nil),
                        input: AVAssetWriterInput(mediaType: .audio, outputSettings: nil, sourceFormatHint: audio.facts.formatDescription)))
            } else {
                let channels = min(2, max(1, audio.facts.channels)), rate = audio.facts.sampleRate > 0 ? audio.facts.sampleRate : 48_000
                let settings: [String: Any] = [
                    AVFormatIDKey: kAudioFormatLinearPCM, AVLinearPCMBitDepthKey: 16, AVSampleRateKey: rate, AVNumberOfChannelsKey: channels,
                ]
                let output: AVAssetReaderOutput
                if let mix {
                    // Every enabled sound track and every one the mix names, mixed at the volumes the mix gives.
                    let named = Set(mix.inputParameters.map(\.trackID))
                    let tracks = contents.tracks.filter { $0.mediaType == .audio && ($0.isEnabled || named.contains($0.trackID)) }
                    let mixing = AVAssetReaderAudioMixOutput(audioTracks: tracks.isEmpty ? [audio] : tracks, audioSettings: settings)
                    mixing.audioMix = mix
                    mixing.audioTimePitchAlgorithm = algorithm
                    output = mixing
                } else {
                    let track = AVAssetReaderTrackOutput(track: audio, outputSettings: settings)
                    track.audioTimePitchAlgorithm = algorithm
                    output = track
                }
                let input = AVAssetWriterInput(mediaType: .audio, outputSettings: EncodingPlan.aacSettings(sampleRate: Double(rate), channels: channels))
                lanes.append(Lane(output: output, input: input))
            }
        }
        return lanes
    }

    private func export(
        to url: URL, type: AVFileType, range: CMTimeRange, metadata: [AVMetadataItem]?, optimize: Bool,
        algorithm: AVAudioTimePitchAlgorithm, composition: AVVideoComposition?, mix: AVAudioMix?
    ) throws {
        let contents = try asset.loadedContents()
        let reader = try AVAssetReader(asset: asset)
        let duration = contents.duration
        let clipped = CMTimeRange(start: max(.zero, range.start), end: range.end.isNumeric ? min(range.end, duration) : duration)
        guard clipped.duration > .zero else { throw AVError(.exportFailed, userInfo: [NSLocalizedDescriptionKey: "The time range holds none of the asset."]) }
        reader.timeRange = clipped
        let writer = try AVAssetWriter(outputURL: url, fileType: type)
        writer.metadata = metadata ?? contents.metadata
        writer.shouldOptimizeForNetworkUse = optimize

        var lanes = try plannedLanes(contents: contents, range: clipped, algorithm: algorithm, composition: composition, mix: mix)
        guard !lanes.isEmpty else { throw AVError(.exportFailed, userInfo: [NSLocalizedDescriptionKey: "\(presetName) finds nothing to export in the asset."]) }
        for lane in lanes {
            // A damaged or unusual movie can give a track the writer cannot take (a second track of
            // one kind, or samples the container cannot carry): said, never a trap.
            guard writer.canAdd(lane.input) else {
                throw AVError(
                    .exportFailed,
                    userInfo: [
                        NSLocalizedDescriptionKey:
                            "\(presetName) cannot write the asset's \(lane.input.mediaType == .video ? "video" : "sound") track into a file of type \(outputFileType?.rawValue ?? "unknown")."
                    ])
            }
            reader.add(lane.output)
            lane.input.expectsMediaDataInRealTime = false
            writer.add(lane.input)
        }
        guard reader.startReading() else { throw reader.error ?? AVError(.exportFailed) }
        for index in lanes.indices { lanes[index].next = lanes[index].pull() }
        guard writer.startWriting() else { reader.cancelReading(); throw writer.error ?? AVError(.exportFailed) }
        // The timeline starts at the first sample: for passthrough, the keyframe at or before the range.
        let first = lanes.compactMap { $0.next?.presentationTimeStamp }.filter(\.isNumeric).min() ?? clipped.start
        writer.startSession(atSourceTime: min(first, clipped.start))

        // Samples go to the writer in time order, so the file interleaves without buffering a track.
        var samplesWritten = 0
        while true {
            if isCancelled {
                reader.cancelReading()
                writer.cancelWriting()
                throw CancellationError()
            }
            // The lane whose next sample comes first, found without making an array each sample.
            var earliest: (index: Int, sample: CMSampleBuffer)?
            for index in lanes.indices {
                guard let next = lanes[index].next else { continue }
                if earliest.map({ next.presentationTimeStamp < $0.sample.presentationTimeStamp }) ?? true { earliest = (index, next) }
            }
            guard let (index, sample) = earliest else { break }
            let input = lanes[index].input
            // Waits on the writer's thread taking a sample from its queue, not on a timer.
            while !input.isReadyForMoreMediaData, writer.status == .writing, writer.waitForRoom() {}
            guard input.append(sample) else {
                reader.cancelReading()
                throw writer.error ?? AVError(.exportFailed)
            }
            samplesWritten += 1
            if lanes[index].output.mediaType == .video || lanes.count == 1 {
                let done = (sample.presentationTimeStamp - clipped.start).seconds / clipped.duration.seconds
                state.withLock { $0.progress = Float(min(0.99, max(0, done))) }
            }
            lanes[index].next = lanes[index].pull()
        }
        if reader.status == .failed { writer.cancelWriting(); throw reader.error ?? AVError(.exportFailed) }
        guard samplesWritten > 0 else {
            writer.cancelWriting()
            throw AVError(.exportFailed, userInfo: [NSLocalizedDescriptionKey: "No media could be read from the asset in the time range."])
        }
        for lane in lanes { lane.input.markAsFinished() }
        let finished = DispatchSemaphore(value: 0)
        writer.finishWriting { finished.signal() }
        finished.wait()
        guard writer.status == .completed else { throw writer.error ?? AVError(.exportFailed) }
    }
}
