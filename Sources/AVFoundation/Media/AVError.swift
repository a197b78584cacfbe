import Foundation

/// The domain of AVFoundation's errors.
public let AVFoundationErrorDomain = "AVFoundationErrorDomain"
/// The user-info key whose Boolean says whether a recording finished successfully despite the error.
public let AVErrorRecordingSuccessfullyFinishedKey = "AVErrorRecordingSuccessfullyFinishedKey"
/// The user-info key for the device an error concerns.
public let AVErrorDeviceKey = "AVErrorDeviceKey"
/// The user-info key for the time an error concerns.
public let AVErrorTimeKey = "AVErrorTimeKey"
/// The user-info key for the size of the file an error concerns.
public let AVErrorFileSizeKey = "AVErrorFileSizeKey"
/// The user-info key for the identifier of the process an error concerns.
public let AVErrorPIDKey = "AVErrorPIDKey"
/// The user-info key for the file type an error concerns.
public let AVErrorFileTypeKey = "AVErrorFileTypeKey"

/// An error from AVFoundation.
public struct AVError: CustomNSError, Hashable, @unchecked Sendable {
    /// AVFoundation's error codes.
    public enum Code: Int, Sendable, CaseIterable {
        case unknown = -11800
        case outOfMemory = -11801
        case sessionNotRunning = -11803
        case deviceAlreadyUsedByAnotherSession = -11804
        case noDataCaptured = -11805
        case sessionConfigurationChanged = -11806
        case diskFull = -11807
        case deviceWasDisconnected = -11808
        case mediaChanged = -11809
        case maximumDurationReached = -11810
        case maximumFileSizeReached = -11811
        case mediaDiscontinuity = -11812
        case maximumNumberOfSamplesForFileFormatReached = -11813
        case deviceNotConnected = -11814
        case deviceInUseByAnotherApplication = -11815
        case deviceLockedForConfigurationByAnotherProcess = -11817
        case sessionWasInterrupted = -11818
        case mediaServicesWereReset = -11819
        case exportFailed = -11820
        case decodeFailed = -11821
        case invalidSourceMedia = -11822
        case fileAlreadyExists = -11823
        case compositionTrackSegmentsNotContiguous = -11824
        case invalidCompositionTrackSegmentDuration = -11825
        case invalidCompositionTrackSegmentSourceStartTime = -11826
        case invalidCompositionTrackSegmentSourceDuration = -11827
        case fileFormatNotRecognized = -11828
        case fileFailedToParse = -11829
        case maximumStillImageCaptureRequestsExceeded = -11830
        case contentIsProtected = -11831
        case noImageAtTime = -11832
        case decoderNotFound = -11833
        case encoderNotFound = -11834
        case contentIsNotAuthorized = -11835
        case applicationIsNotAuthorized = -11836
        case deviceIsNotAvailableInBackground = -11837
        case operationNotSupportedForAsset = -11838
        case decoderTemporarilyUnavailable = -11839
        case encoderTemporarilyUnavailable = -11840
        case invalidVideoComposition = -11841
        case referenceForbiddenByReferencePolicy = -11842
        case invalidOutputURLPathExtension = -11843
        case screenCaptureFailed = -11844
        case displayWasDisabled = -11845
        case torchLevelUnavailable = -11846
        case operationInterrupted = -11847
        case incompatibleAsset = -11848
        case failedToLoadMediaData = -11849
        case serverIncorrectlyConfigured = -11850
        case applicationIsNotAuthorizedToUseDevice = -11852
        case failedToParse = -11853
        case fileTypeDoesNotSupportSampleReferences = -11854
        case undecodableMediaData = -11855
        case recordingAlreadyInProgress = -11859
        case sessionHardwareCostOverage = -11872
        case unsupportedDeviceActiveFormat = -11873
    }

    /// The error's code.
    public let code: Code
    /// Extra facts about the error.
    public let userInfo: [String: Any]

    /// Creates an error with a code and extra facts.
    public init(_ code: Code, userInfo: [String: Any] = [:]) {
        self.code = code
        self.userInfo = userInfo
    }

