import CPulse
import CoreMedia
import Foundation

/// A PulseAudio source (or a PipeWire one, through pipewire-pulse), captured at low latency.
///
/// Thread ownership: it reads and delivers on a thread of its own; samples are 16-bit
/// interleaved PCM at the source's own rate (or the application's preferred one, which the
/// server resamples to), stamped on the host clock. The input gain is the source's volume. A server that goes
/// away is a runtime error (`mediaServicesWereReset`); a source that does not exist, a
/// device that is not connected.
package final class PulseMicrophone: HardwareDeviceBase, CaptureDeviceBackend, AudioInputGainControl, @unchecked Sendable {
    package let sourceName: String
    package let videoFormats: [CaptureVideoFormat] = []
    package let capabilities = ImagingCapabilities.none
    package let imaging = ImagingModel()
    /// The source's own rate.
    package let nativeRate: UInt32
    package let channels: UInt32
    static let framesPerBuffer = 1024
    private let volume: LockedValue<Float>
    private let pending = LockedValue<OpaquePointer?>(nil)

    init(source: cpulse_source) {
        sourceName = V4L2Node.string(source.name)
        nativeRate = source.rate > 0 ? source.rate : 44_100
        volume = LockedValue(source.volume)
        channels = min(2, max(1, source.channels))
        let description = V4L2Node.string(source.description)
        super.init(
            descriptor: CaptureDeviceDescriptor(
                uniqueID: "pulse:\(sourceName)", modelID: "PulseAudio source", localizedName: description,
                manufacturer: "PulseAudio", mediaKind: .audio, position: .unspecified, kind: .builtInMicrophone))
    }

    /// The rate samples are captured at: the preferred one where the application set one, else the source's.
    package var rate: UInt32 { UInt32(AudioPreferences.sampleRate(native: Double(nativeRate)).rounded()) }

    /// The format of the samples: the capture rate, one or two channels.
    package var audioFormat: AudioStreamBasicDescription? { ALSAMicrophone.description(rate: rate, channels: channels) }

    package var inputGain: Float { volume.withLock { $0 } }
    package var isInputGainSettable: Bool { true }

    /// Sets the source's volume on the server.
    package func setInputGain(_ gain: Float) throws(CaptureBackendError) {
        guard (0...1).contains(gain) else { throw .unsupportedConfiguration("an input gain is between 0 and 1") }
        let result = sourceName.withCString { cpulse_set_source_volume($0, gain, 1000) }
        switch -result {
        case 0: volume.withLock { $0 = gain }
        case cpulse_error_no_entity(): throw .notConnected
        case cpulse_error_connection_refused(), cpulse_error_connection_terminated(): throw .serverUnavailable
        default: throw .unsupportedConfiguration("PulseAudio error \(-result) setting the volume of \(sourceName)")
        }
    }

    /// The volume the server reports, learnt at a lookup.
    func update(from source: cpulse_source) { volume.withLock { $0 = source.volume } }

    package func start(_ configuration: VideoStreamConfiguration?, sink: CaptureSampleSink) throws(CaptureBackendError) -> Int {
        guard isConnected else { throw .notConnected }
        // pipewire-pulse records from its default source when asked for one it does not have: ask first.
        PulseDiscovery.refresh()
        guard PulseDiscovery.microphones().contains(where: { $0 === self && $0.isConnected }) else { throw .notConnected }
        var error: Int32 = 0
        let (rate, framesPerBuffer) = (rate, AudioPreferences.framesPerBuffer(rate: Double(rate), standard: Self.framesPerBuffer))
        guard let capture = sourceName.withCString({ cpulse_open($0, rate, channels, UInt32(framesPerBuffer), &error) }) else {
            switch -error {
            case cpulse_error_no_entity(): throw .notConnected
            case cpulse_error_access(): throw .notAuthorized
            case cpulse_error_connection_refused(), cpulse_error_connection_terminated(): throw .serverUnavailable
            default: throw .unsupportedConfiguration("PulseAudio error \(-error) opening \(sourceName)")
            }
        }
        stop()
        pending.withLock { $0 = capture }
        let (generation, token) = beginStream(sink: sink)
        if let token {
            spawnProducer(token: token, name: "\(descriptor.localizedName) samples") { [self] token in
                produce(token: token, rate: rate, framesPerBuffer: framesPerBuffer)
            }
        }
        return generation
    }

    override func didStop() {
        if let capture = pending.withLock({ value -> OpaquePointer? in
            defer { value = nil }; return value
        }) {
            cpulse_close(capture)
        }
    }

    private func produce(token: Int, rate: UInt32, framesPerBuffer: Int) {
        guard
            let capture = pending.withLock({ value -> OpaquePointer? in
                defer { value = nil }; return value
            })
        else { return }
        defer { cpulse_close(capture) }
        let pool = AudioBufferPool(description: ALSAMicrophone.description(rate: rate, channels: channels), framesPerBuffer: framesPerBuffer)
        let scratch = UnsafeMutablePointer<Int16>.allocate(capacity: framesPerBuffer * Int(channels))
        defer { scratch.deallocate() }
        let bytes = framesPerBuffer * Int(channels) * 2
        let duration = CMTime(value: CMTimeValue(framesPerBuffer), timescale: Int32(rate))
        while let generation = currentGeneration(token: token) {
            let slot = pool.dequeue()
            let result = cpulse_read(capture, slot.map(pool.samples) ?? scratch, bytes)
            // The first sample of what was read was captured its length, and the server's latency, before now.
            let latency = Int64(cpulse_latency_usec(capture)) * 1000
            let nanoseconds = CMClock.hostTimeNanoseconds() - latency - Int64(framesPerBuffer) * 1_000_000_000 / Int64(rate)
            let time = CMTime(value: nanoseconds * Int64(rate) / 1_000_000_000, timescale: Int32(rate))
            if result < 0 {
                guard currentGeneration(token: token) != nil else { return }
                // The server went away, or the stream failed: the session hears of it and stops.
                report(.runtimeError(code: -result == cpulse_error_connection_terminated() ? -11819 : -11800))
                return
            }
            guard let slot else {
                drop(at: time, duration: duration, reason: .discontinuity, generation: generation)
                continue
            }
            deliver(pool.finish(slot, at: time), generation: generation)
        }
    }
}

