import CaptureDevices
import CoreMedia
import CoreVideo
import Foundation

/// Records sound from the microphone into a file, with metering.
///
/// The microphone is the audio session's preferred input, or the first there is (the virtual
/// microphone on a machine without one). The file's type comes from the URL's extension and its
/// format from the settings, as `AVAudioFile` writes them; it appears at the URL when recording
/// stops, complete. Thread-safe; the delegate hears on the main queue.
open class AVAudioRecorder: NSObject, @unchecked Sendable {
    /// Where the recording is written.
    public let url: URL
    /// The format of the recorded file.
    public let format: AVAudioFormat
    /// The object told when recording finishes or fails.
    open weak var delegate: (any AVAudioRecorderDelegate)? {
        get { state.withLock { $0.delegate } }
        set { state.withLock { $0.delegate = newValue } }
    }
    /// Whether `updateMeters()` measures the sound recorded.
    open var isMeteringEnabled: Bool {
        get { state.withLock { $0.metering } }
        set { state.withLock { $0.metering = newValue } }
    }

    private let givenSettings: [String: Any]
    private let meter: AudioMeter

    private struct State {
        weak var delegate: (any AVAudioRecorderDelegate)?
        var metering = false
        var file: AVAudioFile?
        var pipeline: RecordingPipeline?
        var device: CaptureDeviceBackend?
        /// Bumped by each recording, so that a finish meant for an earlier one is ignored.
        var recording = 0
    }
    private let state = LockedValue(State())

    /// Creates a recorder that writes to a file in the format the settings describe
    /// (`AVFormatIDKey`, `AVSampleRateKey`, `AVNumberOfChannelsKey`, ...); throws when they
    /// describe no format this can write in a file of the URL's type.
    public init(url: URL, settings: [String: Any]) throws {
        guard let parsed = AudioSettings(settings) else {
            throw AVAudioFile.error(.unsupportedDataFormat, "the settings do not describe an audio format", url)
        }
        _ = try SoundFilePlan(url: url, settings: parsed)
        var asbd = parsed.streamDescription
        guard let format = AVAudioFormat(streamDescription: &asbd, channelLayout: parsed.channelLayout) else {
            throw AVAudioFile.error(.unsupportedDataFormat, "the settings do not describe an audio format", url)
        }
        self.url = url
        self.format = format
        givenSettings = settings
        meter = AudioMeter(channels: Int(format.channelCount))
        super.init()
    }

    /// Creates a recorder that writes to a file in a format.
    public convenience init(url: URL, format: AVAudioFormat) throws {
        try self.init(url: url, settings: format.settings)
    }

    /// The settings of the recording: those given, with the format's rate and channels.
    open var settings: [String: Any] {
        var settings = givenSettings
        settings[AVFormatIDKey] = NSNumber(value: format.streamDescription.pointee.mFormatID)
        settings[AVSampleRateKey] = NSNumber(value: format.sampleRate)
        settings[AVNumberOfChannelsKey] = NSNumber(value: format.channelCount)
        return settings
    }

    // MARK: Recording

    /// Makes the file ready to record into (it appears at the URL when recording stops); false when it cannot be made.
    @discardableResult
    open func prepareToRecord() -> Bool { (try? preparedFile()) != nil }

    /// Starts or resumes recording; false when the file or the microphone cannot be opened.
    @discardableResult
    open func record() -> Bool { start(limit: nil) }

    /// Records for a number of seconds of sound, then stops and tells the delegate.
    @discardableResult
    open func record(forDuration duration: TimeInterval) -> Bool {
        guard duration.isFinite, duration > 0 else { return false }
        return start(limit: duration)
    }

    /// Starts recording after a delay on the device's clock (`deviceCurrentTime` plus seconds).
    @discardableResult
    open func record(atTime time: TimeInterval) -> Bool { record(atTime: time, forDuration: 0) }

    /// Starts recording at a time on the device's clock, for a number of seconds (0: until stopped).
    @discardableResult
    open func record(atTime time: TimeInterval, forDuration duration: TimeInterval) -> Bool {
        guard time.isFinite, duration.isFinite, duration >= 0 else { return false }
        guard (try? preparedFile()) != nil else { return false }
        let delay = max(0, time - deviceCurrentTime)
        let recording = state.withLock { $0.recording }
        DispatchQueue.global().asyncAfter(deadline: .now() + delay) { [weak self] in
            guard let self, self.state.withLock({ $0.recording }) == recording else { return }
            _ = self.start(limit: duration > 0 ? duration : nil)
        }
        return true
    }

