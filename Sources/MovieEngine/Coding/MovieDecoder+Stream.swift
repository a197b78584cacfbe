import CMediaCodecs
import Foundation

extension MovieDecoder {
    /// Opens a decoder for a stream that arrives packet by packet rather than from a file: the codec
    /// FFmpeg names `codecName` ("h264", "hevc"), configured by an `avcC` or `hvcC` box's contents.
    /// With `frameThreads`, pictures decode on several threads and come out a few packets later.
    package convenience init(codecName: String, configuration: Data, width: Int, height: Int, frameThreads: Bool) throws(MovieDecoderError) {
        FFmpegLog.installed
        var error: Int32 = 0
        let made = configuration.withUnsafeBytes { bytes in
            cmc_decoder_open_codec(
                codecName, bytes.bindMemory(to: UInt8.self).baseAddress, Int32(bytes.count), Int32(clamping: width), Int32(clamping: height),
                frameThreads ? 1 : 0, &error)
        }
        guard let made else { throw MovieDecoderError(code: error) }
        self.init(opened: made)
    }

    /// Gives the decoder one packet of a stream opened by codec, at a time in microseconds; 0 or FFmpeg's negative error.
    package func send(bytes: UnsafeRawBufferPointer, microseconds: Int64, keyFrame: Bool) -> Int32 {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return -22 }
        var raw = cmc_packet()
        raw.stream = 0
        raw.data = base.assumingMemoryBound(to: UInt8.self)
        raw.size = Int32(clamping: bytes.count)
        raw.pts = microseconds
        raw.dts = Int64.min
        raw.duration = Int64.min
        raw.keyframe = keyFrame ? 1 : 0
        return sendRaw(&raw)
    }
}
