import AVFoundation

/// A voice memo recorder as iOS apps write one: the audio session set for recording, an
/// `AVAudioRecorder` with AAC settings, and a timer that polls the recorder's meter ten times a
/// second for a level bar, each level from 0 to 1.
public final class VoiceMemoRecorder: NSObject, AVAudioRecorderDelegate, @unchecked Sendable {
    public private(set) var levels: [Float] = []
    public var onFinish: ((Bool) -> Void)?
    private var audioRecorder: AVAudioRecorder?
    private var meterTimer: Timer?

    public func startRecording(to url: URL) throws {
        let session = AVAudioSession.sharedInstance()
        try session.setCategory(.playAndRecord, mode: .default)
        try session.setActive(true)
        let settings = [
            AVFormatIDKey: Int(kAudioFormatMPEG4AAC),
            AVSampleRateKey: 12000,
            AVNumberOfChannelsKey: 1,
            AVEncoderAudioQualityKey: AVAudioQuality.high.rawValue,
        ]
        audioRecorder = try AVAudioRecorder(url: url, settings: settings)
        audioRecorder?.delegate = self
        audioRecorder?.isMeteringEnabled = true
        audioRecorder?.record()
        meterTimer = Timer.scheduledTimer(withTimeInterval: 0.1, repeats: true) { [weak self] _ in
            guard let self, let recorder = self.audioRecorder else { return }
            recorder.updateMeters()
            self.levels.append(self.normalizedPowerLevel(fromDecibels: recorder.averagePower(forChannel: 0)))
        }
    }

    public func stopRecording() {
        audioRecorder?.stop()
        meterTimer?.invalidate()
        meterTimer = nil
    }

    public var isRecording: Bool { audioRecorder?.isRecording ?? false }

    public func audioRecorderDidFinishRecording(_ recorder: AVAudioRecorder, successfully flag: Bool) {
        onFinish?(flag)
    }

    private func normalizedPowerLevel(fromDecibels decibels: Float) -> Float {
        if decibels < -60.0 || decibels == 0.0 {
            return 0.0
        }
        return powf((powf(10.0, 0.05 * decibels) - powf(10.0, 0.05 * -60.0)) * (1.0 / (1.0 - powf(10.0, 0.05 * -60.0))), 1.0 / 2.0)
    }
}
