import CaptureTestSupport
import XCTest
@testable import AVFoundation
import TestSupport

/// The drawers of a layer's frames: one frame drawn at a time, a frame drawn for a geometry that
/// changed reaching no viewer, and a new viewer marked so a still picture is drawn again for it.
final class LayerFrameDrawersTests: CaptureTestCase {
    private func frame() throws -> CVPixelBuffer {
        var buffer: CVPixelBuffer?
        XCTAssertEqual(CVPixelBufferCreate(nil, 8, 8, kCVPixelFormatType_32BGRA, nil, &buffer), kCVReturnSuccess)
        return try XCTUnwrap(buffer)
    }

    func testNothingIsDrawnForNobodyAndOneFrameAtATime() throws {
        let drawers = LayerFrameDrawers()
        XCTAssertNil(drawers.beginDrawing(), "nobody draws")
        let handled = expectation(description: "handled")
        let queue = DispatchQueue(label: "drawer")
        drawers.setHandler({ _ in handled.fulfill() }, queue: queue)
        queue.suspend()
        XCTAssertNotNil(drawers.beginDrawing())
        XCTAssertNil(drawers.beginDrawing(), "the last frame is still being drawn")
        XCTAssertTrue(drawers.deliver(try frame()))
        XCTAssertNil(drawers.beginDrawing(), "the handler has not had the last frame")
        queue.resume()
        wait(for: [handled], timeout: 5)
        XCTAssertTrue(waitUntil { drawers.beginDrawing() != nil }, "the next frame once the handler had the last")
    }

    func testAHandlerReplacedWhileAFrameWaitsForItDoesNotKeepTheDrawersBusy() throws {
        let drawers = LayerFrameDrawers()
        let queue = DispatchQueue(label: "drawer")
        let old = LockedValue(0)
        drawers.setHandler({ _ in old.withLock { $0 += 1 } }, queue: queue)
        queue.suspend()
        XCTAssertNotNil(drawers.beginDrawing())
        XCTAssertTrue(drawers.deliver(try frame()))
        XCTAssertNil(drawers.beginDrawing(), "the frame waits for the handler")
        let handled = expectation(description: "the new handler has a frame")
        drawers.setHandler({ _ in handled.fulfill() }, queue: queue)
        XCTAssertNotNil(drawers.beginDrawing(), "the frame the old handler never had is done with")
        XCTAssertTrue(drawers.deliver(try frame()))
        queue.resume()
        wait(for: [handled], timeout: 5)
        XCTAssertEqual(old.withLock { $0 }, 0, "the old handler is not called after it was replaced")
        XCTAssertTrue(waitUntil { drawers.beginDrawing() != nil })
        drawers.deliver(nil)
        // Removing the handler with a frame waiting frees the drawers too.
        queue.suspend()
        XCTAssertNotNil(drawers.beginDrawing())
        XCTAssertTrue(drawers.deliver(try frame()))
        drawers.setHandler(nil, queue: queue)
        drawers.setHandler({ _ in }, queue: queue)
        XCTAssertNotNil(drawers.beginDrawing())
        drawers.deliver(nil)
        queue.resume()
    }

    func testAFrameDrawnForAGeometryThatChangedReachesNoViewer() async throws {
        let drawers = LayerFrameDrawers()
        let early = drawers.frames
        XCTAssertNotNil(drawers.beginDrawing())
        // The geometry changes while the frame is drawn, and a viewer comes for the new one.
        let late = drawers.frames
        XCTAssertFalse(drawers.deliver(try frame()) { false }, "dropped: drawn for the old geometry")
        // Drawing again is allowed at once, and the redrawn frame reaches both viewers, the late one first of all.
        let redrawn = try frame()
        XCTAssertNotNil(drawers.beginDrawing(), "a dropped frame does not keep the drawers busy")
        XCTAssertTrue(drawers.deliver(redrawn) { true })
        var lateFrames = late.makeAsyncIterator()
        var earlyFrames = early.makeAsyncIterator()
        let first = await lateFrames.next()
        let earlyFirst = await earlyFrames.next()
        XCTAssertTrue(first === redrawn, "the late viewer's first frame is the one drawn for the new geometry")
        XCTAssertTrue(earlyFirst === redrawn)
    }

    func testANewViewerIsMarkedUntilAFrameReachesIt() throws {
        let drawers = LayerFrameDrawers()
        var viewer: AsyncStream<CVPixelBuffer>? = drawers.frames
        XCTAssertEqual(drawers.beginDrawing()?.isForNewViewer, true, "a stream came")
        XCTAssertFalse(drawers.deliver(nil), "nothing drawn")
        XCTAssertEqual(drawers.beginDrawing()?.isForNewViewer, true, "still waiting for its first frame")
        XCTAssertFalse(drawers.deliver(try frame()) { false })
        XCTAssertEqual(drawers.beginDrawing()?.isForNewViewer, true, "a dropped frame did not reach it")
        XCTAssertTrue(drawers.deliver(try frame()))
        XCTAssertEqual(drawers.beginDrawing()?.isForNewViewer, false, "it has had a frame")
        drawers.deliver(nil)
        drawers.setHandler({ _ in }, queue: DispatchQueue(label: "drawer"))
        XCTAssertEqual(drawers.beginDrawing()?.isForNewViewer, true, "a handler came")
        drawers.deliver(nil)
        XCTAssertNotNil(viewer)
        viewer = nil
    }
}
