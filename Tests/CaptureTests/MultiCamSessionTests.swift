import CaptureTestSupport
import XCTest
@testable import AVFoundation
@testable import CaptureDevices
import TestSupport

/// AVCaptureMultiCamSession as Apple documents it: the input-priority preset only, cameras joined to
/// outputs by explicit connections, each delivering its own format; a camera whose connections are
/// all disabled stops while the others go on; and the hardware and system pressure costs of the
/// cameras' formats, a session over budget refusing to start.
final class MultiCamSessionTests: CaptureTestCase {
    override func tearDown() {
        MultiCamBudget.reset()
        super.tearDown()
    }

    /// The back camera's 1280x720 30 fps format, and the front camera's 640x480.
    private func chooseFormats() throws {
        let back = try XCTUnwrap(
            backCamera.formats.first { $0.formatDescription.dimensions.width == 1280 && $0.videoSupportedFrameRateRanges[0].maxFrameRate == 30 })
        let front = try XCTUnwrap(frontCamera.formats.first { $0.formatDescription.dimensions.width == 640 })
        for (camera, format) in [(backCamera, back), (frontCamera, front)] {
            try camera.lockForConfiguration()
            camera.activeFormat = format
            camera.unlockForConfiguration()
        }
    }

    /// A multi-camera session with the back and front cameras, each joined by an explicit
    /// connection to a video data output of its own, set up as Apple's multi-camera picture in
    /// picture sample does.
    private func twoCameraSession(
        back: FrameCollector, front: FrameCollector
    ) throws -> (session: AVCaptureMultiCamSession, back: AVCaptureConnection, front: AVCaptureConnection) {
        let (session, connections) = try makeMultiCamSession(cameras: [backCamera, frontCamera], collectors: [back, front])
        return (session, connections[0], connections[1])
    }

    func testTheSessionPresetIsAlwaysInputPriority() {
        let session = AVCaptureMultiCamSession()
        XCTAssertEqual(session.sessionPreset, .inputPriority)
        XCTAssertTrue(session.canSetSessionPreset(.inputPriority))
        for preset in [AVCaptureSession.Preset.high, .photo, .vga640x480, .hd1280x720] {
            XCTAssertFalse(session.canSetSessionPreset(preset), "\(preset.rawValue)")
        }
        XCTAssertThrowsError(try session.setSessionPreset(.high))
        XCTAssertEqual(session.sessionPreset, .inputPriority)
    }

    func testAnInputsPortsAreFoundByMediaTypeDeviceTypeAndPosition() throws {
        let input = try AVCaptureDeviceInput(device: backCamera)
        XCTAssertEqual(input.ports(for: .video, sourceDeviceType: .builtInWideAngleCamera, sourceDevicePosition: .back).map(\.mediaType), [.video])
        XCTAssertEqual(input.ports(for: nil, sourceDeviceType: nil, sourceDevicePosition: .unspecified).count, input.ports.count)
        XCTAssertEqual(input.ports(for: .metadataObject, sourceDeviceType: nil, sourceDevicePosition: .back).map(\.mediaType), [.metadataObject])
        XCTAssertEqual(input.ports(for: .video, sourceDeviceType: nil, sourceDevicePosition: .front), [], "the back camera is no front camera")
        XCTAssertEqual(input.ports(for: .video, sourceDeviceType: .builtInTelephotoCamera, sourceDevicePosition: .back), [])
        XCTAssertEqual(input.ports(for: .audio, sourceDeviceType: nil, sourceDevicePosition: .unspecified), [])
    }

