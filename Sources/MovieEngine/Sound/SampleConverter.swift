import CMediaCodecs

/// Converts blocks of linear PCM between sample formats, rates and channel counts with
/// libswresample.
///
/// Thread ownership: one thread at a time (an audio converter or audio file holds it under its lock).
package final class SampleConverter {
    /// How samples are stored.
    package enum Format: Sendable {
        /// Signed 16-bit integers.
        case int16
        /// Signed 32-bit integers.
        case int32
        /// 32-bit floats.
        case float32
        /// 64-bit floats.
        case float64

        var raw: Int32 {
            switch self {
            case .int16: Int32(CMC_SAMPLE_INT16)
            case .int32: Int32(CMC_SAMPLE_INT32)
            case .float32: Int32(CMC_SAMPLE_FLOAT32)
            case .float64: Int32(CMC_SAMPLE_FLOAT64)
            }
        }

        /// The bytes of one sample.
        package var size: Int {
            switch self {
            case .int16: 2
            case .int32, .float32: 4
            case .float64: 8
            }
        }
    }

    /// A block of samples' layout.
    package struct Layout: Sendable, Equatable {
        /// How each sample is stored.
        package var format: Format
        /// Whether each channel has a buffer of its own, rather than frames interleaved in one.
        package var planar: Bool
        /// Frames a second.
        package var sampleRate: Int
        /// Channels in each frame.
        package var channels: Int

        /// Creates a layout.
        package init(format: Format, planar: Bool, sampleRate: Int, channels: Int) {
            self.format = format
            self.planar = planar
            self.sampleRate = sampleRate
            self.channels = channels
        }

        var raw: cmc_sample_layout {
            cmc_sample_layout(format: format.raw, planar: planar ? 1 : 0, sample_rate: Int32(sampleRate), channels: Int32(channels))
        }
    }

    /// Why a converter could not be made or could not convert: FFmpeg's error code and words.
    package struct Failure: Error, Sendable {
        /// FFmpeg's error code.
        package let code: Int32
        /// FFmpeg's words for it, or why FFmpeg could not be loaded.
        package var reason: String {
            if let problem = cmc_media_library_problem() { return String(cString: problem) }
            return MovieFile.describe(code)
        }
    }

    /// The layout converted from.
    package let input: Layout
    /// The layout converted to.
    package let output: Layout
    private let converter: OpaquePointer

    /// Opens a converter. `matrix` gives each input channel's weight in each output channel
    /// (row by output channel); nil keeps channels in order, spreading one input channel to all.
    /// `filterLength` is the resampling filter's length: 0 for libswresample's default. `dither`
    /// adds triangular dither where the output keeps fewer bits.
    package init(from input: Layout, to output: Layout, matrix: [Double]? = nil, filterLength: Int = 0, dither: Bool = false) throws(Failure) {
        self.input = input
        self.output = output
        FFmpegLog.installed
        var error: Int32 = 0
        var inputLayout = input.raw, outputLayout = output.raw
        let made: OpaquePointer?
        if let matrix {
            precondition(matrix.count == input.channels * output.channels, "a weight for each input channel in each output channel")
            made = matrix.withUnsafeBufferPointer { weights in
                cmc_sample_converter_open(&inputLayout, &outputLayout, weights.baseAddress, Int32(filterLength), dither ? 1 : 0, &error)
            }
        } else {
            made = cmc_sample_converter_open(&inputLayout, &outputLayout, nil, Int32(filterLength), dither ? 1 : 0, &error)
        }
        guard let made else { throw Failure(code: error) }
        converter = made
    }

    deinit { cmc_sample_converter_free(converter) }

    /// Converts `frames` input frames (one pointer per channel when planar, else one) into at most
    /// `capacity` output frames; the frames written. Frames that do not fit wait in the converter:
    /// a call with no input frames (`input` not nil, `frames` 0) gives them. Nil `input` ends the
    /// stream, draining the resampler's filter too.
    package func convert(
        _ input: UnsafePointer<UnsafePointer<UInt8>?>?, frames: Int, into output: UnsafePointer<UnsafeMutablePointer<UInt8>?>, capacity: Int
    ) throws(Failure) -> Int {
        let made = cmc_sample_converter_convert(converter, output, Int32(capacity), input, Int32(frames))
        if made < 0 { throw Failure(code: made) }
        return Int(made)
    }

    /// The most output frames converting `frames` more input frames can give.
    package func outputBound(forInputFrames frames: Int) -> Int { Int(max(0, cmc_sample_converter_output_bound(converter, Int32(frames)))) }

    /// The input frames' worth of sound the converter holds.
    package var delay: Int { Int(cmc_sample_converter_delay(converter)) }

    /// Forgets what the converter holds, to start a new stream.
    package func reset() throws(Failure) {
        let result = cmc_sample_converter_reset(converter)
        if result < 0 { throw Failure(code: result) }
    }
}
