import CoreMedia
import Foundation

/// An audio format: a Core Audio stream description, with the common linear PCM formats
/// named, an optional channel layout and, for compressed formats, a magic cookie.
///
/// Immutable: safe to share between threads.
open class AVAudioFormat: NSObject, @unchecked Sendable {
    /// The description, in memory that lives as long as the format (`streamDescription` points into it).
    private let basicDescription: UnsafeMutablePointer<AudioStreamBasicDescription>
    /// The channel layout given or implied; nil for one or two channels described by count alone.
    public let channelLayout: AVAudioChannelLayout?
    /// The codec's configuration for compressed formats (an AAC AudioSpecificConfig, for example).
    open var magicCookie: Data?

    // MARK: Creating a format

    /// Creates an empty format, as NSObject's initializer gives: no sample rate, no channels, no
    /// common format; code that makes one and fills it from elsewhere compiles unchanged.
    public override init() {
        basicDescription = .allocate(capacity: 1)
        basicDescription.initialize(to: AudioStreamBasicDescription())
        channelLayout = nil
        super.init()
    }

    /// Creates a format from a stream description; nil for more than two channels (give a layout) or an invalid description.
    public convenience init?(streamDescription asbd: UnsafePointer<AudioStreamBasicDescription>) {
        self.init(streamDescription: asbd, channelLayout: nil)
    }

    /// Creates a format from a stream description and a channel layout, which may be nil only for one or two channels.
    public init?(streamDescription asbd: UnsafePointer<AudioStreamBasicDescription>, channelLayout layout: AVAudioChannelLayout?) {
        let value = asbd.pointee
        guard Self.isValid(value) else { return nil }
        if let layout {
            guard layout.channelCount == value.mChannelsPerFrame else { return nil }
        } else if value.mChannelsPerFrame > 2 {
            return nil
        }
        basicDescription = .allocate(capacity: 1)
        basicDescription.initialize(to: value)
        channelLayout = layout
        super.init()
    }

    /// Creates the standard format, deinterleaved 32-bit floats, at a sample rate with one or two channels.
    public convenience init?(standardFormatWithSampleRate sampleRate: Double, channels: AVAudioChannelCount) {
        guard channels <= 2 else { return nil }
        self.init(commonFormat: .pcmFormatFloat32, sampleRate: sampleRate, channels: channels, interleaved: false)
    }

    /// Creates the standard format, deinterleaved 32-bit floats, at a sample rate with a channel layout.
    public convenience init(standardFormatWithSampleRate sampleRate: Double, channelLayout layout: AVAudioChannelLayout) {
        self.init(commonFormat: .pcmFormatFloat32, sampleRate: sampleRate, interleaved: false, channelLayout: layout)
    }

    /// Creates a format in one of the common PCM formats; nil for `.otherFormat`, no channels, or a rate that is not positive.
    public init?(commonFormat format: AVAudioCommonFormat, sampleRate: Double, channels: AVAudioChannelCount, interleaved: Bool) {
        guard format != .otherFormat, channels > 0, sampleRate > 0, sampleRate.isFinite else { return nil }
        basicDescription = .allocate(capacity: 1)
        basicDescription.initialize(to: Self.linearPCM(format, sampleRate: sampleRate, channels: channels, interleaved: interleaved))
        channelLayout = nil
        super.init()
    }

    /// Creates a format in one of the common PCM formats with a channel layout, which says the number of channels.
    public init(commonFormat format: AVAudioCommonFormat, sampleRate: Double, interleaved: Bool, channelLayout layout: AVAudioChannelLayout) {
        precondition(format != .otherFormat, "AVAudioFormat: a common format needs a PCM format")
        basicDescription = .allocate(capacity: 1)
        basicDescription.initialize(to: Self.linearPCM(format, sampleRate: sampleRate, channels: layout.channelCount, interleaved: interleaved))
        channelLayout = layout
        super.init()
    }

