// The parts of Apple's capture API that LinuxAVFoundation does not offer yet.
//
// Each declaration below is Apple's, commented out; when one is implemented, it moves out
// of this file. Everything not listed here and not in the sources is outside the capture
// model this package follows (the seeds), such as multi-camera sessions and depth capture.

// MARK: Outputs

// open class AVCapturePhotoOutput: AVCaptureOutput
//     func capturePhoto(with settings: AVCapturePhotoSettings, delegate: AVCapturePhotoCaptureDelegate)
// open class AVCapturePhotoSettings, AVCapturePhoto, AVCaptureResolvedPhotoSettings
// protocol AVCapturePhotoCaptureDelegate
// open class AVCaptureStillImageOutput: AVCaptureOutput
//     func captureStillImageAsynchronously(from connection: AVCaptureConnection, completionHandler: @escaping (CMSampleBuffer?, Error?) -> Void)
//     class func jpegStillImageNSDataRepresentation(_ jpegSampleBuffer: CMSampleBuffer) -> Data?
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

// MARK: Video data output

// Rotation and mirroring of delivered frames on a video data output's connection, which
// current Apple platforms perform: seed 002 says the video data output does not support
// them, and this package follows the seed.

// MARK: Connections

// extension AVCaptureConnection
//     var videoRotationAngle: CGFloat
//     func isVideoRotationAngleSupported(_ videoRotationAngle: CGFloat) -> Bool
//     var videoPreviewLayer: AVCaptureVideoPreviewLayer? { get }

// MARK: Devices

// extension AVCaptureDevice
//     var isSubjectAreaChangeMonitoringEnabled: Bool
//     var isLowLightBoostSupported: Bool { get }
//     var automaticallyEnablesLowLightBoostWhenAvailable: Bool
//     var isVideoHDREnabled: Bool
//     var activeColorSpace: AVCaptureColorSpace
//     var systemPressureState: AVCaptureDevice.SystemPressureState { get }
//     func chromaticityValues(for whiteBalanceGains: AVCaptureDevice.WhiteBalanceGains) -> AVCaptureDevice.WhiteBalanceChromaticityValues
//     class RotationCoordinator
// Hardware backends not written yet: DMABUF for V4L2 and PipeWire; PipeWire camera controls (the node's Props);
// ALSA hotplug (cards are looked for at each lookup) and an ALSA mixer as the input gain.

// MARK: Writing, playback, editing and export

// class AVAsset, AVURLAsset, AVAssetReader, AVPlayer, AVPlayerItem (rate, audioTimePitchAlgorithm)
// class AVMutableComposition (insertTimeRange(_:of:at:), scaleTimeRange(_:toDuration:)), AVMutableVideoComposition
// class AVAssetExportSession (AVAssetExportPresetPassthrough, audioTimePitchAlgorithm)
// extension AVAssetWriterInput: var transform: CGAffineTransform; var metadata: [AVMetadataItem]
// func CMSampleBufferGetSampleAttachmentsArray(_ sbuf: CMSampleBuffer, createIfNecessary: Bool) -> CFArray?
//     (compressed samples mark non-keyframes with kCMSampleAttachmentKey_NotSync set on the sample buffer itself)
// Photos taken while recording: the photo output is not implemented yet.

// MARK: Audio session

// extension AVAudioSession: routeChangeNotification, interruptionNotification, mediaServicesWereResetNotification;
//     setPreferredInputNumberOfChannels(_:), inputDataSources/setInputDataSource(_:) (a microphone's data sources),
//     outputs of currentRoute (capture routes no output); an ALSA card's mixer as input gain (only sound
//     server sources and the virtual microphone have a settable gain)

// MARK: Core Video and Core Media

// func CVBufferSetAttachment(_ buffer: CVBuffer, _ key: CFString, _ value: CFTypeRef, _ attachmentMode: CVAttachmentMode)
// func CVBufferCopyAttachment(_ buffer: CVBuffer, _ key: CFString, _ attachmentMode: UnsafeMutablePointer<CVAttachmentMode>?) -> CFTypeRef?
// func CMSampleBufferGetAudioBufferListWithRetainedBlockBuffer(...)
// func CMSampleBufferCopySampleBufferForRange(...)
