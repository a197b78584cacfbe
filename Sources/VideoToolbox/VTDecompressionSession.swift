import CoreMedia
import CoreVideo
import Foundation
import MovieEngine

/// The function a decompression session calls with each decoded frame: the session's refcon, the
/// frame's refcon, a status, what happened, the picture (nil when it failed or was dropped), and its times.
public typealias VTDecompressionOutputCallback =
    @Sendable (
        UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, OSStatus, VTDecodeInfoFlags, CVImageBuffer?, CMTime, CMTime
    ) -> Void

/// The block a decompression session calls with one decoded frame.
public typealias VTDecompressionOutputHandler = @Sendable (OSStatus, VTDecodeInfoFlags, CVImageBuffer?, CMTime, CMTime) -> Void

/// The output callback of a decompression session and the refcon it is called with.
public struct VTDecompressionOutputCallbackRecord {
    /// The function called with each decoded frame.
    public var decompressionOutputCallback: VTDecompressionOutputCallback?
    /// The value passed to it as its first argument.
    public var decompressionOutputRefCon: UnsafeMutableRawPointer?
    /// Creates a record of no callback.
    public init() {}
    /// Creates a record of a callback and its refcon.
    public init(decompressionOutputCallback: VTDecompressionOutputCallback?, decompressionOutputRefCon: UnsafeMutableRawPointer?) {
        self.decompressionOutputCallback = decompressionOutputCallback
        self.decompressionOutputRefCon = decompressionOutputRefCon
    }
}

/// A reference to a Video Toolbox decompression session: decodes H.264 and HEVC sample buffers
/// (length-prefixed, as Apple's encoders and movie files carry them) into pixel buffers with FFmpeg.
///
/// Thread ownership: any thread. Frames are decoded one at a time under the session's lock; the
/// output callback runs on the thread that gave the frame (or waited for frames), with no lock held.
public final class VTDecompressionSession: VTPropertySession, @unchecked Sendable {
    /// Where a frame's output goes.
    enum Destination {
        case callback(UnsafeMutableRawPointer?)
        case handler(VTDecompressionOutputHandler)
    }

    struct PendingFrame {
        var presentationTime: CMTime
        var duration: CMTime
        var destination: Destination
        var output: Bool
        var asynchronous: Bool
    }

    struct Output {
        var status: OSStatus
        var flags: VTDecodeInfoFlags
        var image: CVImageBuffer?
        var presentationTime: CMTime
        var duration: CMTime
        var destination: Destination
    }

    private struct State {
        var decoder: MovieDecoder?
        var pending: [Int64: PendingFrame] = [:]
        var pool: CVPixelBufferPool?
        var realTime = false
        var invalidated = false
        /// An emptied outputs array kept from one frame to the next, so that a frame allocates none.
        var spareOutputs: [Output] = []
    }

    let formatDescription: CMFormatDescription
    private let codecName: String
    private let configuration: Data
    private let record: VTDecompressionOutputCallbackRecord?
    private let outputFormat: OSType
    private let outputSize: (width: Int, height: Int)?
    private let state = LockedValue(State())

    init(
        formatDescription: CMFormatDescription, codecName: String, configuration: Data, record: VTDecompressionOutputCallbackRecord?, outputFormat: OSType,
        outputSize: (Int, Int)?
    ) {
        self.formatDescription = formatDescription
        self.codecName = codecName
        self.configuration = configuration
        self.record = record
        self.outputFormat = outputFormat
        self.outputSize = outputSize
    }

    /// The FFmpeg codec and configuration box of a format description this session type decodes; nil for others.
    static func codec(of description: CMFormatDescription) -> (name: String, configuration: Data)? {
        guard description.mediaTypeCode == kCMMediaType_Video else { return nil }
        switch description.mediaSubTypeCode {
        case kCMVideoCodecType_H264: return description.extensionAtoms["avcC"].map { ("h264", $0) }
        case kCMVideoCodecType_HEVC, FourCharCode(0x6865_7631): return description.extensionAtoms["hvcC"].map { ("hevc", $0) }
        default: return nil
        }
    }

    // MARK: Properties

    func setProperty(_ key: String, _ value: Any?) -> OSStatus {
        state.withLock { state in
            if state.invalidated { return kVTInvalidSessionErr }
            switch key {
            case String(kVTDecompressionPropertyKey_RealTime):
                guard let on = (value as? Bool) ?? (value as? NSNumber)?.boolValue else { return kVTPropertyNotSupportedErr }
                state.realTime = on
                return noErr
            case String(kVTDecompressionPropertyKey_PixelBufferPool), String(kVTDecompressionPropertyKey_UsingHardwareAcceleratedVideoDecoder):
                return kVTPropertyReadOnlyErr
            default:
                return kVTPropertyNotSupportedErr
            }
        }
    }

