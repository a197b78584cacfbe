import CaptureDevices
import Foundation
import FrameProcessing

/// Methods a metadata output calls with the objects it detects.
public protocol AVCaptureMetadataOutputObjectsDelegate: NSObjectProtocol {
    /// The objects detected in a frame; called once with an empty array when they are gone.
    func metadataOutput(_ output: AVCaptureMetadataOutput, didOutput metadataObjects: [AVMetadataObject], from connection: AVCaptureConnection)
}

extension AVCaptureMetadataOutputObjectsDelegate {
    /// Does nothing with detected objects.
    public func metadataOutput(_ output: AVCaptureMetadataOutput, didOutput metadataObjects: [AVMetadataObject], from connection: AVCaptureConnection) {}
}

/// An output that detects machine-readable codes and faces in a camera's frames and reports
/// them to a delegate.
///
/// Detection (ZXing-C++ 3 for codes, dlib for faces) runs on a thread of the output's own, beside the frame path, never
/// in it: the camera's thread only leaves the newest frame in a one-frame mailbox, so a slow
/// detector skips stale frames and never delays video data, movie or preview outputs, and a
/// delegate still busy with the last objects misses the next ones rather than queueing them.
/// Objects are in the device's normalized coordinates ((0,0) top left, (1,1) bottom right of
/// the unturned picture); only `rectOfInterest` is searched.
open class AVCaptureMetadataOutput: AVCaptureOutput, @unchecked Sendable {
    private struct Settings {
        weak var delegate: AVCaptureMetadataOutputObjectsDelegate?
        var queue: DispatchQueue?
        var types: [AVMetadataObject.ObjectType] = []
        var rectOfInterest = CGRect(x: 0, y: 0, width: 1, height: 1)
        var maximumCodes = 4
    }
    private let settings = LockedValue(Settings())
    private let detection = MetadataDetection()
    /// The sequences of `linuxMetadataObjectSequence()` now open, by number.
    private let observers = LockedValue<(next: Int, open: [Int: AsyncStream<[AVMetadataObject]>.Continuation])>((0, [:]))

    /// Creates a metadata output that detects nothing until `metadataObjectTypes` is set.
    public override init() {
        super.init()
        detection.deliver = { [weak self] result in self?.deliver(result) ?? false }
    }

    deinit { detection.stop() }

    // MARK: Delegate

    /// Sets the delegate and the serial queue its method runs on; `nil` stops delivery.
    open func setMetadataObjectsDelegate(_ objectsDelegate: AVCaptureMetadataOutputObjectsDelegate?, queue objectsCallbackQueue: DispatchQueue?) {
        if objectsDelegate != nil, objectsCallbackQueue == nil {
            ProgrammingError.invalidArgument("-[AVCaptureMetadataOutput setMetadataObjectsDelegate:queue:] a queue is required with a delegate")
        }
        settings.withLock { settings in
            settings.delegate = objectsDelegate
            settings.queue = objectsDelegate == nil ? nil : objectsCallbackQueue
        }
    }

    /// The objects each detection finds, as a sequence beside the delegate (Linux): any number of
    /// sequences may be open at once, none replaces the delegate, and each holds only the newest
    /// objects while its reader is busy. Detection runs while a delegate or a sequence listens.
    public func linuxMetadataObjectSequence() -> AsyncStream<[AVMetadataObject]> {
        let (stream, continuation) = AsyncStream<[AVMetadataObject]>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let number = observers.withLock { observers in
            defer { observers.next += 1 }
            observers.open[observers.next] = continuation
            return observers.next
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.observers.withLock { $0.open.removeValue(forKey: number) }
        }
        return stream
    }

    /// The delegate that receives detected objects.
    open var metadataObjectsDelegate: AVCaptureMetadataOutputObjectsDelegate? { settings.withLock { $0.delegate } }
    /// The queue the delegate's method runs on.
    open var metadataObjectsCallbackQueue: DispatchQueue? { settings.withLock { $0.queue } }

    // MARK: What to detect

    /// The object types the output can detect: every machine-readable code symbology and faces,
    /// once the output is connected to a camera; none before.
    open var availableMetadataObjectTypes: [AVMetadataObject.ObjectType] {
        guard
            connections.contains(where: { connection in
                connection.inputPorts.contains { port in (port.input as? AVCaptureDeviceInput)?.device.hasMediaType(.video) == true }
            })
        else { return [] }
        return CodeSymbology.allCases.map { AVMetadataObject.ObjectType(rawValue: $0.rawValue) } + Self.faceTypes
    }

    /// Faces, when the package is built with its FaceDetection trait (dlib).
    #if FaceDetection
        private static let faceTypes: [AVMetadataObject.ObjectType] = [.face]
    #else
        private static let faceTypes: [AVMetadataObject.ObjectType] = []
    #endif

