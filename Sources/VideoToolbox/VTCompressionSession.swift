import CoreMedia
import CoreVideo
import Foundation
import MovieEngine

/// The function a compression session calls with each compressed frame: the session's refcon, the
/// frame's refcon, a status, what happened, and the frame (nil when it failed or was dropped).
public typealias VTCompressionOutputCallback =
    @Sendable (
        UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, OSStatus, VTEncodeInfoFlags, CMSampleBuffer?
    ) -> Void

/// The block a compression session calls with one compressed frame.
public typealias VTCompressionOutputHandler = @Sendable (OSStatus, VTEncodeInfoFlags, CMSampleBuffer?) -> Void

/// A reference to a Video Toolbox compression session: compresses pixel buffers into H.264 or
/// HEVC sample buffers, one at a time, with FFmpeg's libx264 or libx265.
///
/// Thread ownership: any thread. Frames are encoded one at a time under the session's lock; the
/// output callback runs on the thread that gave the frame (or completed the frames), with no lock held.
public final class VTCompressionSession: VTPropertySession, @unchecked Sendable {
    /// Where a frame's output goes.
    enum Destination {
        case callback(UnsafeMutableRawPointer?)
        case handler(VTCompressionOutputHandler)
    }

    /// A frame given to the encoder and not yet output.
    struct PendingFrame {
        var presentationTime: CMTime
        var duration: CMTime
        var destination: Destination
    }

    /// One output ready to be delivered once the lock is let go.
    struct Output {
        var status: OSStatus
        var flags: VTEncodeInfoFlags
        var sampleBuffer: CMSampleBuffer?
        var destination: Destination
    }

    private struct State {
        var properties = CompressionProperties()
        var encoder: VideoFrameEncoder?
        /// Whether a property changed that the open encoder cannot take: it is finished and made again at the next frame.
        var needsNewEncoder = false
        var formatDescription: CMFormatDescription?
        var parameterSets = Data()
        var pending: [Int64: PendingFrame] = [:]
        var lastMicroseconds = Int64.min
        var pool: CVPixelBufferPool?
        var conversionPool: CVPixelBufferPool?
        /// The sample buffers outputs are made in, reused once their clients let go of them.
        let samples = CompressedSamplePool()
        /// Outputs gathered under the lock and delivered after it, kept between frames.
        var spareOutputs: [Output] = []
        var invalidated = false
    }

    let width: Int
    let height: Int
    let codecType: CMVideoCodecType
    private let callback: VTCompressionOutputCallback?
    private let refcon: UnsafeMutableRawPointer?
    private let sourcePixelFormat: OSType
    private let state: LockedValue<State>
    private let transfer = VTPixelTransferSession()

    init(
        width: Int, height: Int, codecType: CMVideoCodecType, sourcePixelFormat: OSType, callback: VTCompressionOutputCallback?,
        refcon: UnsafeMutableRawPointer?
    ) {
        self.width = width
        self.height = height
        self.codecType = codecType
        self.callback = callback
        self.refcon = refcon
        self.sourcePixelFormat = sourcePixelFormat
        var initial = State()
        initial.properties.hevc = codecType == kCMVideoCodecType_HEVC
        state = LockedValue(initial)
    }

    // MARK: Properties

    func setProperty(_ key: String, _ value: Any?) -> OSStatus {
        state.withLock { state in
            if state.invalidated { return kVTInvalidSessionErr }
            var properties = state.properties
            let status = properties.set(key, value)
            guard status == noErr else { return status }
            let before = state.properties
            state.properties = properties
            guard let encoder = state.encoder else { return noErr }
            if properties.encoderSettings(width: width, height: height) == before.encoderSettings(width: width, height: height) { return noErr }
            // Rate changes reach libx264 between frames; anything else takes a new encoder from the next keyframe.
            if properties.onlyRateDiffers(from: before, width: width, height: height) {
                let settings = properties.encoderSettings(width: width, height: height)
                if encoder.setRate(bitRate: settings.bitRate, maxBitRate: settings.maxBitRate, bufferBits: settings.bufferBits) { return noErr }
            }
            state.needsNewEncoder = true
            return noErr
        }
    }

    func property(_ key: String) -> Any? {
        state.withLock { state -> Any? in
            if key == kVTCompressionPropertyKey_NumberOfPendingFrames as String { return NSNumber(value: state.pending.count) }
            if key == kVTCompressionPropertyKey_UsingHardwareAcceleratedVideoEncoder as String { return NSNumber(value: false) }
            return state.properties.value(key)
        }
    }

