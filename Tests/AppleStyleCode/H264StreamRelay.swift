// Sending a camera's pictures over a network as live-streaming and call SDKs do: a Video Toolbox
// compression session with the C callback and a refcon, the parameter sets taken out of the format
// description at each keyframe, everything handed on as an Annex B byte stream; and, on the far
// side, the stream cut back into NAL units, a format description built from the SPS and PPS
// received, and a decompression session with its callback record. It imports VideoToolbox alone.
import VideoToolbox

/// The C-style callback: the refcon is the encoder.
private let compressionOutput: VTCompressionOutputCallback = { refcon, _, status, _, sampleBuffer in
    guard status == noErr, let refcon, let sampleBuffer else { return }
    Unmanaged<H264StreamSender>.fromOpaque(refcon).takeUnretainedValue().sendNALUnits(of: sampleBuffer)
}

/// Encodes pictures into an H.264 Annex B byte stream, parameter sets before every keyframe.
public final class H264StreamSender: @unchecked Sendable {
    private var session: VTCompressionSession?
    private let send: (Data) -> Void
    private static let startCode: [UInt8] = [0, 0, 0, 1]

    /// A sender of pictures of a size, at an average bit rate; `send` receives each access unit's bytes.
    public init?(width: Int32, height: Int32, bitRate: Int, send: @escaping (Data) -> Void) {
        self.send = send
        let status = VTCompressionSessionCreate(
            allocator: kCFAllocatorDefault, width: width, height: height, codecType: kCMVideoCodecType_H264, encoderSpecification: nil,
            imageBufferAttributes: nil, compressedDataAllocator: nil, outputCallback: compressionOutput,
            refcon: Unmanaged.passUnretained(self).toOpaque(), compressionSessionOut: &session)
        guard status == noErr, let session else { return nil }
        VTSessionSetProperty(session, key: kVTCompressionPropertyKey_RealTime, value: kCFBooleanTrue)
        VTSessionSetProperty(session, key: kVTCompressionPropertyKey_ProfileLevel, value: kVTProfileLevel_H264_Baseline_AutoLevel)
        VTSessionSetProperty(session, key: kVTCompressionPropertyKey_AllowFrameReordering, value: kCFBooleanFalse)
        VTSessionSetProperty(session, key: kVTCompressionPropertyKey_AverageBitRate, value: bitRate as CFNumber)
        VTSessionSetProperty(session, key: kVTCompressionPropertyKey_MaxKeyFrameIntervalDuration, value: 1 as CFNumber)
        VTSessionSetProperty(session, key: kVTCompressionPropertyKey_ExpectedFrameRate, value: 30 as CFNumber)
        VTCompressionSessionPrepareToEncodeFrames(session)
    }

    deinit { if let session { VTCompressionSessionInvalidate(session) } }

    /// Encodes one picture.
    @discardableResult
    public func encode(_ pixelBuffer: CVPixelBuffer, at time: CMTime, forceKeyFrame: Bool = false) -> OSStatus {
        guard let session else { return kVTInvalidSessionErr }
        let properties: CFDictionary? = forceKeyFrame ? [kVTEncodeFrameOptionKey_ForceKeyFrame: true] as CFDictionary : nil
        var flags = VTEncodeInfoFlags()
        return VTCompressionSessionEncodeFrame(
            session, imageBuffer: pixelBuffer, presentationTimeStamp: time, duration: .invalid, frameProperties: properties,
            sourceFrameRefcon: nil, infoFlagsOut: &flags)
    }

    /// Outputs what the encoder still holds.
    public func flush() {
        if let session { VTCompressionSessionCompleteFrames(session, untilPresentationTimeStamp: .invalid) }
    }

