import CoreMedia
import XCTest

/// The four-character codes of Apple's CMFormatDescription.h, as apps compare subtypes with them.
final class FormatCodesTests: XCTestCase {
    private func code(_ text: String) -> FourCharCode { text.utf8.reduce(0) { $0 << 8 | FourCharCode($1) } }

    func testCodesAreApplesFourCharacters() {
        let named: [(FourCharCode, String)] = [
            (kCMVideoCodecType_AppleProRes422HQ, "apch"), (kCMVideoCodecType_AppleProRes4444XQ, "ap4x"), (kCMVideoCodecType_MPEG4Video, "mp4v"),
            (kCMVideoCodecType_VP9, "vp09"), (kCMVideoCodecType_AV1, "av01"), (kCMVideoCodecType_HEVCWithAlpha, "muxa"),
            (kCMVideoCodecType_DolbyVisionHEVC, "dvh1"), (kCMVideoCodecType_422YpCbCr8, "2vuy"), (kCMPixelFormat_32BGRA, "BGRA"),
            (kCMPixelFormat_422YpCbCr8_yuvs, "yuvs"), (kCMMediaType_Subtitle, "sbtl"), (kCMMediaType_ClosedCaption, "clcp"),
            (kCMMediaType_TimeCode, "tmcd"), (kCMClosedCaptionFormatType_CEA608, "c608"), (kCMSubtitleFormatType_WebVTT, "wvtt"),
            (kCMTimeCodeFormatType_TimeCode32, "tmcd"), (kCMTextFormatType_QTText, "text"), (kCMMuxedStreamType_MPEG2Transport, "mp2t"),
            (kCMAudioCodecType_AAC_LCProtected, "paac"),
        ]
        for (value, text) in named { XCTAssertEqual(value, code(text), text) }
        // The old pixel formats QuickTime numbered rather than named.
        XCTAssertEqual(kCMPixelFormat_32ARGB, 32)
        XCTAssertEqual(kCMPixelFormat_24RGB, 24)
        XCTAssertEqual(kCMPixelFormat_16BE555, 16)
        let mediaTypes = [
            kCMMediaType_Video, kCMMediaType_Audio, kCMMediaType_Muxed, kCMMediaType_Text, kCMMediaType_ClosedCaption, kCMMediaType_Subtitle,
            kCMMediaType_TimeCode, kCMMediaType_Metadata, kCMMediaType_TaggedBufferGroup, kCMMediaType_AuxiliaryPicture,
        ]
        XCTAssertEqual(Set(mediaTypes).count, mediaTypes.count, "every media type is its own")
    }
}
