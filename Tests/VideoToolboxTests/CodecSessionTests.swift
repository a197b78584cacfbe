import VideoToolbox
import XCTest

/// Compression and decompression sessions as streaming and call code uses them: pictures round
/// trip through H.264 and HEVC, sample buffers carry what Apple's encoders put in them (length-prefixed
/// units, parameter sets in the format description, sync marks, times), keyframes come where forced
/// and at the interval, the bit rate asked for is kept, and misuse gets Apple's errors.
final class CodecSessionTests: XCTestCase {
    private let width = 320, height = 240

    /// A texture wider and taller than the picture, so that each frame can show a part of it moved along.
    private lazy var texture: [UInt8] = {
        var generator = SystemRandomNumberGenerator()
        var bytes = [UInt8](repeating: 0, count: (width * 2) * (height * 2))
        for index in bytes.indices { bytes[index] = UInt8.random(in: 40...215, using: &generator) }
        return bytes
    }()

    /// Frame `index`: a video-range bi-planar 4:2:0 picture of the texture moved by `step` pixels a frame, grey chroma.
    private func frame(_ index: Int, step: Int = 2, smooth: Bool = false) throws -> CVPixelBuffer {
        var made: CVPixelBuffer?
        XCTAssertEqual(CVPixelBufferCreate(nil, width, height, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, nil, &made), kCVReturnSuccess)
        let buffer = try XCTUnwrap(made)
        CVPixelBufferLockBaseAddress(buffer, [])
        defer { CVPixelBufferUnlockBaseAddress(buffer, []) }
        let luma = CVPixelBufferGetBaseAddressOfPlane(buffer, 0)!, lumaStride = CVPixelBufferGetBytesPerRowOfPlane(buffer, 0)
        let offset = (index * step) % width
        for y in 0..<height {
            let row = luma + y * lumaStride
            if smooth {
                // A smooth picture (a gradient with a bright square moving along) that a decoder gives back closely.
                for x in 0..<width {
                    let inSquare = (offset..<(offset + 40)).contains(x) && (100..<140).contains(y)
                    row.storeBytes(of: inSquare ? 220 : UInt8(32 + (x + y) * 120 / (width + height)), toByteOffset: x, as: UInt8.self)
                }
            } else {
                texture.withUnsafeBytes { row.copyMemory(from: $0.baseAddress! + (y + offset / 2) * width * 2 + offset, byteCount: width) }
            }
        }
        let chroma = CVPixelBufferGetBaseAddressOfPlane(buffer, 1)!, chromaStride = CVPixelBufferGetBytesPerRowOfPlane(buffer, 1)
        for y in 0..<(height / 2) { (chroma + y * chromaStride).initializeMemory(as: UInt8.self, repeating: 128, count: width) }
        return buffer
    }

    /// The luma at (x, y) of a bi-planar buffer.
    private func luma(_ buffer: CVPixelBuffer, _ x: Int, _ y: Int) -> Int {
        CVPixelBufferLockBaseAddress(buffer, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
        return Int((CVPixelBufferGetBaseAddressOfPlane(buffer, 0)! + y * CVPixelBufferGetBytesPerRowOfPlane(buffer, 0) + x).load(as: UInt8.self))
    }

    /// Collects what a session outputs, from any thread.
    private final class Collected<Value>: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [Value] = []
        func append(_ value: Value) { lock.withLock { values.append(value) } }
        var all: [Value] { lock.withLock { values } }
    }

    private func makeEncoder(_ codec: CMVideoCodecType = kCMVideoCodecType_H264, properties: [CFString: Any]) throws -> VTCompressionSession {
        var made: VTCompressionSession?
        let status = VTCompressionSessionCreate(
            allocator: nil, width: Int32(width), height: Int32(height), codecType: codec, encoderSpecification: nil, imageBufferAttributes: nil,
            compressedDataAllocator: nil, outputCallback: nil, refcon: nil, compressionSessionOut: &made)
        XCTAssertEqual(status, noErr)
        let session = try XCTUnwrap(made)
        for (key, value) in properties { XCTAssertEqual(VTSessionSetProperty(session, key: key, value: value as CFTypeRef), noErr, "\(key)") }
        return session
    }

