import Foundation

/// How a sound file is written: the container its URL's extension names and the encoder its
/// settings ask for, checked against what the container can hold.
struct SoundFilePlan {
    /// FFmpeg's muxer.
    var container: String
    /// FFmpeg's encoder.
    var encoder: String
    /// For encoders with several sample formats, the bits each sample keeps (0: the encoder's choice).
    var bitsPerSample = 0
    /// Frames a second.
    var sampleRate: Int
    /// Channels in each frame.
    var channels: Int
    /// The encoder's bit rate, all channels together (0: the encoder's choice).
    var bitRate = 0
    /// Whether linear PCM samples are written big-endian.
    var bigEndian = false
    /// Whether the container decides the byte order (WAV and AIFF), whatever the settings say.
    var forcedByteOrder = false

    /// Plans a file; throws an audio file error when the extension or the format is not one this writes.
    init(url: URL, settings: AudioSettings) throws {
        let kind = url.pathExtension.lowercased()
        sampleRate = Int((settings.sampleRate ?? 44_100).rounded())
        channels = Int(settings.channels ?? 2)
        switch kind {
        case "wav", "wave": container = "wav"
        case "aif", "aiff", "aifc": container = "aiff"
        case "caf": container = "caf"
        case "m4a", "mp4": container = "ipod"
        case "aac", "adts": container = "adts"
        case "flac": container = "flac"
        default:
            throw AVAudioFile.error(.unsupportedFileType, "no audio file type is known by the extension \"\(kind)\" (wav, aif, aiff, caf, m4a, aac, flac)", url)
        }
        switch settings.formatID {
        case kAudioFormatLinearPCM:
            guard ["wav", "aiff", "caf"].contains(container) else {
                throw AVAudioFile.error(.unsupportedDataFormat, "linear PCM goes in WAV, AIFF or CAF files, not .\(kind)", url)
            }
            switch container {
            case "wav": bigEndian = false; forcedByteOrder = true
            case "aiff": bigEndian = true; forcedByteOrder = true
            default: bigEndian = settings.isBigEndian
            }
            let bits = settings.bitDepth
            if settings.isFloat {
                encoder = "pcm_f\(bits)\(bigEndian ? "be" : "le")"
            } else if bits == 8 {
                // 8-bit samples are unsigned in WAV and signed in AIFF, as those formats define.
                encoder = container == "wav" ? "pcm_u8" : "pcm_s8"
            } else {
                encoder = "pcm_s\(bits)\(bigEndian ? "be" : "le")"
            }
            guard bits != 64 || settings.isFloat else { throw AVAudioFile.error(.unsupportedDataFormat, "64-bit integer samples cannot be written", url) }
        case kAudioFormatMPEG4AAC:
            guard ["ipod", "adts", "caf"].contains(container) else {
                throw AVAudioFile.error(.unsupportedDataFormat, "AAC goes in M4A, AAC or CAF files, not .\(kind)", url)
            }
            encoder = "aac"
            let perChannel: Int
            switch settings.quality ?? .high {
            case .min: perChannel = 24_000
            case .low: perChannel = 32_000
            case .medium: perChannel = 48_000
            case .high: perChannel = 64_000
            case .max: perChannel = 96_000
            }
            bitRate = settings.bitRate ?? settings.bitRatePerChannel.map { $0 * channels } ?? perChannel * channels
        case kAudioFormatFLAC:
            guard ["flac", "caf", "ipod"].contains(container) else {
                throw AVAudioFile.error(.unsupportedDataFormat, "FLAC goes in FLAC, CAF or M4A files, not .\(kind)", url)
            }
            encoder = "flac"
            bitsPerSample = settings.bitDepthHint ?? Int(settings.bitDepth)
        case kAudioFormatAppleLossless:
            guard ["ipod", "caf"].contains(container) else {
                throw AVAudioFile.error(.unsupportedDataFormat, "Apple Lossless goes in M4A or CAF files, not .\(kind)", url)
            }
            encoder = "alac"
            bitsPerSample = settings.bitDepthHint ?? Int(settings.bitDepth)
        default:
            throw AVAudioFile.error(
                .unsupportedDataFormat,
                "the format \(AVAudioFormat.fourCharacters(settings.formatID)) cannot be written here (linear PCM, AAC, FLAC, Apple Lossless)", url)
        }
    }
}
