// The parts of Apple's capture API that LinuxAVFoundation does not offer yet.
//
// Each declaration below is Apple's, commented out; when one is implemented, it moves out
// of this file. Everything not listed here and not in the sources is outside the capture
// model this package follows (the seeds), such as multi-camera sessions and depth capture.

// MARK: Outputs

// AVCapturePhotoOutput: implemented (JPEG, HEIC, uncompressed; EXIF; previews and embedded thumbnails; Live Photos;
//     depth from the virtual back camera, in the type its activeDepthDataFormat names among the active format's
//     supportedDepthDataFormats; zero shutter lag; flash). Still to come:
//     func fileDataRepresentation(with customizer: AVCapturePhotoFileDataRepresentationCustomizer) -> Data?
//     the metadata of uncompressed photos in their TIFF files (fileDataRepresentation() writes the pixels only)
//     captureReadiness's .notReadyMomentarily from the output itself (it comes only from requests a readiness
//     coordinator tracks: nothing here makes the output briefly busy)
//     multi-frame noise reduction for .quality (it uses q95 4:4:4 JPEG and x265's medium preset instead)
//     depth embedded in HEIC files as an auxiliary image; Live Photo content identifiers linking still and movie
//     photos larger than the video (supportedMaxPhotoDimensions is the video's size: a larger still would need the
//     stream reconfigured)
// AVCaptureMetadataOutput: implemented for machine-readable codes (ZXing-C++ 3) and faces (dlib). Still to come:
//     bodies and salient objects (.humanBody, .catBody, .dogBody, .salientObject; no detector for them in Debian)
//     requiredMetadataObjectTypesForCinematicVideoCapture and other Cinematic Video API
// extension AVMetadataMachineReadableCodeObject
//     descriptor for Aztec and PDF417 codes (nil: ZXing-C++ does not tell a compact Aztec code from a
//     full one, nor a PDF417 code's rows and columns); QR and Data Matrix codes have theirs, with
//     errorCorrectedPayload in the simplest encodation of the payload, not the symbol's own codewords
// AVCaptureScreenInput: implemented for the X11 display $DISPLAY names (crop, scale, cursor, clicks, frame rate).
//     Still to come: a Wayland desktop's screen (xdg-desktop-portal's ScreenCast and PipeWire), displays other
//     than the main one, removesDuplicateFrames (every frame is delivered), CGDisplayBounds and the display list.
// AVCaptureVideoPreviewLayer: implemented (geometry, conversions, frames for drawing, the browser live view
//     of avcapture preview); no Core Animation compositing (Linux has none).

// MARK: Devices

// extension AVCaptureDevice
//     var isLowLightBoostSupported: Bool { get }
//     var automaticallyEnablesLowLightBoostWhenAvailable: Bool
//     var systemPressureState: AVCaptureDevice.SystemPressureState { get }
//     func chromaticityValues(for whiteBalanceGains: AVCaptureDevice.WhiteBalanceGains) -> AVCaptureDevice.WhiteBalanceChromaticityValues
// isVideoHDREnabled, automaticallyAdjustsVideoHDREnabled, activeColorSpace and Format's supportedColorSpaces and
//     isVideoHDRSupported: implemented, answering sRGB and no HDR (what every camera here delivers); a V4L2
//     camera that reports BT.2020 or DCI-P3 frames tags them so, but its formats do not offer those spaces yet.
// class RotationCoordinator: implemented, but a Linux machine reports no orientation, so its
//     angles stay 0 (upright cameras).
// 10-bit capture: V4L2 cameras that offer P010 deliver 'x420'; PipeWire cameras' 10-bit formats
//     are not offered yet, and no camera here (vivid, PipeWire's test camera) offers 10-bit to test with.
// Hardware backends not written yet: DMABUF for V4L2 and PipeWire; PipeWire camera controls (the node's Props);
// ALSA hotplug (cards are looked for at each lookup) and an ALSA mixer as the input gain.

// MARK: Writing, playback, editing and export

