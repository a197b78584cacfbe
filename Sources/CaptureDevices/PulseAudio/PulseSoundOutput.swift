import CPulse
import Foundation

/// A playback stream to a PulseAudio server's sink (PipeWire's too, through
/// pipewire-pulse): interleaved 32-bit float frames, written from one thread, each write waiting
/// while the server's buffer is full, so the server's clock paces the writer.
///
/// Thread ownership: one thread at a time writes, flushes and closes.
package final class PulseSoundOutput: @unchecked Sendable {
    private var playback: OpaquePointer?
    /// Frames a second.
    package let rate: Int
    /// Interleaved channels.
    package let channels: Int

    /// Connects to the server within `timeout` and plays to the sink `device` (nil: the server's
    /// default, followed when it changes); throws when there is no server (none is ever started for it).
    package init(name: String, device: String? = nil, rate: Int, channels: Int, latencyMilliseconds: Int = 60, timeout: Int = 500) throws {
        var error: Int32 = 0
        guard let made = cpulse_play_open(name, device, UInt32(rate), UInt32(channels), UInt32(latencyMilliseconds), Int32(timeout), &error) else {
            throw PulseSoundOutputError(code: error)
        }
        playback = made
        self.rate = rate
        self.channels = channels
    }

    deinit { close() }

    /// Writes frames, waiting for room; throws when the server has gone.
    package func write(_ samples: UnsafeBufferPointer<Float>) throws {
        guard let playback, let base = samples.baseAddress else { return }
        let result = cpulse_play_write(playback, base, samples.count / channels)
        if result < 0 { throw PulseSoundOutputError(code: result) }
    }

    /// Drops what has not been heard yet.
    package func flush() { if let playback { _ = cpulse_play_flush(playback) } }

    /// Waits until everything written has been heard.
    package func drain() { if let playback { _ = cpulse_play_drain(playback) } }

    /// How long a frame written now waits before it is heard, in seconds.
    package var latency: Double { playback.map { Double(cpulse_play_latency_usec($0)) / 1_000_000 } ?? 0 }

    /// Closes the stream.
    package func close() {
        if let playback { cpulse_play_close(playback) }
        playback = nil
    }
}

/// Why a playback stream could not be opened or written.
package struct PulseSoundOutputError: Error, CustomStringConvertible {
    /// A negative PulseAudio error code.
    package let code: Int32
    package var description: String {
        -code == cpulse_error_connection_refused() || -code == cpulse_error_no_entity()
            ? "no sound server is running" : "the sound server refused playback (PulseAudio error \(-code))"
    }
}
