import CaptureDevices
import Foundation
import FrameProcessing
import MovieEngine
import Synchronization
import UniformTypeIdentifiers

/// An object that writes media to a QuickTime or MPEG-4 file, encoding what its inputs receive.
///
/// Encoding runs on a writer thread of its own; `append` hands samples over through a bounded
/// queue, and `isReadyForMoreMediaData` tells whether it has room. The completion handler of
/// `finishWriting` runs on an arbitrary queue.
open class AVAssetWriter: NSObject, @unchecked Sendable {
    /// The state of a writer.
    public enum Status: Int, Sendable {
        /// Inputs can be added; writing has not started.
        case unknown = 0
        /// Writing is under way.
        case writing = 1
        /// The file is finished.
        case completed = 2
        /// Writing failed; see `error`.
        case failed = 3
        /// Writing was cancelled and the file removed.
        case cancelled = 4
    }

    /// The file the writer writes.
    public let outputURL: URL
    /// The kind of file the writer writes.
    public let outputFileType: AVFileType

    private struct State {
        var status: Status = .unknown
        var error: Error?
        var inputs: [AVAssetWriterInput] = []
        var sessionStart: CMTime = .invalid
        var sessionEnd: CMTime = .invalid
        var metadata: [AVMetadataItem] = []
        var fragmentInterval: CMTime = .invalid
        var optimizeForNetwork = true
        var finishHandler: (@Sendable () -> Void)?
        /// Signalled once a cancelled file is gone.
        var cancelled: DispatchSemaphore?
        var fileTypeProfile: AVFileTypeProfile?
        var segmentInterval: CMTime = .indefinite
        var initialSegmentStartTime: CMTime = .invalid
        weak var delegate: (any AVAssetWriterDelegate)?
        /// `flushSegment()` asked for the segment to end at the next sync sample.
        var flushRequested = false
    }
    private let state = LockedValue(State())
    private var thread: MovieWriterThread?
    /// The writer thread's own: the encoder, and when it next asks for a fragment.
    private var encoder: MovieEncoder?
    private var fragments = FragmentSchedule(interval: .invalid)
    /// Whether the writer outputs segments to its delegate rather than a file (`init(contentType:)`).
    let writesSegments: Bool
    /// The writer thread's own, for segments: where the encoder puts them, the tracks the
    /// initialization segment declared, and the movie time the next segment starts at.
    private var segmentSink: SegmentSink?
    private var segmentTracks: [FragmentedMovieLayout.Track] = []
    private var nextSegmentStart: CMTime = .invalid

    /// Creates a writer for a file URL and file type; the file is created when writing starts.
    public init(outputURL: URL, fileType outputFileType: AVFileType) throws {
        guard outputURL.isFileURL else {
            throw AVError(.unknown, userInfo: [NSLocalizedDescriptionKey: "An asset writer writes only to file URLs, not \(outputURL)."])
        }
        guard [AVFileType.mov, .mp4, .m4v, .m4a].contains(outputFileType) else {
            throw AVError(
                .unknown, userInfo: [NSLocalizedDescriptionKey: "The file type \(outputFileType.rawValue) cannot be written; use .mov, .mp4, .m4v or .m4a."])
        }
        self.outputURL = outputURL
        self.outputFileType = outputFileType
        writesSegments = false
        super.init()
    }

    /// Creates an object that outputs segment data in a specified container format to its delegate.
    ///
    /// No file is written: the writer's `outputURL` is `/dev/null`. MPEG-4 content types write
    /// fragmented MPEG-4 (CMAF); set `delegate` before `startWriting()`.
    public init(contentType outputContentType: UTType) {
        let fileType = AVFileType(rawValue: outputContentType.identifier)
        guard [AVFileType.mp4, .m4v, .m4a].contains(fileType) else {
            ProgrammingError.invalidArgument("-[AVAssetWriter initWithContentType:] segment data is written as MPEG-4, not \(outputContentType.identifier)")
        }
        outputURL = URL(fileURLWithPath: "/dev/null")
        outputFileType = fileType
        writesSegments = true
        super.init()
    }