    /// Creates a format from a settings dictionary (`AVFormatIDKey`, `AVSampleRateKey`,
    /// `AVNumberOfChannelsKey`, the linear PCM keys, `AVChannelLayoutKey`); nil when they do not describe one.
    public convenience init?(settings: [String: Any]) {
        guard let parsed = AudioSettings(settings) else { return nil }
        var asbd = parsed.streamDescription
        self.init(streamDescription: &asbd, channelLayout: parsed.channelLayout)
    }

    /// Creates a format from a Core Media audio format description.
    public convenience init(cmAudioFormatDescription formatDescription: CMAudioFormatDescription) {
        var asbd = formatDescription.audioStreamBasicDescription ?? AudioStreamBasicDescription()
        let layout = asbd.mChannelsPerFrame > 2 ? AVAudioChannelLayout(layoutTag: kAudioChannelLayoutTag_DiscreteInOrder | asbd.mChannelsPerFrame) : nil
        if !Self.isValid(asbd) { asbd.mChannelsPerFrame = max(1, asbd.mChannelsPerFrame) }
        self.init(streamDescription: &asbd, channelLayout: layout)!
        var size = 0
        if let cookie = CMAudioFormatDescriptionGetMagicCookie(formatDescription, sizeOut: &size), size > 0 {
            magicCookie = Data(bytes: cookie, count: size)
        }
    }

    deinit { basicDescription.deallocate() }

    // MARK: The format's properties

    /// The stream description.
    open var streamDescription: UnsafePointer<AudioStreamBasicDescription> { UnsafePointer(basicDescription) }

    /// Frames a second.
    open var sampleRate: Double { basicDescription.pointee.mSampleRate }

    /// Channels in each frame.
    open var channelCount: AVAudioChannelCount { basicDescription.pointee.mChannelsPerFrame }

    /// Whether the samples of a frame follow one another in one buffer, rather than each channel in its own.
    open var isInterleaved: Bool { basicDescription.pointee.mFormatFlags & kAudioFormatFlagIsNonInterleaved == 0 }

    /// Which of the common PCM formats this is, or `.otherFormat`.
    open var commonFormat: AVAudioCommonFormat {
        let asbd = basicDescription.pointee
        guard asbd.mFormatID == kAudioFormatLinearPCM, asbd.mFormatFlags & kAudioFormatFlagIsBigEndian == 0,
            asbd.mFormatFlags & kAudioFormatFlagIsPacked != 0 || asbd.mChannelsPerFrame == 1 || !isInterleaved
        else { return .otherFormat }
        let float = asbd.mFormatFlags & kAudioFormatFlagIsFloat != 0
        let signed = asbd.mFormatFlags & kAudioFormatFlagIsSignedInteger != 0
        switch (float, signed, asbd.mBitsPerChannel) {
        case (true, _, 32): return .pcmFormatFloat32
        case (true, _, 64): return .pcmFormatFloat64
        case (false, true, 16): return .pcmFormatInt16
        case (false, true, 32): return .pcmFormatInt32
        default: return .otherFormat
        }
    }

    /// Whether this is the standard format: deinterleaved native-endian 32-bit floats.
    open var isStandard: Bool { commonFormat == .pcmFormatFloat32 && !isInterleaved }

    /// The format as a settings dictionary.
    open var settings: [String: Any] {
        let asbd = basicDescription.pointee
        var settings: [String: Any] = [
            AVFormatIDKey: NSNumber(value: asbd.mFormatID), AVSampleRateKey: NSNumber(value: asbd.mSampleRate),
            AVNumberOfChannelsKey: NSNumber(value: asbd.mChannelsPerFrame),
        ]
        if asbd.mFormatID == kAudioFormatLinearPCM {
            settings[AVLinearPCMBitDepthKey] = NSNumber(value: asbd.mBitsPerChannel)
            settings[AVLinearPCMIsFloatKey] = NSNumber(value: asbd.mFormatFlags & kAudioFormatFlagIsFloat != 0)
            settings[AVLinearPCMIsBigEndianKey] = NSNumber(value: asbd.mFormatFlags & kAudioFormatFlagIsBigEndian != 0)
            settings[AVLinearPCMIsNonInterleaved] = NSNumber(value: !isInterleaved)
        }
        if let channelLayout {
            let layout = channelLayout.layout
            settings[AVChannelLayoutKey] = Data(bytes: layout, count: AVAudioChannelLayout.size(of: layout))
        }
        return settings
    }

