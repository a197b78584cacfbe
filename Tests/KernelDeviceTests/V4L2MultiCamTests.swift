import CaptureTestSupport
import XCTest
@testable import AVFoundation
@testable import CaptureDevices
import TestSupport

/// Two kernel cameras in one AVCaptureMultiCamSession: vivid and `scripts/vm/lafcam`, in the VM
/// that `scripts/vm/test-in-vm.sh` runs. Skips where the two are not both there.
final class V4L2MultiCamTests: CaptureTestCase {
    func testVividAndLafcamInOneMultiCameraSessionDeliverTogetherOnTheHostClock() throws {
        let cameras = AVCaptureDevice.devices(for: .video).filter { $0.uniqueID.hasPrefix("v4l2:") }
        guard let vivid = cameras.first(where: { $0.manufacturer == "vivid" }), let lafcam = cameras.first(where: { $0.manufacturer == "lafcam" }) else {
            throw XCTSkip("vivid and lafcam are not both here: run scripts/vm/test-in-vm.sh")
        }
        // vivid at 320x180, lafcam at its one format, 640x480: each output's frames say whose they are.
        let sizes: [(AVCaptureDevice, Int32, Int32)] = [(vivid, 320, 180), (lafcam, 640, 480)]
        for (camera, width, height) in sizes {
            let format = try XCTUnwrap(
                camera.formats.first { $0.formatDescription.dimensions == CMVideoDimensions(width: width, height: height) && $0.isMultiCamSupported },
                "\(camera.localizedName) offers \(width)x\(height)")
            try camera.lockForConfiguration()
            camera.activeFormat = format
            camera.unlockForConfiguration()
        }
        let discovery = AVCaptureDevice.DiscoverySession(deviceTypes: [.external, .builtInWideAngleCamera], mediaType: .video, position: .unspecified)
        XCTAssertTrue(discovery.supportedMultiCamDeviceSets.contains([vivid, lafcam]), "the two cameras can run together")

        let collectors = [FrameCollector(label: "vivid"), FrameCollector(label: "lafcam")]
        let (session, _) = try makeMultiCamSession(cameras: sizes.map(\.0), collectors: collectors)
        XCTAssertLessThanOrEqual(session.hardwareCost, 1)
        session.startRunning()
        XCTAssertTrue(session.isRunning)
        // Under the VM's emulation the drivers make a few frames a second.
        XCTAssertTrue(waitUntil(timeout: 30) { collectors.allSatisfy { $0.frames.count >= 10 } }, "\(collectors.map(\.frames.count))")
        session.stopRunning()
        for ((camera, width, height), collector) in zip(sizes, collectors) {
            XCTAssertEqual(Set(collector.frames.map { [$0.width, $0.height] }), [[Int(width), Int(height)]], "\(camera.localizedName)'s own format")
        }
        // The kernel stamps both on the host clock: their frames interleave, each of vivid's with
        // one of lafcam's within the longer of the two cameras' usual gaps.
        let times = collectors.map { $0.frames.dropFirst(2).map(\.presentationTime.seconds).sorted() }
        let gaps = times.map { t in zip(t.dropFirst(), t).map { $0 - $1 }.sorted() }
        let usualGap = gaps.compactMap { $0.isEmpty ? nil : $0[$0.count / 2] }.max() ?? 1
        let overlapping = times[0].filter { $0 >= times[1][0] && $0 <= times[1][times[1].count - 1] }
        XCTAssertGreaterThan(overlapping.count, 3, "the two cameras' frames overlap in time: \(times)")
        let skews = overlapping.map { time in times[1].map { abs($0 - time) }.min() ?? .infinity }.sorted()
        if !skews.isEmpty { XCTAssertLessThanOrEqual(skews[skews.count / 2], usualGap + 0.01, "skews \(skews), usual gap \(usualGap)") }
    }
}
