import Foundation

/// A settings dictionary (`AVFormatIDKey`, `AVSampleRateKey`, ...) read into values, with the
/// defaults Apple's classes use for keys left out.
struct AudioSettings {
    /// The data format.
    var formatID: AudioFormatID
    /// Frames a second, if given.
    var sampleRate: Double?
    /// Channels, if given.
    var channels: UInt32?
    /// Bits of each linear PCM sample.
    var bitDepth: UInt32 = 16
    /// Whether linear PCM samples are floats.
    var isFloat = false
    /// Whether linear PCM samples are big-endian.
    var isBigEndian = false
    /// Whether linear PCM channels are in separate buffers.
    var isNonInterleaved = false
    /// The encoder's bit rate, all channels together, if given.
    var bitRate: Int?
    /// The encoder's bit rate for each channel, if given.
    var bitRatePerChannel: Int?
    /// The encoder's quality, if given.
    var quality: AVAudioQuality?
    /// The bit depth the encoder is told to keep, if given.
    var bitDepthHint: Int?
    /// The channel layout, if given.
    var channelLayout: AVAudioChannelLayout?

    /// Reads a dictionary; nil when its values are not numbers where numbers belong, or say nothing usable.
    init?(_ settings: [String: Any]) {
        guard let format = Self.number(settings[AVFormatIDKey]), format >= 0, format <= Double(UInt32.max) else { return nil }
        formatID = AudioFormatID(format)
        if let rate = Self.number(settings[AVSampleRateKey]) {
            guard rate.isFinite, rate >= 1, rate <= 1_536_000 else { return nil }
            sampleRate = rate
        }
        if let count = Self.number(settings[AVNumberOfChannelsKey]) {
            guard count >= 1, count <= 64, count == count.rounded() else { return nil }
            channels = UInt32(count)
        }
        if let bits = Self.number(settings[AVLinearPCMBitDepthKey]) {
            guard [8, 16, 24, 32, 64].contains(bits) else { return nil }
            bitDepth = UInt32(bits)
        }
        isFloat = Self.flag(settings[AVLinearPCMIsFloatKey]) ?? false
        isBigEndian = Self.flag(settings[AVLinearPCMIsBigEndianKey]) ?? false
        isNonInterleaved = Self.flag(settings[AVLinearPCMIsNonInterleaved]) ?? false
        if isFloat, bitDepth != 32, bitDepth != 64 { return nil }
        bitRate = Self.number(settings[AVEncoderBitRateKey]).flatMap { $0.isFinite && $0 > 0 && $0 < 10_000_000 ? Int($0) : nil }
        bitRatePerChannel = Self.number(settings[AVEncoderBitRatePerChannelKey]).flatMap { $0.isFinite && $0 > 0 && $0 < 10_000_000 ? Int($0) : nil }
        quality = Self.number(settings[AVEncoderAudioQualityKey]).flatMap { $0.isFinite ? AVAudioQuality(rawValue: Int($0)) : nil }
        bitDepthHint = Self.number(settings[AVEncoderBitDepthHintKey]).flatMap { $0 >= 8 && $0 <= 32 ? Int($0) : nil }
        if let data = settings[AVChannelLayoutKey] as? Data, data.count >= MemoryLayout<AudioChannelLayout>.size {
            let layout = data.withUnsafeBytes { bytes -> AVAudioChannelLayout? in
                let raw = UnsafeMutableRawPointer.allocate(byteCount: bytes.count, alignment: MemoryLayout<AudioChannelLayout>.alignment)
                defer { raw.deallocate() }
                raw.copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
                let pointer = raw.assumingMemoryBound(to: AudioChannelLayout.self)
                guard AVAudioChannelLayout.size(of: pointer) <= bytes.count else { return nil }
                return AVAudioChannelLayout(layout: pointer)
            }
            guard let layout else { return nil }
            channelLayout = layout
            if channels == nil { channels = layout.channelCount }
        }
    }

    /// The stream description the settings give; rate and channels default to 44.1 kHz stereo.
    var streamDescription: AudioStreamBasicDescription {
        var asbd = AudioStreamBasicDescription()
        asbd.mFormatID = formatID
        asbd.mSampleRate = sampleRate ?? 44_100
        asbd.mChannelsPerFrame = channels ?? 2
        guard formatID == kAudioFormatLinearPCM else {
            switch formatID {
            case kAudioFormatMPEG4AAC: asbd.mFramesPerPacket = 1024
            case kAudioFormatMPEGLayer3: asbd.mFramesPerPacket = 1152
            default: break
            }
            return asbd
        }
        var flags: AudioFormatFlags = kAudioFormatFlagIsPacked
        flags |= isFloat ? kAudioFormatFlagIsFloat : (bitDepth > 8 ? kAudioFormatFlagIsSignedInteger : 0)
        if isBigEndian { flags |= kAudioFormatFlagIsBigEndian }
        if isNonInterleaved { flags |= kAudioFormatFlagIsNonInterleaved }
        let sampleBytes = bitDepth / 8
        asbd.mFormatFlags = flags
        asbd.mBitsPerChannel = bitDepth
        asbd.mFramesPerPacket = 1
        asbd.mBytesPerFrame = isNonInterleaved ? sampleBytes : sampleBytes * asbd.mChannelsPerFrame
        asbd.mBytesPerPacket = asbd.mBytesPerFrame
        return asbd
    }

    /// A settings value as a number: NSNumber, any integer or floating-point type, or a Bool.
    static func number(_ value: Any?) -> Double? {
        switch value {
        case let number as NSNumber: number.doubleValue
        case let value as Int: Double(value)
        case let value as UInt32: Double(value)
        case let value as Int32: Double(value)
        case let value as UInt: Double(value)
        case let value as Int64: Double(value)
        case let value as Double: value
        case let value as Float: Double(value)
        default: nil
        }
    }

    /// A settings value as a flag: a Bool or a number.
    static func flag(_ value: Any?) -> Bool? {
        if let value = value as? Bool { return value }
        return number(value).map { $0 != 0 }
    }
}