// AVAsset, AVURLAsset, AVAssetTrack, AVAssetReader, AVAssetReaderTrackOutput, AVAssetReaderAudioMixOutput,
//     AVMutableComposition, AVMutableAudioMix, AVAssetExportSession, AVPlayer, AVQueuePlayer, AVPlayerItem,
//     AVPlayerItemVideoOutput, AVPlayerLooper, AVPlayerLayer (its pictures handed to a drawer): implemented.
// AVPlayerItemMetadataOutput (push delegate, identifiers, advance interval), AVTimedMetadataGroup (and from
//     a sample buffer), AVMutableTimedMetadataGroup, AVMetadataGroup, AVAssetReaderOutputMetadataAdaptor: implemented
//     for timed ID3 in MPEG-TS (HLS's timed metadata), read by FFmpeg and libid3tag. Still to come: timed metadata in
//     QuickTime movies ('mebx' tracks, which Debian's FFmpeg 5.1 neither reads nor writes),
//     AVAssetWriterInputMetadataAdaptor, metadata tracks in compositions (passed over there),
//     AVPlayerItemLegibleOutput, AVPlayerItemAccessLog/ErrorLog, AVPlayerInterstitialEventController
// extension AVPlayer: audioOutputDeviceUniqueID,
//     preventsDisplaySleepDuringVideoPlayback, seek(to date:) (files carry no dates: it does nothing)
// extension AVPlayerItem: the audio mix's audioTimePitchAlgorithm per track (the item's applies),
//     step(byCount:) lands on frame boundaries of the first video track only
// Sound plays to the server's default sink; the player's clock is the host's (or its sourceClock), and a sound card that
//     drifts from it over a long film is not corrected for
// AVMutableVideoComposition: frameDuration, renderSize, instructions (AVMutableVideoCompositionInstruction,
//     AVMutableVideoCompositionLayerInstruction: transforms, opacities, crops set and ramped; background colours)
//     and init(propertiesOf:) are implemented, composed in exports and by AVAssetReaderVideoCompositionOutput.
//     init(asset:applyingCIFiltersWithHandler:) and its async form filter each frame with Core Image.
//     isValid(for:timeRange:validationDelegate:) (and its async, completion-handler and track forms), the async
//     videoComposition(withPropertiesOf:), and customVideoCompositorClass (AVVideoCompositing, its render context and
//     AVAsynchronousVideoCompositionRequest; the class made with its own init() as Objective-C makes it) are implemented.
//     animationTool draws still layer trees (background colours, CGImage contents, opacity, hidden layers, zPosition,
//     the video layers), and AVVideoCompositionCoreAnimationTool(additionalLayer:asTrackID:) composes a still layer
//     tree as a track layer instructions name. Still to come: animations,
//     text layers, corner radii, masks and borders in the tool's layers (no Core Animation or Core Text renderer here);
//     a custom compositor's anticipateRendering/prerollForRendering hints and sourceSampleBuffer(byTrackID:). A player item's videoComposition composes what its outputs and
//     layers show.
// AVAssetResourceLoader: implemented for URLs of custom schemes (content information, byte ranges, the whole
//     resource, failures, cancellation). Still to come: content key requests (AVContentKeySession), renewal requests
//     (never issued), redirects and authentication challenges (never asked for), and HTTP(S) URLs read without a delegate.
// AVAssetImageGenerator: implemented (the exact frame at a time, scaled, turned upright, synchronous, async and
//     as an async sequence, cancellation, a videoComposition's composed frame). Still to come: apertureMode's cropping
//     (movies here carry no aperture dimensions); a tolerance after the time (the keyframe after it is not sought)
// extension AVAssetExportSession: estimatedOutputFileLength, determineCompatibleFileTypes(completionHandler:),
//     fileLengthLimit
// extension AVMutableComposition: the async insertTimeRange forms; AVURLAsset options other than precise timing
// Edit lists: a passthrough export of a time range starts at the keyframe before it (no edit list hides
//     the frames before the start); a composition's empty segments leave gaps rather than edits.
// AVAssetTrack.metadata and commonMetadata: a track's own metadata is not read (the asset's is).
// extension AVAssetWriterInput: var metadata: [AVMetadataItem]
// extension AVMetadataItem: metadataItems(from:filteredAndSortedAccordingToPreferredLanguages:), identifier(forKey:keySpace:),
//     keySpace(forIdentifier:), key(forIdentifier:), NSCopying and NSMutableCopying
// Writer video settings: scaling modes, profile levels, entropy coding, frame reordering, droppable frames,
//     colour properties, 10-bit HEVC and ProRes are honoured: R'G'B' frames are turned into Y'CbCr with the matrix
//     the settings name (libswscale). Still to come: Y'CbCr frames are not converted between matrices, nor any frame
//     between primaries or transfer functions: the settings' tags are written over them as the app's claim.
//     AVVideoCodecType.hevcWithAlpha (Debian's FFmpeg 5.1 and x265 encode no alpha layer).
// Segment writers (AVAssetWriter(contentType:)): segment reports give times in the segments' own media time,
//     which starts at zero at the session's start; passthrough inputs cut at their own keyframes only.

