import CaptureTestSupport
import XCTest
@testable import AVFoundation
import TestSupport

/// The virtual scene's API, and WWDC 2013 session 610's photo-preset behaviour for video data outputs.
final class VirtualSceneTests: CaptureTestCase {
    func testAShownImageReplacesTheGeneratedScene() throws {
        var image: CVPixelBuffer?
        XCTAssertEqual(CVPixelBufferCreate(nil, 320, 240, kCVPixelFormatType_32BGRA, nil, &image), kCVReturnSuccess)
        CVPixelBufferLockBaseAddress(image!, [])
        let base = CVPixelBufferGetBaseAddress(image!)!.assumingMemoryBound(to: UInt32.self)
        let stride = CVPixelBufferGetBytesPerRow(image!) / 4
        for y in 0..<240 { for x in 0..<320 { base[y * stride + x] = 0xFF20_40E0 } }  // B=0xE0 G=0x40 R=0x20
        CVPixelBufferUnlockBaseAddress(image!, [])
        let collector = FrameCollector()
        collector.measures = true
        let (session, _) = try makeVideoSession(preset: .vga640x480, pixelFormat: kCVPixelFormatType_32BGRA, collector: collector)
        backCamera.virtualScene!.showImage(image)
        useManualClock()
        session.startRunning()
        XCTAssertTrue(advanceUntil { collector.frames.count >= 3 && !self.backCamera.isAdjustingFocus })
        let settled = collector.frames.count
        XCTAssertTrue(advanceUntil { collector.frames.count >= settled + 2 })
        let shown = try XCTUnwrap(collector.frames.last?.meanBGR)
        // libyuv's bilinear column filter weighs with 127/128, so scaled colours come out up to 1/128 darker.
        XCTAssertEqual(shown.0, 0xE0, accuracy: 4)
        XCTAssertEqual(shown.1, 0x40, accuracy: 3)
        XCTAssertEqual(shown.2, 0x20, accuracy: 3)
        backCamera.virtualScene!.showGeneratedScene()
        let count = collector.frames.count
        XCTAssertTrue(advanceUntil { collector.frames.count >= count + 2 })
        XCTAssertNotEqual(collector.frames.last!.meanBGR!.0, 0xE0, accuracy: 20, "the generated scene is back")
        session.stopRunning()
    }

    func testTheSceneMovesAndCountsFrames() throws {
        let collector = FrameCollector()
        var images: [CVPixelBuffer] = []
        let lock = NSLock()
        collector.onFrame = { sample in lock.withLock { if images.count < 2, let copy = sample.imageBuffer.flatMap(TestImages.copy) { images.append(copy) } } }
        let (session, _) = try makeVideoSession(preset: .cif352x288, pixelFormat: kCVPixelFormatType_32BGRA, collector: collector)
        useManualClock()
        session.startRunning()
        XCTAssertTrue(advanceUntil { lock.withLock { images.count == 2 } })
        session.stopRunning()
        let (a, b) = lock.withLock { (images[0], images[1]) }
        let size = CVPixelBufferGetDataSize(a)
        XCTAssertNotEqual(memcmp(CVPixelBufferGetBaseAddress(a)!, CVPixelBufferGetBaseAddress(b)!, size), 0, "something moves every frame")
    }

    func testBGRAFramesAreOpaqueSharpOrDefocused() throws {
        let collector = FrameCollector()
        let translucent = LockedBox(-1)
        collector.onFrame = { sample in
            guard let image = sample.imageBuffer else { return }
            CVPixelBufferLockBaseAddress(image, .readOnly)
            defer { CVPixelBufferUnlockBaseAddress(image, .readOnly) }
            let base = CVPixelBufferGetBaseAddress(image)!.assumingMemoryBound(to: UInt8.self)
            var count = 0
            for y in 0..<CVPixelBufferGetHeight(image) {
                for x in 0..<CVPixelBufferGetWidth(image) where base[y * CVPixelBufferGetBytesPerRow(image) + x * 4 + 3] != 255 { count += 1 }
            }
            translucent.value = count
        }
        let (session, _) = try makeVideoSession(preset: .vga640x480, pixelFormat: kCVPixelFormatType_32BGRA, collector: collector)
        useManualClock()
        session.startRunning()
        // The lens at its nearest: the scene, metres away, is blurred.
        try backCamera.lockForConfiguration()
        backCamera.setFocusModeLocked(lensPosition: 0)
        backCamera.unlockForConfiguration()
        XCTAssertTrue(advanceUntil { !self.backCamera.isAdjustingFocus })
        let seen = collector.frames.count
        XCTAssertTrue(advanceUntil { collector.frames.count > seen + 2 })
        XCTAssertEqual(translucent.value, 0, "a camera's pixels have alpha 255: \(translucent.value) had less")
    }

    func testPhotoPresetDeliversPreviewSizedFramesToVideoDataOutputs() throws {
        // WWDC 2013 session 610, "Configuration Using -setSessionPreset:": Photo gives 3264x2448 stills and 852x640 video data.
        let collector = FrameCollector()
        let (session, output) = try makeVideoSession(preset: .photo, pixelFormat: kCVPixelFormatType_32BGRA, collector: collector)
        XCTAssertEqual(backCamera.activeFormat.formatDescription.dimensions, CMVideoDimensions(width: 3264, height: 2448))
        XCTAssertEqual(attributeInt(output.videoSettings[kCVPixelBufferWidthKey as String]), 852)
        useManualClock()
        session.startRunning()
        XCTAssertTrue(advanceUntil { collector.frames.count >= 2 })
        session.stopRunning()
        XCTAssertTrue(collector.frames.allSatisfy { $0.width == 852 && $0.height == 640 })
    }

    func testFlashModes() throws {
        XCTAssertTrue(backCamera.isFlashModeSupported(.auto))
        XCTAssertFalse(frontCamera.isFlashModeSupported(.on))
        try backCamera.lockForConfiguration()
        backCamera.flashMode = .auto
        backCamera.unlockForConfiguration()
        XCTAssertEqual(backCamera.flashMode, .auto)
        XCTAssertFalse(backCamera.isFlashActive, "a lit room needs no flash")
        backCamera.virtualScene!.goDark()
        XCTAssertTrue(backCamera.isFlashActive, "auto flash fires in the dark")
    }

    func testAudioAsAnAsyncSequence() async throws {
        let session = AVCaptureSession()
        sessions.append(session)
        session.addInput(try AVCaptureDeviceInput(device: microphone))
        let output = AVCaptureAudioDataOutput()
        session.addOutput(output)
        let stream = output.linuxSampleBuffers()
        session.startRunning()
        var total = 0
        for await sample in stream {
            total += sample.numSamples
            if total >= 4096 { break }
        }
        session.stopRunning()
        XCTAssertGreaterThanOrEqual(total, 4096)
    }
}
