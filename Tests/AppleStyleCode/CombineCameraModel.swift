// A camera screen's model as apps of the ObservableObject era write it: `@Published` state fed by
// the session's and the movie output's properties through `publisher(for:)`, interruption
// notifications through the notification center's publisher, and a recording timer from
// `Timer.publish`; everything delivered on the main queue. It imports AVFoundation and Combine alone.
import AVFoundation
import Combine

/// The state a camera screen shows while it previews and records.
@MainActor
public final class CombineCameraModel: ObservableObject {
    /// Whether the session runs.
    @Published public private(set) var isSessionRunning = false
    /// Whether the movie output records.
    @Published public private(set) var isRecording = false
    /// How many ticks of the recording timer have passed since the recording started.
    @Published public private(set) var recordingTicks = 0
    /// Why the session is interrupted, while it is.
    @Published public private(set) var interruption: AVCaptureSession.InterruptionReason?
    /// Whether the record button is enabled: the session runs, uninterrupted, and nothing records.
    @Published public private(set) var canRecord = false

    public let session = AVCaptureSession()
    public let movieOutput = AVCaptureMovieFileOutput()
    private let tick: TimeInterval
    private var subscriptions = Set<AnyCancellable>()
    private var timer: AnyCancellable?

    /// Makes the model; `tick` is the recording timer's interval, a second on a real screen.
    public init(tick: TimeInterval = 1) {
        self.tick = tick
        session.publisher(for: \.isRunning)
            .receive(on: DispatchQueue.main)
            .assign(to: &$isSessionRunning)
        movieOutput.publisher(for: \.isRecording)
            .removeDuplicates()
            .receive(on: DispatchQueue.main)
            .sink { [weak self] recording in self?.recordingChanged(recording) }
            .store(in: &subscriptions)
        NotificationCenter.default.publisher(for: .AVCaptureSessionWasInterrupted, object: session)
            .compactMap { notification -> AVCaptureSession.InterruptionReason? in
                guard let number = notification.userInfo?[AVCaptureSessionInterruptionReasonKey] as? NSNumber else { return nil }
                return AVCaptureSession.InterruptionReason(rawValue: number.intValue)
            }
            .receive(on: DispatchQueue.main)
            .sink { [weak self] reason in self?.interruption = reason }
            .store(in: &subscriptions)
        NotificationCenter.default.publisher(for: .AVCaptureSessionInterruptionEnded, object: session)
            .receive(on: DispatchQueue.main)
            .sink { [weak self] _ in self?.interruption = nil }
            .store(in: &subscriptions)
        $isSessionRunning
            .combineLatest($isRecording, $interruption) { running, recording, interruption in running && !recording && interruption == nil }
            .removeDuplicates()
            .assign(to: &$canRecord)
    }

    /// Adds the default camera and the movie output to the session.
    public func configure() throws {
        guard let camera = AVCaptureDevice.default(for: .video) else { throw AVError(.deviceNotConnected) }
        let input = try AVCaptureDeviceInput(device: camera)
        session.beginConfiguration()
        session.sessionPreset = .vga640x480
        if session.canAddInput(input) { session.addInput(input) }
        if session.canAddOutput(movieOutput) { session.addOutput(movieOutput) }
        session.commitConfiguration()
    }

    private func recordingChanged(_ recording: Bool) {
        isRecording = recording
        guard recording else {
            timer = nil
            return
        }
        recordingTicks = 0
        timer = Timer.publish(every: tick, on: .main, in: .common)
            .autoconnect()
            .scan(0) { count, _ in count + 1 }
            .sink { [weak self] count in self?.recordingTicks = count }
    }
}