    /// Encodes `count` frames at 30 a second, `forced` among them made keyframes; the sample buffers in output order.
    private func encode(
        _ session: VTCompressionSession, count: Int, forced: Set<Int> = [], smooth: Bool = false, step: Int = 2
    ) throws -> [CMSampleBuffer] {
        let collected = Collected<CMSampleBuffer>()
        for index in 0..<count {
            let options = forced.contains(index) ? [kVTEncodeFrameOptionKey_ForceKeyFrame: true] as CFDictionary : nil
            let status = VTCompressionSessionEncodeFrame(
                session, imageBuffer: try frame(index, step: step, smooth: smooth), presentationTimeStamp: CMTime(value: CMTimeValue(index), timescale: 30),
                duration: CMTime(value: 1, timescale: 30), frameProperties: options, infoFlagsOut: nil
            ) { status, _, sampleBuffer in
                XCTAssertEqual(status, noErr)
                if let sampleBuffer { collected.append(sampleBuffer) }
            }
            XCTAssertEqual(status, noErr)
        }
        XCTAssertEqual(VTCompressionSessionCompleteFrames(session, untilPresentationTimeStamp: .invalid), noErr)
        return collected.all
    }

    private static func isKeyFrame(_ sample: CMSampleBuffer) -> Bool {
        let attachments = CMSampleBufferGetSampleAttachmentsArray(sample, createIfNecessary: false) as? [[CFString: Any]]
        return (attachments?.first?[kCMSampleAttachmentKey_NotSync] as? Bool) != true
    }

    /// The NAL unit types of a length-prefixed sample (H.264's or HEVC's header), checking the lengths add up.
    private static func unitTypes(_ sample: CMSampleBuffer, hevc: Bool) throws -> [Int] {
        let block = try XCTUnwrap(CMSampleBufferGetDataBuffer(sample))
        let bytes = [UInt8](try block.dataBytes())
        var at = 0, types: [Int] = []
        while at < bytes.count {
            XCTAssertLessThanOrEqual(at + 4, bytes.count)
            let length = Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            XCTAssertGreaterThan(length, 0)
            XCTAssertLessThanOrEqual(at + 4 + length, bytes.count, "a unit's length runs past the sample")
            types.append(hevc ? Int(bytes[at + 4] >> 1 & 0x3F) : Int(bytes[at + 4] & 0x1F))
            at += 4 + length
        }
        XCTAssertEqual(at, bytes.count)
        return types
    }

    /// Decodes samples with a decompression session made from `description`; the pictures by presentation time.
    private func decode(_ samples: [CMSampleBuffer], description: CMFormatDescription, attributes: [CFString: Any]? = nil) throws -> [(CMTime, CVPixelBuffer)] {
        var made: VTDecompressionSession?
        XCTAssertEqual(
            VTDecompressionSessionCreate(
                allocator: nil, formatDescription: description, decoderSpecification: nil, imageBufferAttributes: attributes as CFDictionary?,
                decompressionSessionOut: &made), noErr)
        let session = try XCTUnwrap(made)
        defer { VTDecompressionSessionInvalidate(session) }
        let pictures = Collected<(CMTime, CVPixelBuffer)>()
        for sample in samples {
            let status = VTDecompressionSessionDecodeFrame(session, sampleBuffer: sample, flags: [], infoFlagsOut: nil) { status, _, image, time, _ in
                XCTAssertEqual(status, noErr)
                if let image { pictures.append((time, image)) }
            }
            XCTAssertEqual(status, noErr)
        }
        XCTAssertEqual(VTDecompressionSessionWaitForAsynchronousFrames(session), noErr)
        return pictures.all.sorted { $0.0 < $1.0 }
    }

