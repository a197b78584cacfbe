import Foundation
import Testing
import AVFoundation
import TestSupport

/// Misuse that Apple's AVFoundation raises as an exception stops the process here, with a
/// message that names the rule. Each case runs in a child process.
@Suite("Programming errors")
struct ProgrammingErrorTests {
    @Test("Setting a device property without lockForConfiguration traps")
    func propertyWithoutLock() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            isolateLockFiles()
            let camera = AVCaptureDevice.default(for: .video)!
            camera.focusMode = .locked
        }
        #expect(
            result.map {
                String(decoding: $0.standardErrorContent, as: UTF8.self).contains("may not be called without first successfully calling lockForConfiguration")
            } == true)
    }

    @Test("A color space the active format does not support traps, as Apple's device does")
    func unsupportedColorSpace() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            isolateLockFiles()
            let camera = AVCaptureDevice.default(for: .video)!
            try? camera.lockForConfiguration()
            camera.activeColorSpace = .P3_D65
        }
        #expect(result.map { String(decoding: $0.standardErrorContent, as: UTF8.self).contains("use activeFormat.supportedColorSpaces") } == true)
    }

    @Test("Setting video HDR while the device adjusts it automatically traps")
    func videoHDRWhileAutomatic() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            isolateLockFiles()
            let camera = AVCaptureDevice.default(for: .video)!
            try? camera.lockForConfiguration()
            camera.isVideoHDREnabled = false
        }
        #expect(result.map { String(decoding: $0.standardErrorContent, as: UTF8.self).contains("automaticallyAdjustsVideoHDREnabled is YES") } == true)
    }

    @Test("Turning on video HDR where the active format has none traps")
    func videoHDRUnsupported() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            isolateLockFiles()
            let camera = AVCaptureDevice.default(for: .video)!
            try? camera.lockForConfiguration()
            camera.automaticallyAdjustsVideoHDREnabled = false
            camera.isVideoHDREnabled = true
        }
        #expect(result.map { String(decoding: $0.standardErrorContent, as: UTF8.self).contains("use activeFormat.isVideoHDRSupported") } == true)
    }

    @Test("Turning on subject area monitoring without lockForConfiguration traps")
    func subjectAreaMonitoringWithoutLock() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            isolateLockFiles()
            AVCaptureDevice.default(for: .video)!.isSubjectAreaChangeMonitoringEnabled = true
        }
        #expect(
            result.map {
                String(decoding: $0.standardErrorContent, as: UTF8.self).contains("setSubjectAreaChangeMonitoringEnabled:] may not be called without first")
            } == true)
    }

    @Test("Reusing photo settings traps, as Apple's photo output does")
    func reusedPhotoSettings() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let (output, nothing) = photoOutput(camera: AVCaptureDevice.default(for: .video)!, running: true)
            let settings = AVCapturePhotoSettings()
            output.capturePhoto(with: settings, delegate: nothing)
            output.capturePhoto(with: settings, delegate: nothing)
        }
        #expect(result.map { String(decoding: $0.standardErrorContent, as: UTF8.self).contains("Settings may not be re-used") } == true)
    }

    @Test("A flash mode the camera does not have traps")
    func unsupportedPhotoFlash() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let (output, nothing) = photoOutput(camera: AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .front)!, running: true)
            let settings = AVCapturePhotoSettings()
            settings.flashMode = .on
            output.capturePhoto(with: settings, delegate: nothing)
        }
        #expect(result.map { String(decoding: $0.standardErrorContent, as: UTF8.self).contains("Unsupported flash mode") } == true)
    }

    @Test("A preview format in a pixel format previews are not offered in traps")
    func unsupportedPreviewFormat() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let (output, nothing) = photoOutput(camera: AVCaptureDevice.default(for: .video)!, running: true)
            let settings = AVCapturePhotoSettings()
            settings.previewPhotoFormat = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_420YpCbCr8BiPlanarFullRange]
            output.capturePhoto(with: settings, delegate: nothing)
        }
        #expect(result.map { String(decoding: $0.standardErrorContent, as: UTF8.self).contains("Unsupported previewPhotoFormat") } == true)
    }

    @Test("Asking a capture for depth while the output's depth delivery is off traps")
    func depthWithoutDelivery() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let (output, nothing) = photoOutput(camera: AVCaptureDevice.default(for: .video)!, running: true)
            let settings = AVCapturePhotoSettings()
            settings.isDepthDataDeliveryEnabled = true
            output.capturePhoto(with: settings, delegate: nothing)
        }
        #expect(result.map { String(decoding: $0.standardErrorContent, as: UTF8.self).contains("depthDataDeliveryEnabled must be NO") } == true)
    }

    @Test("A photo from a session that is not running traps: no active video connection")
    func photoWithoutRunningSession() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let (output, nothing) = photoOutput(camera: AVCaptureDevice.default(for: .video)!, running: false)
            output.capturePhoto(with: AVCapturePhotoSettings(), delegate: nothing)
        }
        #expect(result.map { String(decoding: $0.standardErrorContent, as: UTF8.self).contains("No active and enabled video connection") } == true)
    }

    @Test("Asking a still image output for the JPEG of an uncompressed still traps")
    func jpegOfUncompressedStill() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var buffer: CVPixelBuffer?
            CVPixelBufferCreate(nil, 16, 16, kCVPixelFormatType_32BGRA, nil, &buffer)
            var description: CMVideoFormatDescription?
            CMVideoFormatDescriptionCreateForImageBuffer(allocator: nil, imageBuffer: buffer!, formatDescriptionOut: &description)
            var sample: CMSampleBuffer?
            var timing = CMSampleTimingInfo()
            CMSampleBufferCreateReadyWithImageBuffer(
                allocator: nil, imageBuffer: buffer!, formatDescription: description!, sampleTiming: &timing, sampleBufferOut: &sample)
            _ = AVCaptureStillImageOutput.jpegStillImageNSDataRepresentation(sample!)
        }
        #expect(result.map { String(decoding: $0.standardErrorContent, as: UTF8.self).contains("Not a jpeg sample buffer") } == true)
    }

    @Test("A zoom factor beyond the format's maximum traps")
    func zoomOutOfRange() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            isolateLockFiles()
            let camera = AVCaptureDevice.default(for: .video)!
            try? camera.lockForConfiguration()
            camera.videoZoomFactor = camera.activeFormat.videoMaxZoomFactor + 1
        }
        #expect(result.map { String(decoding: $0.standardErrorContent, as: UTF8.self).contains("NSRangeException: videoZoomFactor") } == true)
    }

    @Test("An unsupported focus mode traps")
    func unsupportedFocusMode() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            isolateLockFiles()
            let camera = AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .front)!
            try? camera.lockForConfiguration()
            camera.focusMode = .autoFocus
        }
        #expect(result.map { String(decoding: $0.standardErrorContent, as: UTF8.self).contains("Unsupported focus mode") } == true)
    }

    @Test("A frame duration outside the format's ranges traps")
    func frameDurationOutOfRange() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            isolateLockFiles()
            let camera = AVCaptureDevice.default(for: .video)!
            try? camera.lockForConfiguration()
            camera.activeVideoMinFrameDuration = CMTime(value: 1, timescale: 240)
        }
        #expect(result.map { String(decoding: $0.standardErrorContent, as: UTF8.self).contains("is not supported by") } == true)
    }

    @Test("startRunning inside beginConfiguration/commitConfiguration traps")
    func startInsideConfiguration() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            isolateLockFiles()
            let session = AVCaptureSession()
            session.beginConfiguration()
            session.startRunning()
        }
        #expect(
            result.map {
                String(decoding: $0.standardErrorContent, as: UTF8.self).contains(
                    "startRunning may not be called between calls to beginConfiguration and commitConfiguration")
            } == true)
    }

    @Test("An unsupported session preset traps")
    func unsupportedPreset() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            isolateLockFiles()
            let session = AVCaptureSession()
            session.addInput(try! AVCaptureDeviceInput(device: AVCaptureDevice.default(for: .video)!))
            session.sessionPreset = .hd4K3840x2160
        }
        #expect(result.map { String(decoding: $0.standardErrorContent, as: UTF8.self).contains("Unsupported session preset") } == true)
    }

    @Test("Adding an input the session cannot take traps")
    func unaddableInput() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            isolateLockFiles()
            let session = AVCaptureSession()
            let input = try! AVCaptureDeviceInput(device: AVCaptureDevice.default(for: .video)!)
            session.addInput(input)
            session.addInput(input)
        }
        #expect(result.map { String(decoding: $0.standardErrorContent, as: UTF8.self).contains("Cannot add") } == true)
    }

    @Test("An unsupported pixel format in videoSettings traps")
    func unsupportedPixelFormat() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            isolateLockFiles()
            let output = AVCaptureVideoDataOutput()
            output.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: OSType(0x6A756E6B)]
        }
        #expect(result.map { String(decoding: $0.standardErrorContent, as: UTF8.self).contains("Unsupported pixel format type") } == true)
    }

    @Test("A rotation angle that is not a quarter turn traps, as Apple's does")
    func unsupportedRotationAngle() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            isolateLockFiles()
            let session = AVCaptureSession()
            session.addInput(try! AVCaptureDeviceInput(device: AVCaptureDevice.default(for: .video)!))
            let output = AVCaptureVideoDataOutput()
            session.addOutput(output)
            output.connection(with: .video)!.videoRotationAngle = 45
        }
        #expect(result.map { String(decoding: $0.standardErrorContent, as: UTF8.self).contains("Unsupported videoRotationAngle 45") } == true)
    }

    @Test("Orienting an audio connection traps: it carries no video")
    func orientingAudioConnection() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            isolateLockFiles()
            let session = AVCaptureSession()
            session.addInput(try! AVCaptureDeviceInput(device: AVCaptureDevice.default(for: .audio)!))
            let output = AVCaptureAudioDataOutput()
            session.addOutput(output)
            output.connection(with: .audio)!.videoOrientation = .portrait
        }
        #expect(result.map { String(decoding: $0.standardErrorContent, as: UTF8.self).contains("Video orientation is not supported") } == true)
    }

    @Test("Asking a metadata output for a type it does not have traps, as before it is connected")
    func unavailableMetadataObjectType() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            // Before the output is connected to a camera, no type is available (a classic mistake on Apple's platforms too).
            AVCaptureMetadataOutput().metadataObjectTypes = [.qr]
        }
        #expect(result.map { String(decoding: $0.standardErrorContent, as: UTF8.self).contains("Unsupported type found") } == true)
    }

    @Test("A rect of interest outside the picture traps")
    func rectOfInterestOutsideThePicture() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            AVCaptureMetadataOutput().rectOfInterest = CGRect(x: 0.5, y: 0.5, width: 0.8, height: 0.2)
        }
        #expect(result.map { String(decoding: $0.standardErrorContent, as: UTF8.self).contains("rectOfInterest must lie within") } == true)
    }

    @Test("The same misuse done right does not trap")
    func correctUseDoesNotTrap() async {
        await #expect(processExitsWith: .success) {
            isolateLockFiles()
            let camera = AVCaptureDevice.default(for: .video)!
            try! camera.lockForConfiguration()
            camera.focusMode = .locked
            camera.videoZoomFactor = camera.activeFormat.videoMaxZoomFactor
            camera.unlockForConfiguration()
        }
    }
}

