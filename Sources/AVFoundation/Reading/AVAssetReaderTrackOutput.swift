import CoreMedia
import CoreVideo
import Foundation
import FrameProcessing
import MovieEngine
import Synchronization

/// An object that reads media samples from one track of an asset: as they are stored, with
/// `outputSettings` nil, or decoded into the pixel format or linear PCM the settings ask for.
open class AVAssetReaderTrackOutput: AVAssetReaderOutput, @unchecked Sendable {
    /// The track the output reads.
    public let track: AVAssetTrack
    /// The settings samples are decoded with; nil gives the samples as they are stored.
    public let outputSettings: [String: Any]?

    /// How samples are given.
    private enum Mode {
        case passthrough
        case pictures(target: MovieDecoder.PictureFormat, pixelFormat: OSType, size: (width: Int, height: Int)?)
        case sound(format: MovieDecoder.SampleFormat, bitsPerChannel: Int, sampleRate: Int, channels: Int)
    }
    private let mode: Mode

    /// Reading state, owned by whichever thread is asking for the next sample.
    private struct Reading {
        var demuxer: Demuxer?
        var decoder: MovieDecoder?
        var timeRange = CMTimeRange(start: .zero, duration: .positiveInfinity)
        var inputEnded = false
        var drained = false
        var done = false
        var pool: CVPixelBufferPool?
        /// The sample buffers pictures are handed out in, each used again once the client lets it go.
        var shells: SampleBufferShellPool?
        /// The pixel aspect ratio attachment of the pool's frames: the track's, when frames keep its size.
        var pixelAspectRatio: NSDictionary?
        /// The track's clean aperture, attached to each picture decoded at the track's own size.
        var cleanAperture: NSDictionary?
        /// The format description of the pool's pictures with the decoded picture's colour matrix
        /// and size their colour tags follow: made once, not for each picture, while none changes.
        var pictureFormat: (description: CMVideoFormatDescription, matrix: Int32, width: Int, height: Int)?
        var soundFormat: CMFormatDescription?
        var nextSampleTime: CMTime = .invalid
        var failures = 0
        /// For a composition's track: its segments' samples, read from their sources.
        var composed: ComposedReading?
    }
    /// Guarded by `readingLock`.
    private var reading = Reading()
    private let readingLock = NSLock()
    private let timeAlgorithm = Mutex(AVAudioTimePitchAlgorithm.spectral)