    func testH264RoundTripCarriesWhatApplesEncoderGives() throws {
        let session = try makeEncoder(properties: [kVTCompressionPropertyKey_AllowFrameReordering: true, kVTCompressionPropertyKey_ExpectedFrameRate: 30])
        defer { VTCompressionSessionInvalidate(session) }
        let samples = try encode(session, count: 30, smooth: true)
        XCTAssertEqual(samples.count, 30)
        XCTAssertTrue(Self.isKeyFrame(samples[0]))
        // Parameter sets are in the format description, not the samples; lengths are 4 bytes.
        let description = try XCTUnwrap(CMSampleBufferGetFormatDescription(samples[0]))
        var count = 0, headerLength: Int32 = 0
        XCTAssertEqual(
            CMVideoFormatDescriptionGetH264ParameterSetAtIndex(
                description, parameterSetIndex: 0, parameterSetPointerOut: nil, parameterSetSizeOut: nil, parameterSetCountOut: &count,
                nalUnitHeaderLengthOut: &headerLength), noErr)
        XCTAssertEqual(count, 2)
        XCTAssertEqual(headerLength, 4)
        XCTAssertEqual(CMVideoFormatDescriptionGetDimensions(description).width, Int32(width))
        for sample in samples {
            let types = try Self.unitTypes(sample, hevc: false)
            XCTAssertFalse(types.contains(7) || types.contains(8), "parameter sets in a sample: \(types)")
            XCTAssertTrue(types.contains(Self.isKeyFrame(sample) ? 5 : 1), "\(types)")
            XCTAssertLessThanOrEqual(CMSampleBufferGetDecodeTimeStamp(sample), CMSampleBufferGetPresentationTimeStamp(sample))
        }
        // Frames were reordered (B-frames), and decode times rise in output order.
        let times = samples.map { CMSampleBufferGetPresentationTimeStamp($0) }
        XCTAssertNotEqual(times, times.sorted(), "no frame was reordered")
        let decodeTimes = samples.map { CMSampleBufferGetDecodeTimeStamp($0) }
        XCTAssertEqual(decodeTimes, decodeTimes.sorted())
        XCTAssertEqual(Set(times), Set((0..<30).map { CMTime(value: CMTimeValue($0), timescale: 30) }))

        let pictures = try decode(samples, description: description)
        XCTAssertEqual(pictures.count, 30)
        for (index, (time, picture)) in pictures.enumerated() {
            XCTAssertEqual(time, CMTime(value: CMTimeValue(index), timescale: 30))
            XCTAssertEqual(CVPixelBufferGetPixelFormatType(picture), kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange)
            let source = try frame(index, smooth: true)
            // The moving square and the gradient, where the source has them.
            for (x, y) in [(index * 2 + 20, 120), (300, 20), (10, 230), (160, 60)] {
                XCTAssertEqual(luma(picture, x, y), luma(source, x, y), accuracy: 8, "frame \(index) at (\(x), \(y))")
            }
        }
    }

    func testKeyFramesComeWhereForcedAndAtTheInterval() throws {
        let session = try makeEncoder(properties: [
            kVTCompressionPropertyKey_MaxKeyFrameInterval: 12, kVTCompressionPropertyKey_AllowFrameReordering: false,
            kVTCompressionPropertyKey_RealTime: true,
        ])
        defer { VTCompressionSessionInvalidate(session) }
        let samples = try encode(session, count: 40, forced: [17], smooth: true, step: 1)
        XCTAssertEqual(samples.count, 40)
        // Without reordering every frame comes out in order, the decode time its presentation time.
        let keys = samples.enumerated().filter { Self.isKeyFrame($0.element) }.map(\.offset)
        XCTAssertTrue(keys.contains(0) && keys.contains(17), "keyframes at \(keys)")
        for (a, b) in zip(keys, keys.dropFirst() + [40]) { XCTAssertLessThanOrEqual(b - a, 12, "keyframes at \(keys)") }
        for sample in samples {
            XCTAssertEqual(CMSampleBufferGetDecodeTimeStamp(sample), CMSampleBufferGetPresentationTimeStamp(sample))
            let attachments = CMSampleBufferGetSampleAttachmentsArray(sample, createIfNecessary: false) as? [[CFString: Any]]
            XCTAssertEqual(attachments?.first?[kCMSampleAttachmentKey_DependsOnOthers] as? Bool, !Self.isKeyFrame(sample))
        }
    }

    func testReusedSampleBuffersSayWhatTheirFrameIs() throws {
        // A client that lets each sample buffer go, as a packetiser does: the session reuses them,
        // and each still says whether it is a keyframe as its units do.
        let session = try makeEncoder(properties: [kVTCompressionPropertyKey_MaxKeyFrameInterval: 7, kVTCompressionPropertyKey_AllowFrameReordering: false])
        defer { VTCompressionSessionInvalidate(session) }
        let seen = Collected<(marked: Bool, types: [Int], time: CMTime)>()
        for index in 0..<40 {
            VTCompressionSessionEncodeFrame(
                session, imageBuffer: try frame(index, smooth: true), presentationTimeStamp: CMTime(value: CMTimeValue(index), timescale: 30),
                duration: CMTime(value: 1, timescale: 30), frameProperties: nil, infoFlagsOut: nil
            ) { _, _, sample in
                guard let sample, let types = try? Self.unitTypes(sample, hevc: false) else { return }
                seen.append((Self.isKeyFrame(sample), types, CMSampleBufferGetPresentationTimeStamp(sample)))
            }
        }
        VTCompressionSessionCompleteFrames(session, untilPresentationTimeStamp: .invalid)
        let frames = seen.all
        XCTAssertEqual(frames.map(\.time), (0..<40).map { CMTime(value: CMTimeValue($0), timescale: 30) })
        for frame in frames { XCTAssertEqual(frame.marked, frame.types.contains(5), "at \(frame.time.value): \(frame.types)") }
        XCTAssertGreaterThanOrEqual(frames.filter(\.marked).count, 6)
    }