    fileprivate func sendNALUnits(of sampleBuffer: CMSampleBuffer) {
        var accessUnit = Data()
        let attachments = CMSampleBufferGetSampleAttachmentsArray(sampleBuffer, createIfNecessary: false) as? [[CFString: Any]]
        let isKeyFrame = !(attachments?.first?[kCMSampleAttachmentKey_NotSync] as? Bool ?? false)
        if isKeyFrame, let description = CMSampleBufferGetFormatDescription(sampleBuffer) {
            var count = 0
            CMVideoFormatDescriptionGetH264ParameterSetAtIndex(
                description, parameterSetIndex: 0, parameterSetPointerOut: nil, parameterSetSizeOut: nil, parameterSetCountOut: &count,
                nalUnitHeaderLengthOut: nil)
            for index in 0..<count {
                var pointer: UnsafePointer<UInt8>?
                var size = 0
                CMVideoFormatDescriptionGetH264ParameterSetAtIndex(
                    description, parameterSetIndex: index, parameterSetPointerOut: &pointer, parameterSetSizeOut: &size, parameterSetCountOut: nil,
                    nalUnitHeaderLengthOut: nil)
                if let pointer {
                    accessUnit.append(contentsOf: Self.startCode)
                    accessUnit.append(pointer, count: size)
                }
            }
        }
        guard let block = CMSampleBufferGetDataBuffer(sampleBuffer) else { return }
        var length = 0
        var base: UnsafeMutablePointer<CChar>?
        guard CMBlockBufferGetDataPointer(block, atOffset: 0, lengthAtOffsetOut: nil, totalLengthOut: &length, dataPointerOut: &base) == kCMBlockBufferNoErr,
            let base
        else { return }
        var offset = 0
        while offset + 4 <= length {
            var unitLength: UInt32 = 0
            memcpy(&unitLength, base + offset, 4)
            let size = Int(CFSwapInt32BigToHost(unitLength))
            guard offset + 4 + size <= length else { break }
            accessUnit.append(contentsOf: Self.startCode)
            accessUnit.append(Data(bytes: base + offset + 4, count: size))
            offset += 4 + size
        }
        send(accessUnit)
    }
}

/// The C-style decompression callback: the refcon is the receiver.
private let decompressionOutput: VTDecompressionOutputCallback = { refcon, _, status, _, imageBuffer, presentationTime, _ in
    guard status == noErr, let refcon, let imageBuffer else { return }
    Unmanaged<H264StreamReceiver>.fromOpaque(refcon).takeUnretainedValue().received(imageBuffer, at: presentationTime)
}

/// Decodes an H.264 Annex B byte stream, building its format description from the parameter sets it carries.
public final class H264StreamReceiver: @unchecked Sendable {
    private var session: VTDecompressionSession?
    private var formatDescription: CMVideoFormatDescription?
    private var sequenceParameterSet: [UInt8]?
    private var pictureParameterSet: [UInt8]?
    private let lock = NSLock()
    private let picture: (CVImageBuffer, CMTime) -> Void

    /// A receiver that hands each decoded picture to `picture`.
    public init(picture: @escaping (CVImageBuffer, CMTime) -> Void) { self.picture = picture }

    deinit { if let session { VTDecompressionSessionInvalidate(session) } }

    fileprivate func received(_ image: CVImageBuffer, at time: CMTime) { picture(image, time) }