    /// Creates an output for a track, with the settings its samples are decoded with (nil: as stored).
    public init(track: AVAssetTrack, outputSettings: [String: Any]?) {
        self.track = track
        self.outputSettings = outputSettings
        guard let settings = outputSettings else {
            mode = .passthrough
            super.init()
            return
        }
        switch track.mediaType {
        case .video:
            if settings[AVVideoCodecKey] != nil {
                ProgrammingError.invalidArgument(
                    "-[AVAssetReaderTrackOutput initWithTrack:outputSettings:] an asset reader output decodes; AVVideoCodecKey is not allowed")
            }
            let format =
                (settings[kCVPixelBufferPixelFormatTypeKey as String] as? NSNumber)?.uint32Value
                ?? (settings[kCVPixelBufferPixelFormatTypeKey as String] as? OSType) ?? kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange
            let target: MovieDecoder.PictureFormat
            switch format {
            case kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange: target = .nv12VideoRange
            case kCVPixelFormatType_420YpCbCr8BiPlanarFullRange: target = .nv12FullRange
            case kCVPixelFormatType_32BGRA: target = .bgra
            default:
                ProgrammingError.invalidArgument(
                    "-[AVAssetReaderTrackOutput initWithTrack:outputSettings:] pixel format \(format) is not supported: use '420v', '420f' or 'BGRA'")
            }
            let width = (settings[kCVPixelBufferWidthKey as String] as? NSNumber)?.intValue ?? (settings[kCVPixelBufferWidthKey as String] as? Int)
            let height = (settings[kCVPixelBufferHeightKey as String] as? NSNumber)?.intValue ?? (settings[kCVPixelBufferHeightKey as String] as? Int)
            var size: (Int, Int)?
            if let width, let height {
                guard width >= 2, height >= 2, width <= 16384, height <= 16384 else {
                    ProgrammingError.invalidArgument("-[AVAssetReaderTrackOutput initWithTrack:outputSettings:] \(width)x\(height) pictures cannot be given")
                }
                size = (width, height)
            }
            mode = .pictures(target: target, pixelFormat: format, size: size)
        case .audio:
            let formatID = (settings[AVFormatIDKey] as? NSNumber)?.uint32Value ?? (settings[AVFormatIDKey] as? AudioFormatID)
            guard formatID == kAudioFormatLinearPCM else {
                ProgrammingError.invalidArgument("-[AVAssetReaderTrackOutput initWithTrack:outputSettings:] sound is decoded to kAudioFormatLinearPCM only")
            }
            func flag(_ key: String) -> Bool { (settings[key] as? NSNumber)?.boolValue ?? (settings[key] as? Bool) ?? false }
            func number(_ key: String) -> Int? { (settings[key] as? NSNumber)?.intValue ?? (settings[key] as? Int) }
            if flag(AVLinearPCMIsNonInterleaved) || flag(AVLinearPCMIsBigEndianKey) {
                ProgrammingError.invalidArgument("-[AVAssetReaderTrackOutput initWithTrack:outputSettings:] linear PCM is given interleaved and little-endian")
            }
            let isFloat = flag(AVLinearPCMIsFloatKey)
            let bits = number(AVLinearPCMBitDepthKey) ?? (isFloat ? 32 : 16)
            guard (isFloat && bits == 32) || (!isFloat && bits == 16) else {
                ProgrammingError.invalidArgument(
                    "-[AVAssetReaderTrackOutput initWithTrack:outputSettings:] linear PCM is 16-bit integer or 32-bit float, not \(bits)-bit \(isFloat ? "float" : "integer")"
                )
            }
            let rate = number(AVSampleRateKey) ?? track.facts.sampleRate
            let channels = number(AVNumberOfChannelsKey) ?? track.facts.channels
            guard rate > 0, rate <= 768_000, channels > 0, channels <= 64 else {
                ProgrammingError.invalidArgument(
                    "-[AVAssetReaderTrackOutput initWithTrack:outputSettings:] \(rate) Hz and \(channels) channels cannot be given")
            }
            mode = .sound(format: isFloat ? .float32 : .int16, bitsPerChannel: bits, sampleRate: rate, channels: channels)
        default:
            ProgrammingError.invalidArgument(
                "-[AVAssetReaderTrackOutput initWithTrack:outputSettings:] tracks of type \(track.mediaType.rawValue) can only be read with nil settings")
        }
        super.init()
    }

    /// The kind of media the output gives: its track's.
    open override var mediaType: AVMediaType { track.mediaType }

    /// For an image generator with a tolerance: pictures are given from this time on rather than
    /// from the range's start, so that the keyframe decoding starts at may be the picture.
    let earliestPicture = LockedValue<CMTime?>(nil)

    /// How sound is stretched when the asset's time is scaled; reading itself keeps the asset's time.
    open var audioTimePitchAlgorithm: AVAudioTimePitchAlgorithm {
        get { timeAlgorithm.withLock { $0 } }
        set { timeAlgorithm.withLock { $0 = newValue } }
    }

    override var streamIndex: Int? { track is AVCompositionTrack ? nil : track.facts.streamIndex }

    override var seekStream: (index: Int, timeBase: (Int32, Int32))? {
        guard track.mediaType == .video, !(track is AVCompositionTrack) else { return nil }
        return (track.facts.streamIndex, track.facts.timeBase)
    }

    override var randomAccessSeekStream: (index: Int, timeBase: (Int32, Int32))? {
        guard !(track is AVCompositionTrack) else { return nil }
        return (track.facts.streamIndex, track.facts.timeBase)
    }

    override func belongs(to asset: AVAsset) -> Bool { track.asset === asset }