    func testThePixelAspectRatioAndCleanApertureReachTheFormatDescription() throws {
        let session = try makeEncoder(properties: [
            kVTCompressionPropertyKey_PixelAspectRatio: [
                kCVImageBufferPixelAspectRatioHorizontalSpacingKey: 4, kCVImageBufferPixelAspectRatioVerticalSpacingKey: 3,
            ],
            kVTCompressionPropertyKey_CleanAperture: [
                kCVImageBufferCleanApertureWidthKey: 300, kCVImageBufferCleanApertureHeightKey: 220,
                kCVImageBufferCleanApertureHorizontalOffsetKey: 0, kCVImageBufferCleanApertureVerticalOffsetKey: 0,
            ],
        ])
        defer { VTCompressionSessionInvalidate(session) }
        let samples = try encode(session, count: 2, smooth: true)
        let description = try XCTUnwrap(samples.first.flatMap { CMSampleBufferGetFormatDescription($0) })
        let aspect = CMFormatDescriptionGetExtension(description, extensionKey: kCMFormatDescriptionExtension_PixelAspectRatio) as? [String: Any]
        XCTAssertEqual((aspect?[kCVImageBufferPixelAspectRatioHorizontalSpacingKey as String] as? NSNumber)?.intValue, 4)
        XCTAssertEqual((aspect?[kCVImageBufferPixelAspectRatioVerticalSpacingKey as String] as? NSNumber)?.intValue, 3)
        let aperture = CMFormatDescriptionGetExtension(description, extensionKey: kCMFormatDescriptionExtension_CleanAperture) as? [String: Any]
        XCTAssertEqual((aperture?[kCVImageBufferCleanApertureWidthKey as String] as? NSNumber)?.doubleValue, 300)
        XCTAssertEqual((aperture?[kCVImageBufferCleanApertureHeightKey as String] as? NSNumber)?.doubleValue, 220)
    }

    func testTheAverageBitRateIsKeptOverTenSeconds() throws {
        let session = try makeEncoder(properties: [
            kVTCompressionPropertyKey_AverageBitRate: 400_000, kVTCompressionPropertyKey_ExpectedFrameRate: 30,
            kVTCompressionPropertyKey_AllowFrameReordering: false, kVTCompressionPropertyKey_RealTime: true,
        ])
        defer { VTCompressionSessionInvalidate(session) }
        let samples = try encode(session, count: 300)
        XCTAssertEqual(samples.count, 300)
        let bits = samples.reduce(0) { $0 + CMSampleBufferGetTotalSampleSize($1) } * 8
        let rate = Double(bits) / 10
        XCTAssertEqual(rate, 400_000, accuracy: 60_000, "\(Int(rate)) bit/s")
    }

    func testAChangedBitRateTakesEffectBetweenFrames() throws {
        let session = try makeEncoder(properties: [
            kVTCompressionPropertyKey_AverageBitRate: 800_000, kVTCompressionPropertyKey_ExpectedFrameRate: 30,
            kVTCompressionPropertyKey_AllowFrameReordering: false,
        ])
        defer { VTCompressionSessionInvalidate(session) }
        let collected = Collected<CMSampleBuffer>()
        for index in 0..<180 {
            if index == 90 { XCTAssertEqual(VTSessionSetProperty(session, key: kVTCompressionPropertyKey_AverageBitRate, value: 100_000 as CFNumber), noErr) }
            XCTAssertEqual(
                VTCompressionSessionEncodeFrame(
                    session, imageBuffer: try frame(index), presentationTimeStamp: CMTime(value: CMTimeValue(index), timescale: 30),
                    duration: CMTime(value: 1, timescale: 30), frameProperties: nil, infoFlagsOut: nil
                ) { _, _, sample in if let sample { collected.append(sample) } }, noErr)
        }
        XCTAssertEqual(VTCompressionSessionCompleteFrames(session, untilPresentationTimeStamp: .invalid), noErr)
        let sizes = collected.all.map { CMSampleBufferGetTotalSampleSize($0) }
        XCTAssertEqual(sizes.count, 180)
        let before = sizes[30..<90].reduce(0, +), after = sizes[120..<180].reduce(0, +)
        // The content does not fill the first rate (x264 spent 450-550 kbit/s of 800 here) and the encoder then spends the
        // credit up to its ceiling (1.5 times the average), so the second rate is near a third of the first, not an eighth.
        XCTAssertLessThan(Double(after), Double(before) * 0.5, "bytes in the last two seconds before and after: \(before), \(after)")
        XCTAssertLessThan(Double(after * 8) / 2, 200_000, "bit/s in the last two seconds, after the change to 100 kbit/s")
    }

