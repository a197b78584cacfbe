import CaptureTestSupport
import XCTest
@testable import AVFoundation
import TestSupport

/// The AV Foundation Programming Guide, "Use a Capture Session to Coordinate Data Flow": "When you add an input or an
/// output to a session, the session forms connections between all the compatible capture
/// inputs' ports and capture outputs." WWDC 2010 session 409: "AV capture session is greedy."
final class SessionGraphTests: CaptureTestCase {
    func testAddingAnInputConnectsItToEveryCompatibleOutput() throws {
        let session = AVCaptureSession()
        let video = AVCaptureVideoDataOutput(), audio = AVCaptureAudioDataOutput()
        session.addOutput(video)
        session.addOutput(audio)
        XCTAssertTrue(session.connections.isEmpty)
        session.addInput(try AVCaptureDeviceInput(device: backCamera))
        XCTAssertEqual(session.connections.count, 1)
        XCTAssertTrue(video.connection(with: .video)?.output === video)
        XCTAssertNil(audio.connection(with: .video))
        session.addInput(try AVCaptureDeviceInput(device: microphone))
        XCTAssertEqual(session.connections.count, 2)
        XCTAssertEqual(audio.connections.count, 1)
        XCTAssertEqual(audio.connections.first?.audioChannels.count, 1)
        XCTAssertEqual(video.connections.first?.audioChannels.count, 0)
    }

    func testAddingAnOutputConnectsEveryCompatibleInputPort() throws {
        let session = AVCaptureSession()
        let cameraInput = try AVCaptureDeviceInput(device: backCamera)
        session.addInput(cameraInput)
        session.addInput(try AVCaptureDeviceInput(device: microphone))
        let video = AVCaptureVideoDataOutput()
        session.addOutput(video)
        XCTAssertEqual(video.connections.count, 1)
        XCTAssertEqual(video.connections.first?.inputPorts.first?.mediaType, .video)
        XCTAssertTrue(video.connections.first?.inputPorts.first?.input === cameraInput)
        XCTAssertEqual(cameraInput.ports.first?.formatDescription?.dimensions.width, 1920)
    }

    func testRemovingAnInputOrOutputRemovesItsConnections() throws {
        let session = AVCaptureSession()
        let input = try AVCaptureDeviceInput(device: backCamera)
        let first = AVCaptureVideoDataOutput(), second = AVCaptureVideoDataOutput()
        session.addInput(input)
        session.addOutput(first)
        session.addOutput(second)
        XCTAssertEqual(session.connections.count, 2)
        session.removeOutput(first)
        XCTAssertEqual(session.connections.count, 1)
        XCTAssertTrue(first.connections.isEmpty)
        session.removeInput(input)
        XCTAssertTrue(session.connections.isEmpty)
        XCTAssertTrue(second.connections.isEmpty)
        XCTAssertTrue(session.canAddInput(input), "a removed input can be added again")
    }

    func testInputsAndOutputsBelongToOneSession() throws {
        let session = AVCaptureSession(), other = AVCaptureSession()
        let input = try AVCaptureDeviceInput(device: backCamera)
        XCTAssertTrue(session.canAddInput(input))
        session.addInput(input)
        XCTAssertFalse(session.canAddInput(input), "the same input twice")
        XCTAssertFalse(other.canAddInput(input), "an input of another session")
        XCTAssertFalse(session.canAddInput(try AVCaptureDeviceInput(device: backCamera)), "a second input for the same device")
        let output = AVCaptureVideoDataOutput()
        session.addOutput(output)
        XCTAssertFalse(other.canAddOutput(output))
    }

    func testManualConnections() throws {
        let session = AVCaptureSession()
        let input = try AVCaptureDeviceInput(device: backCamera)
        let output = AVCaptureVideoDataOutput()
        session.addInputWithNoConnections(input)
        session.addOutputWithNoConnections(output)
        XCTAssertTrue(session.connections.isEmpty)
        XCTAssertEqual(input.ports.map(\.mediaType), [.video, .metadataObject], "a camera's video, and the metadata objects found in it")
        let video = input.ports.filter { $0.mediaType == .video }
        XCTAssertFalse(session.canAddConnection(AVCaptureConnection(inputPorts: input.ports, output: output)), "a video data output takes no metadata objects")
        let connection = AVCaptureConnection(inputPorts: video, output: output)
        XCTAssertTrue(session.canAddConnection(connection))
        session.addConnection(connection)
        XCTAssertEqual(output.connections.count, 1)
        let another = AVCaptureConnection(inputPorts: video, output: output)
        XCTAssertFalse(session.canAddConnection(another), "a video data output takes one video connection")
        let audio = AVCaptureAudioDataOutput()
        session.addOutputWithNoConnections(audio)
        XCTAssertFalse(session.canAddConnection(AVCaptureConnection(inputPorts: video, output: audio)), "audio output refuses video")
        session.removeConnection(connection)
        XCTAssertTrue(output.connections.isEmpty)
    }

