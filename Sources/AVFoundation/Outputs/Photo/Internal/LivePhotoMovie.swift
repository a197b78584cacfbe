import CaptureDevices
import Foundation
import MovieEngine

/// Writes a Live Photo's movie: H.264 video and AAC audio in QuickTime, through the movie encoder
/// the file outputs use, with times relative to the first frame.
enum LivePhotoMovie {
    /// Writes `clip` to `url`; the movie's duration and where the still falls in it.
    static func write(_ clip: LivePhotoRing.Clip, to url: URL, stillTime: CMTime) throws -> (duration: CMTime, photoDisplayTime: CMTime) {
        guard let first = clip.frames.first, let last = clip.frames.last else {
            throw AVError(.unknown, userInfo: [NSLocalizedDescriptionKey: "No frames were kept for the Live Photo's movie."])
        }
        if FileSystemEntry.exists(atPath: url.path) {
            throw AVError(.fileAlreadyExists, userInfo: [NSLocalizedDescriptionKey: "\(url.path) already exists."])
        }
        let start = first.1
        let span = (last.1 - start).seconds
        let frameRate = clip.frames.count > 1 && span > 0 ? Double(clip.frames.count - 1) / span : 30
        let width = first.0.width, height = first.0.height
        let hasAudio = !clip.audio.isEmpty && clip.sampleRate > 0
        let encoding = MovieEncoding(
            container: AVFileType.mov.muxerName,
            video: EncodingPlan.video(codec: .h264, width: width, height: height, frameRate: frameRate, fullRange: false, for: .file),
            audio: hasAudio ? .init(sampleRate: clip.sampleRate, channels: clip.channels, bitRate: EncodingPlan.aacBitRate(channels: clip.channels)) : nil,
            fragmented: false)
        do {
            let encoder = try MovieEncoder(url: url, encoding: encoding, metadata: [])
            do {
                for (buffer, time) in clip.frames { try encoder.appendVideo(buffer, at: time - start) }
                if hasAudio {
                    // Sample 0 of the movie is at its first frame; samples before it are dropped.
                    let first = Int64(((clip.audioStart - start).seconds * Double(clip.sampleRate)).rounded())
                    try clip.audio.withUnsafeBufferPointer { samples in
                        try encoder.appendAudio(samples.baseAddress!, frames: samples.count / clip.channels, first: first)
                    }
                }
                try encoder.finish()
            } catch {
                encoder.abandon()
                try? FileManager.default.removeItem(at: url)
                throw error
            }
        } catch let error as MovieEncoderError {
            throw error.avError(url: url, successfullyFinished: false)
        }
        let frameDuration = CMTime(seconds: 1 / frameRate, preferredTimescale: 600)
        return (last.1 - start + frameDuration, max(.zero, stillTime - start))
    }
}