    func property(_ key: String) -> Any? {
        state.withLock { state -> Any? in
            switch key {
            case String(kVTDecompressionPropertyKey_RealTime): NSNumber(value: state.realTime)
            case String(kVTDecompressionPropertyKey_PixelBufferPool): state.pool
            case String(kVTDecompressionPropertyKey_UsingHardwareAcceleratedVideoDecoder): NSNumber(value: false)
            default: nil
            }
        }
    }

    var supportedProperties: [String: Any] {
        [
            kVTDecompressionPropertyKey_RealTime as String: booleanProperty(),
            kVTDecompressionPropertyKey_UsingHardwareAcceleratedVideoDecoder as String: [
                kVTPropertyTypeKey as String: kVTPropertyType_Boolean, kVTPropertyReadWriteStatusKey as String: kVTPropertyReadWriteStatus_ReadOnly,
            ],
        ]
    }

    // MARK: Decoding

    var hasCallback: Bool { record?.decompressionOutputCallback != nil }

    /// Decodes one sample buffer; its picture is output before this returns, or later when
    /// asynchronous decoding or temporal processing lets the decoder hold it.
    func decode(_ sampleBuffer: CMSampleBuffer, flags: VTDecodeFrameFlags, destination: Destination, infoFlags: UnsafeMutablePointer<VTDecodeInfoFlags>?)
        -> OSStatus
    {
        let asynchronous = flags.contains(._EnableAsynchronousDecompression) || flags.contains(._EnableTemporalProcessing)
        infoFlags?.pointee = asynchronous ? [.asynchronous] : []
        var outputs: [Output] = []
        let status = state.withLock { state -> OSStatus in
            if state.invalidated { return kVTInvalidSessionErr }
            swap(&outputs, &state.spareOutputs)
            guard let block = CMSampleBufferGetDataBuffer(sampleBuffer), block.length > 0 else { return kVTParameterErr }
            if state.decoder == nil {
                do {
                    let size = formatDescription.videoDimensions
                    state.decoder = try MovieDecoder(
                        codecName: codecName, configuration: configuration, width: Int(size.width), height: Int(size.height), frameThreads: asynchronous)
                } catch {
                    return kVTCouldNotFindVideoDecoderErr
                }
            }
            guard let decoder = state.decoder else { return kVTVideoDecoderMalfunctionErr }
            let presentationTime = CMSampleBufferGetPresentationTimeStamp(sampleBuffer)
            var microseconds = presentationTime.isNumeric ? presentationTime.convertScale(1_000_000, method: .roundHalfAwayFromZero).value : Int64.min
            // Frames without a time are told apart by a time of their own, below any real one.
            if microseconds == Int64.min { microseconds = Int64.min / 2 + Int64(state.pending.count) }
            state.pending[microseconds] = PendingFrame(
                presentationTime: presentationTime, duration: CMSampleBufferGetDuration(sampleBuffer), destination: destination,
                output: !flags.contains(._DoNotOutputFrame), asynchronous: asynchronous)
            let sent = decoder.send(
                bytes: UnsafeRawBufferPointer(start: block.bytes, count: block.length), microseconds: microseconds, keyFrame: sampleBuffer.isSyncSample)
            if sent < 0 {
                state.pending[microseconds] = nil
                return kVTVideoDecoderBadDataErr
            }
            return receive(decoder, &state, into: &outputs)
        }
        deliver(&outputs)
        return status
    }

