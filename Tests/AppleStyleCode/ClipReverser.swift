// Playing a clip backwards as reversing tools write it: read the pictures once to learn their
// times, then read them again a second at a time from the end with `reset(forReadingTimeRanges:)`,
// and write each second's pictures in reverse order with an asset writer. It imports AVFoundation alone.
import AVFoundation

/// Writes a movie's pictures in reverse order into a new movie.
public enum ClipReverser {
    /// Reverses the pictures of `source` into `destination` (H.264 in an MPEG-4 file); returns how many were written.
    public static func reverse(_ source: URL, into destination: URL) throws -> Int {
        let asset = AVURLAsset(url: source)
        guard let track = asset.tracks(withMediaType: .video).first else { throw AVError(.noDataCaptured) }
        let reader = try AVAssetReader(asset: asset)
        let output = AVAssetReaderTrackOutput(track: track, outputSettings: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA])
        output.supportsRandomAccess = true
        output.alwaysCopiesSampleData = false
        reader.add(output)
        guard reader.startReading() else { throw reader.error ?? AVError(.unknown) }
        var times: [CMTime] = []
        while let sample = output.copyNextSampleBuffer() { times.append(CMSampleBufferGetPresentationTimeStamp(sample)) }
        guard let last = times.last else { throw AVError(.noDataCaptured) }
        let frameDuration = times.count > 1 ? CMTimeSubtract(times[1], times[0]) : CMTime(value: 1, timescale: 30)

        let writer = try AVAssetWriter(outputURL: destination, fileType: .mp4)
        let size = track.naturalSize
        let input = AVAssetWriterInput(
            mediaType: .video, outputSettings: [AVVideoCodecKey: AVVideoCodecType.h264, AVVideoWidthKey: size.width, AVVideoHeightKey: size.height])
        input.expectsMediaDataInRealTime = false
        let adaptor = AVAssetWriterInputPixelBufferAdaptor(assetWriterInput: input, sourcePixelBufferAttributes: nil)
        writer.add(input)
        writer.startWriting()
        writer.startSession(atSourceTime: .zero)

        var written = 0
        var chunkEnd = CMTimeAdd(last, frameDuration)
        while chunkEnd > .zero {
            let chunkStart = CMTimeMaximum(.zero, CMTimeSubtract(chunkEnd, CMTime(value: 1, timescale: 1)))
            output.reset(forReadingTimeRanges: [NSValue(timeRange: CMTimeRange(start: chunkStart, end: chunkEnd))])
            var chunk: [CVPixelBuffer] = []
            while let sample = output.copyNextSampleBuffer() {
                if let pixels = CMSampleBufferGetImageBuffer(sample) { chunk.append(pixels) }
            }
            for pixels in chunk.reversed() {
                while !input.isReadyForMoreMediaData { Thread.sleep(forTimeInterval: 0.001) }
                let time = CMTimeMultiply(frameDuration, multiplier: Int32(written))
                guard adaptor.append(pixels, withPresentationTime: time) else { throw writer.error ?? AVError(.unknown) }
                written += 1
            }
            chunkEnd = chunkStart
        }
        output.markConfigurationAsFinal()
        input.markAsFinished()
        let finished = DispatchSemaphore(value: 0)
        writer.finishWriting { finished.signal() }
        finished.wait()
        guard writer.status == .completed else { throw writer.error ?? AVError(.unknown) }
        return written
    }
}
