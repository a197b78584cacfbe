import CaptureDevices
import CoreVideo
import Foundation
import FrameProcessing

/// A BGRA picture of the virtual scene (frame 30), the Core Image benchmarks' input.
func sceneFrame(width: Int, height: Int) -> CVPixelBuffer? {
    guard let renderer = SceneRenderer(width: width, height: height, pixelFormat: kCVPixelFormatType_32BGRA),
        let frame = CVPixelBuffer(width: width, height: height, pixelFormatType: kCVPixelFormatType_32BGRA)
    else { return nil }
    renderer.render(
        into: frame, SceneFrameParameters(frameNumber: 30, seconds: 1, zoom: 1, brightness: 1, colourGains: (1, 1, 1), defocus: 0, image: nil))
    return frame
}

/// Runs a Python peer (a Pillow chain) in its own process and reads the one figure it prints: its
/// median milliseconds; nil when Python or the library it imports is missing, or it printed none.
func pythonPeerMilliseconds(script: String, arguments: [String]) -> Double? {
    let peer = Process()
    peer.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    peer.arguments = ["-c", script] + arguments
    let pipe = Pipe()
    peer.standardOutput = pipe
    peer.standardError = FileHandle.nullDevice
    guard (try? peer.run()) != nil else { return nil }
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    peer.waitUntilExit()
    guard peer.terminationStatus == 0 else { return nil }
    return Double(output.trimmingCharacters(in: .whitespacesAndNewlines))
}

/// The median wall time of `rounds` runs of `body`, in milliseconds, after one run that warms it up.
func medianMilliseconds(rounds: Int, _ body: () -> Void) -> Double {
    body()
    var times: [Double] = []
    for _ in 0..<max(1, rounds) {
        let start = now()
        body()
        times.append(now() - start)
    }
    return times.sorted()[times.count / 2] * 1000
}
