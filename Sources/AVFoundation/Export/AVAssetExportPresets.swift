/// An export preset that writes the asset's samples as they are, without re-encoding.
public let AVAssetExportPresetPassthrough = "AVAssetExportPresetPassthrough"
/// An export preset for low-quality H.264 video, suitable for sharing over slow networks.
public let AVAssetExportPresetLowQuality = "AVAssetExportPresetLowQuality"
/// An export preset for medium-quality H.264 video.
public let AVAssetExportPresetMediumQuality = "AVAssetExportPresetMediumQuality"
/// An export preset for H.264 video at the asset's own size.
public let AVAssetExportPresetHighestQuality = "AVAssetExportPresetHighestQuality"
/// An export preset for H.264 video within 640x480.
public let AVAssetExportPreset640x480 = "AVAssetExportPreset640x480"
/// An export preset for H.264 video within 960x540.
public let AVAssetExportPreset960x540 = "AVAssetExportPreset960x540"
/// An export preset for H.264 video within 1280x720.
public let AVAssetExportPreset1280x720 = "AVAssetExportPreset1280x720"
/// An export preset for H.264 video within 1920x1080.
public let AVAssetExportPreset1920x1080 = "AVAssetExportPreset1920x1080"
/// An export preset for H.264 video within 3840x2160.
public let AVAssetExportPreset3840x2160 = "AVAssetExportPreset3840x2160"
/// An export preset for HEVC video at the asset's own size.
public let AVAssetExportPresetHEVCHighestQuality = "AVAssetExportPresetHEVCHighestQuality"
/// An export preset for HEVC video within 1920x1080.
public let AVAssetExportPresetHEVC1920x1080 = "AVAssetExportPresetHEVC1920x1080"
/// An export preset for HEVC video within 3840x2160.
public let AVAssetExportPresetHEVC3840x2160 = "AVAssetExportPresetHEVC3840x2160"
/// An export preset for AAC audio alone, in an MPEG-4 audio file.
public let AVAssetExportPresetAppleM4A = "AVAssetExportPresetAppleM4A"

/// What an export preset makes.
struct ExportPreset {
    /// The video codec, or nil for samples as they are (passthrough) or no video (audio only).
    var codec: AVVideoCodecType?
    /// The box the picture is fitted into, keeping its shape; nil for the asset's own size.
    var box: (width: Int, height: Int)?
    var passthrough = false
    var audioOnly = false

    static func named(_ name: String) -> ExportPreset? {
        switch name {
        case AVAssetExportPresetPassthrough: return ExportPreset(codec: nil, box: nil, passthrough: true)
        case AVAssetExportPresetLowQuality: return ExportPreset(codec: .h264, box: (224, 168))
        case AVAssetExportPresetMediumQuality: return ExportPreset(codec: .h264, box: (480, 360))
        case AVAssetExportPresetHighestQuality: return ExportPreset(codec: .h264, box: nil)
        case AVAssetExportPreset640x480: return ExportPreset(codec: .h264, box: (640, 480))
        case AVAssetExportPreset960x540: return ExportPreset(codec: .h264, box: (960, 540))
        case AVAssetExportPreset1280x720: return ExportPreset(codec: .h264, box: (1280, 720))
        case AVAssetExportPreset1920x1080: return ExportPreset(codec: .h264, box: (1920, 1080))
        case AVAssetExportPreset3840x2160: return ExportPreset(codec: .h264, box: (3840, 2160))
        case AVAssetExportPresetHEVCHighestQuality: return ExportPreset(codec: .hevc, box: nil)
        case AVAssetExportPresetHEVC1920x1080: return ExportPreset(codec: .hevc, box: (1920, 1080))
        case AVAssetExportPresetHEVC3840x2160: return ExportPreset(codec: .hevc, box: (3840, 2160))
        case AVAssetExportPresetAppleM4A: return ExportPreset(codec: nil, box: nil, audioOnly: true)
        default: return nil
        }
    }

    /// Every preset's name.
    static let all = [
        AVAssetExportPresetPassthrough, AVAssetExportPresetLowQuality, AVAssetExportPresetMediumQuality, AVAssetExportPresetHighestQuality,
        AVAssetExportPreset640x480, AVAssetExportPreset960x540, AVAssetExportPreset1280x720, AVAssetExportPreset1920x1080,
        AVAssetExportPreset3840x2160, AVAssetExportPresetHEVCHighestQuality, AVAssetExportPresetHEVC1920x1080,
        AVAssetExportPresetHEVC3840x2160, AVAssetExportPresetAppleM4A,
    ]

    /// The sides the encoders take: even, from 16 to 8192.
    static let encodableSides = 16...8192

    /// The size pictures of `size` are exported at: fitted into the box (never enlarged for it),
    /// then scaled with their aspect ratio kept into what the encoders take, even sides from 16 to
    /// 8192; nil when no such size keeps the aspect ratio (one side more than 512 times the other).
    func size(for size: (width: Int, height: Int)) -> (width: Int, height: Int)? {
        var width = Double(max(1, size.width)), height = Double(max(1, size.height))
        func scale(by factor: Double) { (width, height) = (width * factor, height * factor) }
        if let box, width > Double(box.width) || height > Double(box.height) {
            scale(by: min(Double(box.width) / width, Double(box.height) / height))
        }
        let sides = Self.encodableSides
        if max(width, height) > Double(sides.upperBound) { scale(by: Double(sides.upperBound) / max(width, height)) }
        if min(width, height) < Double(sides.lowerBound) { scale(by: Double(sides.lowerBound) / min(width, height)) }
        guard max(width, height) <= Double(sides.upperBound) + 1 else { return nil }
        let even = { (side: Double) in min(sides.upperBound, max(sides.lowerBound, Int(side.rounded()) & ~1)) }
        return (even(width), even(height))
    }

    /// The file types the preset writes.
    var fileTypes: [AVFileType] { audioOnly ? [.m4a] : [.mov, .mp4, .m4v] }
}