    func testHEVCRoundTrip() throws {
        var list: CFArray?
        XCTAssertEqual(VTCopyVideoEncoderList(nil, listOfVideoEncodersOut: &list), noErr)
        let encoders = try XCTUnwrap(list as? [[String: Any]])
        let codecs = encoders.compactMap { ($0[kVTVideoEncoderList_CodecType as String] as? NSNumber)?.uint32Value }
        XCTAssertTrue(codecs.contains(kCMVideoCodecType_H264))
        try XCTSkipUnless(codecs.contains(kCMVideoCodecType_HEVC), "no HEVC encoder in this FFmpeg")
        let session = try makeEncoder(kCMVideoCodecType_HEVC, properties: [kVTCompressionPropertyKey_AllowFrameReordering: false])
        defer { VTCompressionSessionInvalidate(session) }
        let samples = try encode(session, count: 12, smooth: true)
        XCTAssertEqual(samples.count, 12)
        let description = try XCTUnwrap(CMSampleBufferGetFormatDescription(samples[0]))
        XCTAssertEqual(CMFormatDescriptionGetMediaSubType(description), kCMVideoCodecType_HEVC)
        var count = 0
        XCTAssertEqual(
            CMVideoFormatDescriptionGetHEVCParameterSetAtIndex(
                description, parameterSetIndex: 0, parameterSetPointerOut: nil, parameterSetSizeOut: nil, parameterSetCountOut: &count,
                nalUnitHeaderLengthOut: nil), noErr)
        XCTAssertGreaterThanOrEqual(count, 3)
        XCTAssertEqual(CMVideoFormatDescriptionGetDimensions(description).height, Int32(height))
        for sample in samples { XCTAssertFalse(try Self.unitTypes(sample, hevc: true).contains { (32...34).contains($0) }) }
        let pictures = try decode(samples, description: description, attributes: [kCVPixelBufferPixelFormatTypeKey: kCVPixelFormatType_32BGRA])
        XCTAssertEqual(pictures.count, 12)
        XCTAssertEqual(pictures.first.map { CVPixelBufferGetPixelFormatType($0.1) }, kCVPixelFormatType_32BGRA)
    }

