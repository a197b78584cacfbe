import Foundation

/// Whether a buffer's attachment propagates to buffers made from it.
public enum CVAttachmentMode: UInt32, Sendable {
    /// The attachment stays with this buffer.
    case shouldNotPropagate = 0
    /// The attachment travels to buffers made from this one.
    case shouldPropagate = 1
}

/// Sets an attachment of a buffer.
public func CVBufferSetAttachment(_ buffer: CVBuffer, _ key: CFString, _ value: CFTypeRef, _ attachmentMode: CVAttachmentMode) {
    buffer._attachmentStorage.set(key, value, mode: attachmentMode.rawValue)
}

/// Returns a buffer's attachment for a key, and how it propagates.
public func CVBufferCopyAttachment(_ buffer: CVBuffer, _ key: CFString, _ attachmentMode: UnsafeMutablePointer<CVAttachmentMode>?) -> CFTypeRef? {
    guard let (value, mode) = buffer._attachmentStorage.get(key) else { return nil }
    attachmentMode?.pointee = CVAttachmentMode(rawValue: mode) ?? .shouldNotPropagate
    return value
}

/// Returns a buffer's attachment for a key, unretained, as the older API did.
public func CVBufferGetAttachment(_ buffer: CVBuffer, _ key: CFString, _ attachmentMode: UnsafeMutablePointer<CVAttachmentMode>?) -> Unmanaged<CFTypeRef>? {
    CVBufferCopyAttachment(buffer, key, attachmentMode).map { Unmanaged.passUnretained($0) }
}

/// Removes a buffer's attachment for a key.
public func CVBufferRemoveAttachment(_ buffer: CVBuffer, _ key: CFString) {
    buffer._attachmentStorage.remove(key)
}

/// Removes every attachment of a buffer.
public func CVBufferRemoveAllAttachments(_ buffer: CVBuffer) {
    buffer._attachmentStorage.removeAll()
}

/// Returns the attachments of a buffer that propagate in the given way.
public func CVBufferCopyAttachments(_ buffer: CVBuffer, _ attachmentMode: CVAttachmentMode) -> CFDictionary? {
    let attachments = buffer._attachmentStorage.dictionary(mode: attachmentMode.rawValue)
    return attachments.isEmpty ? nil : attachments as NSDictionary
}

/// Returns every attachment of a buffer that propagates in the given way; empty when it has none, as the older API did.
public func CVBufferGetAttachments(_ buffer: CVBuffer, _ attachmentMode: CVAttachmentMode) -> CFDictionary? {
    buffer._attachmentStorage.dictionary(mode: attachmentMode.rawValue) as NSDictionary
}

/// Returns whether a buffer has an attachment for a key, in either mode.
public func CVBufferHasAttachment(_ buffer: CVBuffer, _ key: CFString) -> Bool {
    buffer._attachmentStorage.get(key) != nil
}

/// Sets several attachments of a buffer at once.
public func CVBufferSetAttachments(_ buffer: CVBuffer, _ theAttachments: CFDictionary, _ attachmentMode: CVAttachmentMode) {
    for (key, value) in theAttachments {
        guard let key = key as? String else { continue }
        buffer._attachmentStorage.set(key as NSString, value as AnyObject, mode: attachmentMode.rawValue)
    }
}

/// Copies the attachments of `sourceBuffer` that propagate onto `destinationBuffer`.
public func CVBufferPropagateAttachments(_ sourceBuffer: CVBuffer, _ destinationBuffer: CVBuffer) {
    sourceBuffer._attachmentStorage.copyPropagating(into: destinationBuffer._attachmentStorage)
}

/// The key of the attachments that propagate, as a dictionary, in a buffer's attributes.
nonisolated(unsafe) public let kCVBufferPropagatedAttachmentsKey: CFString = "PropagatedAttachments"
/// The key of the attachments that do not propagate, as a dictionary, in a buffer's attributes.
nonisolated(unsafe) public let kCVBufferNonPropagatedAttachmentsKey: CFString = "NonPropagatedAttachments"
/// The attachment key for the value of a buffer's time (a number, over `kCVBufferTimeScaleKey`).
nonisolated(unsafe) public let kCVBufferTimeValueKey: CFString = "TimeValue"
/// The attachment key for the scale of a buffer's time, in units a second.
nonisolated(unsafe) public let kCVBufferTimeScaleKey: CFString = "TimeScale"

