import CaptureDevices
import CoreVideo
import Foundation
import MovieEngine
import Synchronization

/// A player's sound on a thread of its own: read from the file, stretched for the rate with its
/// pitch kept (SoundTouch), given its volume and pan, metered, and written to the sound server
/// (or paced by the host clock without one, `PacedSoundOutput`).
///
/// Thread ownership: its thread owns the file while it runs; `stop()` may come from any thread
/// and returns once the thread has let the file go. Blocks and scratch memory are made once.
final class PlaybackThread: @unchecked Sendable {
    /// What the thread tells its player.
    enum Event {
        /// The sound played to its end (after its loops), or decoding failed with an error.
        case finished(Error?)
    }

    /// The settings the thread reads at each block.
    struct Controls {
        var volume: Float = 1
        /// The volume a fade goes to, and the host time (seconds) it gets there.
        var fade: (target: Float, start: Float, from: Double, to: Double)?
        var pan: Float = 0
        var rate: Float = 1
        var enableRate = false
        var loopsLeft = 0
    }

    private static let blockFrames = 1024
    private let file: AVAudioFile
    private let meter: AudioMeter
    private let controls: LockedValue<Controls>
    /// The file frame the sound heard now comes from, as the thread last worked it out.
    private let heard: LockedValue<Int64>
    /// The frames given to the output so far, counted up.
    private let played: LockedValue<Int64>
    private let events: @Sendable (Event) -> Void
    private let stopped = Atomic(false)
    private let done = DispatchSemaphore(value: 0)
    private let startHostTime: Double?

    init(
        file: AVAudioFile, meter: AudioMeter, controls: LockedValue<Controls>, heard: LockedValue<Int64>, played: LockedValue<Int64>,
        startAt hostSeconds: Double?, events: @escaping @Sendable (Event) -> Void
    ) {
        self.file = file
        self.meter = meter
        self.controls = controls
        self.heard = heard
        self.played = played
        self.events = events
        startHostTime = hostSeconds
    }

    func start() {
        let thread = Thread { [self] in
            run()
            done.signal()
        }
        thread.name = "AVAudioPlayer"
        thread.start()
    }

    /// Stops the thread and waits for it to let the file go.
    func stop() {
        stopped.store(true, ordering: .relaxed)
        done.wait()
        done.signal()
    }

    private var isStopped: Bool { stopped.load(ordering: .relaxed) }

    private func run() {
        let format = file.processingFormat
        let channels = Int(format.channelCount)
        let sampleRate = Int(format.sampleRate.rounded())
        // Mono is played on two channels, so that it can be panned.
        let outputChannels = max(2, channels)
        if let startHostTime {
            while !isStopped, PacedSoundOutput.hostSeconds() < startHostTime {
                Thread.sleep(forTimeInterval: min(0.01, startHostTime - PacedSoundOutput.hostSeconds()))
            }
        }
        let output = PacedSoundOutput(name: "AVAudioPlayer", rate: sampleRate, channels: outputChannels)
        defer { output.close() }
        guard let block = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: AVAudioFrameCount(Self.blockFrames)) else { return }
        let interleaved = UnsafeMutablePointer<Float>.allocate(capacity: Self.blockFrames * channels)
        defer { interleaved.deallocate() }
        // Stretching can give up to four times as many frames as it takes (rates down to 0.25).
        let stretchedCapacity = Self.blockFrames * 4 + 8192
        let stretched = UnsafeMutablePointer<Float>.allocate(capacity: stretchedCapacity * channels)
        defer { stretched.deallocate() }
        let out = UnsafeMutablePointer<Float>.allocate(capacity: stretchedCapacity * outputChannels)
        defer { out.deallocate() }
        var stretcher: TimeStretcher?
        var stretchRate: Float = 1
        // The file frame each written block started at, with the output frames written before it.
        var position = file.framePosition

        // Volume (with any fade) and pan, then the output: balance for stereo, mono spread across two channels.
        func play(_ playable: UnsafePointer<Float>, _ count: Int, _ settings: Controls) {
            let now = PacedSoundOutput.hostSeconds()
            var volume = settings.volume
            if let fade = settings.fade {
                let progress = fade.to > fade.from ? Float(min(1, max(0, (now - fade.from) / (fade.to - fade.from)))) : 1
                volume = fade.start + (fade.target - fade.start) * progress
                if progress >= 1 {
                    controls.withLock {
                        $0.volume = fade.target
                        $0.fade = nil
                    }
                }
            }
            let left = volume * min(1, 1 - settings.pan), right = volume * min(1, 1 + settings.pan)
            for frame in 0..<count {
                for channel in 0..<outputChannels {
                    let sample = playable[frame * channels + min(channel, channels - 1)]
                    let gain = channel == 0 ? left : channel == 1 ? right : volume
                    out[frame * outputChannels + channel] = sample * gain
                }
            }
            output.write(UnsafeBufferPointer(start: out, count: count * outputChannels)) { !isStopped }
            played.withLock { $0 += Int64(count) }
        }

        while !isStopped {
            let settings = controls.withLock { $0 }
            do { try file.read(into: block) } catch {
                events(.finished(error))
                return
            }
            if block.frameLength == 0 {
                let again = controls.withLock { controls -> Bool in
                    guard controls.loopsLeft != 0 else { return false }
                    if controls.loopsLeft > 0 { controls.loopsLeft -= 1 }
                    return true
                }
                guard again else {
                    // The stretcher's last frames, held for its window, end the sound.
                    if let stretcher {
                        stretcher.finish()
                        let count = stretcher.retrieve(into: stretched, capacity: stretchedCapacity)
                        if count > 0 { play(UnsafePointer(stretched), count, settings) }
                    }
                    output.drain()
                    events(.finished(nil))
                    return
                }
                file.framePosition = 0
                position = 0
                continue
            }
            meter.measure(block)
            let frames = Int(block.frameLength)
            // Interleave, for the stretcher and the server.
            for channel in 0..<channels {
                let source = block.floatChannelData![channel]
                for frame in 0..<frames { interleaved[frame * channels + channel] = source[frame] }
            }
            var playable = UnsafePointer(interleaved)
            var count = frames
            let rate = settings.enableRate ? max(0.5, min(2, settings.rate)) : 1
            if rate != 1 {
                if stretcher == nil || stretchRate != rate {
                    stretcher = TimeStretcher(.timeDomain, sampleRate: sampleRate, channels: channels, ratio: Double(1 / rate))
                    stretchRate = rate
                }
                if let stretcher {
                    stretcher.process(interleaved, frames: frames)
                    count = stretcher.retrieve(into: stretched, capacity: stretchedCapacity)
                    playable = UnsafePointer(stretched)
                }
            } else {
                stretcher = nil
            }
            play(playable, count, settings)
            position += Int64(frames)
            // What is heard now: the server's latency behind what was written, at the rate.
            let latencyFrames = Int64((output.latency * Double(sampleRate) * Double(rate)).rounded())
            heard.withLock { $0 = max(0, position - latencyFrames) }
        }
    }
}
