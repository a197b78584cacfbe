@_spi(Plumbing) import CoreVideo
import Foundation

/// The attachment key that marks a sample as not a sync sample (not a keyframe), in the sample's
/// dictionary of `CMSampleBufferGetSampleAttachmentsArray(_:createIfNecessary:)`.
nonisolated(unsafe) public let kCMSampleAttachmentKey_NotSync: CFString = "NotSync"
/// The attachment key that says whether a sample depends on others.
nonisolated(unsafe) public let kCMSampleAttachmentKey_DependsOnOthers: CFString = "DependsOnOthers"
/// The attachment key that says whether other samples depend on this one.
nonisolated(unsafe) public let kCMSampleAttachmentKey_IsDependedOnByOthers: CFString = "IsDependedOnByOthers"
/// The attachment key that says whether a sample is shown as soon as it is decoded.
nonisolated(unsafe) public let kCMSampleAttachmentKey_DisplayImmediately: CFString = "DisplayImmediately"
/// The attachment key that says whether a sample is decoded without being shown.
nonisolated(unsafe) public let kCMSampleAttachmentKey_DoNotDisplay: CFString = "DoNotDisplay"
/// The attachment key that says whether later samples may be shown before this one.
nonisolated(unsafe) public let kCMSampleAttachmentKey_EarlierDisplayTimesAllowed: CFString = "EarlierDisplayTimesAllowed"
/// The attachment key that says whether a sample carries redundant coding.
nonisolated(unsafe) public let kCMSampleAttachmentKey_HasRedundantCoding: CFString = "HasRedundantCoding"

/// Returns the attachments of each of a sample buffer's samples: an array of mutable dictionaries,
/// one per sample, which the buffer keeps; nil when it has none yet and `createIfNecessary` is false,
/// or when it holds no samples.
public func CMSampleBufferGetSampleAttachmentsArray(_ sbuf: CMSampleBuffer, createIfNecessary: Bool) -> CFArray? {
    sbuf.sampleAttachments.withLock { attachments in
        if attachments == nil, createIfNecessary, sbuf.numSamples > 0 { attachments = CMSampleAttachmentsArray(count: sbuf.numSamples) }
        return attachments
    }
}

extension CMSampleBuffer {
    /// Whether the buffer's first sample is a sync sample (a keyframe): not marked `NotSync` in its
    /// sample attachments, nor, as older code marks it, in the buffer's own attachments.
    package var isSyncSample: Bool {
        let marked =
            sampleAttachments.withLock { $0?.dictionaries.first?.object(forKey: kCMSampleAttachmentKey_NotSync) }
            ?? _attachmentStorage.get(kCMSampleAttachmentKey_NotSync)?.0
        return ((marked as? NSNumber)?.boolValue ?? (marked as? Bool)) != true
    }

    /// Marks every sample of the buffer as not a sync sample, in its sample attachments.
    package func markNotSync() {
        guard let attachments = CMSampleBufferGetSampleAttachmentsArray(self, createIfNecessary: true) as? CMSampleAttachmentsArray else { return }
        for dictionary in attachments.dictionaries { dictionary.setObject(kCFBooleanTrue as NSNumber, forKey: kCMSampleAttachmentKey_NotSync) }
    }
}

/// A sample buffer's per-sample attachments: an array whose elements are the very mutable
/// dictionaries the buffer keeps (Foundation's own arrays hand elements out as Swift copies), so
/// that a dictionary reached through `CFArrayGetValueAtIndex` and changed changes the sample's.
/// The dictionaries are thread-safe only as Foundation's are: one writer at a time.
package final class CMSampleAttachmentsArray: NSArray {
    /// The samples' dictionaries.
    package let dictionaries: [NSMutableDictionary]

    init(count: Int) {
        dictionaries = (0..<count).map { _ in NSMutableDictionary() }
        super.init()
    }

    /// Creates an array of no dictionaries.
    required convenience init(arrayLiteral elements: Any...) { self.init(count: 0) }

    /// Creates an array of no dictionaries (sample attachments are made by their buffer).
    required convenience init(objects: UnsafePointer<AnyObject>?, count: Int) { self.init(count: 0) }

    /// Sample attachments are not decoded from archives.
    required init?(coder: NSCoder) { nil }

    /// The number of samples.
    package override var count: Int { dictionaries.count }

    /// The dictionary of the sample at `index`.
    package override func object(at index: Int) -> Any { dictionaries[index] }
}
