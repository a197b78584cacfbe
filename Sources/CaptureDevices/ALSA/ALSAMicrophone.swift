import CALSA
import CoreMedia
import Foundation

/// A sound card's capture device, read directly through ALSA: for machines with no sound server.
///
/// Thread ownership: it reads and delivers on a thread of its own; samples are 16-bit
/// interleaved PCM at the rate the card grants, stamped on the host clock.
package final class ALSAMicrophone: HardwareDeviceBase, CaptureDeviceBackend, @unchecked Sendable {
    package let alsaID: String
    package let videoFormats: [CaptureVideoFormat] = []
    package let capabilities = ImagingCapabilities.none
    package let imaging = ImagingModel()
    /// The rate and channel count asked for where the application prefers none; the card may grant others.
    package static let preferredRate: UInt32 = 44_100, preferredChannels: UInt32 = 2
    static let framesPerBuffer = 1024
    private let pending = LockedValue<OpaquePointer?>(nil)
    private let granted = LockedValue<AudioStreamBasicDescription?>(nil)

    /// The format of the samples: what the card granted when it last started, or what will be asked for.
    package var audioFormat: AudioStreamBasicDescription? {
        granted.withLock { $0 } ?? Self.description(rate: Self.askedRate, channels: Self.preferredChannels)
    }

    /// The rate to ask the card for: the application's preferred one, else 44.1 kHz.
    static var askedRate: UInt32 { UInt32(AudioPreferences.sampleRate(native: Double(preferredRate)).rounded()) }

    static func description(rate: UInt32, channels: UInt32) -> AudioStreamBasicDescription {
        AudioStreamBasicDescription(
            mSampleRate: Double(rate), mFormatID: kAudioFormatLinearPCM, mFormatFlags: kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked,
            mBytesPerPacket: 2 * channels, mFramesPerPacket: 1, mBytesPerFrame: 2 * channels, mChannelsPerFrame: channels,
            mBitsPerChannel: 16, mReserved: 0)
    }

    init(id: String, name: String) {
        alsaID = id
        super.init(
            descriptor: CaptureDeviceDescriptor(
                uniqueID: "alsa:\(id)", modelID: name, localizedName: name, manufacturer: "ALSA",
                mediaKind: .audio, position: .unspecified, kind: .builtInMicrophone))
    }

    package func start(_ configuration: VideoStreamConfiguration?, sink: CaptureSampleSink) throws(CaptureBackendError) -> Int {
        guard isConnected else { throw .notConnected }
        LibraryLog.installed
        // Open here, so that a busy or missing card is reported to the caller.
        var rate = Self.askedRate, channels = Self.preferredChannels
        var error: Int32 = 0
        let framesPerBuffer = AudioPreferences.framesPerBuffer(rate: Double(rate), standard: Self.framesPerBuffer)
        guard let capture = alsaID.withCString({ calsa_open($0, &rate, &channels, UInt32(framesPerBuffer), &error) }) else {
            switch -error {
            case EBUSY: throw .inUse
            case EACCES, EPERM: throw .notAuthorized
            case ENODEV, ENOENT, ENXIO: throw .notConnected
            default: throw .unsupportedConfiguration("ALSA error \(error) opening \(alsaID)")
            }
        }
        stop()
        pending.withLock { $0 = capture }
        let (generation, token) = beginStream(sink: sink)
        if let token {
            let (rate, channels) = (rate, channels)
            granted.withLock { $0 = Self.description(rate: rate, channels: channels) }
            spawnProducer(token: token, name: "\(descriptor.localizedName) samples") { [self] token in
                produce(token: token, rate: rate, channels: channels, framesPerBuffer: framesPerBuffer)
            }
        }
        return generation
    }

    override func didStop() {
        if let capture = pending.withLock({ value -> OpaquePointer? in
            defer { value = nil }; return value
        }) {
            calsa_close(capture)
        }
    }

    private func produce(token: Int, rate: UInt32, channels: UInt32, framesPerBuffer: Int) {
        guard
            let capture = pending.withLock({ value -> OpaquePointer? in
                defer { value = nil }; return value
            })
        else { return }
        defer { calsa_close(capture) }
        let pool = AudioBufferPool(description: Self.description(rate: rate, channels: channels), framesPerBuffer: framesPerBuffer)
        let scratch = UnsafeMutablePointer<Int16>.allocate(capacity: framesPerBuffer * Int(channels))
        defer { scratch.deallocate() }
        let duration = CMTime(value: CMTimeValue(framesPerBuffer), timescale: Int32(rate))
        while let generation = currentGeneration(token: token) {
            let slot = pool.dequeue()
            let target = slot.map(pool.samples) ?? scratch
            let result = calsa_read(capture, target, UInt(framesPerBuffer))
            // The first sample was captured the read's length, and what still waits, before now.
            let waiting = Int64(max(0, calsa_delay(capture)))
            let nanoseconds = CMClock.hostTimeNanoseconds() - (Int64(framesPerBuffer) + waiting) * 1_000_000_000 / Int64(rate)
            let time = CMTime(value: nanoseconds * Int64(rate) / 1_000_000_000, timescale: Int32(rate))
            if result == -Int(EPIPE) {
                drop(at: time, duration: duration, reason: .discontinuity, generation: generation)
                continue
            }
            if result < 0 {
                if -result == Int(ENODEV) || -result == Int(EBADFD) { setConnected(false) } else { report(.runtimeError(code: -11800)) }
                return
            }
            guard let slot else {
                drop(at: time, duration: duration, reason: .discontinuity, generation: generation)
                continue
            }
            deliver(pool.finish(slot, at: time), generation: generation)
        }
    }

    /// The capture devices of every sound card.
    package static func discover() -> [(id: String, name: String)] {
        LibraryLog.installed
        var devices = [calsa_device](repeating: calsa_device(), count: 32)
        let count = Int(calsa_capture_devices(&devices, 32))
        return devices.prefix(min(count, 32)).map { device in
            (V4L2Node.string(device.id), V4L2Node.string(device.name))
        }
    }
}

/// The sound cards' capture devices, one backend each, kept across rescans.
package enum ALSADiscovery {
    private static let known = LockedValue<[ALSAMicrophone]>([])

    /// Every ALSA capture device seen so far, in card order; absent cards are marked disconnected.
    package static func microphones() -> [ALSAMicrophone] {
        let present = ALSAMicrophone.discover()
        var changes: [(ALSAMicrophone, Bool)] = []
        let result = known.withLock { known -> [ALSAMicrophone] in
            for (id, name) in present where !known.contains(where: { $0.alsaID == id }) {
                known.append(ALSAMicrophone(id: id, name: name))
            }
            for microphone in known {
                let there = present.contains { $0.id == microphone.alsaID }
                if there != microphone.isConnected { changes.append((microphone, there)) }
            }
            return known
        }
        for (microphone, connected) in changes { microphone.setConnected(connected) }
        return result
    }
}