    override func prepare(demuxer: Demuxer?, timeRange: CMTimeRange) throws {
        if let track = track as? AVCompositionTrack {
            let composed = try ComposedReading(track: track, settings: outputSettings, algorithm: audioTimePitchAlgorithm, timeRange: timeRange)
            readingLock.withLock { reading = Reading(timeRange: timeRange, composed: composed) }
            return
        }
        guard let demuxer else { throw AVError(.failedToLoadMediaData) }
        var decoder: MovieDecoder?
        if case .passthrough = mode {
        } else {
            do {
                // When any earlier picture will do, the first decoded is the one wanted: frame
                // threads would decode as many more pictures before giving it.
                let firstWillDo = earliestPicture.withLock { $0?.isNegativeInfinity ?? false }
                decoder = try MovieDecoder(file: demuxer.file, stream: track.facts.streamIndex, frameThreads: !firstWillDo)
            } catch {
                throw AVError(
                    .decoderNotFound, userInfo: [NSLocalizedDescriptionKey: "No decoder here reads the \(track.facts.codecName) track: \(error.reason)"])
            }
        }
        readingLock.withLock { reading = Reading(demuxer: demuxer, decoder: decoder, timeRange: timeRange) }
    }

    override func release() {
        readingLock.withLock { reading = Reading(done: true) }
    }

    /// A stream time as a `CMTime`.
    private func time(_ value: Int64) -> CMTime { MovieFile.time(value, timeBase: track.facts.timeBase) }

    override func nextSampleBuffer() throws -> CMSampleBuffer? {
        readingLock.lock()
        defer { readingLock.unlock() }
        if let composed = reading.composed { return try composed.next() }
        guard !reading.done, let demuxer = reading.demuxer else { return nil }
        switch mode {
        case .passthrough: return try nextStored(&reading, demuxer)
        case .pictures(let target, let format, let size):
            return try nextDecoded(&reading, demuxer) { try picture(&$0, target: target, format: format, size: size) }
        case .sound(let format, let bits, let rate, let channels):
            return try nextDecoded(&reading, demuxer) { try sound(&$0, format: format, bits: bits, rate: rate, channels: channels, draining: false) }
        }
    }

    // MARK: Samples as they are stored

    private func nextStored(_ reading: inout Reading, _ demuxer: Demuxer) throws -> CMSampleBuffer? {
        let range = reading.timeRange
        while true {
            var made: CMSampleBuffer?
            var pastEnd = false
            let next = demuxer.next(for: track.facts.streamIndex) { packet in
                let pts = time(packet.pts), dts = time(packet.dts), duration = time(packet.duration)
                let decodeTime = dts.isValid ? dts : pts
                if range.end.isNumeric, decodeTime.isValid, decodeTime >= range.end { pastEnd = true; return }
                // Sound wholly before the range is left out; pictures come from the keyframe the reader sought to.
                // (From the start, everything is kept: AAC's first packet is the encoder's priming, before zero.)
                if range.start > .zero, track.mediaType != .video, pts.isValid, duration.isValid, pts + duration <= range.start { return }
                made = storedSample(packet, pts: pts, dts: dts, duration: duration)
            }
            switch next {
            case .end: reading.done = true; return nil
            case .failure(let error): throw AVError(error)
            case .packet:
                if pastEnd { reading.done = true; return nil }
                if let made { return made }
            }
        }
    }