/// The PulseAudio server's input sources, one backend each, kept across lookups.
///
/// Monitors of sinks are left out. A lookup waits at most a moment for the server and is
/// remembered briefly, so that listing devices never stalls on an absent server. Once someone
/// listens, a connection follows the server's source events, so that sources that come and go
/// are announced; when the server goes away, its sources are disconnected and the server is
/// looked for once a second, so that they return with it.
package enum PulseDiscovery {
    private static let known = LockedValue<[PulseMicrophone]>([])
    private static let lastLookup = LockedValue<(time: Int64, present: [String])>((0, []))
    private struct Watch {
        var monitor: OpaquePointer?
        var everConnected = false
        var retryScheduled = false
        var refreshScheduled = false
    }
    private static let watch = LockedValue(Watch())
    private static let listeners = LockedValue<[@Sendable () -> Void]>([])

    /// Whether sinks' monitors (what the machine plays) are offered as microphones too:
    /// `LINUXAVFOUNDATION_PULSE_MONITORS=1`. They are left out otherwise.
    package static var includesMonitors: Bool { ProcessInfo.processInfo.environment["LINUXAVFOUNDATION_PULSE_MONITORS"] == "1" }

    package static func microphones() -> [PulseMicrophone] {
        let now = CMClock.hostTimeNanoseconds()
        let (time, cached) = lastLookup.withLock { $0 }
        var present = cached
        var found: [cpulse_source] = []
        var serverLost = false
        if now - time > 1_000_000_000 {
            var sources = [cpulse_source](repeating: cpulse_source(), count: 64)
            let count = Int(cpulse_list_sources(&sources, 64, 500))
            serverLost = count < 0
            found = count > 0 ? sources.prefix(min(count, 64)).filter { $0.is_monitor == 0 || includesMonitors } : []
            // The server's default source first.
            found.sort { $0.is_default > $1.is_default }
            present = found.map { V4L2Node.string($0.name) }
            lastLookup.withLock { $0 = (now, present) }
        }
        var changes: [(PulseMicrophone, Bool)] = []
        let result = known.withLock { known -> [PulseMicrophone] in
            for source in found {
                if let existing = known.first(where: { $0.sourceName == V4L2Node.string(source.name) }) {
                    existing.update(from: source)
                } else {
                    known.append(PulseMicrophone(source: source))
                }
            }
            for microphone in known where present.contains(microphone.sourceName) != microphone.isConnected {
                changes.append((microphone, !microphone.isConnected))
            }
            return present.compactMap { name in known.first { $0.sourceName == name } } + known.filter { !present.contains($0.sourceName) }
        }
        for (microphone, connected) in changes { microphone.setConnected(connected, serverLost: serverLost) }
        return result
    }

    /// Forgets the last lookup, so that the next one asks the server (and, for listeners, follows it).
    package static func refresh() {
        lastLookup.withLock { $0 = (0, $0.present) }
        if !listeners.withLock({ $0.isEmpty }), watch.withLock({ $0.monitor == nil && !$0.retryScheduled }) { startWatching() }
    }

    /// Calls `listener` after sources appear or disappear; starts following the server on first use.
    package static func addListener(_ listener: @escaping @Sendable () -> Void) {
        listeners.withLock { $0.append(listener) }
        if watch.withLock({ $0.monitor == nil }) { startWatching() }
    }

    /// Connects the event connection; when the server has been seen before and is absent, tries again in a second.
    private static func startWatching() {
        var error: Int32 = 0
        let monitor = cpulse_monitor_new(pulseSourcesChanged, nil, 500, &error)
        let retry = watch.withLock { watch -> Bool in
            if let monitor {
                watch.monitor = monitor
                watch.everConnected = true
                return false
            }
            guard watch.everConnected, !watch.retryScheduled else { return false }
            watch.retryScheduled = true
            return true
        }
        // Listeners hear of it on another thread: the caller may be registering one under its own lock.
        if monitor != nil { DispatchQueue.global().async { refreshAndNotify() } }
        guard retry else { return }
        // Still no server: its sources are gone, even those whose loss no event reported.
        lastLookup.withLock { $0 = (0, $0.present) }
        _ = microphones()
        DispatchQueue.global().asyncAfter(deadline: .now() + 1) {
            watch.withLock { $0.retryScheduled = false }
            if watch.withLock({ $0.monitor == nil }) { startWatching() }
        }
    }

    /// The server reported a change: look again on another thread, once for a burst of events.
    fileprivate static func scheduleRefresh() {
        let schedule = watch.withLock { watch -> Bool in
            defer { watch.refreshScheduled = true }
            return !watch.refreshScheduled
        }
        guard schedule else { return }
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) {
            let gone = watch.withLock { watch -> OpaquePointer? in
                watch.refreshScheduled = false
                guard let monitor = watch.monitor, cpulse_monitor_is_alive(monitor) == 0 else { return nil }
                watch.monitor = nil
                return monitor
            }
            if let gone {
                cpulse_monitor_free(gone)
                refreshAndNotify()
                startWatching()
            } else {
                refreshAndNotify()
            }
        }
    }

    private static func refreshAndNotify() {
        lastLookup.withLock { $0 = (0, $0.present) }
        _ = microphones()
        for listener in listeners.withLock({ $0 }) { listener() }
    }
}

/// Called by libpulse on the event connection's thread.
private let pulseSourcesChanged: @convention(c) (UnsafeMutableRawPointer?) -> Void = { _ in
    PulseDiscovery.scheduleRefresh()
}
