import CaptureDevices
import CoreMedia
import Foundation
import MediaToolbox
import MovieEngine
import Synchronization

/// Plays an item's sound from a time at a rate, on a thread of its own, to the sound server.
///
/// The sound is decoded to float at the track's rate and changed for the rate as the item's
/// time-pitch algorithm says (the AV Foundation Programming Guide's table): `.spectral` through Rubber Band and
/// `.timeDomain` through SoundTouch keep the pitch; `.lowQualityZeroLatency` through SoundTouch
/// at the snapped rate the player's clock runs at; `.varispeed` resamples, so the pitch follows
/// the rate. Rates outside an algorithm's range, and backwards play, are silent, as are rates
/// when no sound server runs: the player's time goes on on the host clock all the same.
///
/// Thread ownership: its thread reads, stretches and writes; `stop()` may come from any thread.
final class PlayerSound: @unchecked Sendable {
    private let asset: AVAsset
    private let track: AVAssetTrack
    private let from: CMTime
    private let end: CMTime
    private let rate: Double
    private let algorithm: AVAudioTimePitchAlgorithm
    private let gain: @Sendable () -> Float
    /// The track's volume changes in the item's audio mix, as (start, end, start volume, end volume) in seconds.
    private let ramps: [(Double, Double, Float, Float)]
    /// The track's audio processing tap in the item's audio mix.
    private let tap: MTAudioProcessingTap?
    private let stopped = Atomic(false)
    /// Left once this sound has let go of its tap: its thread ended, or it never ran.
    private let finished = DispatchGroup()
    private let hasFinished = Atomic(false)

    /// Why the last sound could not be played, for the command line to say.
    static let lastProblem = LockedValue<String?>(nil)

    init(
        asset: AVAsset, track: AVAssetTrack, from: CMTime, end: CMTime, rate: Double, algorithm: AVAudioTimePitchAlgorithm, mix: AVAudioMix?,
        gain: @escaping @Sendable () -> Float
    ) {
        let parameters = mix?.inputParameters.first { $0.trackID == track.trackID }
        ramps = parameters?.state.withLock { $0.ramps }.map { ($0.timeRange.start.seconds, $0.timeRange.end.seconds, $0.start, $0.end) } ?? []
        tap = parameters?.audioTapProcessor
        self.asset = asset
        self.track = track
        self.from = from
        self.end = end
        self.rate = rate
        self.algorithm = algorithm
        self.gain = gain
        finished.enter()
    }

    // A group left as many times as it was entered may be let go of.
    deinit { finish() }

    /// Whether an algorithm plays sound at a rate (the AV Foundation Programming Guide's ranges).
    static func plays(rate: Double, algorithm: AVAudioTimePitchAlgorithm) -> Bool {
        rate > 0 && algorithm.rateRange.contains(rate)
    }

    /// Starts playing; with a tap, once `previous` (the sound this one replaces) has let go of it.
    func start(after previous: PlayerSound?) {
        guard !isStopped, Self.plays(rate: rate, algorithm: algorithm), end > from else { return finish() }
        let waitFor = tap == nil ? nil : previous
        let thread = Thread { [self] in
            defer { finish() }
            // A tap is prepared by one pipeline at a time: the sound replaced unprepares it first.
            _ = waitFor?.finished.wait(timeout: .now() + 5)
            run()
        }
        thread.name = "AVPlayer sound"
        thread.start()
    }

    func stop() { stopped.store(true, ordering: .relaxed) }

    private func finish() {
        if !hasFinished.exchange(true, ordering: .acquiringAndReleasing) { finished.leave() }
    }

    private var isStopped: Bool { stopped.load(ordering: .relaxed) }

