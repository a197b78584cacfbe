import XCTest
@testable import AVFoundation
@testable import CaptureDevices
@testable import FrameProcessing

/// A camera's stream planned from the demands of the outputs connected to it, checked as tables:
/// no device starts, so each row takes microseconds.
final class StreamPlanTests: XCTestCase {
    private let bgra = kCVPixelFormatType_32BGRA
    private let nv12 = kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange
    private let full = StreamPlan.Size(width: 4032, height: 3024)
    private let upright = PixelOrientation(rotationDegrees: 0, mirrored: false)
    private let portrait = PixelOrientation(rotationDegrees: 90, mirrored: false)

    private var preview: OutputDemand { OutputDemand(video: 1) }
    private var photo: OutputDemand { OutputDemand(video: 1, audio: 1, fullSizeStills: true) }
    private var movie: OutputDemand { OutputDemand(video: 1, audio: 1, heldFrames: 4) }
    private func frames(_ pixelFormat: OSType? = nil) -> OutputDemand { OutputDemand(video: 1, pixelFormat: pixelFormat, orientation: .pixels) }

    private func plan(_ demands: [(OutputDemand, PixelOrientation)], photoPreset: Bool = false, format: StreamPlan.Size? = nil) -> StreamPlan {
        StreamPlan.video(
            format: format ?? full, nativePixelFormat: nv12, photoPreset: photoPreset,
            connections: demands.map { StreamPlan.Connection(demand: $0.0, orientation: $0.1) })
    }

    func testThePhotoPresetStreamsFullSizeOnlyForAnOutputThatTakesStills() {
        let withPhoto = plan([(photo, upright), (preview, upright), (frames(), upright)], photoPreset: true)
        XCTAssertEqual(withPhoto.size, full, "the photo output takes stills at the camera's full size")
        XCTAssertEqual(withPhoto.conversionIndices, [-1, 0, 0], "the other outputs share one preview-sized copy")
        XCTAssertEqual(withPhoto.conversions, [.init(pixelFormat: nv12, orientation: upright, size: StreamPlan.photoPreviewSize, capacity: 6)])

        let withoutPhoto = plan([(preview, upright), (frames(), upright)], photoPreset: true)
        XCTAssertEqual(withoutPhoto.size, StreamPlan.photoPreviewSize, "no stills: the stream itself is preview-sized")
        XCTAssertEqual(withoutPhoto.conversionIndices, [-1, -1])
        XCTAssertTrue(withoutPhoto.conversions.isEmpty)

        let otherPreset = plan([(photo, upright), (preview, upright)])
        XCTAssertEqual(otherPreset.size, full)
        XCTAssertEqual(otherPreset.conversionIndices, [-1, -1], "other presets stream the format's size to everyone")
    }

    func testTheStreamTakesThePixelFormatMostOutputsWantAndConvertsForTheRest() {
        let mostlyBGRA = plan([(frames(bgra), upright), (frames(bgra), upright), (preview, upright)])
        XCTAssertEqual(mostlyBGRA.pixelFormat, bgra, "two outputs want BGRA, one the camera's own")
        XCTAssertEqual(mostlyBGRA.conversionIndices, [-1, -1, 0])
        XCTAssertEqual(mostlyBGRA.conversions.map(\.pixelFormat), [nv12])

        let tie = plan([(preview, upright), (frames(bgra), upright)])
        XCTAssertEqual(tie.pixelFormat, nv12, "a tie goes to the first connection's")
        XCTAssertEqual(tie.conversionIndices, [-1, 0])

        let alone = plan([])
        XCTAssertEqual(alone.pixelFormat, nv12, "no outputs: the camera's own")
        XCTAssertEqual(alone.bufferCount, 8)
    }

    func testOutputsThatRotatePixelsGetAConversionAndOthersDescribeTheTurn() {
        let turned = plan([(frames(), portrait), (frames(), portrait), (movie, portrait), (preview, portrait)])
        XCTAssertEqual(turned.conversionIndices, [0, 0, -1, -1], "data outputs share one turned copy; the movie and preview describe the turn")
        XCTAssertEqual(turned.conversions, [.init(pixelFormat: nv12, orientation: portrait, size: nil, capacity: 6)])
        let mirrored = PixelOrientation(rotationDegrees: 90, mirrored: true)
        let two = plan([(frames(), portrait), (frames(), mirrored), (frames(bgra), portrait)])
        XCTAssertEqual(two.conversionIndices, [0, 1, 2], "each distinct format and orientation is one conversion")
    }

    func testAnEncodersQueueIsKeptByWhateverFeedsIt() {
        let direct = plan([(movie, upright), (preview, upright)])
        XCTAssertEqual(direct.bufferCount, 12, "the device keeps the encoder's four frames more")
        XCTAssertTrue(direct.conversions.isEmpty)

        let converted = plan([(frames(bgra), upright), (frames(bgra), upright), (movie, upright)])
        XCTAssertEqual(converted.conversionIndices, [-1, -1, 0])
        XCTAssertEqual(converted.bufferCount, 8, "the encoder takes a conversion's frames, not the device's")
        XCTAssertEqual(converted.conversions.first?.capacity, 10, "the conversion keeps the encoder's frames more")
    }

    func testOutputsStateWhatTheyTake() {
        XCTAssertTrue(AVCaptureVideoDataOutput().demand.accepts(.video))
        XCTAssertFalse(AVCaptureVideoDataOutput().demand.accepts(.audio))
        XCTAssertEqual(AVCaptureAudioDataOutput().demand.orientation, .unsupported)
        XCTAssertEqual(AVCaptureMetadataOutput().demand.maximumConnections(for: .metadataObject), 1)
        XCTAssertTrue(AVCapturePhotoOutput().demand.fullSizeStills)
        XCTAssertEqual(AVCaptureMovieFileOutput().demand.heldFrames, 0, "a recording's queue of four frames fits in what the pool keeps for any output")
        XCTAssertEqual(AVCaptureMovieFileOutput().demand.maximumConnections(for: .audio), 1)
        XCTAssertEqual(LiveStreamOutput().demand.heldFrames, 0)
        let output = AVCaptureVideoDataOutput()
        output.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: bgra]
        XCTAssertEqual(output.demand.pixelFormat, bgra)
        XCTAssertEqual(output.demand.orientation, .pixels)
    }
}
