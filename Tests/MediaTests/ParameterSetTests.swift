import CaptureTestSupport
import XCTest
import AVFoundation
import TestSupport

/// The parameter sets of a movie's H.264 and HEVC tracks, as streaming code takes them out of a
/// format description to send ahead of the frames (and builds a description from them again).
final class ParameterSetTests: XCTestCase {
    override func setUpWithError() throws {
        try XCTSkipUnless(MediaProbe.isAvailable, "ffmpeg is needed: apt-get install ffmpeg")
    }

    private func videoFormat(_ url: URL) async throws -> CMFormatDescription {
        let tracks = try await AVURLAsset(url: url).loadTracks(withMediaType: .video)
        let formats = try await XCTUnwrap(tracks.first).load(.formatDescriptions)
        return try XCTUnwrap(formats.first)
    }

    /// Every set of a description, in order, and the length of its units' size prefix.
    private func sets(_ format: CMFormatDescription, hevc: Bool) -> (sets: [Data], headerLength: Int32)? {
        let get = hevc ? CMVideoFormatDescriptionGetHEVCParameterSetAtIndex : CMVideoFormatDescriptionGetH264ParameterSetAtIndex
        var count = 0
        var headerLength: Int32 = 0
        guard get(format, 0, nil, nil, &count, &headerLength) == noErr else { return nil }
        var found: [Data] = []
        for index in 0..<count {
            var pointer: UnsafePointer<UInt8>?
            var size = 0
            guard get(format, index, &pointer, &size, nil, nil) == noErr, let pointer else { return nil }
            found.append(Data(bytes: pointer, count: size))
        }
        return (found, headerLength)
    }

    func testAnH264TracksSetsComeOutAndMakeTheSameDescriptionAgain() async throws {
        let url = makeScratchFolder().appendingPathComponent("movie.mp4")
        try TestMovies.picturesAndTone(url, seconds: 1)
        let format = try await videoFormat(url)
        let (found, headerLength) = try XCTUnwrap(sets(format, hevc: false))
        XCTAssertEqual(found.map { $0[0] & 0x1F }, [7, 8], "a sequence parameter set, then a picture parameter set")
        XCTAssertEqual(headerLength, 4)
        // Out of range, or asked of another codec: refused, the count still given.
        var count = 0
        XCTAssertEqual(
            CMVideoFormatDescriptionGetH264ParameterSetAtIndex(
                format, parameterSetIndex: 2, parameterSetPointerOut: nil, parameterSetSizeOut: nil, parameterSetCountOut: &count, nalUnitHeaderLengthOut: nil),
            noErr)
        var pointer: UnsafePointer<UInt8>?
        XCTAssertNotEqual(
            CMVideoFormatDescriptionGetH264ParameterSetAtIndex(
                format, parameterSetIndex: 2, parameterSetPointerOut: &pointer, parameterSetSizeOut: nil, parameterSetCountOut: nil, nalUnitHeaderLengthOut: nil
            ), noErr)
        XCTAssertNotEqual(
            CMVideoFormatDescriptionGetHEVCParameterSetAtIndex(
                format, parameterSetIndex: 0, parameterSetPointerOut: &pointer, parameterSetSizeOut: nil, parameterSetCountOut: &count,
                nalUnitHeaderLengthOut: nil), noErr)

        // A receiver builds the description from them: the same size, the same sets.
        var rebuilt: CMFormatDescription?
        let status = found[0].withUnsafeBytes { sps in
            found[1].withUnsafeBytes { pps in
                let pointers = [sps.bindMemory(to: UInt8.self).baseAddress!, pps.bindMemory(to: UInt8.self).baseAddress!]
                return CMVideoFormatDescriptionCreateFromH264ParameterSets(
                    allocator: nil, parameterSetCount: 2, parameterSetPointers: pointers, parameterSetSizes: [sps.count, pps.count],
                    nalUnitHeaderLength: 4, formatDescriptionOut: &rebuilt)
            }
        }
        XCTAssertEqual(status, noErr)
        let again = try XCTUnwrap(rebuilt)
        XCTAssertEqual(CMVideoFormatDescriptionGetDimensions(again).width, 320)
        XCTAssertEqual(sets(again, hevc: false)?.sets, found)
    }

    func testAnHEVCTracksSetsComeOutInOrder() async throws {
        let url = makeScratchFolder().appendingPathComponent("hevc.mp4")
        guard
            runTool(
                "/usr/bin/ffmpeg",
                [
                    "-v", "error", "-f", "lavfi", "-i", "testsrc2=s=320x240:r=30:d=1", "-c:v", "libx265", "-x265-params", "log-level=error", "-tag:v", "hvc1",
                    url.path,
                ]) != nil
        else { throw XCTSkip("this ffmpeg has no x265") }
        let format = try await videoFormat(url)
        let (found, headerLength) = try XCTUnwrap(sets(format, hevc: true))
        XCTAssertEqual(found.prefix(3).map { $0[0] >> 1 & 0x3F }, [32, 33, 34], "video, sequence and picture parameter sets")
        XCTAssertEqual(headerLength, 4)
        var count = 0
        XCTAssertNotEqual(
            CMVideoFormatDescriptionGetH264ParameterSetAtIndex(
                format, parameterSetIndex: 0, parameterSetPointerOut: nil, parameterSetSizeOut: nil, parameterSetCountOut: &count, nalUnitHeaderLengthOut: nil),
            noErr)
    }
}