// MARK: Audio session

// extension AVAudioSession: silenceSecondaryAudioHintNotification is declared but never posted; data sources and polar
//     patterns (no microphone here describes any: inputDataSources is nil and only nil can be chosen); the preferred number
//     of input channels reaches the engine's input node, not capture sessions' audio outputs (which take the device's),
//     an ALSA card's mixer as input gain (only sound server sources and the virtual microphone have a settable gain);
//     outputs of the route where no sound server runs (the route's outputs are a PulseAudio or pipewire-pulse sink);
//     the speaker override moves playback that starts after it, not streams already playing; inputOrientation stays
//     .none (no microphone has a stereo data source); microphone injection (no Linux service adds an application's
//     audio to calls: isMicrophoneInjectionAvailable is false, the permission .serviceDisabled)

// MARK: Core Video and Core Media

// kCVImageBufferCGColorSpaceKey's value (a CGColorSpace): frames carry primaries, transfer function and matrix instead.
// R'G'B' to Y'CbCr in BT.709: libyuv converts with BT.601 only, so such frames (and movies made of them) say BT.601.
// CMSampleBufferCopySampleBufferForRange: implemented for sound of fixed-size frames (over the same memory) and
//     single-sample buffers; compressed samples of several sizes cannot be subdivided yet.

// MARK: Classes and protocols not here
// (A name followed by a star stands for every name that starts so; `scripts/parity.py` counts them, Parity/AVFoundation.md.)

