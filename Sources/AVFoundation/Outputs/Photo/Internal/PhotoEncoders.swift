import CaptureDevices
import Foundation
import FrameProcessing

/// The encoders a photo output compresses photos with, and how each prioritization uses them.
///
/// Thread ownership: used on the photo output's processing queue only.
final class PhotoEncoders: @unchecked Sendable {
    private let jpeg = JPEGEncoder()
    private let heic = HEICEncoder()
    private let thumbnails = PreviewScaler()
    private let thumbnailEncoder = JPEGEncoder()

    /// The photo as a file of `codec` with `metadata` written into it as EXIF, and a thumbnail of
    /// `thumbnail` size (JPEG in the EXIF block, or HEVC in the HEIC file) when given.
    func encode(
        _ pixels: CVPixelBuffer, codec: AVVideoCodecType, prioritization: AVCapturePhotoOutput.QualityPrioritization,
        metadata: [String: Any], thumbnail: (width: Int, height: Int)? = nil
    ) throws -> Data {
        var thumbnailJPEG: Data?
        if codec == .jpeg, let thumbnail, let small = thumbnails.preview(of: pixels, width: thumbnail.width, height: thumbnail.height) {
            thumbnailJPEG = thumbnailEncoder.encode(small, quality: 80)
        }
        let exif = ExifProperties.exif(from: metadata, thumbnail: thumbnailJPEG)
        switch codec {
        case .jpeg:
            guard
                let image = jpeg.encode(
                    pixels, quality: PhotoEncoderSettings.jpegQuality(prioritization),
                    fullChroma: prioritization == .quality, accurateDCT: prioritization != .speed)
            else {
                throw AVError(.unknown, userInfo: [NSLocalizedDescriptionKey: "The photo could not be encoded as JPEG."])
            }
            guard let exif else { return image }
            return image.insertingJPEGExif(exif) ?? image
        case .hevc:
            do {
                return try heic.encode(
                    pixels, quality: PhotoEncoderSettings.heicQuality, preset: PhotoEncoderSettings.heicPreset(prioritization), exif: exif,
                    thumbnailSize: thumbnail.map { max($0.width, $0.height) } ?? 0)
            } catch {
                throw AVError(.unknown, userInfo: [NSLocalizedDescriptionKey: "The photo could not be encoded as HEIC: \(error)."])
            }
        default:
            throw AVError(.unknown, userInfo: [NSLocalizedDescriptionKey: "Photos cannot be encoded with \(codec.rawValue)."])
        }
    }
}

/// How each quality prioritization sets the photo encoders (shared with the benchmarks, which give the peers the same settings).
package enum PhotoEncoderSettings {
    /// JPEG quality: .speed gives up some for a smaller file and uses the fast DCT; .balanced is
    /// q92 4:2:0 with the accurate DCT; .quality is q95 and keeps full chroma (4:4:4).
    package static func jpegQuality(_ prioritization: AVCapturePhotoOutput.QualityPrioritization) -> Int32 {
        switch prioritization {
        case .speed: 85
        case .balanced: 92
        case .quality: 95
        }
    }

    /// The HEIC quality every prioritization uses (libheif's 0...100 scale).
    package static let heicQuality = 80

    /// x265's preset: HEVC's encoding time is where prioritization pays (ultrafast is several
    /// times quicker than medium for a file a little larger at the same quality).
    package static func heicPreset(_ prioritization: AVCapturePhotoOutput.QualityPrioritization) -> String {
        switch prioritization {
        case .speed: "ultrafast"
        case .balanced: "veryfast"
        case .quality: "medium"
        }
    }
}

extension PhotoMetadata {
    /// The wall-clock time at which `frame` was captured: its host-time stamp, moved to the calendar.
    static func date(of frame: CMSampleBuffer) -> Date {
        let age = CMTimeGetSeconds(CMClockGetTime(CMClockGetHostTimeClock())) - CMTimeGetSeconds(frame.presentationTimeStamp)
        return Date(timeIntervalSinceNow: age.isFinite && age > 0 && age < 60 ? -age : 0)
    }
}