/// A delegate that ignores every call.
private final class IgnoringPhotoDelegate: NSObject, AVCapturePhotoCaptureDelegate {}

/// In a child process: a session with `camera` and a photo output, running or not, and a delegate.
private func photoOutput(camera: AVCaptureDevice, running: Bool) -> (AVCapturePhotoOutput, AVCapturePhotoCaptureDelegate) {
    isolateLockFiles()
    let session = AVCaptureSession()
    session.addInput(try! AVCaptureDeviceInput(device: camera))
    let output = AVCapturePhotoOutput()
    session.addOutput(output)
    if running { session.startRunning() }
    // The session lives as long as the child, which ends at the trap.
    retainedSessions.append(session)
    return (output, IgnoringPhotoDelegate())
}
nonisolated(unsafe) private var retainedSessions: [AVCaptureSession] = []

/// Gives a child process lock files of its own, so that parallel children do not contend for a device's lock.
private func isolateLockFiles() {
    let directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("linuxavfoundation-exit-\(getpid())").path
    mkdir(directory, 0o700)
    // The configuration locks live in the runtime folder when there is one, else the temporary one.
    setenv("TMPDIR", directory, 1)
    setenv("XDG_RUNTIME_DIR", directory, 1)
}

@Suite("Asset writer misuse")
struct AssetWriterMisuseTests {
    @Test("Invalid output settings trap at AVAssetWriterInput init, before any frame")
    func invalidSettings() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = AVAssetWriterInput(mediaType: .video, outputSettings: [AVVideoCodecKey: "xvid", AVVideoWidthKey: 64, AVVideoHeightKey: 64])
        }
        #expect(result.map { String(decoding: $0.standardErrorContent, as: UTF8.self).contains("no encoder for codec xvid") } == true)
    }

    @Test("Appending before startSession traps")
    func appendBeforeSession() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let url = URL(fileURLWithPath: "/tmp/linuxavfoundation-exit-\(getpid()).mov")
            let writer = try! AVAssetWriter(outputURL: url, fileType: .mov)
            let input = AVAssetWriterInput(
                mediaType: .video, outputSettings: [AVVideoCodecKey: AVVideoCodecType.h264, AVVideoWidthKey: 64, AVVideoHeightKey: 64])
            let adaptor = AVAssetWriterInputPixelBufferAdaptor(assetWriterInput: input, sourcePixelBufferAttributes: nil)
            writer.add(input)
            writer.startWriting()
            var buffer: CVPixelBuffer?
            CVPixelBufferCreate(nil, 64, 64, kCVPixelFormatType_32BGRA, nil, &buffer)
            adaptor.append(buffer!, withPresentationTime: .zero)
        }
        #expect(result.map { String(decoding: $0.standardErrorContent, as: UTF8.self).contains("must start a session") } == true)
    }
}

