import CaptureTestSupport
import XCTest
@testable import AVFoundation
import TestSupport

/// MJPEG from a V4L2 camera, as USB cameras send it: v4l2loopback fed by FFmpeg with 4:2:2
/// JPEGs at 30 fps (640x480: the VM emulates its processor), in the VM
/// (`scripts/vm/test-in-vm.sh`). Skips unless the VM says it feeds such a camera.
final class V4L2MJPEGTests: CaptureTestCase {
    private var camera: AVCaptureDevice!

    override func setUpWithError() throws {
        super.setUp()
        // The VM runs these while FFmpeg feeds the loopback camera, and says so; otherwise the camera has no source.
        guard ProcessInfo.processInfo.environment["LINUXAVFOUNDATION_MJPEG_FED"] != nil else {
            throw XCTSkip("runs while scripts/vm/test-in-vm.sh feeds a v4l2loopback camera with MJPEG")
        }
        guard let loopback = AVCaptureDevice.devices(for: .video).first(where: { $0.uniqueID.hasPrefix("v4l2:") && $0.localizedName == "Loopback_Camera" })
        else {
            throw XCTSkip("no v4l2loopback camera fed with MJPEG here: run scripts/vm/test-in-vm.sh")
        }
        camera = loopback
    }

    func testAnMJPEGCameraIsDecodedIntoTheClientsFormat() throws {
        let mjpeg = try XCTUnwrap(
            camera.formats.first { $0.formatDescription.mediaSubType.rawValue == 0x646D_6231 },
            "the camera's MJPEG format is listed as 'dmb1'")
        let size = mjpeg.formatDescription.dimensions
        XCTAssertEqual(size, CMVideoDimensions(width: 640, height: 480), "the size FFmpeg feeds")
        XCTAssertEqual(mjpeg.videoSupportedFrameRateRanges.first?.maxFrameRate ?? 0, 30, accuracy: 0.01)
        for delivered in [kCVPixelFormatType_32BGRA, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange] {
            let collector = FrameCollector()
            collector.measures = true
            let (session, _) = try makeVideoSession(camera: camera, format: mjpeg, pixelFormat: delivered, collector: collector)
            session.startRunning()
            // Decoding under emulation is slow: the newest frame wins, older ones are reported dropped.
            XCTAssertTrue(waitUntil(timeout: 40) { collector.frames.count >= 5 }, "\(collector.frames.count) frames")
            session.stopRunning()
            for frame in collector.frames {
                XCTAssertEqual(frame.width, Int(size.width))
                XCTAssertEqual(frame.height, Int(size.height))
                XCTAssertEqual(frame.pixelFormat, delivered)
            }
            // FFmpeg's testsrc2 is a bright picture: decoded frames are not the black of an empty buffer.
            let last = try XCTUnwrap(collector.frames.last)
            XCTAssertTrue((40...220).contains(try XCTUnwrap(last.meanLuma)), "\(String(describing: last.meanLuma))")
            let times = collector.frames.map(\.presentationTime)
            XCTAssertTrue(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
        }
    }
}
