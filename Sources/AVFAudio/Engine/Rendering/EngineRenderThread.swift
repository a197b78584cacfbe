import CaptureDevices
import Foundation
import Synchronization

/// The thread a running engine renders on: blocks of frames from the output node, interleaved
/// and written to the sound server, whose clock paces it (or, where none runs, the host clock:
/// `PacedSoundOutput`).
///
/// Thread ownership: its own thread renders; `stop()` may come from any thread and returns once
/// the thread has stopped. Its scratch memory is made once.
final class EngineRenderThread: @unchecked Sendable {
    private weak var engine: AVAudioEngine?
    private let format: AVAudioFormat
    private let stopped = Atomic(false)
    private let done = DispatchSemaphore(value: 0)

    init(engine: AVAudioEngine, format: AVAudioFormat) {
        self.engine = engine
        self.format = format
    }

    func start() {
        let thread = Thread { [self] in
            run()
            done.signal()
        }
        thread.name = "AVAudioEngine render"
        thread.start()
    }

    func stop() {
        stopped.store(true, ordering: .relaxed)
        done.wait()
        done.signal()
    }

    private func run() {
        let channels = Int(format.channelCount), rate = Int(format.sampleRate.rounded())
        let frames = Int(AVAudioEngine.blockFrames)
        let output = PacedSoundOutput(name: "AVAudioEngine", rate: rate, channels: channels, latencyMilliseconds: 40)
        defer { output.close() }
        let interleaved = UnsafeMutablePointer<Float>.allocate(capacity: frames * channels)
        defer { interleaved.deallocate() }
        while !stopped.load(ordering: .relaxed), let engine {
            let mixed = engine.renderCycle(frames: frames, realTime: true)
            for channel in 0..<channels {
                let source = mixed?.floatChannelData?[channel]
                for frame in 0..<frames { interleaved[frame * channels + channel] = source?[frame] ?? 0 }
            }
            output.write(UnsafeBufferPointer(start: interleaved, count: frames * channels)) { !stopped.load(ordering: .relaxed) }
        }
    }
}
