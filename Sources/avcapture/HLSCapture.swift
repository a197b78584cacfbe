import AVFoundation
import Foundation
import UniformTypeIdentifiers

/// Feeds a camera's and a microphone's samples to a segment writer for HLS: the session's
/// timeline starts at the first frame, and a sample that finds the writer busy is dropped, as a
/// live source must not wait.
///
/// Thread ownership: the data outputs' queues call it; one lock orders the start and the appends.
final class HLSCapture: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, AVCaptureAudioDataOutputSampleBufferDelegate, @unchecked Sendable {
    let writer: AVAssetWriter
    private let video: AVAssetWriterInput
    private let audio: AVAssetWriterInput?
    private let state = LockedValue<(started: Bool, stopped: Bool, frames: Int, dropped: Int)>((false, false, 0, 0))

    /// Frames written and dropped so far.
    var counts: (frames: Int, dropped: Int) { state.withLock { ($0.frames, $0.dropped) } }

    /// A writer of H.264 at `width` x `height` and `frameRate` (a keyframe at least every segment) and AAC, segments every `segmentSeconds` to `folder`.
    /// The sound, if any, is written at the microphone's own rate and channel count (`audioFormat`).
    init(
        folder: HLSFolder, width: Int, height: Int, frameRate: Double, bitRate: Int?, audioFormat: (sampleRate: Double, channels: Int)?, segmentSeconds: Double
    ) {
        writer = AVAssetWriter(contentType: UTType(AVFileType.mp4.rawValue)!)
        writer.outputFileTypeProfile = .mpeg4AppleHLS
        writer.preferredOutputSegmentInterval = CMTime(seconds: segmentSeconds, preferredTimescale: 1000)
        writer.delegate = folder
        var compression: [String: Any] = [
            AVVideoMaxKeyFrameIntervalKey: max(1, Int((frameRate * min(1, segmentSeconds)).rounded())),
            AVVideoExpectedSourceFrameRateKey: Int(frameRate.rounded()),
        ]
        if let bitRate { compression[AVVideoAverageBitRateKey] = bitRate }
        video = AVAssetWriterInput(
            mediaType: .video,
            outputSettings: [
                AVVideoCodecKey: AVVideoCodecType.h264, AVVideoWidthKey: width & ~1, AVVideoHeightKey: height & ~1,
                AVVideoCompressionPropertiesKey: compression,
            ])
        video.expectsMediaDataInRealTime = true
        writer.add(video)
        if let audioFormat {
            let input = AVAssetWriterInput(
                mediaType: .audio,
                outputSettings: [
                    AVFormatIDKey: kAudioFormatMPEG4AAC, AVSampleRateKey: audioFormat.sampleRate, AVNumberOfChannelsKey: min(2, audioFormat.channels),
                ])
            input.expectsMediaDataInRealTime = true
            writer.add(input)
            audio = input
        } else {
            audio = nil
        }
        super.init()
    }

    /// Stops taking samples.
    func stop() { state.withLock { $0.stopped = true } }

    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        state.withLock { state in
            guard !state.stopped else { return }
            let isVideo = output is AVCaptureVideoDataOutput
            if !state.started {
                // The timeline, and the first segment, start with the first picture.
                guard isVideo else { return }
                writer.initialSegmentStartTime = sampleBuffer.presentationTimeStamp
                guard writer.startWriting() else {
                    state.stopped = true
                    return
                }
                writer.startSession(atSourceTime: sampleBuffer.presentationTimeStamp)
                state.started = true
            }
            guard writer.status == .writing else { return }
            guard let input = isVideo ? video : audio else { return }
            if input.isReadyForMoreMediaData, input.append(sampleBuffer) {
                if isVideo { state.frames += 1 }
            } else if isVideo {
                state.dropped += 1
            }
        }
    }
}
