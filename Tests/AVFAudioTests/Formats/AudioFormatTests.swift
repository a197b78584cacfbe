import AVFAudio
import CoreMedia
import XCTest

final class AudioFormatTests: XCTestCase {
    /// `AVAudioFormat()`, NSObject's initializer, is an empty format, as on Apple's platforms.
    func testTheEmptyInitializerGivesAFormatOfNothing() {
        let format = AVAudioFormat()
        XCTAssertEqual(format.sampleRate, 0)
        XCTAssertEqual(format.channelCount, 0)
        XCTAssertEqual(format.commonFormat, .otherFormat)
        XCTAssertNil(format.channelLayout)
        XCTAssertNotEqual(format, AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 2))
    }

    func testTheStandardFormatIsDeinterleavedFloatAsCoreAudioDescribesIt() throws {
        let format = try XCTUnwrap(AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 2))
        let asbd = format.streamDescription.pointee
        XCTAssertTrue(format.isStandard)
        XCTAssertEqual(format.commonFormat, .pcmFormatFloat32)
        XCTAssertFalse(format.isInterleaved)
        XCTAssertEqual(format.sampleRate, 48_000)
        XCTAssertEqual(format.channelCount, 2)
        XCTAssertEqual(asbd.mFormatID, kAudioFormatLinearPCM)
        XCTAssertEqual(asbd.mFormatFlags, 41, "float | packed | non-interleaved, as Apple's standard format")
        XCTAssertEqual(asbd.mBytesPerFrame, 4, "one channel's sample: each channel has its own buffer")
        XCTAssertEqual(asbd.mBitsPerChannel, 32)
        XCTAssertEqual(asbd.mFramesPerPacket, 1)
        XCTAssertNil(format.channelLayout, "one or two channels need no layout")
    }

    func testCommonFormatsDescribeTheirSamples() throws {
        let int16 = try XCTUnwrap(AVAudioFormat(commonFormat: .pcmFormatInt16, sampleRate: 44_100, channels: 2, interleaved: true))
        XCTAssertEqual(int16.streamDescription.pointee.mFormatFlags, kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked)
        XCTAssertEqual(int16.streamDescription.pointee.mBytesPerFrame, 4)
        XCTAssertEqual(int16.commonFormat, .pcmFormatInt16)
        XCTAssertFalse(int16.isStandard)
        XCTAssertEqual(AVAudioFormat(commonFormat: .pcmFormatInt32, sampleRate: 8000, channels: 1, interleaved: false)?.commonFormat, .pcmFormatInt32)
        XCTAssertEqual(
            AVAudioFormat(commonFormat: .pcmFormatFloat64, sampleRate: 8000, channels: 3, interleaved: true)?.streamDescription.pointee.mBytesPerFrame, 24)
        XCTAssertNil(AVAudioFormat(commonFormat: .otherFormat, sampleRate: 8000, channels: 1, interleaved: true))
        XCTAssertNil(AVAudioFormat(commonFormat: .pcmFormatFloat32, sampleRate: 8000, channels: 0, interleaved: true), "no channels")
        XCTAssertNil(AVAudioFormat(commonFormat: .pcmFormatFloat32, sampleRate: .nan, channels: 1, interleaved: true), "a rate that is not a number")
        XCTAssertNil(AVAudioFormat(commonFormat: .pcmFormatFloat32, sampleRate: -1, channels: 1, interleaved: true))
    }

    func testMoreThanTwoChannelsNeedALayoutAsApplesHeadersSay() throws {
        XCTAssertNil(AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 6))
        var asbd = AVAudioFormat(commonFormat: .pcmFormatFloat32, sampleRate: 48_000, channels: 6, interleaved: false)!.streamDescription.pointee
        XCTAssertNil(AVAudioFormat(streamDescription: &asbd), "six channels described by count alone")
        let layout = try XCTUnwrap(AVAudioChannelLayout(layoutTag: kAudioChannelLayoutTag_MPEG_5_1_A))
        XCTAssertEqual(layout.channelCount, 6)
        let format = AVAudioFormat(standardFormatWithSampleRate: 48_000, channelLayout: layout)
        XCTAssertEqual(format.channelCount, 6)
        XCTAssertTrue(format.channelLayout === layout)
        XCTAssertNotNil(AVAudioFormat(streamDescription: &asbd, channelLayout: layout))
        let stereo = AVAudioChannelLayout(layoutTag: kAudioChannelLayoutTag_Stereo)!
        XCTAssertNil(AVAudioFormat(streamDescription: &asbd, channelLayout: stereo), "a layout of another channel count")
        XCTAssertNil(AVAudioChannelLayout(layoutTag: kAudioChannelLayoutTag_UseChannelDescriptions))
    }

    func testSettingsDescribeAFormatAndRoundTrip() throws {
        let format = try XCTUnwrap(AVAudioFormat(commonFormat: .pcmFormatInt16, sampleRate: 22_050, channels: 1, interleaved: true))
        let again = try XCTUnwrap(AVAudioFormat(settings: format.settings))
        XCTAssertEqual(again, format)
        XCTAssertEqual((format.settings[AVSampleRateKey] as? NSNumber)?.doubleValue, 22_050)
        XCTAssertEqual((format.settings[AVLinearPCMBitDepthKey] as? NSNumber)?.intValue, 16)
        let aac = try XCTUnwrap(AVAudioFormat(settings: [AVFormatIDKey: kAudioFormatMPEG4AAC, AVSampleRateKey: 44_100, AVNumberOfChannelsKey: 2]))
        XCTAssertEqual(aac.commonFormat, .otherFormat)
        XCTAssertEqual(aac.streamDescription.pointee.mFramesPerPacket, 1024)
        let float = try XCTUnwrap(
            AVAudioFormat(settings: [
                AVFormatIDKey: Int(kAudioFormatLinearPCM), AVSampleRateKey: 48_000.0, AVNumberOfChannelsKey: 2, AVLinearPCMBitDepthKey: 32,
                AVLinearPCMIsFloatKey: true, AVLinearPCMIsNonInterleaved: true,
            ]))
        XCTAssertTrue(float.isStandard)
        XCTAssertNil(AVAudioFormat(settings: [AVSampleRateKey: 44_100]), "no format ID")
        XCTAssertNil(AVAudioFormat(settings: [AVFormatIDKey: kAudioFormatLinearPCM, AVSampleRateKey: Double.nan]))
        XCTAssertNil(AVAudioFormat(settings: [AVFormatIDKey: kAudioFormatLinearPCM, AVNumberOfChannelsKey: 0]))
        XCTAssertNil(AVAudioFormat(settings: [AVFormatIDKey: kAudioFormatLinearPCM, AVLinearPCMBitDepthKey: 12]))
        XCTAssertNil(AVAudioFormat(settings: [AVFormatIDKey: "lpcm"]), "a format ID that is not a number")
    }

    func testFormatsEqualByDescriptionAndConvertToCoreMedia() throws {
        let one = AVAudioFormat(standardFormatWithSampleRate: 44_100, channels: 2)!
        let two = AVAudioFormat(commonFormat: .pcmFormatFloat32, sampleRate: 44_100, channels: 2, interleaved: false)!
        XCTAssertEqual(one, two)
        XCTAssertEqual(one.hash, two.hash)
        XCTAssertNotEqual(one, AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 2)!)
        XCTAssertNotEqual(one, AVAudioFormat(commonFormat: .pcmFormatFloat32, sampleRate: 44_100, channels: 2, interleaved: true)!)
        let described = one.formatDescription
        XCTAssertEqual(CMFormatDescriptionGetMediaType(described), kCMMediaType_Audio)
        XCTAssertEqual(AVAudioFormat(cmAudioFormatDescription: described), one)
        XCTAssertEqual(one.description, "<AVAudioFormat: 2 ch, 44100 Hz, Float32, deinterleaved>")
    }
}
