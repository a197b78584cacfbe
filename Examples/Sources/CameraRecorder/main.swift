// Records a movie from the default camera and microphone, counting the frames a preview would
// draw as they arrive.
//
//     CameraRecorder [movie.mov] [seconds]
import AVFoundation

/// Counts the frames the video data output delivers and hears when the movie is finished.
final class Recorder: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, AVCaptureFileOutputRecordingDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var frames = 0
    private var outcome: Result<Void, any Error>?
    private var waiting: CheckedContinuation<Void, any Error>?

    var frameCount: Int { lock.withLock { frames } }

    /// Returns once the movie is finished, throwing what it failed with.
    func finished() async throws {
        try await withCheckedThrowingContinuation { continuation in
            let known = lock.withLock {
                if outcome == nil { waiting = continuation }
                return outcome
            }
            if let known { continuation.resume(with: known) }
        }
    }

    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        lock.withLock { frames += 1 }
    }

    func fileOutput(_ output: AVCaptureFileOutput, didFinishRecordingTo outputFileURL: URL, from connections: [AVCaptureConnection], error: (any Error)?) {
        let result: Result<Void, any Error> = error.map { .failure($0) } ?? .success(())
        let waiter = lock.withLock {
            outcome = result
            defer { waiting = nil }
            return waiting
        }
        waiter?.resume(with: result)
    }
}

let arguments = CommandLine.arguments.dropFirst()
let movie = URL(fileURLWithPath: arguments.first ?? "recording.mov")
let seconds = arguments.dropFirst().first.flatMap(Double.init) ?? 3

guard let camera = AVCaptureDevice.default(for: .video) else {
    print("No camera.")
    exit(1)
}
let session = AVCaptureSession()
session.beginConfiguration()
session.sessionPreset = .high
session.addInput(try AVCaptureDeviceInput(device: camera))
if let microphone = AVCaptureDevice.default(for: .audio), let input = try? AVCaptureDeviceInput(device: microphone), session.canAddInput(input) {
    session.addInput(input)
}
let recorder = Recorder()
let frames = AVCaptureVideoDataOutput()
frames.alwaysDiscardsLateVideoFrames = true
frames.setSampleBufferDelegate(recorder, queue: DispatchQueue(label: "preview frames"))
if session.canAddOutput(frames) { session.addOutput(frames) }
let movieOutput = AVCaptureMovieFileOutput()
guard session.canAddOutput(movieOutput) else {
    print("The session cannot record movies.")
    exit(1)
}
session.addOutput(movieOutput)
session.commitConfiguration()
session.startRunning()

try? FileManager.default.removeItem(at: movie)
print("Recording \(movie.lastPathComponent) from \(camera.localizedName) for \(seconds) s")
movieOutput.startRecording(to: movie, recordingDelegate: recorder)
let start = Date()
while Date().timeIntervalSince(start) < seconds {
    try await Task.sleep(for: .seconds(1))
    print("  \(recorder.frameCount) frames, \(String(format: "%.1f", movieOutput.recordedDuration.seconds)) s recorded")
}
movieOutput.stopRecording()
do {
    try await recorder.finished()
} catch {
    print("The recording failed: \(error.localizedDescription)")
    exit(1)
}
session.stopRunning()

let asset = AVURLAsset(url: movie)
let (duration, tracks) = try await asset.load(.duration, .tracks)
let size = (try? FileManager.default.attributesOfItem(atPath: movie.path)[.size] as? Int) ?? 0
print("Wrote \(movie.lastPathComponent): \(String(format: "%.2f", duration.seconds)) s, \(tracks.count) tracks, \(size) bytes")
