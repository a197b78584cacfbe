import CaptureDevices
import Foundation
import FrameProcessing

/// A capture output for still images, Live Photos and other photography workflows.
///
/// The output keeps the newest frame its camera delivered (one frame of the camera's pool, held
/// by reference), so a photo is the frame that was current when `capturePhoto(with:delegate:)`
/// was called: zero shutter lag. Encoding and the delegate's calls happen on a queue of the
/// output's own, never on the camera's thread. Photos have the size of the session's video.
open class AVCapturePhotoOutput: AVCaptureOutput, @unchecked Sendable {
    /// How a capture trades speed for quality.
    public enum QualityPrioritization: Int, Sendable {
        /// As fast as possible: the encoder's quickest settings.
        case speed = 1
        /// A balance of speed and quality.
        case balanced = 2
        /// The best quality, taking longer.
        case quality = 3
    }

    private struct State {
        var usedSettings: Set<Int64> = []
        var maxPhotoQualityPrioritization: QualityPrioritization = .balanced
        var isZeroShutterLagEnabled = true
        var livePhotoRing: LivePhotoRing?
        var isLivePhotoCaptureSuspended = false
        var isLivePhotoAutoTrimmingEnabled = true
        var isDepthDataDeliveryEnabled = false
        var isHighResolutionCaptureEnabled = false
        var isResponsiveCaptureEnabled = false
        var isFastCapturePrioritizationEnabled = false
        var isAutoDeferredPhotoDeliveryEnabled = false
        /// Captures asked for and not yet delivered.
        var pending = 0
        /// Captures waiting for their frame, and captures handed to the processing queue and not finished.
        var awaitingFrames = 0
        var inProcessing = 0
        /// The readiness coordinators watching the output.
        var coordinators: [WeakCoordinator] = []
    }

    /// A coordinator the output tells of changes, held weakly.
    struct WeakCoordinator { weak var coordinator: AVCapturePhotoOutputReadinessCoordinator? }
    private let state = LockedValue(State())
    private let newest = NewestFrame()
    /// Where photos are made and the delegates called, one capture after another.
    private let processing = DispatchQueue(label: "AVCapturePhotoOutput")
    private let encoders = PhotoEncoders()
    private let previews = PreviewScaler()
    /// Where Live Photo movies wait for their last frames and are written, apart from the stills.
    private let livePhotoMovies = DispatchQueue(label: "AVCapturePhotoOutput.LivePhotos")
    /// How much of a Live Photo comes before and after the still.
    static let livePhotoHalfSpan = 1.5

    /// Creates a photo output.
    public override init() { super.init() }

    // MARK: Capabilities

    /// The codecs photos can be compressed with: HEVC (HEIC, through libheif and x265) where this
    /// machine's libheif can encode it, and JPEG (through libjpeg-turbo).
    open var availablePhotoCodecTypes: [AVVideoCodecType] { HEICEncoder.isAvailable ? [.hevc, .jpeg] : [.jpeg] }
    /// The pixel formats uncompressed photos can be delivered in.
    open var availablePhotoPixelFormatTypes: [OSType] { uncompressedStillPixelFormats }
    /// The file types photos can be written as.
    open var availablePhotoFileTypes: [AVFileType] { HEICEncoder.isAvailable ? [.heic, .jpg] : [.jpg] }
    /// The flash modes the connected camera offers for photos.
    open var supportedFlashModes: [AVCaptureDevice.FlashMode] { Self.flashModes(of: camera) }
    /// The flash modes `camera` offers for photos.
    private static func flashModes(of camera: AVCaptureDevice?) -> [AVCaptureDevice.FlashMode] {
        guard let camera else { return [] }
        return camera.hasFlash ? [.off, .on, .auto] : [.off]
    }
    /// The largest quality prioritization captures may ask for.
    open var maxPhotoQualityPrioritization: QualityPrioritization {
        get { state.withLock { $0.maxPhotoQualityPrioritization } }
        set { state.withLock { $0.maxPhotoQualityPrioritization = newValue } }
    }
    /// The largest photo this output delivers: the size of the session's video.
    open var maxPhotoDimensions: CMVideoDimensions {
        get { largestPhoto(from: camera) }
        set {
            let supported = maxPhotoDimensions
            if newValue.width > supported.width || newValue.height > supported.height {
                ProgrammingError.invalidArgument(
                    "-[AVCapturePhotoOutput setMaxPhotoDimensions:] \(newValue.width)x\(newValue.height) is larger than the format supports")
            }
        }
    }
    /// The largest photo `camera` gives: the newest frame's size, or its active format's before the first frame.
    private func largestPhoto(from camera: AVCaptureDevice?) -> CMVideoDimensions {
        if let frame = newest.current?.imageBufferStorage { return CMVideoDimensions(width: Int32(frame.width), height: Int32(frame.height)) }
        return camera?.activeFormat.formatDescription.dimensions ?? CMVideoDimensions()
    }
    /// Whether photos are taken at the highest resolution the active format supports (its video size here).
    open var isHighResolutionCaptureEnabled: Bool {
        get { state.withLock { $0.isHighResolutionCaptureEnabled } }
        set { state.withLock { $0.isHighResolutionCaptureEnabled = newValue } }
    }

