import CaptureDevices
import Foundation
import FrameProcessing

/// A barcode or other machine-readable code a metadata output detected.
///
/// The corners are the symbol's own (its top-left, top-right, bottom-right and bottom-left, as
/// the code is printed; for a one-dimensional code, the ends of the lines that were read), in
/// the device's normalized coordinates, as `bounds` is; a preview layer's
/// `transformedMetadataObject(for:)` turns both into its own.
open class AVMetadataMachineReadableCodeObject: AVMetadataObject, @unchecked Sendable {
    /// The points at the corners of the code.
    public let corners: [CGPoint]
    /// The code's payload as text, or nil when the payload is not text.
    public let stringValue: String?
    /// The code's payload as the bytes it carries (a Linux extension: Apple gives them through Core Image's descriptors).
    public let payloadData: Data
    /// A barcode description for use in Core Image: a `CIQRCodeDescriptor` for QR codes and a
    /// `CIDataMatrixCodeDescriptor` for Data Matrix codes, nil for other types.
    ///
    /// On Linux the symbol's version, error correction level and mask come from the symbol read;
    /// its `errorCorrectedPayload` holds the payload in the symbology's simplest encodation
    /// (a QR code's byte mode, a Data Matrix code's ASCII), which a codeword parser reads back to
    /// `payloadData`, not the symbol's own codewords, which the reader does not return. Aztec and
    /// PDF417 codes have none: the reader does not tell a compact Aztec code from a full one, nor a
    /// PDF417 code's rows and columns.
    public let descriptor: CIBarcodeDescriptor?

    init(
        type: ObjectType, time: CMTime, duration: CMTime, corners: [CGPoint], stringValue: String?, payloadData: Data,
        descriptor: CIBarcodeDescriptor?
    ) {
        self.corners = corners
        self.stringValue = stringValue
        self.payloadData = payloadData
        self.descriptor = descriptor
        super.init(type: type, time: time, duration: duration, bounds: CGRect(boundingBox: corners))
    }

    /// The object for a code read from a picture of `size` pixels, its corners normalized to the picture.
    convenience init(_ code: DetectedCode, in size: CGSize, time: CMTime, duration: CMTime) {
        self.init(
            type: ObjectType(rawValue: code.symbology.rawValue), time: time, duration: duration,
            corners: code.corners.map { CGPoint(x: $0.x / size.width, y: $0.y / size.height) }, stringValue: code.text,
            payloadData: Data(code.bytes), descriptor: CIBarcodeDescriptor.describing(code))
    }

    override func transformed(rect convert: (CGRect) -> CGRect, point: (CGPoint) -> CGPoint) -> AVMetadataObject {
        AVMetadataMachineReadableCodeObject(
            type: type, time: time, duration: duration, corners: corners.map(point),
            stringValue: stringValue, payloadData: payloadData, descriptor: descriptor)
    }

    /// A description such as `<AVMetadataMachineReadableCodeObject: org.iso.QRCode "hello">`.
    open override var description: String {
        "<AVMetadataMachineReadableCodeObject: \(type.rawValue) \(stringValue.map { "\"\($0)\"" } ?? "\(payloadData.count) bytes") \(bounds)>"
    }
}
