// Records the microphone into a sound file through an audio engine, drawing a level meter as it
// goes.
//
//     AudioRecorder [sound.caf] [seconds]
import AVFAudio

/// The level of a buffer's first channel, in decibels full scale.
func decibels(of buffer: AVAudioPCMBuffer) -> Float {
    guard let samples = buffer.floatChannelData?[0], buffer.frameLength > 0 else { return -160 }
    var sum: Float = 0
    for index in 0..<Int(buffer.frameLength) { sum += samples[index] * samples[index] }
    let rms = (sum / Float(buffer.frameLength)).squareRoot()
    return rms > 0 ? 20 * log10(rms) : -160
}

/// A bar of up to 40 marks for a level between -60 dB and 0 dB.
func meter(_ decibels: Float) -> String {
    let marks = Int(((max(-60, min(0, decibels)) + 60) / 60 * 40).rounded())
    return String(repeating: "#", count: marks) + String(repeating: ".", count: 40 - marks)
}

/// The file the tap writes into and the newest level, shared with the engine's render thread.
final class Recording: @unchecked Sendable {
    private let lock = NSLock()
    private let file: AVAudioFile
    private var newest: Float = -160
    private var failure: (any Error)?

    init(file: AVAudioFile) { self.file = file }

    var level: Float { lock.withLock { newest } }
    var error: (any Error)? { lock.withLock { failure } }
    var framesWritten: AVAudioFramePosition { lock.withLock { file.length } }

    /// Finishes the file; it is complete once this returns.
    func close() { lock.withLock { file.close() } }

    func append(_ buffer: AVAudioPCMBuffer) {
        let value = decibels(of: buffer)
        lock.withLock {
            newest = value
            do { try file.write(from: buffer) } catch { failure = error }
        }
    }
}

let arguments = CommandLine.arguments.dropFirst()
let url = URL(fileURLWithPath: arguments.first ?? "recording.caf")
let seconds = arguments.dropFirst().first.flatMap(Double.init) ?? 3

let engine = AVAudioEngine()
let input = engine.inputNode
let format = input.outputFormat(forBus: 0)
guard format.sampleRate > 0 else {
    print("No microphone.")
    exit(1)
}
try? FileManager.default.removeItem(at: url)
let recording = Recording(file: try AVAudioFile(forWriting: url, settings: format.settings))
input.installTap(onBus: 0, bufferSize: 4096, format: format) { buffer, _ in
    recording.append(buffer)
}
engine.prepare()
try engine.start()
print("Recording \(url.lastPathComponent) at \(Int(format.sampleRate)) Hz, \(format.channelCount) channels, for \(seconds) s")
let start = Date()
while Date().timeIntervalSince(start) < seconds {
    Thread.sleep(forTimeInterval: 0.25)
    let decibels = recording.level
    print("  [\(meter(decibels))] \(String(format: "%6.1f", decibels)) dBFS")
}
input.removeTap(onBus: 0)
engine.stop()
recording.close()
if let error = recording.error {
    print("Writing failed: \(error.localizedDescription)")
    exit(1)
}
print("Wrote \(url.lastPathComponent): \(recording.framesWritten) frames, \(String(format: "%.2f", Double(recording.framesWritten) / format.sampleRate)) s")
