import CaptureDevices
import Foundation
import MovieEngine

/// The one set of rules every encoder-backed path plans by (recordings, live streams, Live Photo
/// movies, asset writers and the settings outputs recommend): bit rates, keyframes, x264/x265
/// speed presets, the colour a movie is tagged with, and AAC settings.
enum EncodingPlan {
    /// What an encoding is for, which decides its defaults.
    enum Purpose: Sendable {
        /// A camera's recording: real time at the recording bit rate; above 1080p30 the faster preset keeps up.
        case recording
        /// A live stream: real time at half the recording bit rate; above 720p30 the faster preset keeps up.
        case liveStream
        /// A movie written from frames already in hand (asset writers, Live Photo movies): no real-time bound.
        case file
    }

    /// The bit rate Apple-like devices record a size and rate at: 10.5 Mbit/s for 1280x720 at 30 fps
    /// (WWDC 2010 session 409), scaled by pixels per second.
    static func recordingBitRate(width: Int, height: Int, frameRate: Double) -> Int {
        Int(Double(width * height) * usableFrameRate(frameRate) * 0.38)
    }

    /// `rate` where it is a frame rate an encoder can take (from a frame every ten seconds to 1000
    /// a second), else 30.
    static func usableFrameRate(_ rate: Double) -> Double { rate.isFinite && rate >= 0.1 && rate <= 1000 ? rate : 30 }

    /// The AAC bit rate for a channel count: 64 kbit/s a channel.
    static func aacBitRate(channels: Int) -> Int { 64_000 * channels }

    /// The frame rate a frame duration gives, or 30 when the duration says nothing.
    static func frameRate(frameDuration: CMTime) -> Double {
        frameDuration.isNumeric && frameDuration.seconds > 0 ? 1 / frameDuration.seconds : 30
    }

    /// Plans a video encoding: what `compression` gives is kept, the rest follows `purpose`.
    static func video(
        codec: AVVideoCodecType, width: Int, height: Int, frameRate: Double, fullRange: Bool,
        compression: ValidatedSettings.Compression = .init(), for purpose: Purpose
    ) -> MovieEncoding.Video {
        let frameRate = usableFrameRate(frameRate)
        let pixelsPerSecond = Double(width * height) * frameRate
        let standardBitRate = recordingBitRate(width: width, height: height, frameRate: frameRate)
        let standardPreset: String
        switch purpose {
        case .recording: standardPreset = pixelsPerSecond > 1920 * 1080 * 30 ? "superfast" : "veryfast"
        case .liveStream: standardPreset = pixelsPerSecond > 1280 * 720 * 30 ? "superfast" : "veryfast"
        case .file: standardPreset = "veryfast"
        }
        // A keyframe every second: a viewer who joins, a stream that reconnects or a cut file waits at most that long.
        var plan = MovieEncoding.Video(
            encoder: ValidatedSettings.encoder(for: codec) ?? "libx264", width: width, height: height,
            bitRate: compression.bitRate ?? (purpose == .liveStream ? standardBitRate / 2 : standardBitRate),
            keyframeInterval: compression.keyframeInterval ?? max(1, Int(frameRate.rounded())),
            expectedFrameRate: frameRate, fullRange: fullRange, preset: compression.preset(standard: standardPreset))
        applyProfile(of: codec, compression: compression, frameRate: frameRate, to: &plan)
        return plan
    }

    /// Gives a video plan the profile, level, entropy coding and frame reordering `compression`
    /// asks for, and ProRes its profile and 10-bit 4:2:2 (or 4:4:4) pictures.
    ///
    /// Frames stay in display order unless reordering is allowed: with `AVVideoAllowFrameReorderingKey`
    /// three B-frames at most; with a non-droppable rate below the frame rate, a fixed pattern of
    /// B-frames nothing refers to, so that that many frames a second are left when the others are dropped.
    static func applyProfile(of codec: AVVideoCodecType, compression: ValidatedSettings.Compression, frameRate: Double, to plan: inout MovieEncoding.Video) {
        if let proRes = ValidatedSettings.proResProfiles[codec] {
            plan.profile = proRes.profile
            plan.encoderPixelFormat = proRes.pixelFormat
            return
        }
        if let profile = compression.profileLevel.flatMap(EncoderProfile.init(profileLevel:)) {
            plan.profile = profile.profile
            plan.level = profile.level
            if profile.profile == "main10" { plan.encoderPixelFormat = "yuv420p10le" }
        }
        plan.cabac = compression.cabac
        guard compression.allowsFrameReordering != false, plan.profile != "baseline" else { return }
        if let nonDroppable = compression.nonDroppableFrameRate, nonDroppable < frameRate {
            plan.bFrames = min(4, max(1, Int((frameRate / nonDroppable).rounded()) - 1))
            plan.droppableBFrames = true
        } else if compression.allowsFrameReordering == true {
            plan.bFrames = 3
        }
    }