    func testVideoDataOutputConnectionsOrientAndMirrorButDoNotMirrorTheFrontCameraByThemselves() throws {
        // WWDC 2010 session 409 made the video data output an exception that could not orient or mirror;
        // current Apple platforms rotate and mirror its pixels when asked (PixelOrientationTests).
        let collector = FrameCollector()
        let (_, output) = try makeVideoSession(camera: frontCamera, collector: collector)
        let connection = try XCTUnwrap(output.connection(with: .video))
        XCTAssertTrue(connection.isVideoOrientationSupported)
        XCTAssertTrue(connection.isVideoMirroringSupported)
        XCTAssertFalse(connection.isVideoMirrored)
        XCTAssertTrue(connection.automaticallyAdjustsVideoMirroring)
        XCTAssertEqual(connection.videoRotationAngle, 0)
        XCTAssertEqual(connection.videoOrientation, .landscapeRight)
    }

    func testPresetsChooseTheSeedTableFormats() throws {
        // WWDC 2013 session 610, "iPhone 5 Back-Facing Camera Formats", column "Used by Preset".
        let expectations: [(AVCaptureSession.Preset, Int32, Int32, Bool)] = [
            (.low, 192, 144, true), (.cif352x288, 352, 288, true), (.medium, 480, 360, true), (.vga640x480, 640, 480, true),
            (.iFrame960x540, 960, 540, false), (.hd1280x720, 1280, 720, false), (.high, 1920, 1080, false), (.photo, 3264, 2448, false),
        ]
        let session = AVCaptureSession()
        session.addInput(try AVCaptureDeviceInput(device: backCamera))
        for (preset, width, height, binned) in expectations {
            XCTAssertTrue(session.canSetSessionPreset(preset), preset.rawValue)
            session.sessionPreset = preset
            let format = backCamera.activeFormat
            XCTAssertEqual(format.formatDescription.dimensions.width, width, preset.rawValue)
            XCTAssertEqual(format.formatDescription.dimensions.height, height, preset.rawValue)
            XCTAssertEqual(format.isVideoBinned, binned, preset.rawValue)
        }
        XCTAssertFalse(session.canSetSessionPreset(.hd4K3840x2160), "the iPhone 5 back camera has no 4K format")
        XCTAssertThrowsError(try session.setSessionPreset(.hd4K3840x2160))
        XCTAssertFalse(session.canSetSessionPreset(AVCaptureSession.Preset(rawValue: "NoSuchPreset")))
    }

    func testAnInputIsRefusedWhenItsDeviceCannotHonourThePreset() throws {
        let session = AVCaptureSession()
        session.sessionPreset = .hd1920x1080
        XCTAssertFalse(frontCamera.supportsSessionPreset(.hd1920x1080))
        XCTAssertFalse(session.canAddInput(try AVCaptureDeviceInput(device: frontCamera)))
        XCTAssertTrue(session.canAddInput(try AVCaptureDeviceInput(device: backCamera)))
        XCTAssertTrue(microphone.supportsSessionPreset(.hd1920x1080))
    }

    func testChoosingAFormatByHandSwitchesTheSessionToInputPriority() throws {
        // WWDC 2013 session 610: with active format selection, "Session no longer configures inputs and outputs automatically".
        let session = AVCaptureSession()
        session.addInput(try AVCaptureDeviceInput(device: backCamera))
        XCTAssertEqual(session.sessionPreset, .high)
        let sixty = try XCTUnwrap(backCamera.formats.first { $0.videoSupportedFrameRateRanges.contains { $0.maxFrameRate == 60 } })
        try backCamera.lockForConfiguration()
        backCamera.activeFormat = sixty
        backCamera.activeVideoMinFrameDuration = CMTime(value: 1, timescale: 60)
        backCamera.unlockForConfiguration()
        XCTAssertEqual(session.sessionPreset, .inputPriority)
        XCTAssertTrue(backCamera.activeFormat == sixty, "the session must not override the client's format")
        XCTAssertEqual(backCamera.activeVideoMinFrameDuration, CMTime(value: 1, timescale: 60))
    }

