import CMediaCodecs

/// Sound through a graph of FFmpeg's audio filters: deinterleaved floats in and out at one rate
/// and channel count; what the graph makes waits until it is taken.
///
/// Thread ownership: one thread at a time (an effect node's render thread).
package final class AudioFilterGraph {
    /// Why a graph could not be made: FFmpeg's error code and words.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        /// FFmpeg's error code.
        package let code: Int32
        /// Why, in words.
        package var description: String {
            if let problem = cmc_audio_filter_problem() { return String(cString: problem) }
            return MovieFile.describe(code)
        }
    }

    private let graph: OpaquePointer
    /// Channels in each frame.
    package let channels: Int

    /// Makes a graph from FFmpeg's filter description, its input labelled [in] and output [out].
    package init(_ description: String, sampleRate: Int, channels: Int) throws(Failure) {
        FFmpegLog.installed
        var error: Int32 = 0
        guard let made = cmc_audio_filter_open(description, Int32(sampleRate), Int32(channels), &error) else { throw Failure(code: error) }
        graph = made
        self.channels = channels
    }

    deinit { cmc_audio_filter_free(graph) }

    /// Hands the graph frames (one pointer per channel); false when the graph failed.
    @discardableResult
    package func push(_ channels: UnsafePointer<UnsafePointer<Float>?>, frames: Int) -> Bool {
        cmc_audio_filter_push(graph, channels, Int32(frames)) >= 0
    }

    /// Tells the graph its input has ended, so that it gives what it holds.
    package func end() { _ = cmc_audio_filter_push(graph, nil, 0) }

    /// The frames made that wait to be taken.
    package var available: Int { Int(cmc_audio_filter_available(graph)) }

    /// Takes up to `capacity` frames into `output` (one pointer per channel); the frames taken.
    package func take(into output: UnsafePointer<UnsafeMutablePointer<Float>?>, capacity: Int) -> Int {
        Int(max(0, cmc_audio_filter_take(graph, output, Int32(capacity))))
    }
}
