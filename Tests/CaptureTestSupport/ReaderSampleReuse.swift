import AVFoundation
import XCTest

/// Reads a started reader output to its end, holding its first picture's sample buffer and letting
/// every other go at once, and checks what pooling promises: a sample buffer let go is handed out
/// again (the output keeps it rather than freeing it), the one held keeps its time, picture and
/// attachments, and an attachment set on a sample buffer does not follow it into its next use.
/// Returns every sample buffer's presentation time, in seconds, in the order read.
@discardableResult
public func assertLetGoSampleBuffersAreUsedAgain(_ output: AVAssetReaderOutput, file: StaticString = #filePath, line: UInt = #line) throws -> [Double] {
    let held = try XCTUnwrap(output.copyNextSampleBuffer(), "a first sample", file: file, line: line)
    let heldTime = held.presentationTimeStamp
    let heldPicture = try XCTUnwrap(held.imageBuffer, file: file, line: line)
    CMSetAttachment(held, key: "HeldByTheClient" as CFString, value: kCFBooleanTrue, attachmentMode: kCMAttachmentMode_ShouldNotPropagate)
    weak var letGo: CMSampleBuffer?
    var times = [heldTime.seconds], usedAgain = 0, cleanOnReuse = true
    while let sample = output.copyNextSampleBuffer() {
        times.append(sample.presentationTimeStamp.seconds)
        if sample === letGo {
            usedAgain += 1
            if CMGetAttachment(sample, key: "LetGoByTheClient" as CFString, attachmentModeOut: nil) != nil { cleanOnReuse = false }
        }
        CMSetAttachment(sample, key: "LetGoByTheClient" as CFString, value: kCFBooleanTrue, attachmentMode: kCMAttachmentMode_ShouldNotPropagate)
        XCTAssertFalse(sample === held, "a held sample buffer is never handed out again", file: file, line: line)
        XCTAssertGreaterThan(sample.presentationTimeStamp, heldTime, file: file, line: line)
        letGo = sample
    }
    XCTAssertGreaterThan(times.count, 3, "enough samples to tell", file: file, line: line)
    XCTAssertGreaterThan(usedAgain, 0, "a sample buffer let go is used again", file: file, line: line)
    XCTAssertTrue(cleanOnReuse, "a sample buffer used again carries none of its last use's attachments", file: file, line: line)
    XCTAssertEqual(held.presentationTimeStamp, heldTime, "the held sample keeps its time", file: file, line: line)
    XCTAssertTrue(held.imageBuffer === heldPicture, "the held sample keeps its picture", file: file, line: line)
    XCTAssertNotNil(CMGetAttachment(held, key: "HeldByTheClient" as CFString, attachmentModeOut: nil), file: file, line: line)
    return times
}