    /// The error domain: `AVFoundationErrorDomain`.
    public static var errorDomain: String { AVFoundationErrorDomain }
    /// The error's code as a number.
    public var errorCode: Int { code.rawValue }
    /// The user info, with a localized description where none was given.
    public var errorUserInfo: [String: Any] {
        var info = userInfo
        if info[NSLocalizedDescriptionKey] == nil { info[NSLocalizedDescriptionKey] = code.localizedDescription }
        return info
    }

    /// Whether the recording the error ended finished successfully all the same.
    public var recordingSuccessfullyFinished: Bool? { userInfo[AVErrorRecordingSuccessfullyFinishedKey] as? Bool }
    /// The device the error concerns.
    public var device: AVCaptureDevice? { userInfo[AVErrorDeviceKey] as? AVCaptureDevice }
    /// The time the error concerns.
    public var time: CMTime? { userInfo[AVErrorTimeKey] as? CMTime }
    /// The file size the error concerns.
    public var fileSize: Int64? { userInfo[AVErrorFileSizeKey] as? Int64 }
    /// A description of the error.
    public var localizedDescription: String { (errorUserInfo[NSLocalizedDescriptionKey] as? String) ?? code.localizedDescription }

    /// Whether two errors have the same code.
    public static func == (lhs: AVError, rhs: AVError) -> Bool { lhs.code == rhs.code }
    /// Hashes the error's code.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// An unknown error.
    public static let unknown = Code.unknown
    /// The disk is full.
    public static let diskFull = Code.diskFull
    /// The device was disconnected.
    public static let deviceWasDisconnected = Code.deviceWasDisconnected
    /// The recording reached its maximum duration.
    public static let maximumDurationReached = Code.maximumDurationReached
    /// The recording reached its maximum file size.
    public static let maximumFileSizeReached = Code.maximumFileSizeReached
    /// The file already exists.
    public static let fileAlreadyExists = Code.fileAlreadyExists
    /// The session was interrupted.
    public static let sessionWasInterrupted = Code.sessionWasInterrupted
    /// Media services were reset.
    public static let mediaServicesWereReset = Code.mediaServicesWereReset
    /// The device is not connected.
    public static let deviceNotConnected = Code.deviceNotConnected
    /// Another application uses the device.
    public static let deviceInUseByAnotherApplication = Code.deviceInUseByAnotherApplication
    /// The application may not use the device.
    public static let applicationIsNotAuthorizedToUseDevice = Code.applicationIsNotAuthorizedToUseDevice
}

extension AVError.Code {
    /// Matches an error against a code, so that `catch AVError.diskFull` works.
    public static func ~= (code: AVError.Code, error: any Error) -> Bool {
        (error as? AVError)?.code == code
    }

    /// A sentence that describes the error.
    public var localizedDescription: String {
        switch self {
        case .diskFull: return "The disk is full."
        case .deviceWasDisconnected: return "The capture device was disconnected."
        case .maximumDurationReached: return "The recording reached its maximum duration."
        case .maximumFileSizeReached: return "The recording reached its maximum file size."
        case .fileAlreadyExists: return "A file already exists at the output location."
        case .sessionWasInterrupted: return "The capture session was interrupted."
        case .mediaServicesWereReset: return "Media services were reset."
        case .deviceNotConnected: return "The capture device is not connected."
        case .deviceInUseByAnotherApplication: return "Another application is using the capture device."
        case .deviceLockedForConfigurationByAnotherProcess: return "Another process has locked the capture device for configuration."
        case .applicationIsNotAuthorizedToUseDevice: return "This application is not authorized to use the capture device."
        case .sessionNotRunning: return "The capture session is not running."
        case .noDataCaptured: return "No data was captured."
        case .torchLevelUnavailable: return "The torch level is unavailable."
        case .encoderNotFound: return "No encoder was found for the requested format."
        default: return "The operation could not be completed (AVFoundationErrorDomain error \(rawValue))."
        }
    }
}