    var supportedProperties: [String: Any] { CompressionProperties.supported(hevc: codecType == kCMVideoCodecType_HEVC) }

    // MARK: Encoding

    /// Opens the encoder if it is not open, for Y'CbCr in full range or not (by default, as the
    /// source pixel format says); noErr, or why it cannot be.
    private func prepare(_ state: inout State, fullRange: Bool? = nil) -> OSStatus {
        if state.invalidated { return kVTInvalidSessionErr }
        if state.encoder != nil { return noErr }
        do {
            var settings = state.properties.encoderSettings(width: width, height: height)
            settings.fullRange = fullRange ?? Self.isFullRange(sourcePixelFormat)
            let encoder = try VideoFrameEncoder(settings: settings)
            let sets = encoder.parameterSets
            if sets != state.parameterSets || state.formatDescription == nil {
                guard let made = NALUnits.formatDescription(parameterSets: sets, hevc: state.properties.hevc) else {
                    return kVTVideoEncoderMalfunctionErr
                }
                // The pixel aspect ratio and clean aperture asked for are the description's extensions, as Apple's encoders put them.
                let geometry = state.properties.geometry
                state.formatDescription =
                    geometry == ImageGeometry()
                    ? made
                    : CMFormatDescription(
                        video: made.mediaSubTypeCode, width: made.videoDimensions.width, height: made.videoDimensions.height,
                        extensionAtoms: made.extensionAtoms, geometry: geometry)
                state.parameterSets = sets
            }
            state.encoder = encoder
            return noErr
        } catch {
            return kVTCouldNotCreateInstanceErr
        }
    }

    /// Opens the encoder now rather than at the first frame.
    func prepareToEncode() -> OSStatus { state.withLock { prepare(&$0) } }

    /// Whether a pixel format is Y'CbCr in full range.
    private static func isFullRange(_ format: OSType) -> Bool {
        format == kCVPixelFormatType_420YpCbCr8BiPlanarFullRange || format == kCVPixelFormatType_420YpCbCr10BiPlanarFullRange
    }

    /// The frame in a format, range and size the encoder takes: the frame itself, or a converted copy.
    private func fitted(_ frame: CVPixelBuffer, _ state: inout State) -> CVPixelBuffer? {
        let fullRange = state.encoder?.settings.fullRange ?? false
        let format = frame.pixelFormatType
        let rangeMatches = format == kCVPixelFormatType_32BGRA || Self.isFullRange(format) == fullRange
        if frame.width == width, frame.height == height, VideoFrameEncoder.takes(format), rangeMatches { return frame }
        let target = fullRange ? kCVPixelFormatType_420YpCbCr8BiPlanarFullRange : kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange
        if state.conversionPool?.pixelFormatType != target {
            state.conversionPool = CVPixelBufferPool.videoFrames(width: width, height: height, pixelFormatType: target, count: 3)
        }
        guard let converted = state.conversionPool?.dequeue(), transfer.transfer(frame, into: converted) == noErr else { return nil }
        return converted
    }

    /// Encodes one frame; its output, and any the encoder finished, are delivered before this returns or later.
    func encode(
        _ imageBuffer: CVImageBuffer, presentationTime: CMTime, duration: CMTime, frameProperties: [String: Any], destination: Destination,
        infoFlags: UnsafeMutablePointer<VTEncodeInfoFlags>?
    ) -> OSStatus {
        infoFlags?.pointee = []
        var outputs: [Output] = []
        let status = state.withLock { state -> OSStatus in
            swap(&outputs, &state.spareOutputs)
            if state.needsNewEncoder, state.encoder != nil {
                finishEncoder(&state, into: &outputs)
                state.needsNewEncoder = false
            }
            let prepared = prepare(&state, fullRange: Self.isFullRange(imageBuffer.pixelFormatType))
            guard prepared == noErr, let encoder = state.encoder else { return prepared }
            guard presentationTime.isNumeric else { return kVTParameterErr }
            let microseconds = presentationTime.convertScale(1_000_000, method: .roundHalfAwayFromZero).value
            guard microseconds > state.lastMicroseconds else { return kVTParameterErr }
            guard let frame = fitted(imageBuffer, &state) else { return kVTPixelTransferNotSupportedErr }
            let forced =
                ((frameProperties[kVTEncodeFrameOptionKey_ForceKeyFrame as String] as? Bool)
                    ?? (frameProperties[kVTEncodeFrameOptionKey_ForceKeyFrame as String] as? NSNumber)?.boolValue) == true
            state.pending[microseconds] = PendingFrame(presentationTime: presentationTime, duration: duration, destination: destination)
            state.lastMicroseconds = microseconds
            do {
                try encoder.send(frame, microseconds: microseconds, keyFrame: forced)
                try drain(encoder, &state, into: &outputs)
            } catch {
                state.pending[microseconds] = nil
                return kVTVideoEncoderMalfunctionErr
            }
            return noErr
        }
        deliver(&outputs)
        return status
    }