    /// Creates a writer for a file URL and file type, as Objective-C code does.
    public convenience init(url outputURL: URL, fileType outputFileType: AVFileType) throws {
        try self.init(outputURL: outputURL, fileType: outputFileType)
    }

    /// The writer's state.
    open var status: Status { state.withLock { $0.status } }
    /// Why writing failed, when it did.
    open var error: Error? { state.withLock { $0.error } }
    /// The writer's inputs.
    open var inputs: [AVAssetWriterInput] { state.withLock { $0.inputs } }
    /// The media types the writer can write.
    open var availableMediaTypes: [AVMediaType] { [.video, .audio] }
    /// The movie's metadata, written when the file is finished.
    open var metadata: [AVMetadataItem] {
        get { state.withLock { $0.metadata } }
        set { state.withLock { $0.metadata = newValue } }
    }
    /// How often a fragment is written while writing; `.invalid` (the default) writes an ordinary file.
    open var movieFragmentInterval: CMTime {
        get { state.withLock { $0.fragmentInterval } }
        set { state.withLock { $0.fragmentInterval = newValue } }
    }
    /// A profile for the output file type: `.mpeg4AppleHLS` or `.mpeg4CMAFCompliant` for segments to stream.
    open var outputFileTypeProfile: AVFileTypeProfile? {
        get { state.withLock { $0.fileTypeProfile } }
        set { state.withLock { $0.fileTypeProfile = newValue } }
    }
    /// The interval the writer cuts segments at, each at the first sync sample from there;
    /// `.indefinite` (the default) cuts only at `flushSegment()`.
    open var preferredOutputSegmentInterval: CMTime {
        get { state.withLock { $0.segmentInterval } }
        set { state.withLock { $0.segmentInterval = newValue } }
    }
    /// The source time the first segment starts at; segments start at it plus multiples of the interval.
    open var initialSegmentStartTime: CMTime {
        get { state.withLock { $0.initialSegmentStartTime } }
        set { state.withLock { $0.initialSegmentStartTime = newValue } }
    }
    /// The object that receives segment data.
    open weak var delegate: (any AVAssetWriterDelegate)? {
        get { state.withLock { $0.delegate } }
        set { state.withLock { $0.delegate = newValue } }
    }

    /// Ends the current segment at the next sync sample and outputs it to the delegate.
    open func flushSegment() {
        state.withLock { $0.flushRequested = true }
    }

    /// Whether the file's index goes first, so that it can play while it downloads.
    open var shouldOptimizeForNetworkUse: Bool {
        get { state.withLock { $0.optimizeForNetwork } }
        set { state.withLock { $0.optimizeForNetwork = newValue } }
    }

    /// Whether output settings can be used for a media type on this machine.
    open func canApply(outputSettings: [String: Any]?, forMediaType mediaType: AVMediaType) -> Bool {
        if case .success(let (video, _)) = Self.validate(outputSettings, for: mediaType) { return video.map(carries) ?? true }
        return false
    }