    /// Pauses recording; `record()` resumes it into the same file.
    open func pause() { state.withLock { $0.pipeline }?.isPaused = true }

    /// Stops recording and closes the file, which then appears at the URL; the delegate hears it finished.
    open func stop() { finish(error: nil, recording: nil) }

    /// Whether the recorder is recording (not paused or stopped).
    open var isRecording: Bool { state.withLock { $0.pipeline.map { !$0.isPaused } ?? false } }

    /// The seconds recorded so far; 0 when stopped.
    open var currentTime: TimeInterval {
        guard let pipeline = state.withLock({ $0.pipeline }) else { return 0 }
        return Double(pipeline.framesWritten) / format.sampleRate
    }

    /// The time on the recording device's clock, in seconds.
    open var deviceCurrentTime: TimeInterval { CMClockGetTime(CMClockGetHostTimeClock()).seconds }

    /// Deletes the recorded file; false while recording or when there is none.
    @discardableResult
    open func deleteRecording() -> Bool {
        guard state.withLock({ $0.pipeline == nil }) else { return false }
        return (try? FileManager.default.removeItem(at: url)) != nil
    }

    // MARK: Metering

    /// Takes the levels of the sound recorded since the last call as the ones the power methods report.
    open func updateMeters() {
        guard isMeteringEnabled else { return }
        meter.update()
    }

    /// The peak power of a channel at the last `updateMeters()`, in decibels of full scale (-160 for silence).
    open func peakPower(forChannel channelNumber: Int) -> Float { isMeteringEnabled ? meter.peakPower(channelNumber) : AudioMeter.silence }

    /// The average power of a channel at the last `updateMeters()`, in decibels of full scale (-160 for silence).
    open func averagePower(forChannel channelNumber: Int) -> Float { isMeteringEnabled ? meter.averagePower(channelNumber) : AudioMeter.silence }

    // MARK: Helpers

    /// The file being recorded into, made if there is none.
    private func preparedFile() throws -> AVAudioFile {
        if let file = state.withLock({ $0.file }) { return file }
        let file = try AVAudioFile(forWriting: url, settings: givenSettings)
        state.withLock { $0.file = file }
        return file
    }

    /// Starts the microphone into the file, or resumes a paused recording.
    private func start(limit: TimeInterval?) -> Bool {
        if let pipeline = state.withLock({ $0.pipeline }) {
            pipeline.isPaused = false
            return true
        }
        guard let file = try? preparedFile(), let device = Microphones.current(), device.isAuthorized else { return false }
        let recording = state.withLock { state -> Int in
            state.recording += 1
            return state.recording
        }
        let frames = limit.map { Int64(($0 * file.processingFormat.sampleRate).rounded()) }
        let pipeline = RecordingPipeline(file: file, meter: meter, frameLimit: frames) { [weak self] error in
            // On the writing queue: finishing waits for that queue, so it happens elsewhere.
            guard let self else { return }
            DispatchQueue.global().async { self.finish(error: error, recording: recording) }
        }
        state.withLock {
            $0.pipeline = pipeline
            $0.device = device
        }
        do {
            try device.start(nil, sink: pipeline)
        } catch {
            state.withLock {
                $0.pipeline = nil
                $0.device = nil
            }
            return false
        }
        return true
    }

    /// Stops the microphone, finishes the file and tells the delegate; `recording` is the recording
    /// a finish from the pipeline is for (nil: whichever is under way).
    private func finish(error: Error?, recording: Int?) {
        let taken = state.withLock { state -> (RecordingPipeline, CaptureDeviceBackend?, AVAudioFile?)? in
            guard let pipeline = state.pipeline, recording == nil || recording == state.recording else { return nil }
            defer {
                state.pipeline = nil
                state.device = nil
                state.file = nil
            }
            return (pipeline, state.device, state.file)
        }
        guard let (pipeline, device, file) = taken else { return }
        device?.stop()
        pipeline.drain()
        let wrote = pipeline.framesWritten > 0
        if error != nil {
            file?.abandon()
        } else {
            file?.close()
        }
        let delegate = self.delegate
        DispatchQueue.main.async { [self] in
            if let error { delegate?.audioRecorderEncodeErrorDidOccur(self, error: error) }
            delegate?.audioRecorderDidFinishRecording(self, successfully: error == nil && wrote)
        }
    }
}