    /// Whether Live Photos can be captured: when the output takes video from a camera.
    open var isLivePhotoCaptureSupported: Bool { connections.contains { $0.mediaType == .video } }
    /// Whether Live Photo capture is on: the output keeps the last seconds of video and audio for movies.
    open var isLivePhotoCaptureEnabled: Bool {
        get { state.withLock { $0.livePhotoRing != nil } }
        set {
            if newValue && !isLivePhotoCaptureSupported {
                ProgrammingError.invalidArgument(
                    "-[AVCapturePhotoOutput setLivePhotoCaptureEnabled:] Live Photo capture is not supported; see isLivePhotoCaptureSupported")
            }
            state.withLock { state in
                if newValue, state.livePhotoRing == nil {
                    state.livePhotoRing = LivePhotoRing(seconds: 2 * Self.livePhotoHalfSpan + 1)
                    state.livePhotoRing?.setSuspended(state.isLivePhotoCaptureSuspended)
                } else if !newValue {
                    state.livePhotoRing = nil
                }
            }
        }
    }
    /// The seconds of video the Live Photo ring holds (none while Live Photo capture is off).
    package var livePhotoKeptSeconds: Double { state.withLock { $0.livePhotoRing }?.keptVideoSeconds ?? 0 }

    /// Whether Live Photo capture is paused: movies end where the suspension began.
    open var isLivePhotoCaptureSuspended: Bool {
        get { state.withLock { $0.isLivePhotoCaptureSuspended } }
        set {
            state.withLock { state in
                state.isLivePhotoCaptureSuspended = newValue
                state.livePhotoRing?.setSuspended(newValue)
            }
        }
    }
    /// Whether Live Photo movies may be trimmed of unwanted motion (they are kept whole here).
    open var isLivePhotoAutoTrimmingEnabled: Bool {
        get { state.withLock { $0.isLivePhotoAutoTrimmingEnabled } }
        set { state.withLock { $0.isLivePhotoAutoTrimmingEnabled = newValue } }
    }
    /// The codecs Live Photo movies can be encoded with.
    open var availableLivePhotoVideoCodecTypes: [AVVideoCodecType] { [.h264] }
    /// Whether depth data can be delivered with photos: from the virtual back camera, whose scene's
    /// geometry is known; no other camera here measures depth.
    open var isDepthDataDeliverySupported: Bool {
        guard let camera, camera.position == .back else { return false }
        return camera.backend is VirtualCamera
    }
    /// Whether depth data delivery is on; captures may ask for depth only while it is.
    open var isDepthDataDeliveryEnabled: Bool {
        get { state.withLock { $0.isDepthDataDeliveryEnabled } }
        set {
            if newValue && !isDepthDataDeliverySupported {
                ProgrammingError.invalidArgument(
                    "-[AVCapturePhotoOutput setDepthDataDeliveryEnabled:] Depth data delivery is not supported; see isDepthDataDeliverySupported")
            }
            state.withLock { $0.isDepthDataDeliveryEnabled = newValue }
        }
    }
    /// Whether portrait effects mattes can be delivered: no segmenter exists here.
    open var isPortraitEffectsMatteDeliverySupported: Bool { false }
    /// Whether portrait effects matte delivery is on; it cannot be while unsupported.
    open var isPortraitEffectsMatteDeliveryEnabled: Bool {
        get { false }
        set {
            if newValue {
                ProgrammingError.invalidArgument(
                    "-[AVCapturePhotoOutput setPortraitEffectsMatteDeliveryEnabled:] Portrait effects matte delivery is not supported")
            }
        }
    }
    /// The semantic segmentation mattes photos can carry: none.
    open var availableSemanticSegmentationMatteTypes: [AVSemanticSegmentationMatte.MatteType] { [] }
    /// The semantic segmentation mattes photos carry; only available types may be enabled.
    open var enabledSemanticSegmentationMatteTypes: [AVSemanticSegmentationMatte.MatteType] {
        get { [] }
        set {
            if let type = newValue.first(where: { !availableSemanticSegmentationMatteTypes.contains($0) }) {
                ProgrammingError.invalidArgument("-[AVCapturePhotoOutput setEnabledSemanticSegmentationMatteTypes:] \(type.rawValue) is not available")
            }
        }
    }
    /// Whether a photo can be the frame current when it is asked for: yes, from the frames the output keeps.
    open var isZeroShutterLagSupported: Bool { true }
    /// Whether a photo is the frame current when it is asked for, rather than the next one.
    open var isZeroShutterLagEnabled: Bool {
        get { state.withLock { $0.isZeroShutterLagEnabled } }
        set { state.withLock { $0.isZeroShutterLagEnabled = newValue } }
    }
    /// Whether captures can overlap their processing: whenever the output takes video. Here every
    /// capture takes its frame when it is asked for and is processed after the ones before it.
    open var isResponsiveCaptureSupported: Bool { connections.contains { $0.mediaType == .video } }
    /// Whether responsive capture is on.
    open var isResponsiveCaptureEnabled: Bool {
        get { state.withLock { $0.isResponsiveCaptureEnabled } }
        set {
            if newValue && !isResponsiveCaptureSupported {
                ProgrammingError.invalidArgument(
                    "-[AVCapturePhotoOutput setResponsiveCaptureEnabled:] Responsive capture is not supported; see isResponsiveCaptureSupported")
            }
            state.withLock { state in
                state.isResponsiveCaptureEnabled = newValue
                if !newValue { state.isFastCapturePrioritizationEnabled = false }
            }
        }
    }
    /// Whether fast capture prioritization is offered: while responsive capture is on.
    open var isFastCapturePrioritizationSupported: Bool { isResponsiveCaptureEnabled }
    /// Whether photos taken in quick succession (while earlier ones still wait to be processed)
    /// are encoded at the speed prioritization, so that the shots keep coming.
    open var isFastCapturePrioritizationEnabled: Bool {
        get { state.withLock { $0.isFastCapturePrioritizationEnabled } }
        set {
            if newValue && !isFastCapturePrioritizationSupported {
                ProgrammingError.invalidArgument(
                    "-[AVCapturePhotoOutput setFastCapturePrioritizationEnabled:] Fast capture prioritization is not supported; see isFastCapturePrioritizationSupported"
                )
            }
            state.withLock { $0.isFastCapturePrioritizationEnabled = newValue }
        }
    }
    /// Whether photos can be delivered as proxies and finished later: whenever the output takes video.
    open var isAutoDeferredPhotoDeliverySupported: Bool { connections.contains { $0.mediaType == .video } }
    /// Whether photos asked for at the quality prioritization (in a compressed format, without a
    /// Live Photo) are delivered as `AVCaptureDeferredPhotoProxy` objects at once and finished by
    /// the photo library when the proxies are saved to it.
    open var isAutoDeferredPhotoDeliveryEnabled: Bool {
        get { state.withLock { $0.isAutoDeferredPhotoDeliveryEnabled } }
        set {
            if newValue && !isAutoDeferredPhotoDeliverySupported {
                ProgrammingError.invalidArgument(
                    "-[AVCapturePhotoOutput setAutoDeferredPhotoDeliveryEnabled:] Deferred photo delivery is not supported; see isAutoDeferredPhotoDeliverySupported"
                )
            }
            state.withLock { $0.isAutoDeferredPhotoDeliveryEnabled = newValue }
        }
    }