/// The attachment key for an image's colour primaries.
nonisolated(unsafe) public let kCVImageBufferColorPrimariesKey: CFString = "CVImageBufferColorPrimaries"
/// The primaries of ITU-R BT.709, which HD video uses.
nonisolated(unsafe) public let kCVImageBufferColorPrimaries_ITU_R_709_2: CFString = "ITU_R_709_2"
/// The primaries of SMPTE C (SMPTE 170M), which standard-definition video uses.
nonisolated(unsafe) public let kCVImageBufferColorPrimaries_SMPTE_C: CFString = "SMPTE_C"
/// The primaries of EBU Tech. 3213 (PAL).
nonisolated(unsafe) public let kCVImageBufferColorPrimaries_EBU_3213: CFString = "EBU_3213"
/// The primaries of Display P3 with a D65 white point.
nonisolated(unsafe) public let kCVImageBufferColorPrimaries_P3_D65: CFString = "P3_D65"
/// The primaries of ITU-R BT.2020.
nonisolated(unsafe) public let kCVImageBufferColorPrimaries_ITU_R_2020: CFString = "ITU_R_2020"

/// The attachment key for an image's transfer function.
nonisolated(unsafe) public let kCVImageBufferTransferFunctionKey: CFString = "CVImageBufferTransferFunction"
/// The transfer function of ITU-R BT.709, which HD and standard-definition video use.
nonisolated(unsafe) public let kCVImageBufferTransferFunction_ITU_R_709_2: CFString = "ITU_R_709_2"
/// The transfer function of SMPTE 240M.
nonisolated(unsafe) public let kCVImageBufferTransferFunction_SMPTE_240M_1995: CFString = "SMPTE_240M_1995"
/// The sRGB transfer function.
nonisolated(unsafe) public let kCVImageBufferTransferFunction_sRGB: CFString = "IEC_sRGB"
/// The transfer function of ITU-R BT.2020.
nonisolated(unsafe) public let kCVImageBufferTransferFunction_ITU_R_2020: CFString = "ITU_R_2020"
/// The perceptual quantizer of SMPTE ST 2084 (HDR10).
nonisolated(unsafe) public let kCVImageBufferTransferFunction_SMPTE_ST_2084_PQ: CFString = "SMPTE_ST_2084_PQ"
/// The hybrid log-gamma of ITU-R BT.2100.
nonisolated(unsafe) public let kCVImageBufferTransferFunction_ITU_R_2100_HLG: CFString = "ITU_R_2100_HLG"
/// A linear transfer function.
nonisolated(unsafe) public let kCVImageBufferTransferFunction_Linear: CFString = "Linear"

/// The attachment key for the matrix that turns an image's Y'CbCr into R'G'B'.
nonisolated(unsafe) public let kCVImageBufferYCbCrMatrixKey: CFString = "CVImageBufferYCbCrMatrix"
/// The Y'CbCr matrix of ITU-R BT.709, which HD video uses.
nonisolated(unsafe) public let kCVImageBufferYCbCrMatrix_ITU_R_709_2: CFString = "ITU_R_709_2"
/// The Y'CbCr matrix of ITU-R BT.601, which standard-definition video and JPEG use.
nonisolated(unsafe) public let kCVImageBufferYCbCrMatrix_ITU_R_601_4: CFString = "ITU_R_601_4"
/// The Y'CbCr matrix of SMPTE 240M.
nonisolated(unsafe) public let kCVImageBufferYCbCrMatrix_SMPTE_240M_1995: CFString = "SMPTE_240M_1995"
/// The Y'CbCr matrix of ITU-R BT.2020.
nonisolated(unsafe) public let kCVImageBufferYCbCrMatrix_ITU_R_2020: CFString = "ITU_R_2020"

/// The attachment key for an image's colour space as a CGColorSpace (Linux has none: images carry the three keys above).
nonisolated(unsafe) public let kCVImageBufferCGColorSpaceKey: CFString = "CVImageBufferCGColorSpace"

extension CVPixelBuffer {
    /// Attaches a time under `kCVBufferTimeValueKey` and `kCVBufferTimeScaleKey`, not propagating,
    /// as integers: a pooled buffer's entries are reused and no number object is made until one is read.
    package func attachTime(value: Int64, timescale: Int32) {
        _attachmentStorage.set(kCVBufferTimeValueKey, integer: value, mode: CVAttachmentMode.shouldNotPropagate.rawValue)
        _attachmentStorage.set(kCVBufferTimeScaleKey, integer: Int64(timescale), mode: CVAttachmentMode.shouldNotPropagate.rawValue)
    }

    /// The time attached under `kCVBufferTimeValueKey` and `kCVBufferTimeScaleKey`, read without making objects; nil when either is missing.
    package var attachedTime: (value: Int64, timescale: Int32)? {
        guard let value = _attachmentStorage.integer(kCVBufferTimeValueKey), let scale = _attachmentStorage.integer(kCVBufferTimeScaleKey),
            let timescale = Int32(exactly: scale)
        else { return nil }
        return (value, timescale)
    }
}
