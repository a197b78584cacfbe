import CaptureDevices
import Foundation

/// A track of an asset writer: it takes sample buffers of one media type and encodes them
/// with its output settings.
///
/// Invalid output settings stop the process at init, as on Apple platforms; check them first
/// with `AVAssetWriter.canApply(outputSettings:forMediaType:)`.
open class AVAssetWriterInput: NSObject, @unchecked Sendable {
    /// The kind of media the input takes.
    public let mediaType: AVMediaType
    /// The settings its media is encoded with.
    public let outputSettings: [String: Any]?
    /// A description of the samples to come, if given.
    public let sourceFormatHint: CMFormatDescription?
    let video: ValidatedSettings.Video?
    let audio: ValidatedSettings.Audio?

    private struct State {
        var sourcePixelFormat: OSType?
        var sourceSize: (width: Int, height: Int)?
        var transform = CGAffineTransform.identity
        var expectsMediaDataInRealTime = false
        var finished = false
    }
    private let state = LockedValue(State())
    weak var writer: AVAssetWriter?

    /// Creates an input for a media type: with output settings, samples are encoded; with `nil`, already-compressed
    /// samples described by `sourceFormatHint` (H.264, HEVC, AAC or 16-bit PCM) are written as they are.
    public init(mediaType: AVMediaType, outputSettings: [String: Any]?, sourceFormatHint: CMFormatDescription?) {
        self.mediaType = mediaType
        self.outputSettings = outputSettings
        self.sourceFormatHint = sourceFormatHint
        switch AVAssetWriter.validate(outputSettings, for: mediaType) {
        case .success(let validated):
            video = validated.0
            audio = validated.1
        case .failure(let error):
            ProgrammingError.invalidArgument("-[AVAssetWriterInput initWithMediaType:outputSettings:] \(error.description)")
        }
        super.init()
    }

    /// Creates an input for a media type with output settings.
    public convenience init(mediaType: AVMediaType, outputSettings: [String: Any]?) {
        self.init(mediaType: mediaType, outputSettings: outputSettings, sourceFormatHint: nil)
    }

    /// The transform the track's frames are displayed with (written as its display matrix when
    /// writing starts): a quarter-turn rotation, optionally mirrored.
    open var transform: CGAffineTransform {
        get { state.withLock { $0.transform } }
        set { state.withLock { $0.transform = newValue } }
    }

    /// The pixel format an adaptor said its frames come in, if one did.
    var sourcePixelFormat: OSType? {
        get { state.withLock { $0.sourcePixelFormat } }
        set { state.withLock { $0.sourcePixelFormat = newValue } }
    }

    /// The colour the movie's frames will be in: the convention of their size, with BT.601's
    /// matrix when R'G'B' frames are turned into Y'CbCr for the encoder.
    func colour(width: Int, height: Int) -> VideoColorimetry {
        var colour = VideoColorimetry.standard(width: width, height: height)
        if let format = sourcePixelFormat, !(PixelFormatDescription.of(format)?.isYCbCr ?? true) { colour.matrix = .bt601 }
        return colour
    }

    /// The size an adaptor said its frames come in, or the format hint's, if either did.
    var sourceSize: (width: Int, height: Int)? {
        get {
            state.withLock { $0.sourceSize }
                ?? sourceFormatHint.flatMap { hint in hint.mediaTypeCode == kCMMediaType_Video ? (Int(hint.dimensions.width), Int(hint.dimensions.height)) : nil
                }
        }
        set { state.withLock { $0.sourceSize = newValue } }
    }

    /// The clockwise quarter-turn rotation and mirroring that `transform` describes.
    var displayRotation: (degrees: Int, mirrored: Bool) { transform.quarterTurn }

    /// Whether samples come in real time, from a capture session; the writer then favours keeping up.
    open var expectsMediaDataInRealTime: Bool {
        get { state.withLock { $0.expectsMediaDataInRealTime } }
        set { state.withLock { $0.expectsMediaDataInRealTime = newValue } }
    }

    /// Whether the input can take another sample now without waiting: the writer's queue has room.
    open var isReadyForMoreMediaData: Bool {
        guard let writer, writer.status == .writing, !isFinished else { return false }
        return writer.hasRoom(for: mediaType)
    }

    var isFinished: Bool { state.withLock { $0.finished } }