    /// The stream a passthrough input writes, from its format hint; nil when the hint cannot be written as it is.
    static func passthrough(for input: AVAssetWriterInput) -> MovieEncoding.Passthrough? {
        guard input.outputSettings == nil, let hint = input.sourceFormatHint else { return nil }
        switch (input.mediaType, hint.mediaSubTypeCode) {
        case (.video, kCMVideoCodecType_H264):
            guard let avcC = hint.extensionAtoms["avcC"] else { return nil }
            return .init(codec: "h264", extradata: avcC, width: Int(hint.dimensions.width), height: Int(hint.dimensions.height))
        case (.video, kCMVideoCodecType_HEVC):
            guard let hvcC = hint.extensionAtoms["hvcC"] else { return nil }
            return .init(codec: "hevc", extradata: hvcC, width: Int(hint.dimensions.width), height: Int(hint.dimensions.height))
        case (.audio, kAudioFormatMPEG4AAC):
            guard let asbd = hint.audioStreamBasicDescription, let cookie = hint.magicCookie else { return nil }
            return .init(codec: "aac", extradata: cookie, sampleRate: Int(asbd.mSampleRate), channels: Int(asbd.mChannelsPerFrame))
        case (.audio, kAudioFormatLinearPCM):
            guard let asbd = hint.audioStreamBasicDescription, asbd.mBitsPerChannel == 16, asbd.mFormatFlags & kAudioFormatFlagIsFloat == 0,
                asbd.mFormatFlags & kAudioFormatFlagIsBigEndian == 0, asbd.mFormatFlags & kAudioFormatFlagIsNonInterleaved == 0
            else { return nil }
            return .init(codec: "pcm_s16le", extradata: Data(), sampleRate: Int(asbd.mSampleRate), channels: Int(asbd.mChannelsPerFrame))
        default:
            return nil
        }
    }

    static func validate(_ settings: [String: Any]?, for mediaType: AVMediaType) -> Result<(ValidatedSettings.Video?, ValidatedSettings.Audio?), SettingsError>
    {
        guard let settings else { return .success((nil, nil)) }  // passthrough: samples are written as they are
        switch mediaType {
        case .video: return ValidatedSettings.video(settings).map { ($0, nil) }
        case .audio: return ValidatedSettings.audio(settings).map { (nil, $0) }
        default: return .failure(SettingsError("media type \(mediaType.rawValue) cannot be written"))
        }
    }

    /// Whether an input can be added: writing has not started and no input of its media type was added.
    open func canAdd(_ input: AVAssetWriterInput) -> Bool {
        state.withLock { state in
            state.status == .unknown && input.writer == nil && !state.inputs.contains { $0.mediaType == input.mediaType }
                && (input.video != nil || input.audio != nil || Self.passthrough(for: input) != nil)
        } && (input.video.map(carries) ?? true)
    }

    /// Whether the file's container carries video of these settings: ProRes goes in QuickTime movies only.
    private func carries(_ video: ValidatedSettings.Video) -> Bool {
        !video.isProRes || outputFileType == .mov
    }

    /// Adds an input.
    open func add(_ input: AVAssetWriterInput) {
        guard canAdd(input) else {
            ProgrammingError.invalidArgument("-[AVAssetWriter addInput:] Cannot add \(input.mediaType.rawValue) input; check canAdd(_:) first")
        }
        state.withLock { $0.inputs.append(input) }
        input.writer = self
    }