    /// Turns every picture the decoder has ready into an output.
    private func receive(_ decoder: MovieDecoder, _ state: inout State, into outputs: inout [Output]) -> OSStatus {
        while true {
            switch decoder.receive() {
            case .frame:
                let time = decoder.frameTime.pts
                guard let frame = state.pending.removeValue(forKey: time) ?? state.pending.keys.min().flatMap({ state.pending.removeValue(forKey: $0) }) else {
                    continue
                }
                var flags: VTDecodeInfoFlags = frame.asynchronous ? [.asynchronous] : []
                guard frame.output else {
                    flags.insert(.frameDropped)
                    outputs.append(Self.dropped(frame, flags: flags))
                    continue
                }
                let info = decoder.pictureInfo
                let width = outputSize?.width ?? info.width, height = outputSize?.height ?? info.height
                if state.pool == nil || state.pool!.width != width || state.pool!.height != height {
                    // As Apple's, the pool grows while the client holds pictures; it keeps a few ready.
                    state.pool = CVPixelBufferPool(width: width, height: height, pixelFormatType: outputFormat, minimumBufferCount: 4)
                }
                let format: MovieDecoder.PictureFormat =
                    outputFormat == kCVPixelFormatType_32BGRA
                    ? .bgra : outputFormat == kCVPixelFormatType_420YpCbCr8BiPlanarFullRange ? .nv12FullRange : .nv12VideoRange
                // A picture the pool cannot give a buffer for is dropped, as a real-time decoder drops what it cannot keep.
                guard let image = state.pool?.dequeue() else {
                    flags.insert(.frameDropped)
                    outputs.append(Self.dropped(frame, flags: flags))
                    continue
                }
                let converted = decoder.convertPicture(into: image, format: format)
                if format != .bgra {
                    let matrix = info.matrix == 1 ? kCVImageBufferYCbCrMatrix_ITU_R_709_2 : kCVImageBufferYCbCrMatrix_ITU_R_601_4
                    CVBufferSetAttachment(image, kCVImageBufferYCbCrMatrixKey, matrix, .shouldPropagate)
                }
                flags.insert(.imageBufferModifiable)
                outputs.append(
                    Output(
                        status: converted < 0 ? kVTVideoDecoderMalfunctionErr : noErr, flags: flags, image: converted < 0 ? nil : image,
                        presentationTime: frame.presentationTime, duration: frame.duration, destination: frame.destination))
            case .needsPacket, .ended:
                return noErr
            case .failure:
                return kVTVideoDecoderBadDataErr
            }
        }
    }

    /// The output of a frame that was decoded and not output.
    private static func dropped(_ frame: PendingFrame, flags: VTDecodeInfoFlags) -> Output {
        Output(status: noErr, flags: flags, image: nil, presentationTime: frame.presentationTime, duration: frame.duration, destination: frame.destination)
    }

    /// Outputs every frame the decoder holds; the decoder starts again at the next keyframe.
    func finishFrames() -> OSStatus {
        var outputs: [Output] = []
        let status = state.withLock { state -> OSStatus in
            if state.invalidated { return kVTInvalidSessionErr }
            guard let decoder = state.decoder else { return noErr }
            decoder.sendEnd()
            let status = receive(decoder, &state, into: &outputs)
            for (_, frame) in state.pending.sorted(by: { $0.key < $1.key }) { outputs.append(Self.dropped(frame, flags: [.frameDropped])) }
            state.pending.removeAll()
            state.decoder = nil
            return status
        }
        deliver(&outputs)
        return status
    }

    /// Delivers outputs in order, with no lock held, then keeps the emptied array for the next frame.
    private func deliver(_ outputs: inout [Output]) {
        for output in outputs {
            switch output.destination {
            case .callback(let frameRefcon):
                record?.decompressionOutputCallback?(
                    record?.decompressionOutputRefCon, frameRefcon, output.status, output.flags, output.image, output.presentationTime, output.duration)
            case .handler(let handler):
                handler(output.status, output.flags, output.image, output.presentationTime, output.duration)
            }
        }
        // Emptied here, so that the session no longer holds the pictures the client may let go of.
        outputs.removeAll(keepingCapacity: true)
        state.withLock { state in
            if state.spareOutputs.capacity < outputs.capacity { swap(&state.spareOutputs, &outputs) }
        }
    }

    /// Ends the session: frames it holds are not output, and every call fails from now on.
    func invalidate() {
        state.withLock { state in
            state.invalidated = true
            state.decoder = nil
            state.pending.removeAll()
        }
    }
}

/// The pixel format and size a decompression session's attributes ask for: the first format it can
/// give ('420v', '420f' or 'BGRA'), '420v' when none is asked.
private func outputRequest(_ attributes: CFDictionary?) -> (format: OSType, size: (Int, Int)?)? {
    let dictionary = attributes as? [String: Any] ?? [:]
    let supported = [kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange, kCVPixelFormatType_32BGRA]
    var format = kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange
    let asked =
        (dictionary[kCVPixelBufferPixelFormatTypeKey as String] as? NSNumber).map { [$0.uint32Value] }
        ?? (dictionary[kCVPixelBufferPixelFormatTypeKey as String] as? [NSNumber])?.map(\.uint32Value)
    if let asked {
        guard let first = asked.first(where: supported.contains) else { return nil }
        format = first
    }
    let width = (dictionary[kCVPixelBufferWidthKey as String] as? NSNumber)?.intValue
    let height = (dictionary[kCVPixelBufferHeightKey as String] as? NSNumber)?.intValue
    if let width, let height {
        guard width > 0, height > 0, width * height <= 100_000_000 else { return nil }
        return (format, (width, height))
    }
    return (format, nil)
}