    private func storedSample(_ packet: MoviePacket, pts: CMTime, dts: CMTime, duration: CMTime) -> CMSampleBuffer? {
        let bytes = packet.bytes
        let size = bytes.count
        let block = CMBlockBuffer(capacity: size)
        if let base = bytes.baseAddress { block.bytes.copyMemory(from: base, byteCount: size) }
        block.length = size
        var timing = CMSampleTimingInfo(duration: duration, presentationTimeStamp: pts, decodeTimeStamp: dts)
        var sizes = size
        var buffer: CMSampleBuffer?
        CMSampleBufferCreate(
            allocator: nil, dataBuffer: block, dataReady: true, makeDataReadyCallback: nil, refcon: nil,
            formatDescription: track.facts.formatDescription, sampleCount: 1, sampleTimingEntryCount: 1,
            sampleTimingArray: &timing, sampleSizeEntryCount: 1, sampleSizeArray: &sizes, sampleBufferOut: &buffer)
        if let buffer, !packet.isKeyframe { buffer.markNotSync() }
        // Sound the decoder is not to play: an encoder's priming at the start, padding at the end.
        if let buffer, track.mediaType == .audio, track.facts.sampleRate > 0 {
            let rate = Int32(track.facts.sampleRate)
            for (count, key) in [
                (packet.skipSamples, kCMSampleBufferAttachmentKey_TrimDurationAtStart), (packet.discardPadding, kCMSampleBufferAttachmentKey_TrimDurationAtEnd),
            ]
            where count > 0 {
                if let trim = CMTimeCopyAsDictionary(CMTime(value: Int64(count), timescale: rate), allocator: nil) {
                    CMSetAttachment(buffer, key: key, value: trim, attachmentMode: kCMAttachmentMode_ShouldPropagate)
                }
            }
        }
        return buffer
    }

    // MARK: Decoded samples

    /// Runs the decoder until `make` gives a sample (nil from `make` skips a frame), or the stream ends.
    private func nextDecoded(_ reading: inout Reading, _ demuxer: Demuxer, make: (inout Reading) throws -> CMSampleBuffer?) throws -> CMSampleBuffer? {
        guard let decoder = reading.decoder else { return nil }
        while true {
            switch decoder.receive() {
            case .frame:
                reading.failures = 0
                if let sample = try make(&reading) { return sample }
                if reading.done { return nil }
            case .needsPacket:
                if reading.inputEnded {
                    decoder.sendEnd()
                    continue
                }
                var sent: Int32 = 0
                switch demuxer.next(for: track.facts.streamIndex, { sent = decoder.send($0) }) {
                case .end: reading.inputEnded = true
                case .failure(let error): throw AVError(error)
                case .packet:
                    // A damaged packet is left out, as players do; a stream of nothing else ends in an error.
                    if sent < 0 { try noteFailure(&reading, sent) }
                }
            case .ended:
                reading.done = true
                if case .sound(let format, let bits, let rate, let channels) = mode, !reading.drained {
                    reading.drained = true
                    return try sound(&reading, format: format, bits: bits, rate: rate, channels: channels, draining: true)
                }
                return nil
            case .failure(let code):
                try noteFailure(&reading, code)
            }
        }
    }

    private func noteFailure(_ reading: inout Reading, _ code: Int32) throws {
        reading.failures += 1
        if reading.failures >= 64 {
            throw AVError(
                .decodeFailed, userInfo: [NSLocalizedDescriptionKey: "The \(track.facts.codecName) track cannot be decoded: \(MovieFile.describe(code))"])
        }
    }

