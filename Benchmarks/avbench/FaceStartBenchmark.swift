import AVFoundation
import Foundation

/// Faces at start, as an app's first session meets them: the astronaut photograph in the virtual
/// scene at 640x480 and a metadata output asked for faces, in a fresh process each run (dlib's
/// detector and landmark model load once a process). Prints the time from making the session
/// (faces asked for, then `startRunning()`) to the first frame and to the first face delivered
/// (looked for up to 30 s), and the frames of the first three seconds that reached the video data
/// output and those whose face reached the delegate. No peer in Debian reports faces with
/// identities; the figures are compared with the and git's history.
enum FaceStartBenchmark {
    static let runs = 3

    static func run() throws {
        let url = URL(fileURLWithPath: FileManager.default.currentDirectoryPath + "/.build/test-pictures/astronaut.png")
        guard FileManager.default.fileExists(atPath: url.path) else {
            print("Faces at start: .build/test-pictures/astronaut.png is missing (scripts/fetch-test-pictures.sh fetches it)")
            return
        }
        print("Faces at start (640x480, the astronaut in the scene, a fresh process each run):")
        for _ in 0..<runs {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
            process.arguments = ["facestart-child", url.path]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            print("  " + text.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    /// Counts frames and the calls with a face, with their host times.
    final class Receiver: NSObject, AVCaptureMetadataOutputObjectsDelegate, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
        private let lock = NSLock()
        private var frameTimes: [Double] = []
        private var faceTimes: [Double] = []
        func metadataOutput(_ output: AVCaptureMetadataOutput, didOutput metadataObjects: [AVMetadataObject], from connection: AVCaptureConnection) {
            guard metadataObjects.contains(where: { $0.type == .face }) else { return }
            let time = now()
            lock.lock(); faceTimes.append(time); lock.unlock()
        }
        func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
            let time = now()
            lock.lock(); frameTimes.append(time); lock.unlock()
        }
        var times: (frames: [Double], faces: [Double]) { lock.lock(); defer { lock.unlock() }; return (frameTimes, faceTimes) }
    }

    /// The child: one session from start, three seconds, one line of figures.
    static func runChild(picture: String) throws {
        _ = try virtualCamera.virtualScene?.placePicture(contentsOf: URL(fileURLWithPath: picture), center: CGPoint(x: 0.5, y: 0.62), width: 0.9)
        let receiver = Receiver()
        let start = now()
        let (session, _) = try ScanBenchmark.runningSession(preset: .vga640x480, receiver: receiver, types: [.face])
        // Three seconds, and on until the first face (an unoptimised build of dlib takes longer), at most thirty.
        Thread.sleep(forTimeInterval: 3.2)
        while receiver.times.faces.isEmpty, now() - start < 30 { Thread.sleep(forTimeInterval: 0.1) }
        session.stopRunning()
        let (frames, faces) = receiver.times
        let inThree = { (times: [Double]) in times.filter { $0 - start < 3 }.count }
        print(
            String(
                format: "first frame %.2f s, first face %.2f s after the session was made and started; first 3 s: %d frames, %d with her face (%.0f%%)",
                (frames.first ?? .nan) - start, (faces.first ?? .nan) - start, inThree(frames), inThree(faces),
                Double(inThree(faces)) / Double(max(1, inThree(frames))) * 100))
    }
}