    private var camera: AVCaptureDevice? {
        connections.first { $0.mediaType == .video }?.sourceDevice
    }

    // MARK: Capturing

    /// Takes a photo with `settings`, reporting its progress and result to `delegate`.
    open func capturePhoto(with settings: AVCapturePhotoSettings, delegate: AVCapturePhotoCaptureDelegate) {
        let method = "-[AVCapturePhotoOutput capturePhotoWithSettings:delegate:]"
        guard let connection = connections.first(where: { $0.mediaType == .video }), connection.isEnabled, connection.isActive else {
            // A running session whose camera is being changed has no connection for a moment: a
            // client's timing, not a programming error, so the capture fails rather than the process.
            guard session?.isRunning == true else { ProgrammingError.invalidArgument("\(method) No active and enabled video connection") }
            let connection = connections.first { $0.mediaType == .video }
            if session?.isInterrupted == true {
                refuse(settings, delegate: delegate, .sessionWasInterrupted, "The photo cannot be taken: the session is interrupted.")
            } else if connection?.sourceDevice?.isConnected == false {
                refuse(settings, delegate: delegate, .deviceWasDisconnected, "The photo cannot be taken: the camera was disconnected.")
            } else {
                refuse(
                    settings, delegate: delegate, .sessionConfigurationChanged,
                    "The photo output has no active and enabled video connection: the session's camera is being changed.")
            }
            return
        }
        // Everything below is judged against the camera found now: another thread may change the
        // session's camera at any moment, and the output's own `camera` would then be another, or none.
        let camera = connection.sourceDevice
        let reused = state.withLock { state in !state.usedSettings.insert(settings.uniqueID).inserted }
        if reused { ProgrammingError.invalidArgument("\(method) Settings may not be re-used") }
        if let codec = settings.photoCodecType, !availablePhotoCodecTypes.contains(codec) {
            ProgrammingError.invalidArgument("\(method) Unsupported photo codec \(codec.rawValue); see availablePhotoCodecTypes")
        }
        if settings.photoCodecType == nil {
            guard let pixelFormat = settings.photoPixelFormatType, availablePhotoPixelFormatTypes.contains(pixelFormat) else {
                ProgrammingError.invalidArgument(
                    "\(method) Unsupported format \(String(describing: settings.format)); see availablePhotoCodecTypes and availablePhotoPixelFormatTypes")
            }
        }
        if !Self.flashModes(of: camera).contains(settings.flashMode) {
            ProgrammingError.invalidArgument("\(method) Unsupported flash mode \(settings.flashMode); see supportedFlashModes")
        }
        if settings.photoQualityPrioritization.rawValue > maxPhotoQualityPrioritization.rawValue {
            ProgrammingError.invalidArgument("\(method) photoQualityPrioritization may not exceed maxPhotoQualityPrioritization")
        }
        let largest = largestPhoto(from: camera)
        if settings.maxPhotoDimensions.width > largest.width || settings.maxPhotoDimensions.height > largest.height {
            ProgrammingError.invalidArgument(
                "\(method) maxPhotoDimensions \(settings.maxPhotoDimensions.width)x\(settings.maxPhotoDimensions.height) is larger than the output's")
        }
        if let preview = settings.previewPhotoFormat {
            let format = attributeOSType(preview[kCVPixelBufferPixelFormatTypeKey])
            if format == nil || !settings.availablePreviewPhotoPixelFormatTypes.contains(format!) {
                ProgrammingError.invalidArgument("\(method) Unsupported previewPhotoFormat pixel format; see availablePreviewPhotoPixelFormatTypes")
            }
        }
        if let thumbnail = settings.embeddedThumbnailPhotoFormat {
            let codec = (thumbnail[AVVideoCodecKey] as? AVVideoCodecType) ?? (thumbnail[AVVideoCodecKey] as? String).map(AVVideoCodecType.init(rawValue:))
            if codec == nil || !settings.availableEmbeddedThumbnailPhotoCodecTypes.contains(codec!) {
                ProgrammingError.invalidArgument("\(method) Unsupported embeddedThumbnailPhotoFormat codec; see availableEmbeddedThumbnailPhotoCodecTypes")
            }
        }
        if settings.isDepthDataDeliveryEnabled && !isDepthDataDeliveryEnabled {
            ProgrammingError.invalidArgument("\(method) depthDataDeliveryEnabled must be NO if self.isDepthDataDeliveryEnabled is NO")
        }
        if settings.isPortraitEffectsMatteDeliveryEnabled {
            ProgrammingError.invalidArgument("\(method) portraitEffectsMatteDeliveryEnabled must be NO if self.isPortraitEffectsMatteDeliveryEnabled is NO")
        }
        if let url = settings.livePhotoMovieFileURL {
            if !isLivePhotoCaptureEnabled { ProgrammingError.invalidArgument("\(method) Live Photo capture is not enabled; see isLivePhotoCaptureEnabled") }
            if !url.isFileURL { ProgrammingError.invalidArgument("\(method) livePhotoMovieFileURL must be a file URL") }
        }
        let orientation = PhotoMetadata.orientation(rotationAngle: connection.videoRotationAngle, mirrored: connection.isVideoMirrored)
        let flash =
            camera.map { camera in
                camera.hasFlash && (settings.flashMode == .on || (settings.flashMode == .auto && camera.backend.imaging.current.sceneLuminance < 0.3))
            } ?? false
        // Zero shutter lag: the frame current now; otherwise (or before the first frame) the first
        // frame that began after the request, not one already on its way when it came.
        // A flash photo cannot be an earlier frame: the flash fires (a V4L2 camera's is strobed),
        // frames already being made go by, and the photo is the first frame stamped a frame's
        // time after the firing, so that the flash lit all of it.
        let current = isZeroShutterLagEnabled && !flash ? newest.current : nil
        // A shot asked for while earlier ones still wait is rushed, when the app allows it.
        let rushed = state.withLock { state in
            defer { state.pending += 1 }
            return state.isFastCapturePrioritizationEnabled && state.pending > 0
        }
        let request = PhotoRequest(settings: settings, delegate: delegate, flash: flash, orientation: orientation, frame: current, rushed: rushed)
        let asked = camera?.backend.now ?? CMClock.hostTime(nanoseconds: CMClock.hostTimeNanoseconds())
        let coordinators = state.withLock { state in
            if current == nil || flash { state.awaitingFrames += 1 }
            return state.coordinators.compactMap(\.coordinator)
        }
        // The request the app tracked is now the output's to track.
        for coordinator in coordinators { coordinator.stopTrackingCaptureRequest(using: settings.uniqueID) }
        readinessMayHaveChanged()
        if let camera, flash {
            camera.backend.imaging.update { $0.isFlashFiring = true }
            firstFrame(beganAfter: asked, aFrameLater: true) { [self] frame in
                camera.backend.imaging.update { $0.isFlashFiring = false }
                frameArrived()
                process(request.with(frame))
            }
        } else if current == nil {
            firstFrame(beganAfter: asked, aFrameLater: false) { [self] frame in
                frameArrived()
                process(request.with(frame))
            }
        } else {
            process(request)
        }
    }