    private func run() {
        let sampleRate = max(8000, min(192_000, track.facts.sampleRate > 0 ? track.facts.sampleRate : 48_000))
        let channels = max(1, min(8, track.facts.channels > 0 ? track.facts.channels : 2))
        let output: PulseSoundOutput
        do {
            output = try PulseSoundOutput(name: "AVPlayer", device: PulseSinks.routedSinkName, rate: sampleRate, channels: channels)
            Self.lastProblem.withLock { $0 = nil }
        } catch {
            Self.lastProblem.withLock { $0 = "\(error)" }
            return
        }
        defer { output.close() }
        // Varispeed reads the sound resampled to rate / speed and plays it at the rate.
        let readRate = algorithm == .varispeed ? Int((Double(sampleRate) / rate).rounded()) : sampleRate
        guard let reader = try? AVAssetReader(asset: asset) else { return }
        reader.timeRange = CMTimeRange(start: from, end: end)
        let trackOutput = AVAssetReaderTrackOutput(
            track: track,
            outputSettings: [
                AVFormatIDKey: kAudioFormatLinearPCM, AVLinearPCMIsFloatKey: true, AVLinearPCMBitDepthKey: 32,
                AVSampleRateKey: max(1000, min(768_000, readRate)), AVNumberOfChannelsKey: channels,
            ])
        reader.add(trackOutput)
        guard reader.startReading() else { return }
        defer { reader.cancelReading() }

        var stretcher: TimeStretcher?
        if rate != 1, algorithm != .varispeed {
            stretcher = TimeStretcher(algorithm == .spectral ? .spectral : .timeDomain, sampleRate: sampleRate, channels: channels, ratio: 1 / rate)
            if stretcher == nil { return }
        }
        var scratch = [Float](repeating: 0, count: 4096 * channels)
        // The tap sees the sound as it is played, at the output's rate, before or after the volume as it asked.
        let tapRunner = tap.flatMap { AudioTapRunner(tap: $0, sampleRate: Double(sampleRate), channels: channels, maxFrames: 4096) }
        defer { tapRunner?.stop() }
        let firstFrame = Int((from.seconds * Double(sampleRate)).rounded())
        var skip = -1  // samples before the start time, counted at the first block
        var played = 0  // frames written, which tell the item time of the next
        let start = from.seconds, step = rate / Double(sampleRate)

        func play(_ samples: UnsafeMutableBufferPointer<Float>) -> Bool {
            let level = gain()
            let frames = samples.count / channels
            if let tapRunner, !tapRunner.tap.isPostEffects { tapRunner.process(samples, at: firstFrame + played) }
            if ramps.isEmpty {
                if level != 1 { for index in samples.indices { samples[index] *= level } }
            } else {
                for frame in 0..<frames {
                    let volume = level * AVAudioMixInputParameters.volume(at: start + Double(played + frame) * step, ramps: ramps)
                    for channel in 0..<channels { samples[frame * channels + channel] *= volume }
                }
            }
            if let tapRunner, tapRunner.tap.isPostEffects { tapRunner.process(samples, at: firstFrame + played) }
            played += frames
            do { try output.write(UnsafeBufferPointer(samples)) } catch { return false }
            return !isStopped
        }

        func drainStretcher(_ stretcher: TimeStretcher) -> Bool {
            while true {
                let got = scratch.withUnsafeMutableBufferPointer { stretcher.retrieve(into: $0.baseAddress!, capacity: 4096) }
                if got <= 0 { return true }
                let ok = scratch.withUnsafeMutableBufferPointer { play(UnsafeMutableBufferPointer(rebasing: $0[0..<(got * channels)])) }
                if !ok { return false }
            }
        }

        while !isStopped, let sample = trackOutput.copyNextSampleBuffer() {
            guard let block = sample.dataBuffer else { continue }
            var frames = sample.numSamples
            var floats = block.bytes.assumingMemoryBound(to: Float.self)
            if skip < 0 {
                let early = (from - sample.presentationTimeStamp).seconds * Double(readRate)
                skip = max(0, Int(early.rounded()))
            }
            if skip > 0 {
                let dropped = min(skip, frames)
                skip -= dropped
                frames -= dropped
                floats += dropped * channels
                if frames == 0 { continue }
            }
            if let stretcher {
                stretcher.process(floats, frames: frames)
                if !drainStretcher(stretcher) { return }
            } else {
                // The reader's block is this thread's own: played in place.
                if !play(UnsafeMutableBufferPointer(start: floats, count: frames * channels)) { return }
            }
        }
        if isStopped { output.flush(); return }
        if let stretcher {
            stretcher.finish()
            if !drainStretcher(stretcher) { output.flush(); return }
        }
        // The tap has processed its last block: it is unprepared now, not after the sink plays out.
        tapRunner?.stop()
        output.drain()
    }
}