    func testConfigurationChangesWaitForTheOutermostCommit() throws {
        let collector = FrameCollector()
        let session = AVCaptureSession()
        sessions.append(session)
        session.sessionPreset = .cif352x288
        session.addInput(try AVCaptureDeviceInput(device: backCamera))
        useManualClock()
        session.startRunning()
        let output = AVCaptureVideoDataOutput()
        output.setSampleBufferDelegate(collector, queue: collector.queue)
        session.beginConfiguration()
        session.beginConfiguration()
        session.addOutput(output)
        session.commitConfiguration()
        passTime(0.3)
        drainMainQueue()
        XCTAssertEqual(collector.frames.count, 0, "an inner commit applies nothing")
        session.commitConfiguration()
        XCTAssertTrue(advanceUntil { collector.frames.count >= 3 }, "the outermost commit applies the change while running")
    }

    func testADisabledConnectionCarriesNoFrames() throws {
        let collector = FrameCollector()
        let (session, output) = try makeVideoSession(preset: .low, collector: collector)
        output.connection(with: .video)?.isEnabled = false
        useManualClock()
        session.startRunning()
        XCTAssertFalse(output.connection(with: .video)!.isActive)
        passTime(0.4)
        XCTAssertTrue(waitUntil { !session.outputsHaveWorkInFlight })
        XCTAssertEqual(collector.frames.count, 0)
        output.connection(with: .video)?.isEnabled = true
        XCTAssertTrue(output.connection(with: .video)!.isActive)
        XCTAssertTrue(advanceUntil { collector.frames.count >= 2 })
    }
}

extension SessionGraphTests {
    func testChoosingAFormatInsideAConfigurationBlockSticks() throws {
        let session = AVCaptureSession()
        session.beginConfiguration()
        session.addInput(try AVCaptureDeviceInput(device: backCamera))
        let sixty = try XCTUnwrap(backCamera.formats.first { $0.videoSupportedFrameRateRanges.contains { $0.maxFrameRate == 60 } })
        try backCamera.lockForConfiguration()
        backCamera.activeFormat = sixty
        backCamera.unlockForConfiguration()
        session.commitConfiguration()
        XCTAssertEqual(session.sessionPreset, .inputPriority)
        XCTAssertTrue(backCamera.activeFormat == sixty, "the preset must not override a format chosen before the commit")
    }
}

extension SessionGraphTests {
    func testChoosingTheFormatThatIsAlreadyActiveStillTakesANewSessionOutOfPresets() throws {
        let sixty = try XCTUnwrap(backCamera.formats.first { $0.videoSupportedFrameRateRanges.contains { $0.maxFrameRate == 60 } })
        let first = AVCaptureSession()
        first.addInput(try AVCaptureDeviceInput(device: backCamera))
        try backCamera.lockForConfiguration()
        backCamera.activeFormat = sixty
        backCamera.unlockForConfiguration()
        // A second session, as a new screen of an app makes one: the format chosen is the one already active.
        let second = AVCaptureSession()
        second.beginConfiguration()
        second.addInput(try AVCaptureDeviceInput(device: backCamera))
        try backCamera.lockForConfiguration()
        backCamera.activeFormat = sixty
        backCamera.unlockForConfiguration()
        second.commitConfiguration()
        XCTAssertEqual(second.sessionPreset, .inputPriority, "choosing a format by hand, even the active one, leaves presets")
        XCTAssertTrue(backCamera.activeFormat == sixty, "the second session's preset must not replace the chosen format")
    }

    func testAStoppedSessionLeavesASharedCameraToTheRunningOne() throws {
        let idle = AVCaptureSession()
        sessions.append(idle)
        idle.sessionPreset = .vga640x480
        idle.addInput(try AVCaptureDeviceInput(device: backCamera))
        let running = AVCaptureSession()
        sessions.append(running)
        running.sessionPreset = .hd1280x720
        running.addInput(try AVCaptureDeviceInput(device: backCamera))
        running.startRunning()
        spin(0.3)
        XCTAssertEqual(
            backCamera.activeFormat.formatDescription.dimensions, CMVideoDimensions(width: 1280, height: 720),
            "the idle session's preset does not take the format back")
    }
}