    /// Tells the delegate that a capture could not be made, on the output's queue, without a photo.
    private func refuse(_ settings: AVCapturePhotoSettings, delegate: AVCapturePhotoCaptureDelegate, _ code: AVError.Code, _ reason: String) {
        let resolved = AVCaptureResolvedPhotoSettings(
            uniqueID: settings.uniqueID, photoDimensions: CMVideoDimensions(), isFlashEnabled: false, previewDimensions: CMVideoDimensions(),
            livePhotoMovieDimensions: CMVideoDimensions(), embeddedThumbnailDimensions: CMVideoDimensions(), photoProcessingTimeRange: .zero)
        let error = AVError(code, userInfo: [NSLocalizedDescriptionKey: reason])
        let client = UncheckedSendable(delegate)
        processing.async { [self] in client.value.photoOutput(self, didFinishCaptureFor: resolved, error: error) }
    }

    /// Calls `body` with the first frame that began at or after `time`, or a frame's time after it
    /// when `aFrameLater` (a flash's firing).
    private func firstFrame(beganAfter time: CMTime, aFrameLater: Bool, _ body: @escaping @Sendable (CMSampleBuffer) -> Void) {
        newest.next { [self] frame in
            let duration = frame.duration.isValid && frame.duration > .zero ? frame.duration : CMTime(value: 1, timescale: 30)
            let earliest = aFrameLater ? time + duration : time
            if frame.presentationTimeStamp >= earliest { body(frame) } else { firstFrame(beganAfter: time, aFrameLater: aFrameLater, body) }
        }
    }

