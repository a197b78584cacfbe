import CMediaCodecs
import CoreMedia
import CoreVideo
import Foundation
import FrameProcessing

/// Encodes and muxes one movie file with FFmpeg. Not thread-safe: one writer thread owns it.
package final class MovieEncoder {
    /// The file or stream written.
    package let url: URL
    /// How it is encoded.
    package let encoding: MovieEncoding
    private var writer: OpaquePointer?
    /// Where a segmented movie's segments go, kept alive while the C writer may call it.
    private let segments: SegmentSink?
    private let converter = PixelFormatConverter()
    private var conversionPool: CVPixelBufferPool?
    private var scalePool: CVPixelBufferPool?
    /// Where Y'CbCr frames in another matrix than the stream's are decoded to R'G'B'.
    private var matrixPool: CVPixelBufferPool?
    /// The Y'CbCr matrix the stream is tagged with when it is BT.601 or BT.709; nil for another (BT.2020, SMPTE 240M).
    private let streamMatrix: VideoColorimetry.Matrix?
    /// Converts frames in other primaries or another transfer function, for a stream whose settings name its colour.
    private let colourMatching: ColourMatching?

    /// Creates the file and writes its header; with `segments`, no file: the fragmented MPEG-4 goes
    /// to the sink segment by segment (an initialization segment, then one per `requestFragment()`).
    package init(url: URL, encoding: MovieEncoding, metadata: [(String, String)], segments: SegmentSink? = nil) throws(MovieEncoderError) {
        self.url = url
        self.encoding = encoding
        self.segments = segments
        streamMatrix = Self.streamMatrix(of: encoding)
        colourMatching = Self.colourMatching(for: encoding)
        FFmpegLog.installed
        var error: Int32 = 0
        let videoExtradata = [UInt8](encoding.videoPassthrough?.extradata ?? Data())
        let audioExtradata = [UInt8](encoding.audioPassthrough?.extradata ?? Data())
        let videoCodec = encoding.videoPassthrough.map { strdup($0.codec) }, audioCodec = encoding.audioPassthrough.map { strdup($0.codec) }
        let audioEncoder = encoding.audio.map { strdup($0.encoder) }
        let profile = encoding.video?.profile.map { strdup($0) }, pixelFormat = encoding.video?.encoderPixelFormat.map { strdup($0) }
        defer { for string in [videoCodec, audioCodec, audioEncoder, profile, pixelFormat] { free(string ?? nil) } }
        let opened: OpaquePointer? = (encoding.live == nil ? url.path : url.absoluteString).withCString { path in
            (encoding.live?.muxer ?? encoding.container).withCString { format in
                (encoding.video?.encoder ?? "libx264").withCString { encoder in
                    (encoding.video?.preset ?? "veryfast").withCString { preset in
                        var config = cmc_writer_config()
                        config.path = path
                        config.format = format
                        config.fragmented = encoding.fragmented ? 1 : 0
                        if let segments {
                            config.segment_handler = handOverSegment
                            config.segment_opaque = Unmanaged.passUnretained(segments).toOpaque()
                        }
                        config.faststart = encoding.fastStart ? 1 : 0
                        if let live = encoding.live {
                            config.live = 1
                            config.timeout_ms = Int32(live.timeoutMilliseconds)
                        }
                        if let video = encoding.video {
                            config.has_video = 1
                            config.video_encoder = encoder
                            config.encoder_preset = preset
                            config.width = Int32(video.width)
                            config.height = Int32(video.height)
                            config.full_range = video.fullRange ? 1 : 0
                            config.video_bit_rate = Int64(video.bitRate)
                            config.keyframe_interval = Int32(video.keyframeInterval)
                            config.expected_frame_rate = video.expectedFrameRate
                            config.rotation_degrees = Int32(encoding.rotationDegrees)
                            config.mirrored = encoding.mirrored ? 1 : 0
                            if let aspect = encoding.pixelAspectRatio {
                                (config.sar_num, config.sar_den) = (Int32(clamping: aspect.horizontal), Int32(clamping: aspect.vertical))
                            }
                            config.video_profile = UnsafePointer(profile ?? nil)
                            config.video_level = Int32(video.level)
                            config.entropy_cabac = video.cabac.map { $0 ? 1 : 0 } ?? -1
                            config.b_frames = Int32(video.bFrames)
                            config.droppable_b_frames = video.droppableBFrames ? 1 : 0
                            config.encoder_pixel_format = UnsafePointer(pixelFormat ?? nil)
                            Self.describe(encoding.colour ?? .standard(width: video.width, height: video.height), in: &config)
                            if let properties = encoding.colourProperties { Self.describe(properties, in: &config) }
                        }
                        if let audio = encoding.audio {
                            config.has_audio = 1
                            config.sample_rate = Int32(audio.sampleRate)
                            config.channels = Int32(audio.channels)
                            config.audio_bit_rate = Int64(audio.bitRate)
                            config.audio_encoder = UnsafePointer(audioEncoder!)
                            config.audio_bits = Int32(audio.bitsPerSample)
                            config.audio_input_float = audio.takesFloats ? 1 : 0
                        }
                        let channelMap = encoding.audio?.layout?.map ?? []
                        config.channel_mask = encoding.audio?.layout?.mask ?? 0
                        return channelMap.withUnsafeBufferPointer { map in
                            if !channelMap.isEmpty { config.channel_map = map.baseAddress }
                            return videoExtradata.withUnsafeBufferPointer { videoBytes in
                                audioExtradata.withUnsafeBufferPointer { audioBytes in
                                    if let passthrough = encoding.videoPassthrough {
                                        config.video_passthrough = UnsafePointer(videoCodec!)
                                        config.video_extradata = videoBytes.baseAddress
                                        config.video_extradata_size = Int32(videoBytes.count)
                                        config.width = Int32(passthrough.width)
                                        config.height = Int32(passthrough.height)
                                        config.rotation_degrees = Int32(encoding.rotationDegrees)
                                        Self.describe(encoding.colour ?? .standard(width: passthrough.width, height: passthrough.height), in: &config)
                                    }
                                    if let passthrough = encoding.audioPassthrough {
                                        config.audio_passthrough = UnsafePointer(audioCodec!)
                                        config.audio_extradata = audioBytes.baseAddress
                                        config.audio_extradata_size = Int32(audioBytes.count)
                                        config.sample_rate = Int32(passthrough.sampleRate)
                                        config.channels = Int32(passthrough.channels)
                                    }
                                    return cmc_writer_open(&config, &error)
                                }
                            }
                        }
                    }
                }
            }
        }
        guard let opened else { throw MovieEncoderError(code: error) }
        writer = opened
        for (key, value) in metadata { cmc_writer_set_metadata(opened, key, value) }
    }

    deinit { if let writer { cmc_writer_free(writer) } }

    /// Bytes handed to the container so far.
    package var bytesMuxed: Int64 { writer.map { cmc_writer_bytes_muxed($0) } ?? 0 }
    /// The length of the file up to its last complete fragment.
    package var durableBytes: Int64 { writer.map { cmc_writer_durable_bytes($0) } ?? 0 }

    /// Asks for a fragment at the next keyframe, or at the first keyframe presented at or after
    /// `time`; a segmenting encoder makes its first picture at or after `time` a keyframe.
    package func requestFragment(from time: CMTime? = nil) {
        guard let writer else { return }
        let microseconds = time.map { $0.convertScale(1_000_000, method: .default).value } ?? .min
        cmc_writer_request_fragment(writer, microseconds)
    }

    /// Makes the next picture encoded a keyframe.
    package func forceKeyFrame() { if let writer { cmc_writer_force_keyframe(writer) } }

    /// Core Video's colour primaries as FFmpeg's AVCOL_PRI_* values.
    package static let primaries: [String: Int32] = [
        kCVImageBufferColorPrimaries_ITU_R_709_2 as String: 1, kCVImageBufferColorPrimaries_EBU_3213 as String: 5,
        kCVImageBufferColorPrimaries_SMPTE_C as String: 6, kCVImageBufferColorPrimaries_ITU_R_2020 as String: 9,
        kCVImageBufferColorPrimaries_P3_D65 as String: 12,
    ]
    /// Core Video's transfer functions as FFmpeg's AVCOL_TRC_* values.
    package static let transferFunctions: [String: Int32] = [
        kCVImageBufferTransferFunction_ITU_R_709_2 as String: 1, kCVImageBufferTransferFunction_SMPTE_240M_1995 as String: 7,
        kCVImageBufferTransferFunction_Linear as String: 8, kCVImageBufferTransferFunction_sRGB as String: 13,
        kCVImageBufferTransferFunction_ITU_R_2020 as String: 14, kCVImageBufferTransferFunction_SMPTE_ST_2084_PQ as String: 16,
        kCVImageBufferTransferFunction_ITU_R_2100_HLG as String: 18,
    ]
    /// Core Video's Y'CbCr matrices as FFmpeg's AVCOL_SPC_* values.
    package static let matrices: [String: Int32] = [
        kCVImageBufferYCbCrMatrix_ITU_R_709_2 as String: 1, kCVImageBufferYCbCrMatrix_ITU_R_601_4 as String: 6,
        kCVImageBufferYCbCrMatrix_SMPTE_240M_1995 as String: 7, kCVImageBufferYCbCrMatrix_ITU_R_2020 as String: 9,
    ]

    /// Puts a colour into FFmpeg's terms (AVCOL_PRI_*, AVCOL_TRC_*, AVCOL_SPC_*).
    package static func describe(_ colour: VideoColorimetry, in config: inout cmc_writer_config) {
        config.color_primaries = primaries[colour.primaries] ?? 0
        config.color_trc = transferFunctions[colour.transferFunction] ?? 0
        config.colorspace = colour.matrix == .bt709 ? 1 : 6
    }

    /// Puts the colour tags output settings named into FFmpeg's terms, each over what `describe(_:in:)` gave.
    package static func describe(_ properties: (primaries: String?, transferFunction: String?, matrix: String?), in config: inout cmc_writer_config) {
        if let value = properties.primaries.flatMap({ primaries[$0] }) { config.color_primaries = value }
        if let value = properties.transferFunction.flatMap({ transferFunctions[$0] }) { config.color_trc = value }
        if let value = properties.matrix.flatMap({ matrices[$0] }) { config.colorspace = value }
    }

    /// Whether the colour tags name primaries, transfer function and matrix FFmpeg can write.
    package static func canDescribe(primaries name: String?, transferFunction: String?, matrix: String?) -> Bool {
        (name.map { primaries[$0] != nil } ?? true) && (transferFunction.map { transferFunctions[$0] != nil } ?? true)
            && (matrix.map { matrices[$0] != nil } ?? true)
    }

    /// Whether this machine's FFmpeg has the encoder FFmpeg names `name`.
    package static func isAvailable(_ name: String) -> Bool {
        FFmpegLog.installed
        return cmc_encoder_available(name) != 0
    }

    /// Encodes a frame at a time relative to the start of the movie; frames of other formats or sizes are converted first.
    package func appendVideo(_ pixelBuffer: CVPixelBuffer, at time: CMTime) throws(MovieEncoderError) {
        guard let writer, let video = encoding.video else { return }
        let frame = try prepare(pixelBuffer, for: video)
        let planes = frame.planes
        let input =
            Self.isTenBit(frame.pixelFormatType)
            ? Int32(CMC_INPUT_P010) : frame.pixelFormatType == kCVPixelFormatType_32BGRA ? Int32(CMC_INPUT_BGRA) : Int32(CMC_INPUT_NV12)
        let chroma = planes.count > 1 ? planes[1] : planes[0]
        let opaque = Unmanaged.passRetained(frame).toOpaque()
        let microseconds = time.convertScale(1_000_000, method: .default).value
        let result = cmc_writer_write_video(
            writer, planes[0].baseAddress.assumingMemoryBound(to: UInt8.self), Int32(planes[0].bytesPerRow),
            chroma.baseAddress.assumingMemoryBound(to: UInt8.self), Int32(chroma.bytesPerRow), input,
            microseconds, releasePixelBuffer, opaque)
        if result < 0 { throw MovieEncoderError(code: result) }
    }

    /// Encodes 16-bit interleaved samples, the first of which is sample `first` of the movie; samples before zero are skipped.
    package func appendAudio(_ samples: UnsafePointer<Int16>, frames: Int, first: Int64) throws(MovieEncoderError) {
        guard let writer, let audio = encoding.audio else { return }
        var skip = 0
        if first < 0 { skip = Int(min(Int64(frames), -first)) }
        guard frames - skip > 0 else { return }
        let result = cmc_writer_write_audio(writer, samples + skip * audio.channels, Int32(frames - skip), first + Int64(skip))
        if result < 0 { throw MovieEncoderError(code: result) }
    }

    /// Encodes interleaved 32-bit float samples (for an encoding that takes floats), the first of
    /// which is sample `first` of the file; samples before zero are skipped.
    package func appendAudio(floats samples: UnsafePointer<Float>, frames: Int, first: Int64) throws(MovieEncoderError) {
        guard let writer, let audio = encoding.audio else { return }
        var skip = 0
        if first < 0 { skip = Int(min(Int64(frames), -first)) }
        guard frames - skip > 0 else { return }
        let result = cmc_writer_write_audio_float(writer, samples + skip * audio.channels, Int32(frames - skip), first + Int64(skip))
        if result < 0 { throw MovieEncoderError(code: result) }
    }

    /// Writes an already-compressed packet of a passthrough stream, at times relative to the start of the movie.
    package func appendPacket(video: Bool, _ bytes: UnsafeRawPointer, count: Int, presentationTime: CMTime, decodeTime: CMTime, keyframe: Bool)
        throws(MovieEncoderError)
    {
        guard let writer else { return }
        let pts = presentationTime.convertScale(1_000_000, method: .default).value
        let dts = decodeTime.isNumeric ? decodeTime.convertScale(1_000_000, method: .default).value : pts
        let result = cmc_writer_write_packet(writer, video ? 1 : 0, bytes.assumingMemoryBound(to: UInt8.self), Int32(count), pts, dts, keyframe ? 1 : 0)
        if result < 0 { throw MovieEncoderError(code: result) }
    }

    /// Flushes the encoders and writes the trailer.
    package func finish() throws(MovieEncoderError) {
        guard let writer else { return }
        let result = cmc_writer_finish(writer)
        cmc_writer_free(writer)
        self.writer = nil
        if result < 0 { throw MovieEncoderError(code: result) }
    }

    /// Closes the file where its last complete fragment ends, so that it stays readable.
    package func abandon() {
        let durable = durableBytes
        if let writer { cmc_writer_free(writer) }
        writer = nil
        if durable > 0, url.isFileURL, segments == nil { truncate(url.path, off_t(durable)) }
    }

    /// Rewrites a fragmented movie as an ordinary one with its index first, with metadata and rotation, in place.
    package static func remuxFastStart(_ url: URL, container: String, metadata: [(String, String)], rotationDegrees: Int, mirrored: Bool)
        throws(MovieEncoderError)
    {
        FFmpegLog.installed
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).faststart")
        var strings = metadata.flatMap { [strdup($0.0), strdup($0.1)] }
        strings.append(nil)
        defer { strings.forEach { free($0) } }
        let result = strings.map { UnsafePointer($0) }.withUnsafeBufferPointer { entries in
            cmc_remux(url.path, temporary.path, container, entries.baseAddress, Int32(rotationDegrees), mirrored ? 1 : 0)
        }
        guard result >= 0 else {
            unlink(temporary.path)
            throw MovieEncoderError(code: result)
        }
        guard rename(temporary.path, url.path) == 0 else {
            unlink(temporary.path)
            throw MovieEncoderError(code: -errno)
        }
    }

    /// The matrix a stream is tagged with (its settings' over its colour's) when it is BT.601 or BT.709.
    private static func streamMatrix(of encoding: MovieEncoding) -> VideoColorimetry.Matrix? {
        guard let video = encoding.video else { return nil }
        switch encoding.colourProperties?.matrix.map({ $0 as NSString }) {
        case nil: return (encoding.colour ?? .standard(width: video.width, height: video.height)).matrix
        case kCVImageBufferYCbCrMatrix_ITU_R_709_2?: return .bt709
        case kCVImageBufferYCbCrMatrix_ITU_R_601_4?: return .bt601
        default: return nil
        }
    }

    /// A matcher into the stream's colour when its settings name primaries or a transfer function.
    private static func colourMatching(for encoding: MovieEncoding) -> ColourMatching? {
        guard let video = encoding.video, let properties = encoding.colourProperties, properties.primaries != nil || properties.transferFunction != nil
        else { return nil }
        let base = encoding.colour ?? .standard(width: video.width, height: video.height)
        let primariesName = properties.primaries ?? base.primaries, transferName = properties.transferFunction ?? base.transferFunction
        let matrixName = properties.matrix ?? base.matrixName
        guard let primaries = primaries[primariesName], let transfer = transferFunctions[transferName], let matrix = matrices[matrixName] else { return nil }
        return ColourMatching(
            stream: ColourMatching.Colour(primaries: primaries, transfer: transfer, matrix: matrix, fullRange: video.fullRange),
            tags: [
                (kCVImageBufferColorPrimariesKey, NSString(string: primariesName)), (kCVImageBufferTransferFunctionKey, NSString(string: transferName)),
                (kCVImageBufferYCbCrMatrixKey, NSString(string: matrixName)),
            ], tenBit: video.isTenBit)
    }

    /// Whether frames in a pixel format are 10-bit bi-planar 4:2:0 (P010), which a 10-bit encoding takes as they are.
    private static func isTenBit(_ format: OSType) -> Bool {
        format == kCVPixelFormatType_420YpCbCr10BiPlanarVideoRange || format == kCVPixelFormatType_420YpCbCr10BiPlanarFullRange
    }

    /// A frame in bi-planar 4:2:0 at the encoded size: the frame itself when it already is one (or,
    /// for a 10-bit encoding, a 10-bit one), else converted, then fitted by the encoding's scaling.
    private func prepare(_ pixelBuffer: CVPixelBuffer, for video: MovieEncoding.Video) throws(MovieEncoderError) -> CVPixelBuffer {
        let target: OSType = video.fullRange ? kCVPixelFormatType_420YpCbCr8BiPlanarFullRange : kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange
        var frame = pixelBuffer
        // Frames in other primaries or another transfer function than the settings name are matched to them first.
        if let colourMatching, let matched = try colourMatching.matched(frame) { frame = matched }
        let sameSize = frame.width == video.width && frame.height == video.height
        if video.isTenBit, sameSize, Self.isTenBit(frame.pixelFormatType) { return frame }
        // A Y'CbCr frame tagged with another matrix than the stream's is decoded to R'G'B' with its own first.
        if frame.pixelFormatType == kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange || frame.pixelFormatType == kCVPixelFormatType_420YpCbCr8BiPlanarFullRange,
            let frameMatrix = VideoColorimetry.taggedMatrix(of: frame), frameMatrix != streamMatrix
        {
            if matrixPool == nil || matrixPool!.width != frame.width || matrixPool!.height != frame.height {
                matrixPool = CVPixelBufferPool(width: frame.width, height: frame.height, pixelFormatType: kCVPixelFormatType_32BGRA, maximumBufferCount: 3)
            }
            guard let decoded = matrixPool?.dequeue(), converter.convert(frame, into: decoded) else {
                throw .failed(code: -12, message: "a frame could not be converted to the movie's Y'CbCr matrix")
            }
            frame = decoded
        }
        // R'G'B' for a stream tagged with a matrix other than BT.601 goes to the encoder as it is:
        // libswscale turns it into Y'CbCr with that matrix, which libyuv cannot.
        let keepsRGB = frame.pixelFormatType == kCVPixelFormatType_32BGRA && streamMatrix != .bt601
        if frame.pixelFormatType != kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, frame.pixelFormatType != kCVPixelFormatType_420YpCbCr8BiPlanarFullRange,
            !keepsRGB
        {
            if conversionPool == nil || conversionPool!.width != frame.width || conversionPool!.height != frame.height {
                conversionPool = CVPixelBufferPool.videoFrames(width: frame.width, height: frame.height, pixelFormatType: target, count: 3)
            }
            guard let converted = conversionPool?.dequeue(), converter.convert(frame, into: converted) else {
                throw .failed(code: -22, message: "frames in pixel format \(frame.pixelFormatType.fourCharacterString) cannot be encoded")
            }
            frame = converted
        }
        if !sameSize {
            if scalePool == nil || scalePool!.pixelFormatType != frame.pixelFormatType {
                scalePool = CVPixelBufferPool.videoFrames(width: video.width, height: video.height, pixelFormatType: frame.pixelFormatType, count: 3)
            }
            guard let scaled = scalePool?.dequeue() else { throw .failed(code: -12, message: "no buffer to scale a frame into") }
            let source = (width: frame.width, height: frame.height), destination = (width: video.width, height: video.height)
            var region: FrameFitting.Area? = nil, placement: FrameFitting.Area? = nil
            switch video.scaling {
            case .stretch: break
            case .letterbox(let upscales): placement = FrameFitting.letterbox(source: source, destination: destination, upscales: upscales)
            case .crop: region = FrameFitting.crop(source: source, destination: destination)
            }
            guard PlaneScaling.scale(frame, region: region, into: scaled, placement: placement, filter: .bilinear) else {
                throw .failed(code: -22, message: "a frame could not be scaled to the encoded size")
            }
            frame = scaled
        }
        return frame
    }
}

/// Hands a segment the C writer made to its sink.
private let handOverSegment: cmc_segment_handler = { opaque, initialization, data, size in
    guard let opaque, let data else { return }
    Unmanaged<SegmentSink>.fromOpaque(opaque).takeUnretainedValue().receive(Data(bytes: data, count: Int(size)), initialization: initialization != 0)
}

/// Releases a pixel buffer the encoder held.
private let releasePixelBuffer: cmc_release_callback = { opaque, _ in
    guard let opaque else { return }
    Unmanaged<CVPixelBuffer>.fromOpaque(opaque).release()
}