    /// The format as a Core Media audio format description.
    open var formatDescription: CMAudioFormatDescription { CMFormatDescription(audio: basicDescription.pointee, magicCookie: magicCookie) }

    /// Whether another format is the same: same description and channel layout.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? AVAudioFormat else { return false }
        let layoutsMatch: Bool
        switch (channelLayout, other.channelLayout) {
        case (nil, nil): layoutsMatch = true
        case (let mine?, let theirs?): layoutsMatch = mine.isEqual(theirs)
        // A layout that only says mono or stereo is what a count of one or two means anyway.
        case (let layout?, nil), (nil, let layout?):
            layoutsMatch = channelCount <= 2 && AVAudioChannelLayout.standard(channels: channelCount)?.isEqual(layout) == true
        }
        return basicDescription.pointee == other.basicDescription.pointee && layoutsMatch
    }

    /// A hash consistent with `isEqual(_:)`.
    open override var hash: Int { basicDescription.pointee.hashValue }

    /// The format in words, as Apple's describes it.
    open override var description: String {
        let asbd = basicDescription.pointee
        let kind: String
        switch commonFormat {
        case .pcmFormatFloat32: kind = "Float32"
        case .pcmFormatFloat64: kind = "Float64"
        case .pcmFormatInt16: kind = "Int16"
        case .pcmFormatInt32: kind = "Int32"
        case .otherFormat: kind = Self.fourCharacters(asbd.mFormatID)
        }
        let layout = isInterleaved ? "interleaved" : "deinterleaved"
        return "<AVAudioFormat: \(asbd.mChannelsPerFrame) ch, \(Int(asbd.mSampleRate)) Hz, \(kind), \(layout)>"
    }

    // MARK: Helpers

    /// The stream description of linear PCM in a common format.
    static func linearPCM(_ format: AVAudioCommonFormat, sampleRate: Double, channels: AVAudioChannelCount, interleaved: Bool) -> AudioStreamBasicDescription {
        let bytes = UInt32(format.bytesPerSample)
        var flags: AudioFormatFlags = kAudioFormatFlagIsPacked
        flags |= format == .pcmFormatFloat32 || format == .pcmFormatFloat64 ? kAudioFormatFlagIsFloat : kAudioFormatFlagIsSignedInteger
        if !interleaved { flags |= kAudioFormatFlagIsNonInterleaved }
        let frameBytes = interleaved ? bytes * channels : bytes
        return AudioStreamBasicDescription(
            mSampleRate: sampleRate, mFormatID: kAudioFormatLinearPCM, mFormatFlags: flags, mBytesPerPacket: frameBytes,
            mFramesPerPacket: 1, mBytesPerFrame: frameBytes, mChannelsPerFrame: channels, mBitsPerChannel: bytes * 8, mReserved: 0)
    }

    /// Whether a description can be a format: channels, a positive finite rate, and for linear PCM a sample size.
    static func isValid(_ asbd: AudioStreamBasicDescription) -> Bool {
        guard asbd.mChannelsPerFrame > 0, asbd.mSampleRate > 0, asbd.mSampleRate.isFinite, asbd.mFormatID != 0 else { return false }
        if asbd.mFormatID == kAudioFormatLinearPCM { return asbd.mBitsPerChannel > 0 && asbd.mBytesPerFrame > 0 }
        return true
    }

    /// A four-character code as its characters.
    static func fourCharacters(_ code: UInt32) -> String {
        let bytes = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: code >> $0) }
        return bytes.allSatisfy({ $0 >= 32 && $0 < 127 }) ? String(decoding: bytes, as: UTF8.self) : String(code)
    }
}