    /// A Live Photo's delegate and settings, handed to the Live Photo queue.
    private struct LivePhotoJob: @unchecked Sendable {
        let delegate: AVCapturePhotoCaptureDelegate
        let resolved: AVCaptureResolvedPhotoSettings
    }

    private struct PhotoRequest: @unchecked Sendable {
        let settings: AVCapturePhotoSettings
        let delegate: AVCapturePhotoCaptureDelegate
        let flash: Bool
        let orientation: CGImagePropertyOrientation
        let frame: CMSampleBuffer?
        /// Whether the photo is made at the speed prioritization, being one of shots in quick succession.
        let rushed: Bool

        func with(_ frame: CMSampleBuffer) -> PhotoRequest {
            PhotoRequest(settings: settings, delegate: delegate, flash: flash, orientation: orientation, frame: frame, rushed: rushed)
        }
    }

    /// A capture that waited for its frame has it.
    private func frameArrived() {
        state.withLock { $0.awaitingFrames -= 1 }
        readinessMayHaveChanged()
    }

    // MARK: Readiness

    /// The most captures processed at once before the output stops being ready: one, or three with responsive capture.
    private var processingLimit: Int { isResponsiveCaptureEnabled ? 3 : 1 }

    /// A value that indicates whether the output is ready to respond to new capture requests in a timely manner.
    open var captureReadiness: CaptureReadiness {
        guard session?.isRunning == true else { return .sessionNotRunning }
        let limit = processingLimit
        return state.withLock { state in
            if state.awaitingFrames > 0 { return .notReadyWaitingForCapture }
            if state.inProcessing >= limit { return .notReadyWaitingForProcessing }
            return .ready
        }
    }

