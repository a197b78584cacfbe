import XCTest
@testable import AVFoundation
@testable import CaptureDevices
import MovieEngine
import UniformTypeIdentifiers
import VideoToolbox

/// The one set of encoding rules every encoder-backed path plans by, checked as a table: no
/// encoder runs, so each row takes microseconds.
final class EncodingPlanTests: XCTestCase {
    func testDefaultsFollowWhatTheEncodingIsFor() {
        typealias Row = (purpose: EncodingPlan.Purpose, width: Int, height: Int, rate: Double, bitRate: Int, keyframes: Int, preset: String)
        let rows: [Row] = [
            // 10.5 Mbit/s at 1280x720 30 fps, a keyframe a second.
            (.recording, 1280, 720, 30, 10_506_240, 30, "veryfast"),
            (.recording, 1920, 1080, 30, 23_639_040, 30, "veryfast"),
            // Past 1080p30 a real-time recording takes the faster preset.
            (.recording, 1920, 1080, 60, 47_278_080, 60, "superfast"),
            // A live stream sends half the recording's bits and speeds up past 720p30.
            (.liveStream, 1280, 720, 30, 5_253_120, 30, "veryfast"),
            (.liveStream, 1280, 720, 60, 10_506_240, 60, "superfast"),
            // A file written from frames in hand is not bound to real time.
            (.file, 3840, 2160, 60, 189_112_320, 60, "veryfast"),
            // A keyframe interval is at least one frame, whatever the rate.
            (.file, 320, 240, 0.2, 5_836, 1, "veryfast"),
        ]
        for row in rows {
            let plan = EncodingPlan.video(codec: .h264, width: row.width, height: row.height, frameRate: row.rate, fullRange: false, for: row.purpose)
            let name = "\(row.purpose) \(row.width)x\(row.height)@\(row.rate)"
            XCTAssertEqual(plan.bitRate, row.bitRate, name)
            XCTAssertEqual(plan.keyframeInterval, row.keyframes, name)
            XCTAssertEqual(plan.preset, row.preset, name)
            XCTAssertEqual(plan.expectedFrameRate, row.rate, name)
        }
    }

    func testWhatTheSettingsGiveIsKept() {
        var compression = ValidatedSettings.Compression()
        compression.bitRate = 2_000_000
        compression.keyframeInterval = 90
        compression.prioritizesSpeed = true
        for purpose in [EncodingPlan.Purpose.recording, .liveStream, .file] {
            let plan = EncodingPlan.video(codec: .hevc, width: 1920, height: 1080, frameRate: 60, fullRange: true, compression: compression, for: purpose)
            XCTAssertEqual(plan.bitRate, 2_000_000, "\(purpose)")
            XCTAssertEqual(plan.keyframeInterval, 90, "\(purpose)")
            XCTAssertEqual(plan.preset, "ultrafast", "speed before quality: the fastest preset")
            XCTAssertEqual(plan.encoder, "libx265")
            XCTAssertTrue(plan.fullRange)
        }
    }

    func testFramesGiveTheirEvenSizeRangeAndColour() throws {
        let frame = try XCTUnwrap(CVPixelBuffer(width: 641, height: 481, pixelFormatType: kCVPixelFormatType_420YpCbCr8BiPlanarFullRange))
        let plan = EncodingPlan.video(codec: .h264, like: frame, frameRate: 30, for: .recording)
        XCTAssertEqual(plan.width, 640)
        XCTAssertEqual(plan.height, 480)
        XCTAssertTrue(plan.fullRange)
        XCTAssertNil(EncodingPlan.colour(of: frame), "an untagged frame leaves the movie untagged")
        VideoColorimetry.hd.tag(frame)
        XCTAssertEqual(EncodingPlan.colour(of: frame)?.matrix, .bt709, "a Y'CbCr frame's own matrix")
        let bgra = try XCTUnwrap(CVPixelBuffer(width: 1280, height: 720, pixelFormatType: kCVPixelFormatType_32BGRA))
        VideoColorimetry.hd.tag(bgra)
        let colour = try XCTUnwrap(EncodingPlan.colour(of: bgra))
        XCTAssertEqual(colour.matrix, .bt601, "R'G'B' frames become Y'CbCr with BT.601 on the way to the encoder")
        XCTAssertEqual(colour.primaries, kCVImageBufferColorPrimaries_ITU_R_709_2 as String, "their primaries stay")
        XCTAssertEqual(EncodingPlan.frameRate(frameDuration: CMTime(value: 1, timescale: 60)), 60)
        XCTAssertEqual(EncodingPlan.frameRate(frameDuration: .invalid), 30)
    }

