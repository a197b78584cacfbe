// The parts of Apple's capture API that LinuxAVFoundation does not offer yet.
//
// Each declaration below is Apple's, commented out; when one is implemented, it moves out
// of this file. Everything not listed here and not in the sources is outside the capture
// model this package follows (the seeds), such as multi-camera sessions and depth capture.

// MARK: Outputs

// AVCapturePhotoOutput: implemented for JPEG (libjpeg-turbo) and uncompressed BGRA/420v/420f photos of the
//     video's size, with zero shutter lag, the delegate timeline and flash resolution. Still to come: HEIC (libheif),
//     PNG, EXIF/TIFF/GPS metadata written into the files (libexif), photos larger than the video
//     (supportedMaxPhotoDimensions), the flash showing in the virtual picture, previewPhotoFormat and embedded
//     thumbnails, fileDataRepresentation() of uncompressed photos (TIFF), multi-frame noise reduction for .quality,
//     Live Photos and their delegate calls, AVDepthData, AVCaptureDeferredPhotoProxy, responsive capture.
// AVCaptureStillImageOutput: implemented (JPEG and uncompressed stills of the video's size); its EXIF attachments
//     (CMGetAttachment(buffer, key: kCGImagePropertyExifDictionary, ...)) and their merging into
//     jpegStillImageNSDataRepresentation(_:) come with EXIF writing (libexif).
// open class AVCaptureMetadataOutput: AVCaptureOutput
//     func setMetadataObjectsDelegate(_ objectsDelegate: AVCaptureMetadataOutputObjectsDelegate?, queue objectsCallbackQueue: DispatchQueue?)
//     var availableMetadataObjectTypes: [AVMetadataObject.ObjectType] { get }
//     var metadataObjectTypes: [AVMetadataObject.ObjectType]!
//     var rectOfInterest: CGRect
// open class AVMetadataObject, AVMetadataMachineReadableCodeObject, AVMetadataFaceObject
// open class AVCaptureVideoPreviewLayer
//     init(session: AVCaptureSession)
//     var videoGravity: AVLayerVideoGravity
//     func metadataOutputRectConverted(fromLayerRect rectInLayerCoordinates: CGRect) -> CGRect
//     func layerRectConverted(fromMetadataOutputRect rectInMetadataOutputCoordinates: CGRect) -> CGRect
//     func transformedMetadataObject(for metadataObject: AVMetadataObject) -> AVMetadataObject?
//     func captureDevicePointConverted(fromLayerPoint pointInLayer: CGPoint) -> CGPoint

// MARK: Connections

// extension AVCaptureConnection
//     var videoPreviewLayer: AVCaptureVideoPreviewLayer? { get }

// MARK: Devices

// extension AVCaptureDevice
//     var isLowLightBoostSupported: Bool { get }
//     var automaticallyEnablesLowLightBoostWhenAvailable: Bool
//     var isVideoHDREnabled: Bool
//     var activeColorSpace: AVCaptureColorSpace
//     var systemPressureState: AVCaptureDevice.SystemPressureState { get }
//     func chromaticityValues(for whiteBalanceGains: AVCaptureDevice.WhiteBalanceGains) -> AVCaptureDevice.WhiteBalanceChromaticityValues
// class RotationCoordinator: implemented, but a Linux machine reports no orientation, so its
//     angles stay 0 (upright cameras); it has no preview layer to read until the preview layer exists.
// 10-bit capture: V4L2 cameras that offer P010 deliver 'x420'; PipeWire cameras' 10-bit formats
//     are not offered yet, and no camera here (vivid, PipeWire's test camera) offers 10-bit to test with.
// Hardware backends not written yet: DMABUF for V4L2 and PipeWire; PipeWire camera controls (the node's Props);
// ALSA hotplug (cards are looked for at each lookup) and an ALSA mixer as the input gain.

// MARK: Writing, playback, editing and export

// class AVAsset, AVURLAsset, AVAssetReader, AVPlayer, AVPlayerItem (rate, audioTimePitchAlgorithm)
// class AVMutableComposition (insertTimeRange(_:of:at:), scaleTimeRange(_:toDuration:)), AVMutableVideoComposition
// class AVAssetExportSession (AVAssetExportPresetPassthrough, audioTimePitchAlgorithm)
// extension AVAssetWriterInput: var metadata: [AVMetadataItem]
// AVVideoColorPropertiesKey (AVVideoColorPrimariesKey, AVVideoTransferFunctionKey, AVVideoYCbCrMatrixKey) in
//     output settings: a written movie's colour is its frames' convention, not read from the settings.
// func CMSampleBufferGetSampleAttachmentsArray(_ sbuf: CMSampleBuffer, createIfNecessary: Bool) -> CFArray?
//     (compressed samples mark non-keyframes with kCMSampleAttachmentKey_NotSync set on the sample buffer itself)
// Photos taken while recording: the photo output is not implemented yet.

// MARK: Audio session

// extension AVAudioSession: routeChangeNotification, interruptionNotification, mediaServicesWereResetNotification;
//     setPreferredInputNumberOfChannels(_:), inputDataSources/setInputDataSource(_:) (a microphone's data sources),
//     outputs of currentRoute (capture routes no output); an ALSA card's mixer as input gain (only sound
//     server sources and the virtual microphone have a settable gain)

// MARK: Core Video and Core Media

// kCVImageBufferCGColorSpaceKey's value: Linux has no CGColorSpace; frames carry primaries, transfer function and matrix.
// R'G'B' to Y'CbCr in BT.709: libyuv converts with BT.601 only, so such frames (and movies made of them) say BT.601.
// func CMSampleBufferGetAudioBufferListWithRetainedBlockBuffer(...)
// func CMSampleBufferCopySampleBufferForRange(...)
