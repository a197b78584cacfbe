import CoreMedia
import Foundation

/// Sound written to the sound server, whose clock paces the writer; where none runs, or once it
/// goes away, the host clock paces the writer instead and nobody hears it.
///
/// Thread ownership: one thread writes, drains and closes (a player's, engine's or speech's own).
package final class PacedSoundOutput {
    private var server: PulseSoundOutput?
    private let rate: Int
    private let channels: Int
    /// The host time frames are counted from, and the frames written since, for pacing without a server.
    private var clockStart = PacedSoundOutput.hostSeconds()
    private var frames: Int64 = 0

    /// Opens a stream to the sink the audio session routes to (the sound server's default unless
    /// overridden), or none when no server runs.
    package init(name: String, rate: Int, channels: Int, latencyMilliseconds: Int = 60) {
        self.rate = rate
        self.channels = channels
        server = try? PulseSoundOutput(name: name, device: PulseSinks.routedSinkName, rate: rate, channels: channels, latencyMilliseconds: latencyMilliseconds)
    }

    deinit { close() }

    /// The host clock, in seconds.
    package static func hostSeconds() -> Double { CMClockGetTime(CMClockGetHostTimeClock()).seconds }

    /// How long a frame written now waits before it is heard, in seconds; 0 without a server.
    package var latency: Double { server?.latency ?? 0 }

    /// Writes interleaved frames, waiting for the server's room or, without one, for their time
    /// on the host clock (while `running` says to go on).
    package func write(_ samples: UnsafeBufferPointer<Float>, while running: () -> Bool = { true }) {
        if let server {
            do { try server.write(samples) } catch {
                // The server went away: the host clock paces from here.
                server.close()
                self.server = nil
                restartClock()
            }
        }
        frames += Int64(samples.count / channels)
        guard server == nil else { return }
        let due = clockStart + Double(frames) / Double(rate)
        while running() {
            let left = due - Self.hostSeconds()
            if left <= 0 { break }
            Thread.sleep(forTimeInterval: min(0.005, left))
        }
    }

    /// Counts host time from now for what was written so far: after a pause, or the server's loss.
    package func restartClock() { clockStart = Self.hostSeconds() - Double(frames) / Double(rate) }

    /// Waits until everything written has been heard.
    package func drain() { server?.drain() }

    /// Closes the stream.
    package func close() {
        server?.close()
        server = nil
    }
}