/// Creates a session that decodes frames of a format description (H.264 or HEVC), calling the
/// record's callback with each decoded frame; pass nil to give each frame a handler of its own instead.
@discardableResult
public func VTDecompressionSessionCreate(
    allocator: CFAllocator?, formatDescription videoFormatDescription: CMVideoFormatDescription, decoderSpecification videoDecoderSpecification: CFDictionary?,
    imageBufferAttributes destinationImageBufferAttributes: CFDictionary?, outputCallback: UnsafePointer<VTDecompressionOutputCallbackRecord>?,
    decompressionSessionOut: UnsafeMutablePointer<VTDecompressionSession?>
) -> OSStatus {
    decompressionSessionOut.pointee = nil
    guard let (name, configuration) = VTDecompressionSession.codec(of: videoFormatDescription), MovieDecoder.isAvailable(name) else {
        return kVTCouldNotFindVideoDecoderErr
    }
    guard let request = outputRequest(destinationImageBufferAttributes) else { return kVTPixelTransferNotSupportedErr }
    decompressionSessionOut.pointee = VTDecompressionSession(
        formatDescription: videoFormatDescription, codecName: name, configuration: configuration, record: outputCallback?.pointee,
        outputFormat: request.format, outputSize: request.size)
    return noErr
}

/// Creates a session that decodes frames of a format description, each frame with its own output handler.
@discardableResult
public func VTDecompressionSessionCreate(
    allocator: CFAllocator?, formatDescription videoFormatDescription: CMVideoFormatDescription, decoderSpecification videoDecoderSpecification: CFDictionary?,
    imageBufferAttributes destinationImageBufferAttributes: CFDictionary?, decompressionSessionOut: UnsafeMutablePointer<VTDecompressionSession?>
) -> OSStatus {
    VTDecompressionSessionCreate(
        allocator: allocator, formatDescription: videoFormatDescription, decoderSpecification: videoDecoderSpecification,
        imageBufferAttributes: destinationImageBufferAttributes, outputCallback: nil, decompressionSessionOut: decompressionSessionOut)
}

/// Decodes a frame; its picture goes to the session's output callback with `sourceFrameRefCon`.
@discardableResult
public func VTDecompressionSessionDecodeFrame(
    _ session: VTDecompressionSession, sampleBuffer: CMSampleBuffer, flags decodeFlags: VTDecodeFrameFlags,
    frameRefcon sourceFrameRefCon: UnsafeMutableRawPointer?,
    infoFlagsOut: UnsafeMutablePointer<VTDecodeInfoFlags>?
) -> OSStatus {
    guard session.hasCallback else { return kVTParameterErr }
    return session.decode(sampleBuffer, flags: decodeFlags, destination: .callback(sourceFrameRefCon), infoFlags: infoFlagsOut)
}

/// Decodes a frame of a session made without an output callback; `outputHandler` receives its picture.
@discardableResult
public func VTDecompressionSessionDecodeFrame(
    _ session: VTDecompressionSession, sampleBuffer: CMSampleBuffer, flags decodeFlags: VTDecodeFrameFlags,
    infoFlagsOut: UnsafeMutablePointer<VTDecodeInfoFlags>?,
    outputHandler: @escaping VTDecompressionOutputHandler
) -> OSStatus {
    guard !session.hasCallback else { return kVTParameterErr }
    return session.decode(sampleBuffer, flags: decodeFlags, destination: .handler(outputHandler), infoFlags: infoFlagsOut)
}

/// Waits for every frame being decoded to be output (here: outputs every frame the decoder holds).
@discardableResult
public func VTDecompressionSessionWaitForAsynchronousFrames(_ session: VTDecompressionSession) -> OSStatus { session.finishFrames() }

/// Outputs the frames the decoder holds for display order.
@discardableResult
public func VTDecompressionSessionFinishDelayedFrames(_ session: VTDecompressionSession) -> OSStatus { session.finishFrames() }

/// Whether the session can decode frames of another format description: the same codec and configuration.
public func VTDecompressionSessionCanAcceptFormatDescription(_ session: VTDecompressionSession, formatDescription newFormatDesc: CMFormatDescription) -> Bool {
    guard let mine = VTDecompressionSession.codec(of: session.formatDescription), let theirs = VTDecompressionSession.codec(of: newFormatDesc) else {
        return false
    }
    return mine.name == theirs.name && mine.configuration == theirs.configuration
}

/// Ends a decompression session; frames it holds are not output.
public func VTDecompressionSessionInvalidate(_ session: VTDecompressionSession) { session.invalidate() }