    private func picture(_ reading: inout Reading, target: MovieDecoder.PictureFormat, format: OSType, size: (width: Int, height: Int)?) throws
        -> CMSampleBuffer?
    {
        guard let decoder = reading.decoder else { return nil }
        let frameTime = decoder.frameTime
        let pts = time(frameTime.pts)
        var duration = time(frameTime.duration)
        if !duration.isValid { duration = track.facts.minFrameDuration }
        let range = reading.timeRange
        if range.end.isNumeric, pts.isValid, pts >= range.end { reading.done = true; return nil }
        let earliest = earliestPicture.withLock { $0 } ?? range.start
        if pts.isValid, duration.isValid, pts + duration <= earliest { return nil }
        let info = decoder.pictureInfo
        let (width, height) = (info.width, info.height)
        guard width > 0, height > 0, width <= 16384, height <= 16384 else { return nil }
        let (outWidth, outHeight) = size ?? (width, height)
        if reading.pool == nil || reading.pool!.width != outWidth || reading.pool!.height != outHeight {
            reading.pool = CVPixelBufferPool(width: outWidth, height: outHeight, pixelFormatType: format)
            let geometry = track.facts.formatDescription.imageGeometry.dictionary
            let sameSize = (outWidth, outHeight) == (width, height)
            reading.pixelAspectRatio = sameSize ? geometry[kCVImageBufferPixelAspectRatioKey as String] as? NSDictionary : nil
            reading.cleanAperture = sameSize ? geometry[kCVImageBufferCleanApertureKey as String] as? NSDictionary : nil
            reading.pictureFormat = nil
        }
        guard let pixels = reading.pool?.dequeue() else { throw AVError(.outOfMemory) }
        if let aspect = reading.pixelAspectRatio { CVBufferSetAttachment(pixels, kCVImageBufferPixelAspectRatioKey, aspect, .shouldPropagate) }
        if let aperture = reading.cleanAperture { CVBufferSetAttachment(pixels, kCVImageBufferCleanApertureKey, aperture, .shouldPropagate) }
        let converted = decoder.convertPicture(into: pixels, format: target)
        guard converted == 0 else { try noteFailure(&reading, converted); return nil }
        // BT.709 as tagged; BT.601 as tagged (5, 6); otherwise video's convention for the size.
        let colour: VideoColorimetry =
            switch info.matrix {
            case 1: .hd
            case 5, 6: .sd
            default: .standard(width: width, height: height)
            }
        colour.tag(pixels)
        if reading.pictureFormat.map({ ($0.matrix, $0.width, $0.height) != (info.matrix, width, height) }) ?? true {
            var made: CMVideoFormatDescription?
            CMVideoFormatDescriptionCreateForImageBuffer(allocator: nil, imageBuffer: pixels, formatDescriptionOut: &made)
            reading.pictureFormat = made.map { ($0, info.matrix, width, height) }
        }
        guard let description = reading.pictureFormat?.description else { return nil }
        if reading.shells == nil { reading.shells = SampleBufferShellPool(capacity: 8) }
        return reading.shells?.sampleBuffer(
            imageBuffer: pixels, formatDescription: description,
            timing: CMSampleTimingInfo(duration: duration, presentationTimeStamp: pts, decodeTimeStamp: .invalid))
    }

    private func sound(_ reading: inout Reading, format: MovieDecoder.SampleFormat, bits: Int, rate: Int, channels: Int, draining: Bool) throws
        -> CMSampleBuffer?
    {
        guard let decoder = reading.decoder else { return nil }
        let frames: Int32
        let samples: UnsafePointer<UInt8>?
        if draining {
            (frames, samples) = decoder.drainSamples()
        } else {
            let pts = time(decoder.frameTime.pts)
            let range = reading.timeRange
            if range.end.isNumeric, pts.isValid, pts >= range.end { reading.done = true; return nil }
            if !reading.nextSampleTime.isValid {
                reading.nextSampleTime = pts.isValid ? pts.convertScale(Int32(rate), method: .roundHalfAwayFromZero) : CMTime(value: 0, timescale: Int32(rate))
            }
            (frames, samples) = decoder.convertSamples(format, sampleRate: rate, channels: channels)
        }
        if frames < 0 { try noteFailure(&reading, frames); return nil }
        guard frames > 0, let samples else { return nil }
        let start = reading.nextSampleTime.isValid ? reading.nextSampleTime : CMTime(value: 0, timescale: Int32(rate))
        let length = CMTime(value: Int64(frames), timescale: Int32(rate))
        reading.nextSampleTime = start + length
        if start + length <= reading.timeRange.start { return nil }
        let bytesPerFrame = channels * bits / 8
        let size = Int(frames) * bytesPerFrame
        let block = CMBlockBuffer(capacity: size)
        block.bytes.copyMemory(from: samples, byteCount: size)
        block.length = size
        if reading.soundFormat == nil { reading.soundFormat = LinearPCM.format(rate: Double(rate), channels: channels, isFloat: bits == 32) }
        return LinearPCM.sampleBuffer(block, format: reading.soundFormat, frames: Int(frames), bytesPerFrame: bytesPerFrame, start: start, rate: Int32(rate))
    }
}