    /// Adds a coordinator to tell of readiness changes.
    func addReadinessCoordinator(_ coordinator: AVCapturePhotoOutputReadinessCoordinator) {
        state.withLock { state in
            state.coordinators.removeAll { $0.coordinator == nil }
            state.coordinators.append(WeakCoordinator(coordinator: coordinator))
        }
    }

    /// Photos being made from frames they have (a capture still waiting for its frame waits for time, not work).
    package override var hasWorkInFlight: Bool { state.withLock { $0.inProcessing > 0 } }

    /// Tells the coordinators the readiness may have changed.
    private func readinessMayHaveChanged() {
        for coordinator in state.withLock({ $0.coordinators.compactMap(\.coordinator) }) { coordinator.readinessMayHaveChanged() }
    }

    /// Makes the photo and tells the delegate, in the order of the AVCam sample's timeline, on the output's queue.
    private func process(_ request: PhotoRequest) {
        state.withLock { $0.inProcessing += 1 }
        readinessMayHaveChanged()
        // A Live Photo's movie is cut from the ring as soon as the ring holds it, not once the
        // still is made: a still that takes longer than the ring keeps must not lose the movie's start.
        let reservation: LivePhotoClipReservation? = {
            guard request.settings.livePhotoMovieFileURL != nil, let frame = request.frame, frame.imageBufferStorage != nil,
                let ring = state.withLock({ $0.livePhotoRing })
            else { return nil }
            let half = CMTime(seconds: Self.livePhotoHalfSpan, preferredTimescale: 1_000_000)
            return LivePhotoClipReservation(ring, from: frame.presentationTimeStamp - half, to: frame.presentationTimeStamp + half)
        }()
        processing.async { [self] in
            defer {
                state.withLock { $0.inProcessing -= 1 }
                readinessMayHaveChanged()
            }
            let deferred = state.withLock { state -> Bool in
                state.pending -= 1
                return state.isAutoDeferredPhotoDeliveryEnabled && request.settings.photoQualityPrioritization == .quality
                    && request.settings.photoCodecType != nil && request.settings.livePhotoMovieFileURL == nil
            }
            let rushed = request.rushed
            guard let frame = request.frame, let pixels = frame.imageBufferStorage else { return }
            let dimensions = CMVideoDimensions(width: Int32(pixels.width), height: Int32(pixels.height))
            // A preview fits in the box the settings give (the photo's size when they give none), keeping the aspect ratio.
            var previewSize = (width: 0, height: 0)
            if let preview = request.settings.previewPhotoFormat {
                previewSize = PreviewScaler.size(
                    of: pixels.width, pixels.height, fittingIn: attributeInt(preview[kCVPixelBufferWidthKey]) ?? pixels.width,
                    attributeInt(preview[kCVPixelBufferHeightKey]) ?? pixels.height)
            }
            // An embedded thumbnail fits the box its format gives (320x240 when it gives none).
            var thumbnailSize: (width: Int, height: Int)?
            if let thumbnail = request.settings.embeddedThumbnailPhotoFormat {
                thumbnailSize = PreviewScaler.size(
                    of: pixels.width, pixels.height, fittingIn: attributeInt(thumbnail[AVVideoWidthKey]) ?? 320,
                    attributeInt(thumbnail[AVVideoHeightKey]) ?? 240)
            }
            let ring = request.settings.livePhotoMovieFileURL == nil ? nil : state.withLock { $0.livePhotoRing }
            let movieSize = ring?.frameSize ?? (0, 0)
            let resolved = AVCaptureResolvedPhotoSettings(
                uniqueID: request.settings.uniqueID, photoDimensions: dimensions, isFlashEnabled: request.flash,
                previewDimensions: CMVideoDimensions(width: Int32(previewSize.width), height: Int32(previewSize.height)),
                livePhotoMovieDimensions: CMVideoDimensions(width: Int32(movieSize.0), height: Int32(movieSize.1)),
                embeddedThumbnailDimensions: CMVideoDimensions(
                    width: Int32(thumbnailSize?.width ?? 0),
                    height: Int32(thumbnailSize?.height ?? 0)),
                photoProcessingTimeRange: CMTimeRange(start: .zero, duration: CMTime(value: 1, timescale: 10)),
                deferredPhotoProxyDimensions: deferred ? dimensions : CMVideoDimensions())
            let delegate = request.delegate
            delegate.photoOutput(self, willBeginCaptureFor: resolved)
            delegate.photoOutput(self, willCapturePhotoFor: resolved)
            delegate.photoOutput(self, didCapturePhotoFor: resolved)
            let capture = PhotoMetadata.capture(
                from: camera, date: PhotoMetadata.date(of: frame), width: pixels.width, height: pixels.height,
                orientation: request.orientation, flashFired: request.flash, flashMode: request.settings.flashMode)
            let metadata = PhotoMetadata.merged(PhotoMetadata.dictionary(for: capture), with: request.settings.metadata)
            if deferred, let codec = request.settings.photoCodecType {
                deliverProxy(of: pixels, codec: codec, metadata: metadata, thumbnail: thumbnailSize, frame: frame, resolved: resolved, delegate: delegate)
                return
            }
            var encoded: Data?
            var pixelBuffer: CVPixelBuffer?
            var failure: Error?
            // Shots in quick succession are encoded fast, when the app asks for that.
            let prioritization = rushed ? .speed : request.settings.photoQualityPrioritization
            if let codec = request.settings.photoCodecType {
                do {
                    encoded = try encoders.encode(pixels, codec: codec, prioritization: prioritization, metadata: metadata, thumbnail: thumbnailSize)
                } catch {
                    failure = error
                }
            } else if let format = request.settings.photoPixelFormatType {
                // An uncompressed photo is a copy of its own, so the camera's buffer goes back to the camera.
                let copy = CVPixelBuffer(width: pixels.width, height: pixels.height, pixelFormatType: format)
                if let copy, PixelFormatConverter().convert(pixels, into: copy) {
                    pixelBuffer = copy
                } else {
                    failure = AVError(.unknown, userInfo: [NSLocalizedDescriptionKey: "The photo could not be converted to \(format.fourCharacterString)."])
                }
            }
            let preview = previewSize.width > 0 ? previews.preview(of: pixels, width: previewSize.width, height: previewSize.height) : nil
            let depth = request.settings.isDepthDataDeliveryEnabled ? depthData(for: frame, width: pixels.width, height: pixels.height) : nil
            let photo = AVCapturePhoto(
                encoded: encoded, pixelBuffer: pixelBuffer, previewPixelBuffer: preview, depthData: depth, metadata: metadata,
                timestamp: frame.presentationTimeStamp,
                resolvedSettings: resolved)
            delegate.photoOutput(self, didFinishProcessingPhoto: photo, error: failure)
            if ring != nil, let reservation, let url = request.settings.livePhotoMovieFileURL {
                finishLivePhoto(reservation, at: frame.presentationTimeStamp, to: url, delegate: delegate, resolved: resolved, stillError: failure)
            } else {
                reservation?.whenCut { $0.release() }
                delegate.photoOutput(self, didFinishCaptureFor: resolved, error: failure)
            }
        }
    }

