import CoreVideo
import Foundation

/// How a movie is encoded.
package struct MovieEncoding: Sendable {
    /// How pictures are encoded.
    package struct Video: Sendable {
        /// FFmpeg's encoder: libx264 or libx265.
        package var encoder: String
        /// The encoded width in pixels.
        package var width: Int
        /// The encoded height in pixels.
        package var height: Int
        /// The average bit rate in bits a second.
        package var bitRate: Int
        /// The most frames from one keyframe to the next.
        package var keyframeInterval: Int
        /// The frame rate the encoder plans for.
        package var expectedFrameRate: Double
        /// Whether the pictures are full range rather than video range.
        package var fullRange: Bool
        /// The x264/x265 speed preset: faster presets keep up with higher resolutions in real time.
        package var preset: String
        /// The encoder's profile by FFmpeg's name for it ("baseline", "main", "high", "main10", ProRes's "hq"...), nil for its choice.
        package var profile: String?
        /// The H.264 or HEVC level times ten (31 for 3.1), 0 for the encoder's choice.
        package var level = 0
        /// H.264's entropy coding: true for CABAC, false for CAVLC, nil for the profile's.
        package var cabac: Bool?
        /// The most B-frames in a row; 0 keeps frames in display order.
        package var bFrames = 0
        /// Whether B-frames come in a fixed pattern and are never references, so that players may drop them.
        package var droppableBFrames = false
        /// The pixel format the encoder is given, by FFmpeg's name ("yuv420p10le", "yuv422p10le"), nil for 8-bit 4:2:0.
        package var encoderPixelFormat: String?
        /// How frames of another size are fitted to the encoded size.
        package var scaling = Scaling.stretch

        /// How frames of another size are fitted to the encoded size.
        package enum Scaling: Sendable, Equatable {
            /// Stretched to the whole size, the aspect ratio not kept.
            case stretch
            /// Scaled to fit inside, the aspect ratio kept, black bars around; `upscales` false leaves a smaller frame its size.
            case letterbox(upscales: Bool)
            /// Scaled to cover the whole size, the aspect ratio kept, the overflow cropped.
            case crop
        }

        /// Whether the encoder is given 10 bits a sample.
        package var isTenBit: Bool { encoderPixelFormat?.contains("p10") ?? false }

        /// Creates a video encoding from every value.
        package init(
            encoder: String, width: Int, height: Int, bitRate: Int, keyframeInterval: Int, expectedFrameRate: Double, fullRange: Bool, preset: String
        ) {
            self.encoder = encoder
            self.width = width
            self.height = height
            self.bitRate = bitRate
            self.keyframeInterval = keyframeInterval
            self.expectedFrameRate = expectedFrameRate
            self.fullRange = fullRange
            self.preset = preset
        }
    }

    /// How sound is encoded: AAC unless another encoder is named.
    package struct Audio: Sendable {
        /// Frames a second.
        package var sampleRate: Int
        /// Channels in each frame.
        package var channels: Int
        /// The bit rate in bits a second, all channels together; 0 for the encoder's choice.
        package var bitRate: Int
        /// FFmpeg's encoder ("aac", "pcm_s16le", "pcm_f32be", "flac", "alac", ...).
        package var encoder = "aac"
        /// For encoders that take several sample formats, the bits each sample keeps (0: the encoder's first format).
        package var bitsPerSample = 0
        /// Whether samples are given as 32-bit floats (`appendAudio(floats:...)`) rather than 16-bit integers.
        package var takesFloats = false
        /// The channel layout written, when it is not the usual one for the channel count: FFmpeg's
        /// channel mask and, for each written channel in FFmpeg's order, the input channel it comes from.
        package var layout: ChannelLayoutMapping?

        /// Creates an audio encoding.
        package init(sampleRate: Int, channels: Int, bitRate: Int) {
            self.sampleRate = sampleRate
            self.channels = channels
            self.bitRate = bitRate
        }
    }

    /// A stream of already-compressed packets, written as they are.
    package struct Passthrough: Sendable {
        /// FFmpeg's name for the codec: h264, hevc, aac or pcm_s16le.
        package var codec: String
        /// The codec's configuration (avcC, hvcC, or the AAC magic cookie).
        package var extradata: Data
        /// The pictures' size, for video.
        package var width = 0, height = 0
        /// The sound's rate and channels, for audio.
        package var sampleRate = 0, channels = 0

        /// Creates a passthrough stream of pictures.
        package init(codec: String, extradata: Data, width: Int, height: Int) {
            self.codec = codec
            self.extradata = extradata
            self.width = width
            self.height = height
        }

        /// Creates a passthrough stream of sound.
        package init(codec: String, extradata: Data, sampleRate: Int, channels: Int) {
            self.codec = codec
            self.extradata = extradata
            self.sampleRate = sampleRate
            self.channels = channels
        }
    }

    /// FFmpeg's muxer for the file: mov or mp4 for movies; wav, aiff, caf, flac, ipod or adts for sound files.
    package var container: String
    /// The pictures' encoding, if the movie has encoded pictures.
    package var video: Video?
    /// The sound's encoding, if the movie has encoded sound.
    package var audio: Audio?
    /// Pictures written as they come, already compressed.
    package var videoPassthrough: Passthrough?
    /// Sound written as it comes, already compressed.
    package var audioPassthrough: Passthrough?
    /// Whether fragments are written while recording, so that a file cut short stays readable.
    package var fragmented: Bool
    /// For unfragmented files, whether the index is moved to the front when finishing.
    package var fastStart = true
    /// How far the pictures are turned clockwise for display, in degrees.
    package var rotationDegrees: Int = 0
    /// Whether the pictures are mirrored for display.
    package var mirrored = false
    /// How wide a pixel is against how high, as whole spacings; nil for square pixels.
    package var pixelAspectRatio: (horizontal: Int, vertical: Int)?
    /// The part of the picture meant to be shown, written into the finished movie; nil for all of it.
    package var cleanAperture: CleanApertureBox?
    /// The colour the video's frames are in; nil for the convention of their size.
    package var colour: VideoColorimetry?
    /// Colour tags the output settings named (primaries, transfer function, matrix, each as Core Video
    /// spells it), written instead of `colour`'s.
    package var colourProperties: (primaries: String?, transferFunction: String?, matrix: String?)?
    /// Where a live stream goes instead of a file: the muxer its URL's scheme takes, and how
    /// long any network operation may take before it fails.
    package var live: (muxer: String, timeoutMilliseconds: Int)?

    /// Creates an encoding for a container; streams are added by setting them.
    package init(container: String, video: Video? = nil, audio: Audio? = nil, fragmented: Bool) {
        self.container = container
        self.video = video
        self.audio = audio
        self.fragmented = fragmented
    }
}
