import AVFoundation
import AppleStyleCode
import CaptureTestSupport
import TestSupport
import XCTest

/// A clip reversed a second at a time through an asset reader output with random access.
final class ClipReverserTests: XCTestCase {
    /// The centre pixel's green value of every picture of a movie, in presentation order.
    private func brightness(_ url: URL) throws -> [Int] {
        let asset = AVURLAsset(url: url)
        let reader = try AVAssetReader(asset: asset)
        let output = AVAssetReaderTrackOutput(
            track: asset.tracks(withMediaType: .video)[0], outputSettings: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA])
        reader.add(output)
        reader.startReading()
        var values: [Int] = []
        while let sample = output.copyNextSampleBuffer(), let pixels = CMSampleBufferGetImageBuffer(sample) {
            CVPixelBufferLockBaseAddress(pixels, .readOnly)
            let row = CVPixelBufferGetBaseAddress(pixels)!.advanced(by: CVPixelBufferGetBytesPerRow(pixels) * CVPixelBufferGetHeight(pixels) / 2)
            values.append(Int(row.load(fromByteOffset: CVPixelBufferGetWidth(pixels) / 2 * 4 + 1, as: UInt8.self)))
            CVPixelBufferUnlockBaseAddress(pixels, .readOnly)
        }
        return values
    }

    func testTheReversedClipHasEveryPictureInReverseOrder() throws {
        try XCTSkipUnless(MediaProbe.isAvailable, "ffprobe is needed: apt-get install ffmpeg")
        let folder = makeScratchFolder()
        let source = folder.appendingPathComponent("ramp.mp4"), reversed = folder.appendingPathComponent("reversed.mp4")
        // 75 pictures, each brighter than the one before; keyframes every 15, with B-frames.
        try TestMovies.make(
            source, inputs: ["color=c=black:s=160x120:r=30:d=2.5"],
            arguments: ["-vf", "geq=lum='16+N*3':cb=128:cr=128", "-c:v", "libx264", "-preset", "veryfast", "-bf", "2", "-g", "15", "-pix_fmt", "yuv420p"])
        let forward = try brightness(source)
        XCTAssertEqual(forward.count, 75)
        XCTAssertEqual(forward, forward.sorted(), "the source brightens picture by picture")

        XCTAssertEqual(try ClipReverser.reverse(source, into: reversed), 75)
        let backward = try brightness(reversed)
        XCTAssertEqual(backward.count, 75)
        for (index, value) in backward.enumerated() {
            XCTAssertEqual(Double(value), Double(forward[74 - index]), accuracy: 4, "picture \(index) is the source's picture \(74 - index)")
        }
    }
}
