import Foundation

/// A description of the roles of a set of audio channels: a Core Audio `AudioChannelLayout`.
///
/// Immutable once made; its `layout` memory lives as long as it does.
open class AVAudioChannelLayout: NSObject, @unchecked Sendable {
    /// The layout, held in memory of its own (the list of channel descriptions is variable-length).
    private let storage: UnsafeMutableRawPointer

    /// The layout's tag.
    open var layoutTag: AudioChannelLayoutTag { layout.pointee.mChannelLayoutTag }

    /// The underlying `AudioChannelLayout`.
    open var layout: UnsafePointer<AudioChannelLayout> { UnsafePointer(storage.assumingMemoryBound(to: AudioChannelLayout.self)) }

    /// The number of channels the layout describes.
    open var channelCount: AVAudioChannelCount {
        let layout = layout.pointee
        switch layout.mChannelLayoutTag {
        case kAudioChannelLayoutTag_UseChannelDescriptions: return layout.mNumberChannelDescriptions
        case kAudioChannelLayoutTag_UseChannelBitmap: return UInt32(layout.mChannelBitmap.rawValue.nonzeroBitCount)
        default: return AudioChannelLayoutTag_GetNumberOfChannels(layout.mChannelLayoutTag)
        }
    }

    /// Creates a layout from a tag; nil for the tags that say descriptions or a bitmap describe the layout.
    public convenience init?(layoutTag: AudioChannelLayoutTag) {
        guard layoutTag != kAudioChannelLayoutTag_UseChannelDescriptions, layoutTag != kAudioChannelLayoutTag_UseChannelBitmap else { return nil }
        var layout = AudioChannelLayout()
        layout.mChannelLayoutTag = layoutTag
        self.init(layout: &layout)
    }

    /// Creates a layout from an `AudioChannelLayout`, copying it and its channel descriptions.
    public init(layout: UnsafePointer<AudioChannelLayout>) {
        let size = Self.size(of: layout)
        storage = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: MemoryLayout<AudioChannelLayout>.alignment)
        storage.copyMemory(from: layout, byteCount: size)
        super.init()
    }

    deinit { storage.deallocate() }

    /// The bytes an `AudioChannelLayout` takes with its channel descriptions.
    static func size(of layout: UnsafePointer<AudioChannelLayout>) -> Int {
        let descriptions = Int(layout.pointee.mNumberChannelDescriptions)
        return MemoryLayout<AudioChannelLayout>.size + max(0, descriptions - 1) * MemoryLayout<AudioChannelDescription>.stride
    }

    /// The layout of one or two channels: mono or stereo; nil for more.
    static func standard(channels: AVAudioChannelCount) -> AVAudioChannelLayout? {
        switch channels {
        case 1: AVAudioChannelLayout(layoutTag: kAudioChannelLayoutTag_Mono)
        case 2: AVAudioChannelLayout(layoutTag: kAudioChannelLayoutTag_Stereo)
        default: nil
        }
    }

    /// Whether another layout is the same: same tag, bitmap and channel descriptions.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? AVAudioChannelLayout else { return false }
        let size = Self.size(of: layout)
        return size == Self.size(of: other.layout) && memcmp(storage, other.storage, size) == 0
    }

    /// A hash consistent with `isEqual(_:)`.
    open override var hash: Int { Int(layoutTag) ^ Int(channelCount) << 32 }
}