    /// Appends a sample buffer; false when the writer failed or the input is finished.
    @discardableResult
    open func append(_ sampleBuffer: CMSampleBuffer) -> Bool {
        guard let writer, !isFinished else { return false }
        if outputSettings == nil { return writer.appendPacket(sampleBuffer, video: mediaType == .video) }
        if mediaType == .video {
            guard let image = sampleBuffer.imageBuffer else { return false }
            let keyFrame = (CMGetAttachment(sampleBuffer, key: kCMSampleBufferAttachmentKey_ForceKeyFrame, attachmentModeOut: nil) as? Bool) == true
            return writer.appendVideo(image, at: sampleBuffer.presentationTimeStamp, realTime: expectsMediaDataInRealTime, keyFrame: keyFrame)
        }
        return writer.appendAudio(sampleBuffer, realTime: expectsMediaDataInRealTime)
    }

    /// Appends a frame at a presentation time, for the pixel buffer adaptor.
    func append(_ pixelBuffer: CVPixelBuffer, at time: CMTime) -> Bool {
        guard let writer, !isFinished, mediaType == .video else { return false }
        return writer.appendVideo(pixelBuffer, at: time, realTime: expectsMediaDataInRealTime)
    }

    /// Says that no more samples will come.
    open func markAsFinished() {
        state.withLock { $0.finished = true }
        writer?.inputDidFinish()
    }

    /// Calls `block` on `queue` whenever the input is ready for more data, until it is marked finished.
    open func requestMediaDataWhenReady(on queue: DispatchQueue, using block: @escaping @Sendable () -> Void) {
        let pump = UncheckedSendable(self)
        queue.async {
            let input = pump.value
            while !input.isFinished, let writer = input.writer, writer.status == .writing {
                if input.isReadyForMoreMediaData {
                    block()
                } else if !writer.waitForRoom() {
                    break
                }
            }
        }
    }
}

/// Appends pixel buffers with presentation times to a video input, from a pool it offers.
open class AVAssetWriterInputPixelBufferAdaptor: NSObject, @unchecked Sendable {
    /// The video input the adaptor feeds.
    public let assetWriterInput: AVAssetWriterInput
    /// The attributes of the pixel buffers the client will append.
    public let sourcePixelBufferAttributes: [String: Any]?
    private let pool = LockedValue<CVPixelBufferPool?>(nil)

    /// Creates an adaptor for a video input.
    public init(assetWriterInput input: AVAssetWriterInput, sourcePixelBufferAttributes: [String: Any]?) {
        if input.mediaType != .video {
            ProgrammingError.invalidArgument("-[AVAssetWriterInputPixelBufferAdaptor initWithAssetWriterInput:] the input must take video")
        }
        assetWriterInput = input
        self.sourcePixelBufferAttributes = sourcePixelBufferAttributes
        super.init()
        if let format = attributeOSType(sourcePixelBufferAttributes?[kCVPixelBufferPixelFormatTypeKey]) { input.sourcePixelFormat = format }
        if let width = attributeInt(sourcePixelBufferAttributes?[kCVPixelBufferWidthKey]),
            let height = attributeInt(sourcePixelBufferAttributes?[kCVPixelBufferHeightKey]), width > 0, height > 0
        {
            input.sourceSize = (width, height)
        }
    }

    /// A pool of buffers like the ones the client will append; `nil` until the writer starts writing.
    open var pixelBufferPool: CVPixelBufferPool? {
        pool.withLock { pool in
            if pool == nil, assetWriterInput.writer?.status == .writing, let video = assetWriterInput.video {
                let format = attributeOSType(sourcePixelBufferAttributes?[kCVPixelBufferPixelFormatTypeKey]) ?? kCVPixelFormatType_32BGRA
                let width = attributeInt(sourcePixelBufferAttributes?[kCVPixelBufferWidthKey]) ?? video.width
                let height = attributeInt(sourcePixelBufferAttributes?[kCVPixelBufferHeightKey]) ?? video.height
                pool = CVPixelBufferPool(width: width, height: height, pixelFormatType: format, minimumBufferCount: 4)
            }
            return pool
        }
    }

    /// Appends a frame at a presentation time; false when the writer failed.
    @discardableResult
    open func append(_ pixelBuffer: CVPixelBuffer, withPresentationTime presentationTime: CMTime) -> Bool {
        assetWriterInput.append(pixelBuffer, at: presentationTime)
    }
}