// Capture, not built yet: depth streams and synchronized delivery of several outputs' data
//     (AVCaptureDepthDataOutput*, AVCaptureDataOutputSynchronizer*, AVCaptureSynchronized*), audio file and audio preview outputs
//     (AVCaptureAudioFileOutput, AVCaptureAudioPreviewOutput, AVCaptureFileOutputDelegate), bracketed stills
//     (AVCaptureBracketedStillImageSettings, AVCaptureAutoExposureBracketedStillImageSettings,
//     AVCaptureManualExposureBracketedStillImageSettings, AVCapturePhotoBracketSettings), device input sources
//     (AVCaptureDeviceInputSource), timecode (AVCaptureTimecode*), metadata inputs (AVCaptureMetadataInput), system
//     pressure (AVCaptureSystemPressureState), ranges (AVExposureBiasRange, AVZoomRange), deferred start and session
//     controls delegates (AVCaptureSessionDeferredStartDelegate, AVCaptureSessionControlsDelegate), spatial audio metadata
//     (AVCaptureSpatialAudioMetadataSampleGenerator), external displays (AVCaptureExternalDisplay*), smart framing
//     (AVCaptureFraming, AVCaptureSmartFramingMonitor)
// Capture, what Linux cannot have: the Camera Control button's controls (AVCaptureControl, AVCaptureSlider,
//     AVCaptureIndexPicker, AVCaptureSystemExposureBiasSlider, AVCaptureSystemZoomSlider), Desk View and Continuity Camera
//     (AVCaptureDeskViewApplication*, AVContinuityDevice), reaction effects (AVCaptureReactionEffectState), Apple's external
//     storage and sync accessories (AVExternalStorageDevice*, AVExternalSyncDevice*)
// Metadata objects without a detector in Debian: AVMetadataBodyObject, AVMetadataHumanBodyObject, AVMetadataHumanFullBodyObject,
//     AVMetadataCatBodyObject, AVMetadataCatHeadObject, AVMetadataDogBodyObject, AVMetadataDogHeadObject, AVMetadataSalientObject
// Assets and editing, not built yet: movies as editable containers (AVMovie, AVMovieTrack, AVMutableMovie, AVMutableMovieTrack,
//     AVMediaDataStorage, AVFragmentedMovie*, AVFragmentedAsset*, AVFragmentMinding), track groups and media selection
//     (AVAssetTrackGroup, AVMediaSelection, AVMediaSelectionGroup, AVMediaSelectionOption, AVMutableMediaSelection,
//     AVCustomMediaSelectionScheme, AVMediaPresentationSelector, AVMediaPresentationSetting, AVPlayerMediaSelectionCriteria),
//     captions (AVCaption*, AVMutableCaption*, AVAssetReaderCaptionValidationHandling, AVAssetReaderOutputCaptionAdaptor,
//     AVAssetWriterInputCaptionAdaptor, AVRenderedCaptionImage, AVTextStyleRule), sample cursors and references
//     (AVSampleCursor, AVAssetReaderSampleReferenceOutput, AVSampleBufferGenerator*, AVSampleBufferRequest), writer input groups
//     and multi-pass encoding (AVAssetWriterInputGroup, AVAssetWriterInputPassDescription), tagged pixel buffer groups and
//     spatial video (AVAssetWriterInputTaggedPixelBufferGroupAdaptor, AVSpatialVideoConfiguration), metadata filtering and
//     requests (AVMetadataItemFilter, AVMetadataItemValueRequest), date-range metadata (AVDateRangeMetadataGroup,
//     AVMutableDateRangeMetadataGroup), format description replacement (AVCompositionTrackFormatDescriptionReplacement),
//     render hints and performance metrics (AVVideoCompositionRenderHint, AVVideoPerformanceMetrics), asset caches
//     (AVAssetCache), playback assistants (AVAssetPlaybackAssistant), media extensions (AVMediaExtensionProperties)
// Playback, not built yet: sample buffer rendering and display layers (AVSampleBufferAudioRenderer, AVSampleBufferDisplayLayer,
//     AVSampleBufferVideoRenderer, AVSampleBufferRenderSynchronizer, AVQueuedSampleBufferRendering, AVSynchronizedLayer),
//     video outputs (AVPlayerVideoOutput, AVPlayerVideoOutputConfiguration, AVVideoOutputSpecification), legible and
//     metadata collectors (AVPlayerItemLegibleOutputPushDelegate, AVPlayerItemRenderedLegibleOutput*,
//     AVPlayerItemMediaDataCollector, AVPlayerItemMetadataCollector*), access and error logs (AVPlayerItemAccessLogEvent,
//     AVPlayerItemErrorLog*), interstitials and integrated timelines (AVPlayerInterstitialEvent*, AVPlayerItemIntegratedTimeline*,
//     AVPlayerItemSegment), HLS variants and metrics (AVAssetVariant*, AVMetric*), route detection (AVRouteDetector)
// Playback, what Linux cannot have: FairPlay content keys (AVContentKey*, AVPersistableContentKeyRequest), HLS downloads into
//     the system's storage (AVAssetDownload*, AVAggregateAssetDownloadTask, AVMutableAssetDownloadStorageManagementPolicy),
//     SharePlay's coordinated playback (AVPlaybackCoordinat*, AVPlayerPlaybackCoordinator*, AVDelegatingPlaybackCoordinator*,
//     AVCoordinatedPlayback*)