    /// Creates the file and starts writing; false, with `error` set, when it cannot.
    @discardableResult
    open func startWriting() -> Bool {
        let (inputs, fragmentInterval, optimize, current) = state.withLock { ($0.inputs, $0.fragmentInterval, $0.optimizeForNetwork, $0.status) }
        guard current == .unknown else {
            ProgrammingError.invalidState("-[AVAssetWriter startWriting] Cannot call method when status is \(current)")
        }
        if writesSegments, let problem = segmentProblem() {
            return fail(AVError(.unknown, userInfo: [NSLocalizedDescriptionKey: problem]))
        }
        if !writesSegments, FileSystemEntry.exists(atPath: outputURL.path) {
            return fail(
                AVError(.fileAlreadyExists, userInfo: [NSURLErrorKey: outputURL, NSLocalizedDescriptionKey: "A file already exists at \(outputURL.path)."]))
        }
        guard !inputs.isEmpty else { return fail(AVError(.unknown, userInfo: [NSLocalizedDescriptionKey: "The writer has no inputs."])) }
        var encoding = MovieEncoding(container: outputFileType.muxerName, fragmented: fragmentInterval.isNumeric || writesSegments)
        encoding.fastStart = optimize && !writesSegments
        if let videoInput = inputs.first(where: { $0.mediaType == .video }), let video = videoInput.video {
            encoding.video = Self.plan(video, source: videoInput.sourceSize)
            if let colour = video.colour { encoding.colourProperties = (colour.primaries, colour.transferFunction, colour.matrix) }
            if let aspect = video.pixelAspectRatio { encoding.pixelAspectRatio = (aspect[0], aspect[1]) }
            if let aperture = video.cleanAperture {
                encoding.cleanAperture = CleanApertureBox(width: aperture[0], height: aperture[1], horizontalOffset: aperture[2], verticalOffset: aperture[3])
            }
        }
        if let audio = inputs.first(where: { $0.mediaType == .audio })?.audio {
            encoding.audio = .init(
                sampleRate: audio.sampleRate, channels: audio.channels, bitRate: audio.bitRate ?? EncodingPlan.aacBitRate(channels: audio.channels))
            encoding.audio?.layout = audio.layout
        }
        if let videoInput = inputs.first(where: { $0.mediaType == .video }) {
            (encoding.rotationDegrees, encoding.mirrored) = videoInput.displayRotation
            if let video = encoding.video { encoding.colour = videoInput.colour(width: video.width, height: video.height) }
        }
        encoding.videoPassthrough = inputs.first(where: { $0.mediaType == .video }).flatMap(Self.passthrough(for:))
        // Passthrough keeps the source's clean aperture, as its format description says it.
        if encoding.videoPassthrough != nil, let aperture = inputs.first(where: { $0.mediaType == .video })?.sourceFormatHint?.imageGeometry.cleanAperture {
            encoding.cleanAperture = CleanApertureBox(
                width: aperture.width, height: aperture.height, horizontalOffset: aperture.horizontalOffset, verticalOffset: aperture.verticalOffset)
        }
        encoding.audioPassthrough = inputs.first(where: { $0.mediaType == .audio }).flatMap(Self.passthrough(for:))
        segmentSink = writesSegments ? SegmentSink() : nil
        do {
            encoder = try MovieEncoder(url: outputURL, encoding: encoding, metadata: AVMetadataItem.movieMetadata(metadata), segments: segmentSink)
        } catch {
            return fail(error.avError(url: outputURL, successfullyFinished: false))
        }
        thread = MovieWriterThread(name: "AVAssetWriter \(outputURL.lastPathComponent)", capacity: 64, videoCapacity: 3) { [self] item in handle(item) }
        state.withLock { $0.status = .writing }
        return true
    }

    /// Why a segment writer cannot start, if it cannot: it needs a delegate, and a streaming
    /// profile with an interval needs a numeric initial segment start time.
    private func segmentProblem() -> String? {
        state.withLock { state in
            if state.delegate == nil { return "A writer made with init(contentType:) outputs segments to its delegate: set delegate first." }
            if state.fileTypeProfile != nil, state.segmentInterval.isNumeric, !state.initialSegmentStartTime.isNumeric {
                return "initialSegmentStartTime must be numeric when preferredOutputSegmentInterval is set for a streaming profile."
            }
            if state.segmentInterval.isNumeric, state.segmentInterval <= .zero { return "preferredOutputSegmentInterval must be positive." }
            return nil
        }
    }

    /// Plans the encoding of video settings for frames of `source`'s size, where it is known:
    /// the scaling mode (Fit reduces the encoded size to the source's aspect ratio), and 10-bit
    /// HEVC for HDR colour.
    static func plan(_ video: ValidatedSettings.Video, source: (width: Int, height: Int)?) -> MovieEncoding.Video {
        var size = (width: video.width, height: video.height)
        var scaling = MovieEncoding.Video.Scaling.stretch
        switch video.scalingMode {
        case AVVideoScalingModeResizeAspect: scaling = .letterbox(upscales: true)
        case AVVideoScalingModeResizeAspectFill: scaling = .crop
        case AVVideoScalingModeFit:
            if let source {
                size = FrameFitting.fit(source: source, within: size)
            } else {
                scaling = .letterbox(upscales: false)
            }
        default: break
        }
        var compression = video.compression
        if video.codec == .hevc, video.colour?.isHighDynamicRange == true, compression.profileLevel == nil {
            compression.profileLevel = "HEVC_Main10_AutoLevel"
        }
        var plan = EncodingPlan.video(
            codec: video.codec, width: size.width, height: size.height, frameRate: compression.expectedFrameRate ?? 30, fullRange: false,
            compression: compression, for: .file)
        plan.scaling = scaling
        return plan
    }