    /// Plans the video encoding of frames like `frame` (its even-rounded size, its range) at `frameRate`.
    static func video(
        codec: AVVideoCodecType, like frame: CVPixelBuffer, frameRate: Double,
        compression: ValidatedSettings.Compression = .init(), for purpose: Purpose
    ) -> MovieEncoding.Video {
        video(
            codec: codec, width: frame.width & ~1, height: frame.height & ~1, frameRate: frameRate,
            fullRange: frame.pixelFormatType == kCVPixelFormatType_420YpCbCr8BiPlanarFullRange, compression: compression, for: purpose)
    }

    /// The colour a movie of frames like `frame` says it is in: the frame's tags, with BT.601's matrix
    /// for R'G'B' frames, which are turned into Y'CbCr with it on the way to the encoder.
    static func colour(of frame: CVPixelBuffer) -> VideoColorimetry? {
        guard var colour = VideoColorimetry.of(frame) else { return nil }
        if !(PixelFormatDescription.of(frame.pixelFormatType)?.isYCbCr ?? true) { colour.matrix = .bt601 }
        return colour
    }

    /// Plans the AAC encoding of what a capture connection carries, at its source's rate and channel count.
    static func audio(for connection: AVCaptureConnection) -> MovieEncoding.Audio {
        let asbd = connection.inputPorts.first?.formatDescription?.audioStreamBasicDescription
        let channels = Int(asbd?.mChannelsPerFrame ?? 1)
        return MovieEncoding.Audio(sampleRate: Int(asbd?.mSampleRate ?? 44_100), channels: channels, bitRate: aacBitRate(channels: channels))
    }

    /// Asset writer settings for AAC at a rate and channel count.
    static func aacSettings(sampleRate: Double, channels: Int) -> [String: Any] {
        [
            AVFormatIDKey: NSNumber(value: kAudioFormatMPEG4AAC), AVSampleRateKey: NSNumber(value: sampleRate),
            AVNumberOfChannelsKey: NSNumber(value: channels), AVEncoderBitRateKey: NSNumber(value: aacBitRate(channels: channels)),
        ]
    }

    /// The frame rate an encoder is told to expect for a source said to run at `rate`: whole frames
    /// a second from 1 to 1000, and 30 for a rate that is not a number or below a frame every ten
    /// seconds or above 1000 (as a damaged movie's track can say).
    static func expectedFrameRate(_ rate: Double) -> Int {
        max(1, Int(usableFrameRate(rate).rounded()))
    }

    /// Asset writer settings for video of a size and rate: `compression`'s choices, else a recording's.
    static func videoSettings(
        codec: AVVideoCodecType, width: Int, height: Int, frameRate: Double,
        compression: ValidatedSettings.Compression = .init()
    ) -> [String: Any] {
        let plan = video(codec: codec, width: width, height: height, frameRate: frameRate, fullRange: false, compression: compression, for: .recording)
        var properties: [String: Any] = [
            AVVideoAverageBitRateKey: NSNumber(value: plan.bitRate),
            AVVideoExpectedSourceFrameRateKey: NSNumber(value: expectedFrameRate(frameRate)),
            AVVideoMaxKeyFrameIntervalKey: NSNumber(value: plan.keyframeInterval),
        ]
        if let speed = compression.prioritizesSpeed { properties[ValidatedSettings.prioritizeSpeedKey] = NSNumber(value: speed) }
        return [
            AVVideoCodecKey: codec.rawValue, AVVideoWidthKey: NSNumber(value: width), AVVideoHeightKey: NSNumber(value: height),
            AVVideoCompressionPropertiesKey: properties,
        ]
    }
}