    /// Delivers a deferred photo: the frame kept (a copy, so that the camera's buffer goes back), a
    /// proxy JPEG made at once at the fastest settings, and the final encoding left to the photo
    /// library for when the proxy is saved there.
    private func deliverProxy(
        of pixels: CVPixelBuffer, codec: AVVideoCodecType, metadata: [String: Any], thumbnail: (width: Int, height: Int)?, frame: CMSampleBuffer,
        resolved: AVCaptureResolvedPhotoSettings, delegate: AVCapturePhotoCaptureDelegate
    ) {
        var failure: Error?
        var proxy: AVCaptureDeferredPhotoProxy?
        do {
            guard let kept = CVPixelBuffer(width: pixels.width, height: pixels.height, pixelFormatType: pixels.pixelFormatType),
                PixelFormatConverter().convert(pixels, into: kept)
            else { throw AVError(.unknown, userInfo: [NSLocalizedDescriptionKey: "The photo's pixels could not be kept for later processing."]) }
            let data = try encoders.encode(kept, codec: .jpeg, prioritization: .speed, metadata: metadata, thumbnail: thumbnail)
            let finalEncoders = PhotoEncoders()
            let metadataBox = UncheckedSendable(metadata)
            DeferredPhotoProcessing.register(proxy: data) {
                let final = try finalEncoders.encode(kept, codec: codec, prioritization: .quality, metadata: metadataBox.value, thumbnail: thumbnail)
                return (final, codec == .jpeg ? "jpg" : "heic")
            }
            proxy = AVCaptureDeferredPhotoProxy(
                encoded: data, pixelBuffer: nil, previewPixelBuffer: nil, metadata: metadata, timestamp: frame.presentationTimeStamp, resolvedSettings: resolved
            )
        } catch {
            failure = error
        }
        delegate.photoOutput(self, didFinishCapturingDeferredPhotoProxy: proxy, error: failure)
        delegate.photoOutput(self, didFinishCaptureFor: resolved, error: failure)
    }

