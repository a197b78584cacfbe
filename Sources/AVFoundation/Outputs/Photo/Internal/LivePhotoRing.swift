import CaptureDevices
import Foundation
import FrameProcessing

/// The last few seconds of video and audio a photo output keeps for Live Photos.
///
/// Video frames are scaled into buffers allocated once (enough for `seconds` at the camera's
/// rate up to 30 frames a second, at a size that fits 960x720: at most 125 MB for four seconds); audio samples are copied into one preallocated ring of
/// 16-bit PCM. Nothing is allocated per frame in steady state. A clip pins the frames it uses
/// until its movie is written; a frame that would overwrite a pinned one is left out of the ring.
/// Thread-safe: `receive` runs on device threads and only scales and copies under the lock.
package final class LivePhotoRing: @unchecked Sendable {
    /// The part of the ring a Live Photo's movie is made of.
    struct Clip {
        /// Frames and their capture times, oldest first; pinned until `release()`.
        let frames: [(CVPixelBuffer, CMTime)]
        /// Interleaved 16-bit samples and the capture time of the first.
        let audio: [Int16]
        let audioStart: CMTime
        let sampleRate: Int
        let channels: Int
        let release: @Sendable () -> Void
    }

    private struct Slot {
        var buffer: CVPixelBuffer
        var time = CMTime.invalid
        var pins = 0
    }

    private struct Video {
        var slots: [Slot]
        var next = 0
        /// The capture time of the last frame kept.
        var lastKept = CMTime.invalid
        /// Which allocation of slots this is; a clip of an earlier one has nothing to unpin.
        var generation: Int
    }

    private struct Audio {
        var samples: [Int16]
        var sampleRate: Int
        var channels: Int
        /// Frames (one sample per channel) written so far, and the capture time of the latest buffer's first frame.
        var written: Int64 = 0
        var anchorFrame: Int64 = 0
        var anchorTime = CMTime.invalid
    }

    /// The most frames a second the ring keeps (faster cameras have frames skipped), which bounds its memory.
    static let maxFrameRate = 30.0

    /// The largest movie picture: 960x720, or 720x960 for portrait streams.
    static let largestSize = (width: 960, height: 720)

    let seconds: Double
    /// What the ring keeps, under its lock.
    private struct Kept {
        var video: Video?
        var audio: Audio?
        var isSuspended = false
        /// Who waits for the ring to hold the frames up to a time, with that time.
        var waiters: [(end: CMTime, fire: @Sendable () -> Void)] = []
        /// The latest frame's time and the end of the latest sound the camera and microphone gave.
        var videoReached = CMTime.invalid, audioReached = CMTime.invalid

        /// Whether everything up to `end` has come: a frame at or after it, and the sound up to it
        /// when there is sound.
        func holds(through end: CMTime) -> Bool {
            videoReached.isNumeric && videoReached >= end && (audio == nil || (audioReached.isNumeric && audioReached >= end))
        }
    }
    private let kept = LockedValue(Kept())
    private let scaler = FrameScaler()

    package init(seconds: Double) { self.seconds = seconds }

    /// The size frames from a stream of `width` x `height` are kept at.
    static func movieSize(width: Int, height: Int) -> (width: Int, height: Int) {
        let box = width >= height ? largestSize : (largestSize.height, largestSize.width)
        return PreviewScaler.size(of: width, height, fittingIn: box.0, box.1)
    }

    /// The size frames are kept at now, or nil before the first frame.
    package var frameSize: (width: Int, height: Int)? {
        kept.withLock { $0.video.map { ($0.slots[0].buffer.width, $0.slots[0].buffer.height) } }
    }

    /// Stops or restarts keeping frames and samples (Live Photo capture suspended); a suspension
    /// ends every wait, since no frame comes after it.
    func setSuspended(_ suspended: Bool) {
        let due = kept.withLock { kept in
            kept.isSuspended = suspended
            guard suspended else { return [] as [@Sendable () -> Void] }
            defer { kept.waiters.removeAll() }
            return kept.waiters.map(\.fire)
        }
        for fire in due { fire() }
    }

    /// Calls `fire` once the camera has given the ring a frame presented at or after `end` and,
    /// when there is sound, the microphone its sound up to `end` (so that the ring holds everything
    /// up to `end`), or once it is suspended; on the thread that delivered the last of it or
    /// suspended the ring, never under the ring's lock. Time is the devices' own, however fast
    /// their clock runs.
    func whenHolding(through end: CMTime, _ fire: @escaping @Sendable () -> Void) {
        let now = kept.withLock { kept -> Bool in
            if kept.isSuspended || kept.holds(through: end) { return true }
            kept.waiters.append((end, fire))
            return false
        }
        if now { fire() }
    }

    /// Keeps a camera frame, scaled, in the next free slot.
    package func receiveVideo(_ sampleBuffer: CMSampleBuffer, frameRate: Double) {
        guard let frame = sampleBuffer.imageBufferStorage else { return }
        let time = sampleBuffer.presentationTimeStamp
        defer { fireWaiters() }
        kept.withLock { kept in
            if kept.isSuspended { return }
            kept.videoReached = time
            let size = Self.movieSize(width: frame.width, height: frame.height)
            if kept.video == nil || kept.video!.slots[0].buffer.width != size.width || kept.video!.slots[0].buffer.height != size.height {
                // Allocated once per stream size: the steady state reuses these.
                let count = Int((seconds * max(1, min(frameRate, Self.maxFrameRate))).rounded(.up))
                var slots: [Slot] = []
                for _ in 0..<count {
                    guard let buffer = CVPixelBuffer(width: size.width, height: size.height, pixelFormatType: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange)
                    else { return }
                    slots.append(Slot(buffer: buffer))
                }
                kept.video = Video(slots: slots, generation: (kept.video?.generation ?? 0) + 1)
            }
            // Faster streams are thinned to the ring's rate (a tenth of a frame's slack for jitter).
            if kept.video!.lastKept.isNumeric, (time - kept.video!.lastKept).seconds < 0.9 / Self.maxFrameRate { return }
            let index = kept.video!.next
            guard kept.video!.slots[index].pins == 0 else { return }  // a clip still needs this one
            if scaler.scale(frame, into: kept.video!.slots[index].buffer) {
                kept.video!.slots[index].time = time
                kept.video!.lastKept = time
                kept.video!.next = (index + 1) % kept.video!.slots.count
            }
        }
    }

    /// Ends the waits for what the ring now holds.
    private func fireWaiters() {
        let due = kept.withLock { kept -> [@Sendable () -> Void] in
            guard !kept.waiters.isEmpty else { return [] }
            let waiters = kept.waiters
            let due = waiters.filter { kept.holds(through: $0.end) }
            guard !due.isEmpty else { return [] }
            kept.waiters = waiters.filter { !kept.holds(through: $0.end) }
            return due.map(\.fire)
        }
        for fire in due { fire() }
    }

    /// Keeps 16-bit interleaved samples.
    func receiveAudio(_ sampleBuffer: CMSampleBuffer) {
        guard let block = sampleBuffer.dataBuffer, let asbd = sampleBuffer.formatDescription?.audioStreamBasicDescription,
            asbd.mBitsPerChannel == 16, asbd.mChannelsPerFrame > 0, asbd.mSampleRate > 0
        else { return }
        let channels = Int(asbd.mChannelsPerFrame), rate = Int(asbd.mSampleRate)
        defer { fireWaiters() }
        kept.withLock { kept in
            if kept.isSuspended { return }
            if kept.audio == nil || kept.audio!.sampleRate != rate || kept.audio!.channels != channels {
                kept.audio = Audio(samples: [Int16](repeating: 0, count: Int(seconds * Double(rate)) * channels), sampleRate: rate, channels: channels)
            }
            let frames = block.length / (2 * channels)
            let source = block.bytes.assumingMemoryBound(to: Int16.self)
            kept.audio!.anchorFrame = kept.audio!.written
            kept.audio!.anchorTime = sampleBuffer.presentationTimeStamp
            let written = kept.audio!.written
            kept.audio!.samples.withUnsafeMutableBufferPointer { ring in
                // At most two copies: up to the end of the ring, then from its start.
                let capacity = ring.count / channels
                var copied = 0
                while copied < min(frames, capacity) {
                    let at = Int((written + Int64(copied)) % Int64(capacity))
                    let count = min(frames - copied, capacity - at)
                    (ring.baseAddress! + at * channels).update(from: source + copied * channels, count: count * channels)
                    copied += count
                }
            }
            kept.audio!.written += Int64(frames)
            kept.audioReached = sampleBuffer.presentationTimeStamp + CMTime(value: CMTimeValue(frames), timescale: CMTimeScale(rate))
        }
    }

    /// The frames and samples captured from `start` to `end`, with the frames pinned.
    /// The seconds between the oldest and the newest frame the ring holds.
    package var keptVideoSeconds: Double {
        kept.withLock { kept in
            let times = kept.video?.slots.map(\.time).filter(\.isNumeric) ?? []
            guard let first = times.min(), let last = times.max() else { return 0 }
            return (last - first).seconds
        }
    }

    func clip(from start: CMTime, to end: CMTime) -> Clip {
        kept.withLock { kept in
            var frames: [(CVPixelBuffer, CMTime)] = []
            var pinned: [Int] = []
            if let video = kept.video {
                let order = video.slots.indices.filter { video.slots[$0].time.isNumeric && video.slots[$0].time >= start && video.slots[$0].time <= end }
                    .sorted { video.slots[$0].time < video.slots[$1].time }
                for index in order {
                    kept.video!.slots[index].pins += 1
                    pinned.append(index)
                    frames.append((video.slots[index].buffer, video.slots[index].time))
                }
            }
            var samples: [Int16] = []
            var audioStart = CMTime.invalid
            var rate = 0, channels = 0
            if let audio = kept.audio, audio.anchorTime.isNumeric {
                rate = audio.sampleRate
                channels = audio.channels
                let capacity = Int64(audio.samples.count / channels)
                let oldest = max(0, audio.written - capacity)
                // Frame index of a capture time, from the latest buffer's anchor.
                func frameIndex(_ time: CMTime) -> Int64 { audio.anchorFrame + Int64(((time - audio.anchorTime).seconds * Double(rate)).rounded()) }
                let first = max(oldest, frameIndex(start)), last = min(audio.written, frameIndex(end))
                if last > first {
                    samples.reserveCapacity(Int(last - first) * channels)
                    for frame in first..<last {
                        let at = Int(frame % capacity) * channels
                        samples.append(contentsOf: audio.samples[at..<(at + channels)])
                    }
                    audioStart = audio.anchorTime + CMTime(value: first - audio.anchorFrame, timescale: Int32(rate))
                }
            }
            let indices = pinned, generation = kept.video?.generation
            let release: @Sendable () -> Void = { [self] in
                self.kept.withLock { kept in
                    guard kept.video?.generation == generation else { return }
                    for index in indices { kept.video!.slots[index].pins -= 1 }
                }
            }
            return Clip(frames: frames, audio: samples, audioStart: audioStart, sampleRate: rate, channels: channels, release: release)
        }
    }
}
