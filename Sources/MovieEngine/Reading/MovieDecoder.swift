import CMediaCodecs
import CoreVideo
import FrameProcessing

/// Why a stream's decoder could not be opened.
package struct MovieDecoderError: Error, Sendable {
    /// FFmpeg's error code.
    package let code: Int32
    /// FFmpeg's words for it.
    package var reason: String { MovieFile.describe(code) }
}

/// A decoder for one stream of a movie file, turning its packets into pictures or sound.
///
/// Thread ownership: one thread at a time (an asset reader's output holds it under its lock).
package final class MovieDecoder {
    /// The pixel format a decoded picture is converted to.
    package enum PictureFormat: Sendable {
        /// Bi-planar 4:2:0, video range (`420v`).
        case nv12VideoRange
        /// Bi-planar 4:2:0, full range (`420f`).
        case nv12FullRange
        /// Packed 8-bit blue, green, red, alpha (`BGRA`).
        case bgra

        var raw: Int32 {
            switch self {
            case .nv12VideoRange: Int32(CMC_PICTURE_NV12_VIDEO_RANGE)
            case .nv12FullRange: Int32(CMC_PICTURE_NV12_FULL_RANGE)
            case .bgra: Int32(CMC_PICTURE_BGRA)
            }
        }
    }

    /// The sample format decoded sound is converted to, interleaved.
    package enum SampleFormat: Sendable {
        /// Signed 16-bit integers.
        case int16
        /// 32-bit floats.
        case float32

        var raw: Int32 { self == .int16 ? Int32(CMC_SAMPLES_S16) : Int32(CMC_SAMPLES_FLOAT) }
    }

    /// What came of asking for the next decoded frame.
    package enum Step {
        /// A picture or block of sound was received.
        case frame
        /// The decoder needs another packet.
        case needsPacket
        /// The decoder has given everything.
        case ended
        /// The decoder failed (FFmpeg's error code).
        case failure(Int32)
    }

    /// A received picture's size and colour, as FFmpeg's AVCOL_* values.
    package struct PictureInfo {
        /// The picture's width in pixels.
        package var width: Int
        /// The picture's height in pixels.
        package var height: Int
        /// The colour matrix (1: BT.709; 5, 6: BT.601).
        package var matrix: Int32
    }

    private let decoder: OpaquePointer
    /// libyuv's conversion to BGRA, made at the first picture that takes it.
    private var bgraConverter: DecodedPictureConverter?

    /// Opens a decoder for a stream of a file; without `frameThreads`, pictures decode on slice
    /// threads only and each comes out as soon as its packet is in (for a single picture).
    package init(file: MovieFile, stream: Int, frameThreads: Bool = true) throws(MovieDecoderError) {
        var error: Int32 = 0
        guard let made = cmc_decoder_open(file.reader, Int32(stream), frameThreads ? 1 : 0, &error) else { throw MovieDecoderError(code: error) }
        decoder = made
    }

    /// Takes over a decoder opened already.
    init(opened: OpaquePointer) { decoder = opened }

    deinit { cmc_decoder_free(decoder) }

    /// Whether this machine's FFmpeg has a decoder for the codec FFmpeg names `codecName`.
    package static func isAvailable(_ codecName: String) -> Bool { cmc_decoder_available(codecName) != 0 }

    /// Gives the decoder a packet of its stream; 0 or FFmpeg's negative error.
    package func send(_ packet: MoviePacket) -> Int32 {
        var raw = packet.raw
        return cmc_decoder_send(decoder, &raw)
    }

    /// Gives the decoder a packet described in FFmpeg's terms.
    func sendRaw(_ raw: inout cmc_packet) -> Int32 { cmc_decoder_send(decoder, &raw) }

    /// Forgets what the decoder holds, after a seek.
    package func flush() { cmc_decoder_flush(decoder) }

    /// Tells the decoder its stream has ended.
    package func sendEnd() { _ = cmc_decoder_send(decoder, nil) }

    /// Takes the next decoded picture or block of sound.
    package func receive() -> Step {
        let result = cmc_decoder_receive(decoder)
        switch result {
        case 0: return .frame
        case 1: return .needsPacket
        case 2: return .ended
        default: return .failure(result)
        }
    }

    /// The received frame's time and length in the stream's time base (`Int64.min` when unknown).
    package var frameTime: (pts: Int64, duration: Int64) {
        var pts: Int64 = 0, duration: Int64 = 0
        cmc_decoder_frame_time(decoder, &pts, &duration)
        return (pts, duration)
    }

    /// The received picture's size and colour matrix.
    package var pictureInfo: PictureInfo {
        var width: Int32 = 0, height: Int32 = 0, primaries: Int32 = 0, transfer: Int32 = 0, matrix: Int32 = 0, full: Int32 = 0
        cmc_decoder_picture_info(decoder, &width, &height, &primaries, &transfer, &matrix, &full)
        return PictureInfo(width: Int(width), height: Int(height), matrix: matrix)
    }

    /// Converts the received picture into a pixel buffer of `format`, scaling it to the buffer's
    /// size by area averaging; 0 or FFmpeg's negative error.
    package func convertPicture(into pixels: CVPixelBuffer, format: PictureFormat) -> Int32 {
        if format == .bgra, convertedToBGRA(pixels) { return 0 }
        let planes = pixels.planes
        return withUnsafeTemporaryAllocation(of: UnsafeMutablePointer<UInt8>?.self, capacity: 2) { pointers in
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: 2) { strides in
                for index in 0..<2 {
                    let plane = index < planes.count ? planes[index] : planes[0]
                    pointers[index] = plane.baseAddress.assumingMemoryBound(to: UInt8.self)
                    strides[index] = Int32(plane.bytesPerRow)
                }
                return cmc_decoder_convert_picture(
                    decoder, format.raw, Int32(pixels.width), Int32(pixels.height), pointers.baseAddress!, strides.baseAddress!)
            }
        }
    }

    /// Converts an 8-bit 4:2:0 picture in BT.601 or BT.709 to BGRA with libyuv, whose SIMD
    /// conversion is several times faster than libswscale's exact one; false for any other
    /// picture, which libswscale converts.
    private func convertedToBGRA(_ pixels: CVPixelBuffer) -> Bool {
        var width: Int32 = 0, height: Int32 = 0, primaries: Int32 = 0, transfer: Int32 = 0, matrixCode: Int32 = 0, full: Int32 = 0
        cmc_decoder_picture_info(decoder, &width, &height, &primaries, &transfer, &matrixCode, &full)
        // As libswscale is asked (MovieReader.c): BT.709 as tagged, BT.601 as tagged, and an
        // unspecified matrix by video's convention for the size.
        let matrix: VideoColorimetry.Matrix
        switch matrixCode {
        case 1: matrix = .bt709
        case 5, 6: matrix = .bt601
        case 2: matrix = height >= 720 ? .bt709 : .bt601
        default: return false
        }
        var planes: (UnsafePointer<UInt8>?, UnsafePointer<UInt8>?, UnsafePointer<UInt8>?) = (nil, nil, nil)
        var strides: (Int32, Int32, Int32) = (0, 0, 0)
        let layout = withUnsafeMutableBytes(of: &planes) { pointers in
            withUnsafeMutableBytes(of: &strides) { rows in
                cmc_decoder_picture_planes(
                    decoder, pointers.baseAddress!.assumingMemoryBound(to: UnsafePointer<UInt8>?.self),
                    rows.baseAddress!.assumingMemoryBound(to: Int32.self))
            }
        }
        guard let luma = planes.0, let chroma = planes.1 else { return false }
        let arrangement: DecodedPictureConverter.Layout
        switch Int(layout) {
        case Int(CMC_PLANES_I420): arrangement = .threePlanes
        case Int(CMC_PLANES_NV12): arrangement = .twoPlanes
        default: return false
        }
        let picture = DecodedPictureConverter.Picture(
            layout: arrangement, width: Int(width), height: Int(height), planes: (luma, chroma, planes.2), strides: strides)
        let converter = bgraConverter ?? DecodedPictureConverter()
        bgraConverter = converter
        return converter.convert(picture, matrix: matrix, fullRange: full != 0, into: pixels)
    }

    /// Converts the received sound to interleaved samples, into memory the decoder keeps until the
    /// next call; the frames made (0 or more) or FFmpeg's negative error.
    package func convertSamples(_ format: SampleFormat, sampleRate: Int, channels: Int) -> (frames: Int32, samples: UnsafePointer<UInt8>?) {
        var samples: UnsafePointer<UInt8>?
        let frames = cmc_decoder_convert_samples(decoder, format.raw, Int32(sampleRate), Int32(channels), &samples)
        return (frames, samples)
    }

    /// At the end of the stream, the sound the converter still holds, in the last call's format.
    package func drainSamples() -> (frames: Int32, samples: UnsafePointer<UInt8>?) {
        var samples: UnsafePointer<UInt8>?
        let frames = cmc_decoder_drain_samples(decoder, &samples)
        return (frames, samples)
    }
}
