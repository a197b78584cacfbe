@_spi(Plumbing) import CoreMedia
@_spi(Plumbing) import CoreVideo
import Foundation

/// Sample buffers for compressed frames, each with its block buffer and sample attachments,
/// reused once the client has let go of them, so that a session that is keeping up allocates no
/// sample buffer a frame. A block buffer too small for a frame is replaced by a larger one.
///
/// Thread ownership: used under its session's lock.
final class CompressedSamplePool {
    private var shells: [CMSampleBuffer] = []
    /// What each shell's sample attachments say now (bit 0: a keyframe, bit 1: disposable), so that a
    /// reused shell's dictionary is written only when that changes; 0xFF when never written.
    private var marks: [UInt8] = []
    /// The most shells kept; when every one is held, a frame gets a sample buffer of its own.
    private let limit = 16

    /// A sample buffer holding a block buffer of `size` bytes, its other parts emptied, its sample
    /// attachments Apple's for a frame that is a keyframe or not, and disposable or not: `NotSync` and
    /// `DependsOnOthers` on frames that are not keyframes, `IsDependedOnByOthers` false on those no frame refers to.
    func sampleBuffer(size: Int, keyFrame: Bool, disposable: Bool) -> CMSampleBuffer {
        let mark = UInt8(keyFrame ? 1 : 0) | UInt8(disposable ? 2 : 0)
        let (sample, index) = shell(size: size, mark: mark)
        // One sample, which the attachments array has a dictionary for.
        sample.sampleCount = 1
        if index.map({ marks[$0] != mark }) ?? true {
            Self.mark(sample, keyFrame: keyFrame, disposable: disposable)
            if let index { marks[index] = mark }
        }
        return sample
    }

    /// The attachments' values, made once rather than bridged for every frame.
    private static let yes = kCFBooleanTrue as NSNumber, no = kCFBooleanFalse as NSNumber

    private static func mark(_ sample: CMSampleBuffer, keyFrame: Bool, disposable: Bool) {
        guard let attachments = CMSampleBufferGetSampleAttachmentsArray(sample, createIfNecessary: true) as? CMSampleAttachmentsArray,
            let first = attachments.dictionaries.first
        else { return }
        if keyFrame {
            first.removeObject(forKey: kCMSampleAttachmentKey_NotSync)
            first.setObject(no, forKey: kCMSampleAttachmentKey_DependsOnOthers)
        } else {
            first.setObject(yes, forKey: kCMSampleAttachmentKey_NotSync)
            first.setObject(yes, forKey: kCMSampleAttachmentKey_DependsOnOthers)
        }
        if disposable {
            first.setObject(no, forKey: kCMSampleAttachmentKey_IsDependedOnByOthers)
        } else {
            first.removeObject(forKey: kCMSampleAttachmentKey_IsDependedOnByOthers)
        }
    }

    /// A free shell with room for `size` bytes and its index in the pool, or a new one (with no index
    /// when the pool is full). A free shell already marked `mark` is taken first, and a new one is
    /// made before a free one is marked again, so that keyframes and the frames between them each
    /// settle on shells of their own and no attachment is rewritten a frame.
    private func shell(size: Int, mark: UInt8) -> (CMSampleBuffer, Int?) {
        var chosen: Int?, firstFree: Int?
        for index in shells.indices where isOnlyReferencedByPool(&shells[index]) && shells[index].isValid {
            if marks[index] == mark {
                chosen = index
                break
            }
            if firstFree == nil { firstFree = index }
        }
        if chosen == nil, shells.count >= limit { chosen = firstFree }
        if let index = chosen {
            let shell = shells[index]
            let reusable = shell.dataBufferStorage.map { $0.capacity >= size } ?? false && isKnownUniquelyReferenced(&shell.dataBufferStorage)
            if reusable {
                shell.dataBufferStorage!.length = size
            } else {
                shell.dataBufferStorage = CMBlockBuffer(capacity: max(size, 64 * 1024))
                shell.dataBufferStorage!.length = size
            }
            shell.imageBufferStorage = nil
            shell.outputPresentationTime = nil
            shell._attachmentStorage.removeAll()
            return (shell, index)
        }
        let made = CMSampleBuffer()
        made.dataBufferStorage = CMBlockBuffer(capacity: max(size, 64 * 1024))
        made.dataBufferStorage!.length = size
        guard shells.count < limit else { return (made, nil) }
        shells.append(made)
        marks.append(0xFF)
        return (made, shells.count - 1)
    }
}