    func testTwoCamerasDeliverTheirOwnFormatsToTheirOwnOutputs() throws {
        useManualClock()
        try chooseFormats()
        let (back, front) = (FrameCollector(label: "back"), FrameCollector(label: "front"))
        let (session, _, _) = try twoCameraSession(back: back, front: front)
        session.startRunning()
        XCTAssertTrue(session.isRunning)
        XCTAssertTrue(advanceUntil { back.frames.count >= 3 && front.frames.count >= 3 }, "both cameras deliver: \(back.frames.count), \(front.frames.count)")
        XCTAssertEqual(Set(back.frames.map { [$0.width, $0.height] }), [[1280, 720]], "the back camera's own format")
        XCTAssertEqual(Set(front.frames.map { [$0.width, $0.height] }), [[640, 480]], "the front camera's own format")
        // Both on one clock: the frames of each step carry the same time.
        let common = Set(back.frames.map(\.presentationTime)).intersection(front.frames.map(\.presentationTime))
        XCTAssertGreaterThanOrEqual(common.count, 2, "frames taken together are stamped together")
    }

    func testACameraWhoseConnectionsAreDisabledStopsAndTheOtherGoesOn() throws {
        useManualClock()
        try chooseFormats()
        let (back, front) = (FrameCollector(label: "back"), FrameCollector(label: "front"))
        let (session, backConnection, frontConnection) = try twoCameraSession(back: back, front: front)
        session.startRunning()
        XCTAssertTrue(advanceUntil { back.frames.count >= 2 && front.frames.count >= 2 })
        XCTAssertTrue(backCamera.backend.imaging.current.isStreaming)

        backConnection.isEnabled = false
        XCTAssertFalse(backCamera.backend.imaging.current.isStreaming, "no enabled connection: the back camera stops")
        XCTAssertTrue(frontCamera.backend.imaging.current.isStreaming)
        XCTAssertTrue(session.isRunning)
        let (backCount, frontCount) = (back.frames.count, front.frames.count)
        XCTAssertTrue(advanceUntil(camera: frontCamera) { front.frames.count >= frontCount + 5 }, "the front camera goes on")
        XCTAssertEqual(back.frames.count, backCount, "the back camera delivers nothing")

        // Its port disabled instead, and the connection enabled: still stopped; the port enabled: it streams again.
        backConnection.inputPorts[0].isEnabled = false
        backConnection.isEnabled = true
        XCTAssertFalse(backCamera.backend.imaging.current.isStreaming, "a disabled port carries nothing either")
        backConnection.inputPorts[0].isEnabled = true
        XCTAssertTrue(backCamera.backend.imaging.current.isStreaming)
        XCTAssertTrue(advanceUntil { back.frames.count >= backCount + 3 }, "the back camera delivers again")
        XCTAssertTrue(frontConnection.isActive && backConnection.isActive)
    }

    func testAnOrdinarySessionKeepsACameraStreamingWithItsConnectionDisabled() throws {
        useManualClock()
        let collector = FrameCollector()
        let (session, output) = try makeVideoSession(collector: collector)
        session.startRunning()
        XCTAssertTrue(advanceUntil { collector.frames.count >= 2 })
        output.connection(with: .video)?.isEnabled = false
        XCTAssertTrue(backCamera.backend.imaging.current.isStreaming, "only a multi-camera session stops cameras so")
    }

