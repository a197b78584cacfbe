import CMediaCodecs
import CoreMedia
import CoreVideo
import Foundation

/// Encodes pictures one at a time with FFmpeg's H.264 or HEVC encoder, without a container:
/// pictures in, Annex B packets out, with the parameter sets out of band.
///
/// Thread ownership: one thread at a time (a compression session holds it under its lock).
package final class VideoFrameEncoder {
    /// How to encode.
    package struct Settings: Sendable, Equatable {
        /// FFmpeg's encoder: `libx264` or `libx265`.
        package var encoder = "libx264"
        /// The encoder's preset, such as `veryfast`.
        package var preset = "veryfast"
        /// The pictures' size.
        package var width: Int
        /// The pictures' height.
        package var height: Int
        /// Whether Y'CbCr uses 0...255.
        package var fullRange = false
        /// The average bits a second, or 0 to encode for a quality.
        package var bitRate = 0
        /// The most bits a second over `bufferBits`, or 0 for no limit.
        package var maxBitRate = 0
        /// The buffer the limit is measured over, in bits.
        package var bufferBits = 0
        /// Whether every second carries the bit rate.
        package var constantBitRate = false
        /// The quality from 0 to 1 when no bit rate is asked for; nil for the encoder's own.
        package var quality: Double?
        /// The most frames from one keyframe to the next; 0 for the encoder's own.
        package var keyframeInterval = 0
        /// A hint for rate control; 0 when unknown.
        package var expectedFrameRate = 0.0
        /// The pixel aspect ratio's horizontal spacing; 0 for square pixels.
        package var pixelAspectHorizontal: Int32 = 0
        /// The pixel aspect ratio's vertical spacing; 0 for square pixels.
        package var pixelAspectVertical: Int32 = 0
        /// The colour tags as Core Video names them; nil leaves one unspecified.
        package var primaries: String?
        /// The transfer function's Core Video name.
        package var transferFunction: String?
        /// The Y'CbCr matrix's Core Video name.
        package var matrix: String?
        /// FFmpeg's name of the profile, or nil for the encoder's choice.
        package var profile: String?
        /// The level times ten, or 0 for the encoder's choice.
        package var level = 0
        /// H.264's entropy coding: true CABAC, false CAVLC, nil the encoder's choice.
        package var cabac: Bool?
        /// The most B-frames in a row.
        package var bFrames = 0
        /// The most frames held before one is given out; nil for no limit.
        package var maxFrameDelay: Int?
        /// The pixel format given to the encoder by FFmpeg's name (`yuv420p10le`), or nil for 8-bit 4:2:0.
        package var encoderPixelFormat: String?

        /// Settings for pictures of a size, with every other choice the encoder's.
        package init(width: Int, height: Int) {
            self.width = width
            self.height = height
        }
    }

    /// One compressed picture, valid until the next `receive`.
    package struct Packet {
        /// The bytes, with Annex B start codes.
        package var bytes: UnsafeRawBufferPointer
        /// The presentation time in microseconds.
        package var presentationMicroseconds: Int64
        /// The decode time in microseconds.
        package var decodeMicroseconds: Int64
        /// Whether a decoder can start here.
        package var isKeyFrame: Bool
        /// Whether no other picture refers to this one.
        package var isDisposable: Bool
    }

    private let encoder: OpaquePointer
    /// The settings the encoder was opened with.
    package let settings: Settings

    /// Opens the encoder; throws when it is missing or refuses the settings.
    package init(settings: Settings) throws(MovieEncoderError) {
        FFmpegLog.installed
        self.settings = settings
        var error: Int32 = 0
        let strings = [settings.encoder, settings.preset, settings.profile, settings.encoderPixelFormat].map { $0.map { strdup($0) } }
        defer { for string in strings { free(string ?? nil) } }
        var config = cmc_video_encoder_config()
        config.encoder = UnsafePointer(strings[0]!)
        config.preset = UnsafePointer(strings[1]!)
        config.width = Int32(clamping: settings.width)
        config.height = Int32(clamping: settings.height)
        config.full_range = settings.fullRange ? 1 : 0
        config.bit_rate = Int64(settings.bitRate)
        config.max_bit_rate = Int64(settings.maxBitRate)
        config.buffer_bits = Int64(settings.bufferBits)
        config.constant_bit_rate = settings.constantBitRate ? 1 : 0
        config.quality = settings.quality ?? -1
        config.keyframe_interval = Int32(clamping: settings.keyframeInterval)
        config.expected_frame_rate = settings.expectedFrameRate
        (config.sar_num, config.sar_den) = (settings.pixelAspectHorizontal, settings.pixelAspectVertical)
        config.color_primaries = settings.primaries.flatMap { MovieEncoder.primaries[$0] } ?? 0
        config.color_trc = settings.transferFunction.flatMap { MovieEncoder.transferFunctions[$0] } ?? 0
        config.colorspace = settings.matrix.flatMap { MovieEncoder.matrices[$0] } ?? 0
        config.profile = UnsafePointer(strings[2] ?? nil)
        config.level = Int32(clamping: settings.level)
        config.entropy_cabac = settings.cabac.map { $0 ? 1 : 0 } ?? -1
        config.b_frames = Int32(clamping: settings.bFrames)
        config.max_frame_delay = settings.maxFrameDelay.map { Int32(clamping: $0) } ?? -1
        config.encoder_pixel_format = UnsafePointer(strings[3] ?? nil)
        config.global_header = 1
        guard let opened = cmc_video_encoder_open(&config, &error) else { throw MovieEncoderError(code: error) }
        encoder = opened
    }

    deinit { cmc_video_encoder_free(encoder) }

    /// The parameter sets the encoder gave out of band, with Annex B start codes.
    package var parameterSets: Data {
        var size: Int32 = 0
        guard let bytes = cmc_video_encoder_extradata(encoder, &size), size > 0 else { return Data() }
        return Data(bytes: bytes, count: Int(size))
    }

    /// Whether the encoder takes pictures in `format` as they are (bi-planar 4:2:0 in 8 or 10 bits, or BGRA).
    package static func takes(_ format: OSType) -> Bool {
        [
            kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange, kCVPixelFormatType_32BGRA,
            kCVPixelFormatType_420YpCbCr10BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr10BiPlanarFullRange,
        ].contains(format)
    }

    /// Gives the encoder a picture of the encoded size in a format it `takes`, at a time in
    /// microseconds; the encoder keeps the buffer until it is done with it.
    package func send(_ pixelBuffer: CVPixelBuffer, microseconds: Int64, keyFrame: Bool) throws(MovieEncoderError) {
        let format = pixelBuffer.pixelFormatType
        let input =
            format == kCVPixelFormatType_32BGRA
            ? Int32(CMC_INPUT_BGRA)
            : format == kCVPixelFormatType_420YpCbCr10BiPlanarVideoRange || format == kCVPixelFormatType_420YpCbCr10BiPlanarFullRange
                ? Int32(CMC_INPUT_P010) : Int32(CMC_INPUT_NV12)
        let planes = pixelBuffer.planes
        let chroma = planes.count > 1 ? planes[1] : planes[0]
        let opaque = Unmanaged.passRetained(pixelBuffer).toOpaque()
        let result = cmc_video_encoder_send(
            encoder, planes[0].baseAddress.assumingMemoryBound(to: UInt8.self), Int32(planes[0].bytesPerRow),
            chroma.baseAddress.assumingMemoryBound(to: UInt8.self), Int32(chroma.bytesPerRow), input, microseconds, keyFrame ? 1 : 0,
            releaseEncodedPicture, opaque)
        if result < 0 { throw MovieEncoderError(code: result) }
    }

    /// Tells the encoder that no picture follows, so that it gives out what it holds.
    package func finish() throws(MovieEncoderError) {
        let result = cmc_video_encoder_send(encoder, nil, 0, nil, 0, 0, 0, 0, nil, nil)
        if result < 0 { throw MovieEncoderError(code: result) }
    }

    /// Hands every packet the encoder has ready to `body`, in decode order; true once the encoder has given everything.
    @discardableResult
    package func receive(_ body: (Packet) -> Void) throws(MovieEncoderError) -> Bool {
        var raw = cmc_encoded_packet()
        while true {
            let result = cmc_video_encoder_receive(encoder, &raw)
            switch result {
            case 0:
                body(
                    Packet(
                        bytes: UnsafeRawBufferPointer(start: raw.data, count: Int(raw.size)), presentationMicroseconds: raw.pts,
                        decodeMicroseconds: raw.dts, isKeyFrame: raw.keyframe != 0, isDisposable: raw.disposable != 0))
            case 1: return false
            case 2: return true
            default: throw MovieEncoderError(code: result)
            }
        }
    }

    /// Changes the average bit rate and its limits between pictures; false when the encoder cannot.
    package func setRate(bitRate: Int, maxBitRate: Int, bufferBits: Int) -> Bool {
        cmc_video_encoder_set_rate(encoder, Int64(bitRate), Int64(maxBitRate), Int64(bufferBits)) == 0
    }
}

/// Releases a pixel buffer the encoder held.
private let releaseEncodedPicture: cmc_picture_release = { opaque, _ in
    guard let opaque else { return }
    Unmanaged<CVPixelBuffer>.fromOpaque(opaque).release()
}