    private func fail(_ error: AVError) -> Bool {
        state.withLock { state in
            state.status = .failed
            state.error = error
        }
        return false
    }

    /// Starts the timeline: samples are placed relative to this source time, and earlier ones are dropped.
    open func startSession(atSourceTime startTime: CMTime) {
        state.withLock { state in
            if state.status != .writing {
                ProgrammingError.invalidState("-[AVAssetWriter startSessionAtSourceTime:] Cannot call method when status is \(state.status)")
            }
            state.sessionStart = startTime
        }
    }

    /// Ends the timeline: samples at or after this source time are dropped.
    open func endSession(atSourceTime endTime: CMTime) {
        state.withLock { $0.sessionEnd = endTime }
    }

    /// Finishes the file; the handler runs when it is complete or has failed.
    open func finishWriting(completionHandler handler: @escaping @Sendable () -> Void) {
        let thread = state.withLock { state -> MovieWriterThread? in
            guard state.status == .writing else { return nil }
            state.finishHandler = handler
            return self.thread
        }
        guard let thread else { DispatchQueue.global().async(execute: handler); return }
        thread.enqueueWaiting(.finish)
    }

    /// Finishes the file.
    open func finishWriting() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            finishWriting { continuation.resume() }
        }
    }

    /// Stops writing and removes the file; returns once the file is gone.
    open func cancelWriting() {
        let done = DispatchSemaphore(value: 0)
        let thread = state.withLock { state -> MovieWriterThread? in
            guard state.status == .writing || state.status == .unknown else { return nil }
            state.status = .cancelled
            state.cancelled = done
            return self.thread
        }
        guard let thread else { return }
        thread.enqueueWaiting(.finish)
        // The writer thread closes and removes the file; an encoder that never answers is not waited for forever.
        if done.wait(timeout: .now() + 30) == .timedOut, !writesSegments { try? FileManager.default.removeItem(at: outputURL) }
    }

    // MARK: Inputs

    func hasRoom(for mediaType: AVMediaType) -> Bool { thread?.hasRoomForVideo ?? false }

    func waitForRoom() -> Bool { thread?.waitForRoom() ?? false }

    func inputDidFinish() {}

    private func relativeTime(_ time: CMTime) -> CMTime? {
        state.withLock { state -> CMTime? in
            guard state.status == .writing else { return nil }
            if !state.sessionStart.isValid {
                ProgrammingError.invalidState(
                    "-[AVAssetWriterInput appendSampleBuffer:] Cannot append sample buffer: must start a session (using -[AVAssetWriter startSessionAtSourceTime:]) first"
                )
            }
            if state.sessionEnd.isValid, time >= state.sessionEnd { return .invalid }
            return time - state.sessionStart
        }
    }

    /// Appends a picture to encode; `keyFrame` makes it a keyframe (`kCMSampleBufferAttachmentKey_ForceKeyFrame`).
    func appendVideo(_ pixelBuffer: CVPixelBuffer, at time: CMTime, realTime: Bool, keyFrame: Bool = false) -> Bool {
        guard let relative = relativeTime(time), let thread else { return false }
        guard relative.isValid, relative >= .zero else { return true }
        if realTime {
            // Real-time sources are never made to wait: a frame with no room is dropped.
            return thread.enqueue(.video(pixelBuffer, relative, keyFrame: keyFrame)) || status == .writing
        }
        return thread.enqueueWaiting(.video(pixelBuffer, relative, keyFrame: keyFrame))
    }

    /// Appends an already-compressed sample to a passthrough input.
    func appendPacket(_ sampleBuffer: CMSampleBuffer, video: Bool) -> Bool {
        guard sampleBuffer.dataBuffer != nil, let pts = relativeTime(sampleBuffer.presentationTimeStamp), let thread else { return false }
        guard pts.isValid else { return true }
        let dts = sampleBuffer.decodeTimeStamp.isNumeric ? (relativeTime(sampleBuffer.decodeTimeStamp) ?? pts) : pts
        return thread.enqueueWaiting(.packet(sampleBuffer, video: video, pts, dts.isValid ? dts : pts))
    }

    func appendAudio(_ sampleBuffer: CMSampleBuffer, realTime: Bool) -> Bool {
        guard let asbd = sampleBuffer.formatDescription?.audioStreamBasicDescription, asbd.mFormatID == kAudioFormatLinearPCM,
            asbd.mBitsPerChannel == 16, asbd.mFormatFlags & kAudioFormatFlagIsNonInterleaved == 0
        else { return false }
        guard let relative = relativeTime(sampleBuffer.presentationTimeStamp), let thread else { return false }
        guard relative.isValid else { return true }
        let first = Int64((relative.seconds * asbd.mSampleRate).rounded())
        return thread.enqueueWaiting(.audio(sampleBuffer, first))
    }

    // MARK: The writer thread

    private func handle(_ item: MovieWriterThread.Item) -> Bool {
        guard let encoder else {
            state.withLock { $0.cancelled }?.signal()
            return false
        }
        do {
            switch item {
            case .video(let pixelBuffer, let time, let keyFrame):
                if writesSegments { segmentBoundary(at: time, encoder) }
                if keyFrame { encoder.forceKeyFrame() }
                try encoder.appendVideo(pixelBuffer, at: time)
                fragments.interval = state.withLock { $0.fragmentInterval }
                if !writesSegments, fragments.isDue(at: time) { encoder.requestFragment() }
            case .audio(let sampleBuffer, let first):
                // Sound at or after the session's end is left out.
                let (end, start) = state.withLock { ($0.sessionEnd, $0.sessionStart) }
                let rate = sampleBuffer.formatDescription?.audioStreamBasicDescription?.mSampleRate
                if writesSegments, let rate { segmentBoundary(at: CMTime(value: first, timescale: CMTimeScale(rate)), encoder) }
                let limit = end.isValid ? rate.map { CaptureEncodingJob.sampleNumber(end - start, rate: $0) } : nil
                _ = try encoder.appendSound(sampleBuffer, first: first, upTo: limit)
            case .packet(let sampleBuffer, let video, let pts, let dts):
                if writesSegments { segmentBoundary(at: pts, encoder) }
                try encoder.appendCompressed(sampleBuffer, video: video, presentationTime: pts, decodeTime: dts)
            case .finish:
                finish(encoder)
                return false
            }
            handOverSegments()
        } catch {
            encoder.abandon()
            self.encoder = nil
            let handler = state.withLock { state -> (@Sendable () -> Void)? in
                state.status = .failed
                state.error = error.avError(url: outputURL, successfullyFinished: false)
                return state.finishHandler
            }
            if let handler { DispatchQueue.global().async(execute: handler) }
            return false
        }
        return true
    }

    /// Asks the encoder to end the segment at the next sync sample when movie time `time` reaches
    /// the next segment's start (the initial start time plus multiples of the interval), or when
    /// `flushSegment()` asked.
    private func segmentBoundary(at time: CMTime, _ encoder: MovieEncoder) {
        let (interval, initial, start, flush) = state.withLock { state in
            defer { state.flushRequested = false }
            return (state.segmentInterval, state.initialSegmentStartTime, state.sessionStart, state.flushRequested)
        }
        if flush { encoder.requestFragment() }
        guard interval.isNumeric, interval > .zero else { return }
        if !nextSegmentStart.isValid { nextSegmentStart = (initial.isNumeric ? initial - start : .zero) + interval }
        guard time >= nextSegmentStart else { return }
        // The cut waits for the picture at the segment's start: a keyframe the encoder placed on
        // its own just before it (its interval, a scene cut, frames a busy machine dropped) does not end the segment short.
        encoder.requestFragment(from: nextSegmentStart)
        while nextSegmentStart <= time { nextSegmentStart = nextSegmentStart + interval }
    }

    /// Gives the delegate the segments the encoder has made, with reports read from their boxes.
    private func handOverSegments() {
        guard let segments = segmentSink?.take(), !segments.isEmpty, let delegate = state.withLock({ $0.delegate }) else { return }
        for segment in segments {
            if segment.isInitialization {
                segmentTracks = FragmentedMovieLayout.tracks(inInitialization: segment.data)
                delegate.assetWriter(self, didOutputSegmentData: segment.data, segmentType: .initialization, segmentReport: nil)
                continue
            }
            let reports = FragmentedMovieLayout.parts(ofSegment: segment.data, tracks: segmentTracks).map { part -> AVAssetSegmentTrackReport in
                let track = segmentTracks.first { $0.id == part.trackID }
                let timescale = CMTimeScale(clamping: track?.timescale ?? 1)
                let isVideo = track?.handler == "vide"
                let first = part.first.flatMap { first in
                    isVideo
                        ? AVAssetSegmentReportSampleInformation(
                            presentationTimeStamp: CMTime(value: first.presentation, timescale: timescale), offset: first.offset, length: first.length,
                            isSyncSample: first.isSync) : nil
                }
                return AVAssetSegmentTrackReport(
                    trackID: CMPersistentTrackID(clamping: part.trackID), mediaType: isVideo ? .video : track?.handler == "soun" ? .audio : .muxed,
                    earliestPresentationTimeStamp: CMTime(value: part.earliestPresentation, timescale: timescale),
                    duration: CMTime(value: part.duration, timescale: timescale), firstVideoSampleInformation: first)
            }
            delegate.assetWriter(
                self, didOutputSegmentData: segment.data, segmentType: .separable,
                segmentReport: AVAssetSegmentReport(segmentType: .separable, trackReports: reports))
        }
    }

    private func finish(_ encoder: MovieEncoder) {
        if status == .cancelled {
            encoder.abandon()
            self.encoder = nil
            if !writesSegments { try? FileManager.default.removeItem(at: outputURL) }
            state.withLock { $0.cancelled }?.signal()
            return
        }
        var failure: AVError?
        do {
            try encoder.finish()
            handOverSegments()
            if !writesSegments, encoder.encoding.fragmented, shouldOptimizeForNetworkUse {
                try MovieEncoder.remuxFastStart(
                    outputURL, container: outputFileType.muxerName, metadata: AVMetadataItem.movieMetadata(metadata),
                    rotationDegrees: encoder.encoding.rotationDegrees, mirrored: encoder.encoding.mirrored)
            }
            if let aperture = encoder.encoding.cleanAperture, !writesSegments {
                do { try MovieBoxes.setCleanAperture(aperture, of: outputURL) } catch {
                    failure = AVError(
                        .unknown,
                        userInfo: [
                            AVErrorRecordingSuccessfullyFinishedKey: false, NSURLErrorKey: outputURL,
                            NSLocalizedDescriptionKey: "The movie's clean aperture could not be written: \(error.description).",
                        ])
                }
            }
        } catch {
            failure = error.avError(url: outputURL, successfullyFinished: false)
        }
        self.encoder = nil
        let handler = state.withLock { state -> (@Sendable () -> Void)? in
            state.status = failure == nil ? .completed : .failed
            state.error = failure
            return state.finishHandler
        }
        if let handler { DispatchQueue.global().async(execute: handler) }
    }
}