@Suite("Asset reader misuse")
struct AssetReaderMisuseTests {
    /// A one-second movie made by the ffmpeg command, in a folder of this process's own.
    static func movie() -> URL {
        let url = URL(fileURLWithPath: "/tmp/linuxavfoundation-reader-\(getpid()).mp4")
        _ = runTool("/usr/bin/ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=160x120:r=30:d=1", "-c:v", "libx264", url.path])
        return url
    }

    @Test("Copying a sample before startReading traps")
    func copyBeforeStart() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let asset = AVURLAsset(url: AssetReaderMisuseTests.movie())
            let reader = try! AVAssetReader(asset: asset)
            let output = AVAssetReaderTrackOutput(track: asset.tracks[0], outputSettings: nil)
            reader.add(output)
            _ = output.copyNextSampleBuffer()
        }
        #expect(result.map { String(decoding: $0.standardErrorContent, as: UTF8.self).contains("before startReading") } == true)
    }

    @Test("Resetting an output's time ranges without random access traps")
    func resetWithoutRandomAccess() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let asset = AVURLAsset(url: AssetReaderMisuseTests.movie())
            let reader = try! AVAssetReader(asset: asset)
            let output = AVAssetReaderTrackOutput(track: asset.tracks[0], outputSettings: nil)
            reader.add(output)
            reader.startReading()
            while output.copyNextSampleBuffer() != nil {}
            output.reset(forReadingTimeRanges: [NSValue(timeRange: CMTimeRange(start: .zero, duration: CMTime(value: 1, timescale: 2)))])
        }
        #expect(result.map { String(decoding: $0.standardErrorContent, as: UTF8.self).contains("without setting supportsRandomAccess") } == true)
    }

    @Test("Resetting before the ranges before have been read to their end traps, and so do overlapping ranges")
    func resetTooEarlyOrOverlapping() async {
        let early = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let asset = AVURLAsset(url: AssetReaderMisuseTests.movie())
            let reader = try! AVAssetReader(asset: asset)
            let output = AVAssetReaderTrackOutput(track: asset.tracks[0], outputSettings: nil)
            output.supportsRandomAccess = true
            reader.add(output)
            reader.startReading()
            _ = output.copyNextSampleBuffer()
            output.reset(forReadingTimeRanges: [NSValue(timeRange: CMTimeRange(start: .zero, duration: CMTime(value: 1, timescale: 2)))])
        }
        #expect(early.map { String(decoding: $0.standardErrorContent, as: UTF8.self).contains("before copyNextSampleBuffer has returned NULL") } == true)
        let overlapping = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let asset = AVURLAsset(url: AssetReaderMisuseTests.movie())
            let reader = try! AVAssetReader(asset: asset)
            let output = AVAssetReaderTrackOutput(track: asset.tracks[0], outputSettings: nil)
            output.supportsRandomAccess = true
            reader.add(output)
            reader.startReading()
            while output.copyNextSampleBuffer() != nil {}
            let half = CMTime(value: 1, timescale: 2)
            output.reset(forReadingTimeRanges: [
                NSValue(timeRange: CMTimeRange(start: .zero, duration: half)),
                NSValue(timeRange: CMTimeRange(start: CMTime(value: 1, timescale: 4), duration: half)),
            ])
        }
        #expect(overlapping.map { String(decoding: $0.standardErrorContent, as: UTF8.self).contains("must not overlap") } == true)
    }

    @Test("Adding an output once reading has started traps")
    func addAfterStart() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let asset = AVURLAsset(url: AssetReaderMisuseTests.movie())
            let reader = try! AVAssetReader(asset: asset)
            reader.add(AVAssetReaderTrackOutput(track: asset.tracks[0], outputSettings: nil))
            reader.startReading()
            reader.add(AVAssetReaderTrackOutput(track: asset.tracks[0], outputSettings: nil))
        }
        #expect(result.map { String(decoding: $0.standardErrorContent, as: UTF8.self).contains("after reading has started") } == true)
    }

    @Test("A pixel format the reader cannot give traps at the output's creation")
    func unsupportedPixelFormat() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let asset = AVURLAsset(url: AssetReaderMisuseTests.movie())
            _ = AVAssetReaderTrackOutput(track: asset.tracks[0], outputSettings: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_24RGB])
        }
        #expect(result.map { String(decoding: $0.standardErrorContent, as: UTF8.self).contains("is not supported") } == true)
    }

    @Test("An output of another asset's track traps")
    func anotherAssetsTrack() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let url = AssetReaderMisuseTests.movie()
            let reader = try! AVAssetReader(asset: AVURLAsset(url: url))
            reader.add(AVAssetReaderTrackOutput(track: AVURLAsset(url: url).tracks[0], outputSettings: nil))
        }
        #expect(result.map { String(decoding: $0.standardErrorContent, as: UTF8.self).contains("another asset") } == true)
    }
}