    /// The depth map of the virtual scene as the frame shows it, fitting 640x480 (depth maps are smaller than photos).
    private func depthData(for frame: CMSampleBuffer, width: Int, height: Int) -> AVDepthData? {
        guard let camera = camera?.backend as? VirtualCamera else { return nil }
        let size = PreviewScaler.size(of: width, height, fittingIn: 640, 480)
        guard let map = CVPixelBuffer(width: size.width, height: size.height, pixelFormatType: kCVPixelFormatType_DepthFloat32) else { return nil }
        camera.renderDepth(into: map, capturedAt: frame.presentationTimeStamp)
        let depth = AVDepthData(map: map, quality: .high, accuracy: .absolute, filtered: true)
        // In the type the device's active depth data format names.
        guard let type = self.camera?.activeDepthDataFormat?.backing.pixelFormat, type != kCVPixelFormatType_DepthFloat32 else { return depth }
        return depth.converting(toDepthDataType: type)
    }

    /// Waits until the reservation's clip is cut (the ring held the frames after the still, on the
    /// camera's clock, or Live Photo capture was suspended), then writes the Live Photo's movie and
    /// tells the delegate, on the Live Photo queue (stills taken meanwhile are not held up). A
    /// camera that stops delivering does not hold the movie back for long: it is written from what
    /// the ring holds ten seconds after its end was due.
    private func finishLivePhoto(
        _ reservation: LivePhotoClipReservation, at stillTime: CMTime, to url: URL, delegate: AVCapturePhotoCaptureDelegate,
        resolved: AVCaptureResolvedPhotoSettings, stillError: Error?
    ) {
        let end = stillTime + CMTime(seconds: Self.livePhotoHalfSpan, preferredTimescale: 1_000_000)
        let job = LivePhotoJob(delegate: delegate, resolved: resolved)
        reservation.whenCut { [self, livePhotoMovies] clip in
            livePhotoMovies.async { [self] in
                defer { clip.release() }
                job.delegate.photoOutput(self, didFinishRecordingLivePhotoMovieForEventualFileAt: url, resolvedSettings: job.resolved)
                var error: Error?
                var timing = (duration: CMTime.invalid, photoDisplayTime: CMTime.invalid)
                do { timing = try LivePhotoMovie.write(clip, to: url, stillTime: stillTime) } catch let failure { error = failure }
                job.delegate.photoOutput(
                    self, didFinishProcessingLivePhotoToMovieFileAt: url, duration: timing.duration, photoDisplayTime: timing.photoDisplayTime,
                    resolvedSettings: job.resolved, error: error)
                job.delegate.photoOutput(self, didFinishCaptureFor: job.resolved, error: stillError ?? error)
            }
        }
        let backstop = max(0, (end - CMClockGetTime(CMClockGetHostTimeClock())).seconds) + 10
        livePhotoMovies.asyncAfter(deadline: .now() + backstop) { reservation.cut() }
    }

    // MARK: Session hooks

    override var demand: OutputDemand { OutputDemand(video: 1, audio: 1, fullSizeStills: true) }

    /// Keeps the newest frame (one of the camera's buffers, by reference) and hands it to captures
    /// waiting for one; with Live Photos on, keeps a scaled copy of each frame and the audio too.
    override func receive(_ sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        let ring = state.withLock { $0.livePhotoRing }
        if sampleBuffer.imageBufferStorage != nil {
            newest.receive(sampleBuffer)
            if let ring {
                let duration = connection.sourceDevice?.activeVideoMinFrameDuration.seconds ?? 0
                ring.receiveVideo(sampleBuffer, frameRate: duration > 0 ? 1 / duration : 30)
            }
        } else if connection.mediaType == .audio {
            ring?.receiveAudio(sampleBuffer)
        }
    }
}