    func testTheCostsCountEachStreamingCameraAgainstTheBudget() throws {
        useManualClock()
        try chooseFormats()
        // A budget of three 640x480 cameras at 30 frames a second.
        let vga = 640.0 * 480 * 30
        MultiCamBudget.pixelsPerSecond = vga * 3
        let (back, front) = (FrameCollector(label: "back"), FrameCollector(label: "front"))
        let (session, backConnection, _) = try twoCameraSession(back: back, front: front)
        // 1280x720 is three 640x480s: (3 + 1) / 3.
        XCTAssertEqual(session.hardwareCost, 4.0 / 3, accuracy: 1e-4)
        XCTAssertEqual(session.systemPressureCost, 4.0 / 3, accuracy: 1e-4, "one output a camera: the same")
        // Over budget: the session does not start, and says why.
        let refused = expectation(forNotification: AVCaptureSession.runtimeErrorNotification, object: session) { notification in
            (notification.userInfo?[AVCaptureSessionErrorKey] as? AVError)?.code == .sessionHardwareCostOverage
        }
        session.startRunning()
        wait(for: [refused], timeout: 10)
        XCTAssertFalse(session.isRunning)
        XCTAssertFalse(backCamera.backend.imaging.current.isStreaming)

        // The back camera at 10 frames a second costs a third as much: (1 + 1) / 3, and the session runs.
        let backInput = try XCTUnwrap(backConnection.inputPorts.first?.input as? AVCaptureDeviceInput)
        backInput.videoMinFrameDurationOverride = CMTime(value: 1, timescale: 10)
        XCTAssertEqual(session.hardwareCost, 2.0 / 3, accuracy: 1e-4)
        session.startRunning()
        XCTAssertTrue(session.isRunning)
        XCTAssertTrue(advanceUntil(frame: backInput.videoMinFrameDurationOverride) { back.frames.count >= 3 })
        let times = back.frames.suffix(2).map(\.presentationTime.seconds)
        XCTAssertEqual(times[1] - times[0], 0.1, accuracy: 0.005, "the back camera streams at the override's rate")

        // A second output on the front camera: no more hardware, more pressure.
        let second = AVCaptureVideoDataOutput()
        session.addOutputWithNoConnections(second)
        let frontInput = try XCTUnwrap(session.inputs.compactMap { $0 as? AVCaptureDeviceInput }.first { $0.device == frontCamera })
        session.addConnection(
            AVCaptureConnection(inputPorts: frontInput.ports(for: .video, sourceDeviceType: nil, sourceDevicePosition: .front), output: second))
        XCTAssertEqual(session.hardwareCost, 2.0 / 3, accuracy: 1e-4)
        XCTAssertEqual(session.systemPressureCost, 3.0 / 3, accuracy: 1e-4)
        // A camera with no enabled connection costs nothing.
        backConnection.isEnabled = false
        XCTAssertEqual(session.hardwareCost, 1.0 / 3, accuracy: 1e-4)

        // Running, a change that takes the cost over budget stops the session, saying why.
        backConnection.isEnabled = true
        XCTAssertTrue(session.isRunning)
        let stopped = expectation(forNotification: AVCaptureSession.runtimeErrorNotification, object: session) { notification in
            (notification.userInfo?[AVCaptureSessionErrorKey] as? AVError)?.code == .sessionHardwareCostOverage
        }
        backInput.videoMinFrameDurationOverride = .invalid
        XCTAssertEqual(session.hardwareCost, 4.0 / 3, accuracy: 1e-4)
        wait(for: [stopped], timeout: 10)
        XCTAssertFalse(session.isRunning)
        XCTAssertFalse(backCamera.backend.imaging.current.isStreaming)
        XCTAssertFalse(frontCamera.backend.imaging.current.isStreaming)
    }

    func testFormatsAndDeviceSetsFollowTheBudget() {
        let discovery = AVCaptureDevice.DiscoverySession(deviceTypes: [.builtInWideAngleCamera], mediaType: .video, position: .unspecified)
        // Room for one 1080p30 camera: formats up to half of it are multi-camera formats.
        MultiCamBudget.pixelsPerSecond = 1920 * 1080 * 30
        let supported = backCamera.formats.filter(\.isMultiCamSupported).map {
            "\($0.formatDescription.dimensions.width)x\($0.formatDescription.dimensions.height)"
        }
        XCTAssertEqual(supported, ["192x144", "352x288", "480x360", "640x480", "960x540", "1280x720"], "1280x720 at 60 and larger take more than half")
        XCTAssertEqual(discovery.supportedMultiCamDeviceSets, [[backCamera, frontCamera]])
        // Too little for two of the smallest formats: no set.
        MultiCamBudget.pixelsPerSecond = 192 * 144 * 30 * 1.5
        XCTAssertEqual(discovery.supportedMultiCamDeviceSets, [])
    }
}