    /// Finishes the open encoder, so that every frame it holds is output, and lets it go.
    private func finishEncoder(_ state: inout State, into outputs: inout [Output]) {
        guard let encoder = state.encoder else { return }
        do {
            try encoder.finish()
            try drain(encoder, &state, into: &outputs)
        } catch {}
        // Frames the encoder never gave back fail.
        for (_, frame) in state.pending.sorted(by: { $0.key < $1.key }) {
            outputs.append(Output(status: kVTVideoEncoderMalfunctionErr, flags: [], sampleBuffer: nil, destination: frame.destination))
        }
        state.pending.removeAll()
        state.encoder = nil
    }

    /// Outputs every frame given so far; the next frame starts a new keyframe.
    func completeFrames() -> OSStatus {
        var outputs: [Output] = []
        let status = state.withLock { state -> OSStatus in
            if state.invalidated { return kVTInvalidSessionErr }
            swap(&outputs, &state.spareOutputs)
            finishEncoder(&state, into: &outputs)
            return noErr
        }
        deliver(&outputs)
        return status
    }

    /// Turns each packet the encoder has ready into a sample buffer.
    private func drain(_ encoder: VideoFrameEncoder, _ state: inout State, into outputs: inout [Output]) throws(MovieEncoderError) {
        let hevc = state.properties.hevc
        let description = state.formatDescription
        // Taken out of the state rather than copied, so that removing a frame does not copy the table.
        var pending: [Int64: PendingFrame] = [:]
        swap(&pending, &state.pending)
        defer { swap(&pending, &state.pending) }
        let samples = state.samples
        try encoder.receive { packet in
            guard let frame = pending.removeValue(forKey: packet.presentationMicroseconds) else { return }
            let sample = samples.sampleBuffer(
                size: NALUnits.lengthPrefixedSize(packet.bytes, hevc: hevc), keyFrame: packet.isKeyFrame, disposable: packet.isDisposable)
            NALUnits.writeLengthPrefixed(packet.bytes, hevc: hevc, into: sample.dataBufferStorage!)
            let scale = frame.presentationTime.timescale
            let decodeTime =
                packet.decodeMicroseconds == packet.presentationMicroseconds
                ? frame.presentationTime
                : CMTime(value: packet.decodeMicroseconds, timescale: 1_000_000).convertScale(scale, method: .roundTowardNegativeInfinity)
            sample.timing = CMSampleTimingInfo(duration: frame.duration, presentationTimeStamp: frame.presentationTime, decodeTimeStamp: decodeTime)
            sample.formatDescriptionStorage = description
            sample.sampleCount = 1
            sample.sampleSize = sample.dataBufferStorage!.length
            outputs.append(Output(status: noErr, flags: [], sampleBuffer: sample, destination: frame.destination))
        }
    }

    /// Delivers outputs in order, with no lock held, then keeps the emptied array for the next frame.
    private func deliver(_ outputs: inout [Output]) {
        for output in outputs {
            switch output.destination {
            case .callback(let frameRefcon): callback?(refcon, frameRefcon, output.status, output.flags, output.sampleBuffer)
            case .handler(let handler): handler(output.status, output.flags, output.sampleBuffer)
            }
        }
        // Emptied here, so that the session no longer holds the sample buffers the client may let go of.
        outputs.removeAll(keepingCapacity: true)
        state.withLock { state in
            if state.spareOutputs.capacity < outputs.capacity { swap(&state.spareOutputs, &outputs) }
        }
    }

    /// Whether the session calls a callback (rather than each frame's handler).
    var hasCallback: Bool { callback != nil }

    /// A pool of pixel buffers in the session's size and source format.
    var pixelBufferPool: CVPixelBufferPool? {
        state.withLock { state in
            if state.invalidated { return nil }
            if state.pool == nil {
                // As Apple's, the pool grows while the client and the encoder hold its buffers.
                state.pool = CVPixelBufferPool(width: width, height: height, pixelFormatType: sourcePixelFormat, minimumBufferCount: 4)
            }
            return state.pool
        }
    }

    /// Ends the session: frames still held are not output, and every call fails from now on.
    func invalidate() {
        state.withLock { state in
            state.invalidated = true
            state.encoder = nil
            state.pending.removeAll()
            state.pool = nil
            state.conversionPool = nil
        }
    }
}