/// What Apple's player raises an exception for traps here.
struct PlayerMisuseTests {
    @Test("Advancing at an item's end is for queue players only")
    func advanceOnAPlainPlayer() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            AVPlayer().actionAtItemEnd = .advance
        }
        #expect(result.map { String(decoding: $0.standardErrorContent, as: UTF8.self).contains("only by AVQueuePlayer") } == true)
    }

    @Test("An item plays in one player at a time")
    func oneItemTwoPlayers() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let item = AVPlayerItem(url: URL(fileURLWithPath: "/nonexistent.mp4"))
            let first = AVPlayer(playerItem: item)
            let second = AVPlayer(playerItem: item)
            withExtendedLifetime((first, second)) {}
        }
        #expect(result.map { String(decoding: $0.standardErrorContent, as: UTF8.self).contains("more than one instance of AVPlayer") } == true)
    }

    @Test("A boundary observer needs times")
    func emptyBoundaries() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = AVPlayer().addBoundaryTimeObserver(forTimes: [], queue: nil) {}
        }
        #expect(result.map { String(decoding: $0.standardErrorContent, as: UTF8.self).contains("times must not be empty") } == true)
    }
}

/// An audio mix output takes sound tracks only.
struct AudioMixMisuseTests {
    @Test("A video track cannot be mixed")
    func videoTrack() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let asset = AVURLAsset(url: AssetReaderMisuseTests.movie())
            _ = AVAssetReaderAudioMixOutput(audioTracks: asset.tracks, audioSettings: nil)
        }
        #expect(result.map { String(decoding: $0.standardErrorContent, as: UTF8.self).contains("must be audio tracks") } == true)
    }
}