    /// Takes one access unit's bytes, as sent, with its presentation time.
    public func receive(_ bytes: Data, at time: CMTime) {
        var units: [[UInt8]] = []
        let all = [UInt8](bytes)
        var starts: [Int] = []
        var index = 0
        while index + 3 < all.count {
            if all[index] == 0, all[index + 1] == 0, all[index + 2] == 0, all[index + 3] == 1 {
                starts.append(index + 4)
                index += 4
            } else {
                index += 1
            }
        }
        for (number, start) in starts.enumerated() {
            let end = number + 1 < starts.count ? starts[number + 1] - 4 : all.count
            units.append(Array(all[start..<end]))
        }
        var slices: [[UInt8]] = []
        for unit in units {
            switch unit[0] & 0x1F {
            case 7: sequenceParameterSet = unit
            case 8: pictureParameterSet = unit
            default: slices.append(unit)
            }
        }
        if let sps = sequenceParameterSet, let pps = pictureParameterSet, formatDescription == nil || session == nil {
            makeSession(sps: sps, pps: pps)
        }
        guard let session, let formatDescription, !slices.isEmpty else { return }
        // Each slice unit after its 4-byte length, as the decoder takes it.
        var avcc = Data()
        for slice in slices {
            var length = CFSwapInt32HostToBig(UInt32(slice.count))
            avcc.append(Data(bytes: &length, count: 4))
            avcc.append(contentsOf: slice)
        }
        var blockBuffer: CMBlockBuffer?
        let count = avcc.count
        let made = avcc.withUnsafeMutableBytes { raw in
            CMBlockBufferCreateWithMemoryBlock(
                allocator: kCFAllocatorDefault, memoryBlock: raw.baseAddress, blockLength: count, blockAllocator: kCFAllocatorNull, customBlockSource: nil,
                offsetToData: 0, dataLength: count, flags: 0, blockBufferOut: &blockBuffer)
        }
        guard made == kCMBlockBufferNoErr, let blockBuffer else { return }
        var sampleBuffer: CMSampleBuffer?
        var timing = CMSampleTimingInfo(duration: .invalid, presentationTimeStamp: time, decodeTimeStamp: .invalid)
        var size = count
        guard
            CMSampleBufferCreateReady(
                allocator: kCFAllocatorDefault, dataBuffer: blockBuffer, formatDescription: formatDescription, sampleCount: 1, sampleTimingEntryCount: 1,
                sampleTimingArray: &timing, sampleSizeEntryCount: 1, sampleSizeArray: &size, sampleBufferOut: &sampleBuffer) == noErr,
            let sampleBuffer
        else { return }
        var flags = VTDecodeInfoFlags()
        VTDecompressionSessionDecodeFrame(
            session, sampleBuffer: sampleBuffer, flags: [._EnableAsynchronousDecompression], frameRefcon: nil, infoFlagsOut: &flags)
    }

    /// Outputs the pictures the decoder still holds.
    public func flush() {
        if let session { VTDecompressionSessionWaitForAsynchronousFrames(session) }
    }

    private func makeSession(sps: [UInt8], pps: [UInt8]) {
        var description: CMFormatDescription?
        let status = sps.withUnsafeBufferPointer { spsBytes in
            pps.withUnsafeBufferPointer { ppsBytes in
                let pointers = [spsBytes.baseAddress!, ppsBytes.baseAddress!]
                let sizes = [sps.count, pps.count]
                return CMVideoFormatDescriptionCreateFromH264ParameterSets(
                    allocator: kCFAllocatorDefault, parameterSetCount: 2, parameterSetPointers: pointers, parameterSetSizes: sizes, nalUnitHeaderLength: 4,
                    formatDescriptionOut: &description)
            }
        }
        guard status == noErr, let description else { return }
        if let session, VTDecompressionSessionCanAcceptFormatDescription(session, formatDescription: description) { return }
        if let session { VTDecompressionSessionInvalidate(session) }
        formatDescription = description
        var record = VTDecompressionOutputCallbackRecord(
            decompressionOutputCallback: decompressionOutput, decompressionOutputRefCon: Unmanaged.passUnretained(self).toOpaque())
        let attributes: [CFString: Any] = [kCVPixelBufferPixelFormatTypeKey: kCVPixelFormatType_420YpCbCr8BiPlanarFullRange]
        VTDecompressionSessionCreate(
            allocator: kCFAllocatorDefault, formatDescription: description, decoderSpecification: nil, imageBufferAttributes: attributes as CFDictionary,
            outputCallback: &record, decompressionSessionOut: &session)
    }
}
