import Foundation

/// The colour a frame's numbers mean: primaries, transfer function and Y'CbCr matrix, carried
/// as the three Core Video attachments (`kCVImageBufferColorPrimariesKey`, ...).
///
/// Whoever fills a frame tags it with what it wrote: cameras and the virtual camera follow
/// video's convention (BT.709 for HD, BT.601 with SMPTE C primaries for standard definition),
/// JPEG decoding is BT.601, and a conversion keeps its source's colour. Tagging a frame again
/// replaces the values in place with strings boxed once, so it allocates nothing.
package struct VideoColorimetry: Hashable, Sendable {
    package enum Matrix: Sendable { case bt601, bt709 }

    package var primaries: String
    package var transferFunction: String
    package var matrix: Matrix

    /// HD video: BT.709 throughout.
    package static let hd = VideoColorimetry(
        primaries: kCVImageBufferColorPrimaries_ITU_R_709_2 as String,
        transferFunction: kCVImageBufferTransferFunction_ITU_R_709_2 as String, matrix: .bt709)
    /// Standard-definition video: SMPTE C primaries, the BT.709 transfer function, the BT.601 matrix.
    package static let sd = VideoColorimetry(
        primaries: kCVImageBufferColorPrimaries_SMPTE_C as String,
        transferFunction: kCVImageBufferTransferFunction_ITU_R_709_2 as String, matrix: .bt601)
    /// JPEG (JFIF): the BT.601 matrix over sRGB's BT.709 primaries.
    package static let jpeg = VideoColorimetry(
        primaries: kCVImageBufferColorPrimaries_ITU_R_709_2 as String,
        transferFunction: kCVImageBufferTransferFunction_ITU_R_709_2 as String, matrix: .bt601)

    /// Video's convention for a frame size: HD from 1280x720 up.
    package static func standard(width: Int, height: Int) -> VideoColorimetry {
        width >= 1280 || height >= 720 ? .hd : .sd
    }

    /// The matrix's name, as the attachment spells it.
    package var matrixName: String { matrix == .bt709 ? kCVImageBufferYCbCrMatrix_ITU_R_709_2 as String : kCVImageBufferYCbCrMatrix_ITU_R_601_4 as String }

    /// The colour a buffer is tagged with; nil when it carries no matrix.
    package static func of(_ buffer: CVPixelBuffer) -> VideoColorimetry? {
        guard let matrix = buffer._attachmentStorage.get(kCVImageBufferYCbCrMatrixKey)?.0 as? NSString else { return nil }
        let primaries =
            (buffer._attachmentStorage.get(kCVImageBufferColorPrimariesKey)?.0 as? NSString).map(String.init) ?? kCVImageBufferColorPrimaries_ITU_R_709_2
            as String
        let transfer =
            (buffer._attachmentStorage.get(kCVImageBufferTransferFunctionKey)?.0 as? NSString).map(String.init) ?? kCVImageBufferTransferFunction_ITU_R_709_2
            as String
        return VideoColorimetry(
            primaries: primaries, transferFunction: transfer,
            matrix: matrix.isEqual(kCVImageBufferYCbCrMatrix_ITU_R_709_2) ? .bt709 : .bt601)
    }

    /// Tags a buffer with this colour, as propagating attachments.
    package func tag(_ buffer: CVPixelBuffer) {
        let storage = buffer._attachmentStorage
        storage.set(kCVImageBufferColorPrimariesKey, Self.boxed(primaries), mode: CVAttachmentMode.shouldPropagate.rawValue)
        storage.set(kCVImageBufferTransferFunctionKey, Self.boxed(transferFunction), mode: CVAttachmentMode.shouldPropagate.rawValue)
        storage.set(kCVImageBufferYCbCrMatrixKey, Self.boxed(matrixName), mode: CVAttachmentMode.shouldPropagate.rawValue)
    }

    /// The attachment values: the constants themselves, each an immutable NSString (several keys
    /// share a spelling, such as "ITU_R_709_2"), read and never changed: safe to share between threads.
    nonisolated(unsafe) private static let boxes: [String: NSString] = Dictionary(
        [
            kCVImageBufferColorPrimaries_ITU_R_709_2, kCVImageBufferColorPrimaries_SMPTE_C, kCVImageBufferColorPrimaries_EBU_3213,
            kCVImageBufferColorPrimaries_P3_D65, kCVImageBufferColorPrimaries_ITU_R_2020, kCVImageBufferTransferFunction_sRGB,
            kCVImageBufferTransferFunction_SMPTE_240M_1995, kCVImageBufferTransferFunction_ITU_R_2020, kCVImageBufferTransferFunction_SMPTE_ST_2084_PQ,
            kCVImageBufferTransferFunction_ITU_R_2100_HLG, kCVImageBufferYCbCrMatrix_ITU_R_601_4, kCVImageBufferYCbCrMatrix_SMPTE_240M_1995,
            kCVImageBufferYCbCrMatrix_ITU_R_709_2,
        ].map { ($0 as String, $0) }, uniquingKeysWith: { first, _ in first })

    private static func boxed(_ value: String) -> NSString { boxes[value] ?? NSString(string: value) }

    /// The Y'CbCr matrix a buffer is tagged with, read without allocating; BT.601 when untagged.
    package static func matrix(of buffer: CVPixelBuffer) -> Matrix {
        guard let value = buffer._attachmentStorage.get(kCVImageBufferYCbCrMatrixKey)?.0 as? NSString else { return .bt601 }
        return value.isEqual(bt709Box) ? .bt709 : .bt601
    }

    /// The matrix a buffer is tagged with when it is BT.601 or BT.709, read without allocating;
    /// nil when the buffer is untagged or names another matrix.
    package static func taggedMatrix(of buffer: CVPixelBuffer) -> Matrix? {
        guard let value = buffer._attachmentStorage.get(kCVImageBufferYCbCrMatrixKey)?.0 as? NSString else { return nil }
        if value.isEqual(bt709Box) { return .bt709 }
        return value.isEqual(bt601Box) ? .bt601 : nil
    }

    /// Tags a buffer's Y'CbCr matrix, leaving its other colour tags as they are.
    package static func tagMatrix(_ matrix: Matrix, of buffer: CVPixelBuffer) {
        buffer._attachmentStorage.set(kCVImageBufferYCbCrMatrixKey, matrix == .bt709 ? bt709Box : bt601Box, mode: CVAttachmentMode.shouldPropagate.rawValue)
    }

    /// Gives `destination` the colour `source` is tagged with (if any), with `matrix` instead of its matrix when given.
    package static func copy(from source: CVPixelBuffer, to destination: CVPixelBuffer, matrix: Matrix? = nil) {
        let from = source._attachmentStorage, to = destination._attachmentStorage
        guard let (matrixValue, mode) = from.get(kCVImageBufferYCbCrMatrixKey) else { return }
        if let (primaries, primariesMode) = from.get(kCVImageBufferColorPrimariesKey) {
            to.set(kCVImageBufferColorPrimariesKey, primaries, mode: primariesMode)
        }
        if let (transfer, transferMode) = from.get(kCVImageBufferTransferFunctionKey) {
            to.set(kCVImageBufferTransferFunctionKey, transfer, mode: transferMode)
        }
        switch matrix {
        case .bt709?: to.set(kCVImageBufferYCbCrMatrixKey, bt709Box, mode: mode)
        case .bt601?: to.set(kCVImageBufferYCbCrMatrixKey, bt601Box, mode: mode)
        case nil: to.set(kCVImageBufferYCbCrMatrixKey, matrixValue, mode: mode)
        }
    }

    nonisolated(unsafe) private static let bt709Box = kCVImageBufferYCbCrMatrix_ITU_R_709_2
    nonisolated(unsafe) private static let bt601Box = kCVImageBufferYCbCrMatrix_ITU_R_601_4
}