    func testSettingsDictionariesSayThePlan() throws {
        let audio = EncodingPlan.aacSettings(sampleRate: 48_000, channels: 2)
        XCTAssertEqual((audio[AVEncoderBitRateKey] as? NSNumber)?.intValue, 128_000, "64 kbit/s a channel")
        XCTAssertEqual((audio[AVFormatIDKey] as? NSNumber)?.uint32Value, kAudioFormatMPEG4AAC)
        XCTAssertEqual((audio[AVSampleRateKey] as? NSNumber)?.doubleValue, 48_000)
        var compression = ValidatedSettings.Compression()
        compression.keyframeInterval = 12
        let video = EncodingPlan.videoSettings(codec: .h264, width: 1280, height: 720, frameRate: 30, compression: compression)
        let properties = try XCTUnwrap(video[AVVideoCompressionPropertiesKey] as? [String: Any])
        XCTAssertEqual((properties[AVVideoAverageBitRateKey] as? NSNumber)?.intValue, 10_506_240)
        XCTAssertEqual((properties[AVVideoMaxKeyFrameIntervalKey] as? NSNumber)?.intValue, 12)
        XCTAssertEqual((properties[AVVideoExpectedSourceFrameRateKey] as? NSNumber)?.intValue, 30)
        XCTAssertEqual(video[AVVideoCodecKey] as? String, AVVideoCodecType.h264.rawValue)
        XCTAssertEqual((video[AVVideoWidthKey] as? NSNumber)?.intValue, 1280)
        // What the settings dictionary says, an asset writer reads back as the same plan.
        let read = try XCTUnwrap(try? ValidatedSettings.video(video).get())
        XCTAssertEqual(read.compression.keyframeInterval, 12)
        XCTAssertEqual(read.compression.bitRate, 10_506_240)
    }

    /// A damaged movie's track can say a frame rate of 0, infinity or not a number: encoders are
    /// told one they take (the writer input trapped on 0 as a programming error).
    func testTheRateAnEncoderIsToldIsAlwaysOneItTakes() {
        for rate in [0, -1, .infinity, .nan, 1e-6, 5000] as [Double] {
            XCTAssertEqual(EncodingPlan.expectedFrameRate(rate), 30, "\(rate)")
            let settings = EncodingPlan.videoSettings(codec: .h264, width: 640, height: 480, frameRate: rate)
            let properties = settings[AVVideoCompressionPropertiesKey] as? [String: Any]
            XCTAssertEqual((properties?[AVVideoExpectedSourceFrameRateKey] as? NSNumber)?.intValue, 30, "\(rate)")
            XCTAssertGreaterThan((properties?[AVVideoAverageBitRateKey] as? NSNumber)?.intValue ?? 0, 0, "\(rate)")
        }
        XCTAssertEqual(EncodingPlan.expectedFrameRate(29.97), 30)
        XCTAssertEqual(EncodingPlan.expectedFrameRate(0.5), 1, "a slow but real rate is at least one frame a second")
        XCTAssertEqual(EncodingPlan.expectedFrameRate(240), 240)
    }

    /// FFmpeg's "Generic error in an external library" said with its number (-542398533) told a user nothing.
    func testAnEncoderThatRefusesIsSaidInWords() {
        let error = MovieEncoderError.failed(code: MovieEncoderError.externalLibraryError, message: "Generic error in an external library")
            .avError(url: URL(fileURLWithPath: "/tmp/x.mp4"), successfullyFinished: false)
        XCTAssertEqual(
            error.localizedDescription, "The movie could not be written: the encoder refused the movie's settings (Generic error in an external library).")
        XCTAssertEqual(((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError)?.code, 542_398_533, "the number stays underneath")
    }

    /// Streaming code sets Video Toolbox's HDR metadata insertion mode: either value is taken (the
    /// encoders write SDR), anything else is refused, and APAC audio is refused with its reason.
    func testHDRMetadataInsertionModeIsTakenAndAPACIsRefusedWithItsReason() throws {
        func video(_ mode: Any) -> [String: Any] {
            [
                AVVideoCodecKey: AVVideoCodecType.h264, AVVideoWidthKey: 640, AVVideoHeightKey: 480,
                AVVideoCompressionPropertiesKey: [kVTCompressionPropertyKey_HDRMetadataInsertionMode as String: mode],
            ]
        }
        XCTAssertNoThrow(try ValidatedSettings.video(video(kVTHDRMetadataInsertionMode_Auto)).get())
        XCTAssertNoThrow(try ValidatedSettings.video(video(kVTHDRMetadataInsertionMode_None as String)).get())
        XCTAssertThrowsError(try ValidatedSettings.video(video("Always")).get()) { XCTAssertTrue("\($0)".contains("HDRMetadataInsertionMode must be")) }
        XCTAssertEqual(kAudioFormatAPAC, 0x6170_6163, "'apac'")
        let apac: [String: Any] = [AVFormatIDKey: kAudioFormatAPAC, AVSampleRateKey: 48_000, AVNumberOfChannelsKey: 2]
        XCTAssertThrowsError(try ValidatedSettings.audio(apac).get()) {
            XCTAssertTrue("\($0)".contains("kAudioFormatAPAC (Apple Positional Audio Codec) has no encoder"))
        }
        XCTAssertFalse(AVAssetWriter(contentType: .mpeg4Movie).canApply(outputSettings: apac, forMediaType: .audio))
    }
}