/// Creates a session that compresses frames of a size into `codecType` (`kCMVideoCodecType_H264` or
/// `kCMVideoCodecType_HEVC`), calling `outputCallback` with each compressed frame; pass nil to give
/// each frame a handler of its own instead.
@discardableResult
public func VTCompressionSessionCreate(
    allocator: CFAllocator?, width: Int32, height: Int32, codecType: CMVideoCodecType, encoderSpecification: CFDictionary?,
    imageBufferAttributes sourceImageBufferAttributes: CFDictionary?, compressedDataAllocator: CFAllocator?,
    outputCallback: VTCompressionOutputCallback?, refcon outputCallbackRefCon: UnsafeMutableRawPointer?,
    compressionSessionOut: UnsafeMutablePointer<VTCompressionSession?>
) -> OSStatus {
    compressionSessionOut.pointee = nil
    guard width > 0, height > 0, Int(width) * Int(height) <= 100_000_000 else { return kVTParameterErr }
    guard let encoder = VideoEncoderList.encoder(for: codecType) else { return kVTCouldNotFindVideoEncoderErr }
    if let wanted = (encoderSpecification as? [String: Any])?[kVTVideoEncoderSpecification_EncoderID as String] as? String, wanted != encoder.identifier {
        return kVTCouldNotFindVideoEncoderErr
    }
    let attributes = sourceImageBufferAttributes as? [String: Any] ?? [:]
    let format =
        (attributes[kCVPixelBufferPixelFormatTypeKey as String] as? NSNumber)?.uint32Value
        ?? ((attributes[kCVPixelBufferPixelFormatTypeKey as String] as? [NSNumber])?.first?.uint32Value)
        ?? kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange
    compressionSessionOut.pointee = VTCompressionSession(
        width: Int(width), height: Int(height), codecType: codecType, sourcePixelFormat: format, callback: outputCallback,
        refcon: outputCallbackRefCon)
    return noErr
}

/// Gives a frame to a compression session; its output goes to the session's output callback with `sourceFrameRefcon`.
@discardableResult
public func VTCompressionSessionEncodeFrame(
    _ session: VTCompressionSession, imageBuffer: CVImageBuffer, presentationTimeStamp: CMTime, duration: CMTime, frameProperties: CFDictionary?,
    sourceFrameRefcon: UnsafeMutableRawPointer?, infoFlagsOut: UnsafeMutablePointer<VTEncodeInfoFlags>?
) -> OSStatus {
    guard session.hasCallback else { return kVTParameterErr }
    return session.encode(
        imageBuffer, presentationTime: presentationTimeStamp, duration: duration, frameProperties: frameProperties as? [String: Any] ?? [:],
        destination: .callback(sourceFrameRefcon), infoFlags: infoFlagsOut)
}

/// Gives a frame to a compression session made without an output callback; `outputHandler` receives its output.
@discardableResult
public func VTCompressionSessionEncodeFrame(
    _ session: VTCompressionSession, imageBuffer: CVImageBuffer, presentationTimeStamp: CMTime, duration: CMTime, frameProperties: CFDictionary?,
    infoFlagsOut: UnsafeMutablePointer<VTEncodeInfoFlags>?, outputHandler: @escaping VTCompressionOutputHandler
) -> OSStatus {
    guard !session.hasCallback else { return kVTParameterErr }
    return session.encode(
        imageBuffer, presentationTime: presentationTimeStamp, duration: duration, frameProperties: frameProperties as? [String: Any] ?? [:],
        destination: .handler(outputHandler), infoFlags: infoFlagsOut)
}

/// Makes the encoder ready before the first frame, so that the first frame is not slowed by it.
@discardableResult
public func VTCompressionSessionPrepareToEncodeFrames(_ session: VTCompressionSession) -> OSStatus { session.prepareToEncode() }

/// Outputs every frame given up to a time (here: every frame given), before returning.
@discardableResult
public func VTCompressionSessionCompleteFrames(_ session: VTCompressionSession, untilPresentationTimeStamp completeUntilPresentationTimeStamp: CMTime)
    -> OSStatus
{
    session.completeFrames()
}

/// Ends a compression session; frames it holds are not output.
public func VTCompressionSessionInvalidate(_ session: VTCompressionSession) { session.invalidate() }

/// A pool of pixel buffers in the size and format the session takes best; nil once it is invalidated.
public func VTCompressionSessionGetPixelBufferPool(_ session: VTCompressionSession) -> CVPixelBufferPool? { session.pixelBufferPool }