    /// The object types to detect; empty (the default) detects nothing. Setting a type not in
    /// `availableMetadataObjectTypes` raises, as on Apple's platforms.
    open var metadataObjectTypes: [AVMetadataObject.ObjectType]! {
        get { settings.withLock { $0.types } }
        set {
            let types = newValue ?? []
            let available = Set(availableMetadataObjectTypes)
            if let unsupported = types.first(where: { !available.contains($0) }) {
                ProgrammingError.invalidArgument(
                    "-[AVCaptureMetadataOutput setMetadataObjectTypes:] Unsupported type found (\(unsupported.rawValue)) - use -availableMetadataObjectTypes")
            }
            settings.withLock { $0.types = types }
            updateDetection()
        }
    }

    /// The part of the picture searched, in the device's normalized coordinates; (0, 0, 1, 1), the whole picture, by default.
    open var rectOfInterest: CGRect {
        get { settings.withLock { $0.rectOfInterest } }
        set {
            let whole = CGRect(x: 0, y: 0, width: 1, height: 1)
            guard newValue.width >= 0, newValue.height >= 0, whole.contains(newValue.standardized) || whole == newValue else {
                ProgrammingError.invalidArgument("-[AVCaptureMetadataOutput setRectOfInterest:] rectOfInterest must lie within (0, 0, 1, 1); got \(newValue)")
            }
            settings.withLock { $0.rectOfInterest = newValue }
            updateDetection()
        }
    }

    /// The most machine-readable codes reported for one frame: 4, as on Apple's platforms, unless raised (Linux).
    public var linuxMaximumMachineReadableCodeCount: Int {
        get { settings.withLock { $0.maximumCodes } }
        set {
            if newValue < 1 { ProgrammingError.invalidArgument("linuxMaximumMachineReadableCodeCount must be at least 1; got \(newValue)") }
            settings.withLock { $0.maximumCodes = newValue }
            updateDetection()
        }
    }

    /// How detection went so far (Linux): frames searched, frames skipped for newer ones, and the time searching took.
    public var linuxDetectionStatistics: (framesSearched: Int, framesSkipped: Int, secondsSearching: Double) { detection.statistics }

    private func updateDetection() {
        let (types, rect, maximum) = settings.withLock { ($0.types, $0.rectOfInterest, $0.maximumCodes) }
        detection.configure(symbologies: Set(types.compactMap(\.codeSymbology)), faces: types.contains(.face), rectOfInterest: rect, maximumCodes: maximum)
    }

    // MARK: Session hooks

    override var demand: OutputDemand { OutputDemand(metadataObjects: 1, orientation: .unsupported) }

    /// Leaves the frame for the detector, if anything is to be detected and someone listens.
    override func receive(_ sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        guard sampleBuffer.imageBufferStorage != nil, settings.withLock({ $0.delegate != nil }) || observers.withLock({ !$0.open.isEmpty }) else { return }
        detection.offer(sampleBuffer, from: connection)
    }

    override func didDetach() { detection.clear() }
    package override var hasWorkInFlight: Bool { detection.hasWorkInFlight }
    override func sessionRunningDidChange(_ running: Bool) { if !running { detection.clear() } }

    /// Hands a detection's objects to every open sequence, and to the delegate on its queue unless
    /// it is still busy with the last ones.
    private func deliver(_ result: MetadataDetection.Result) -> Bool {
        let sequences = observers.withLock { Array($0.open.values) }
        for sequence in sequences { sequence.yield(result.objects) }
        let (delegate, queue) = settings.withLock { ($0.delegate, $0.queue) }
        guard let delegate, let queue, detection.beginDelivery() else { return !sequences.isEmpty }
        let objects = result.objects
        let connection = result.connection
        nonisolated(unsafe) let unsafeDelegate = delegate
        queue.async { [self] in
            defer { detection.endDelivery() }
            unsafeDelegate.metadataOutput(self, didOutput: objects, from: connection)
        }
        return true
    }
}

extension AVCaptureMetadataOutput {
    /// The machine-readable codes of `types` in a still picture (JPEG, PNG, PGM or PPM), their
    /// corners normalized to the picture (Linux). The output's reader looks first; where it finds
    /// nothing, the picture is looked at again thresholded at one level, at half size, sharpened,
    /// and turned either way. Throws when the picture cannot be read.
    public static func linuxMachineReadableCodes(
        inImageData data: Data, types: [AVMetadataObject.ObjectType],
        maximumCount: Int = 4
    ) throws -> [AVMetadataMachineReadableCodeObject] {
        let picture = try GreyPicture.decode(data)
        let reader = CodeReader(symbologies: Set(types.compactMap(\.codeSymbology)), maximumCodes: maximumCount)
        let size = CGSize(width: picture.width, height: picture.height)
        return reader.readStill(picture).map { AVMetadataMachineReadableCodeObject($0, in: size, time: .invalid, duration: .invalid) }
    }
}