    func testMisuseGetsApplesErrors() throws {
        let session = try makeEncoder(properties: [:])
        XCTAssertEqual(VTSessionSetProperty(session, key: kVTCompressionPropertyKey_AverageBitRate, value: Double.nan as CFNumber), kVTPropertyNotSupportedErr)
        XCTAssertEqual(VTSessionSetProperty(session, key: kVTCompressionPropertyKey_Quality, value: 2.0 as CFNumber), kVTPropertyNotSupportedErr)
        XCTAssertEqual(VTSessionSetProperty(session, key: "NoSuchProperty" as CFString, value: 1 as CFNumber), kVTPropertyNotSupportedErr)
        XCTAssertEqual(VTSessionSetProperty(session, key: kVTCompressionPropertyKey_NumberOfPendingFrames, value: 1 as CFNumber), kVTPropertyReadOnlyErr)
        var supported: CFDictionary?
        XCTAssertEqual(VTSessionCopySupportedPropertyDictionary(session, supportedPropertyDictionaryOut: &supported), noErr)
        XCTAssertNotNil((supported as? [String: Any])?[kVTCompressionPropertyKey_AverageBitRate as String])
        // A time that goes back is refused; so is every frame once the session is invalidated.
        let first = VTCompressionSessionEncodeFrame(
            session, imageBuffer: try frame(0), presentationTimeStamp: CMTime(value: 5, timescale: 30), duration: .invalid, frameProperties: nil,
            infoFlagsOut: nil
        ) { _, _, _ in }
        XCTAssertEqual(first, noErr)
        let backwards = VTCompressionSessionEncodeFrame(
            session, imageBuffer: try frame(1), presentationTimeStamp: CMTime(value: 4, timescale: 30), duration: .invalid, frameProperties: nil,
            infoFlagsOut: nil
        ) { _, _, _ in }
        XCTAssertEqual(backwards, kVTParameterErr)
        VTCompressionSessionInvalidate(session)
        let late = VTCompressionSessionEncodeFrame(
            session, imageBuffer: try frame(2), presentationTimeStamp: CMTime(value: 9, timescale: 30), duration: .invalid, frameProperties: nil,
            infoFlagsOut: nil
        ) { _, _, _ in }
        XCTAssertEqual(late, kVTInvalidSessionErr)
        XCTAssertNil(VTCompressionSessionGetPixelBufferPool(session))

        var none: VTCompressionSession?
        XCTAssertEqual(
            VTCompressionSessionCreate(
                allocator: nil, width: 64, height: 64, codecType: kCMVideoCodecType_JPEG_OpenDML, encoderSpecification: nil, imageBufferAttributes: nil,
                compressedDataAllocator: nil, outputCallback: nil, refcon: nil, compressionSessionOut: &none), kVTCouldNotFindVideoEncoderErr)
    }

    func testADamagedFrameFailsThatFrameOnly() throws {
        let encoder = try makeEncoder(properties: [kVTCompressionPropertyKey_AllowFrameReordering: false, kVTCompressionPropertyKey_MaxKeyFrameInterval: 5])
        defer { VTCompressionSessionInvalidate(encoder) }
        var samples = try encode(encoder, count: 10, smooth: true)
        let description = try XCTUnwrap(CMSampleBufferGetFormatDescription(samples[0]))
        // Frame 3's units say they are longer than the sample.
        let damaged = try XCTUnwrap(CMSampleBufferGetDataBuffer(samples[3]))
        var bytes = [UInt8](try damaged.dataBytes())
        for index in 4..<bytes.count { bytes[index] = UInt8(truncatingIfNeeded: index &* 7919) }
        var block: CMBlockBuffer?
        XCTAssertEqual(
            CMBlockBufferCreateWithMemoryBlock(
                allocator: nil, memoryBlock: &bytes, blockLength: bytes.count, blockAllocator: nil, customBlockSource: nil, offsetToData: 0,
                dataLength: bytes.count, flags: 0, blockBufferOut: &block), kCMBlockBufferNoErr)
        var timing = CMSampleTimingInfo(
            duration: CMTime(value: 1, timescale: 30), presentationTimeStamp: CMTime(value: 3, timescale: 30), decodeTimeStamp: .invalid)
        var size = bytes.count
        var replaced: CMSampleBuffer?
        CMSampleBufferCreate(
            allocator: nil, dataBuffer: block, dataReady: true, makeDataReadyCallback: nil, refcon: nil, formatDescription: description, sampleCount: 1,
            sampleTimingEntryCount: 1, sampleTimingArray: &timing, sampleSizeEntryCount: 1, sampleSizeArray: &size, sampleBufferOut: &replaced)
        samples[3] = try XCTUnwrap(replaced)
        var made: VTDecompressionSession?
        XCTAssertEqual(
            VTDecompressionSessionCreate(
                allocator: nil, formatDescription: description, decoderSpecification: nil, imageBufferAttributes: nil, decompressionSessionOut: &made),
            noErr)
        let session = try XCTUnwrap(made)
        defer { VTDecompressionSessionInvalidate(session) }
        let pictures = Collected<CMTime>()
        for sample in samples {
            _ = VTDecompressionSessionDecodeFrame(session, sampleBuffer: sample, flags: [], infoFlagsOut: nil) { status, _, image, time, _ in
                if status == noErr, image != nil { pictures.append(time) }
            }
        }
        _ = VTDecompressionSessionWaitForAsynchronousFrames(session)
        // The keyframe after the damage (frame 5) and those after it decode again.
        let decoded = Set(pictures.all.map(\.value))
        XCTAssertTrue(Set(5..<10).isSubset(of: decoded), "decoded \(decoded.sorted())")
        XCTAssertTrue(Set(0..<3).isSubset(of: decoded), "decoded \(decoded.sorted())")
    }
}
