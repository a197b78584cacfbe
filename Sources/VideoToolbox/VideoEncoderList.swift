import CoreMedia
import Foundation
import MovieEngine

/// The encoders compression sessions use: FFmpeg's, where this machine's FFmpeg has them.
enum VideoEncoderList {
    /// One encoder.
    struct Encoder {
        var codecType: CMVideoCodecType
        var identifier: String
        var codecName: String
        var ffmpegName: String
    }

    static let all = [
        Encoder(codecType: kCMVideoCodecType_H264, identifier: "org.videolan.x264", codecName: "H.264", ffmpegName: "libx264"),
        Encoder(codecType: kCMVideoCodecType_HEVC, identifier: "org.videolan.x265", codecName: "HEVC", ffmpegName: "libx265"),
    ]

    /// The encoder for a codec, when this machine has it.
    static func encoder(for codecType: CMVideoCodecType) -> Encoder? {
        all.first { $0.codecType == codecType && MovieEncoder.isAvailable($0.ffmpegName) }
    }
}

/// Copies the list of the encoders present: a dictionary for each, with its codec type, identifier and names.
@discardableResult
public func VTCopyVideoEncoderList(_ options: CFDictionary?, listOfVideoEncodersOut: UnsafeMutablePointer<CFArray?>) -> OSStatus {
    let present = VideoEncoderList.all.filter { MovieEncoder.isAvailable($0.ffmpegName) }
    listOfVideoEncodersOut.pointee =
        present.map { encoder -> NSDictionary in
            [
                kVTVideoEncoderList_CodecType as String: NSNumber(value: encoder.codecType),
                kVTVideoEncoderList_EncoderID as String: encoder.identifier,
                kVTVideoEncoderList_CodecName as String: encoder.codecName,
                kVTVideoEncoderList_EncoderName as String: encoder.ffmpegName,
                kVTVideoEncoderList_DisplayName as String: "\(encoder.codecName) (\(encoder.ffmpegName))",
                kVTVideoEncoderList_IsHardwareAccelerated as String: NSNumber(value: false),
            ]
        } as NSArray
    return noErr
}
