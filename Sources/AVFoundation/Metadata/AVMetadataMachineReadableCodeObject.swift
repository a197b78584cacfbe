import CaptureDevices
import Foundation

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

    init(type: ObjectType, time: CMTime, duration: CMTime, corners: [CGPoint], stringValue: String?, payloadData: Data) {
        self.corners = corners
        self.stringValue = stringValue
        self.payloadData = payloadData
        super.init(type: type, time: time, duration: duration, bounds: Self.boundingBox(of: corners))
    }

    /// The smallest rectangle holding every corner.
    static func boundingBox(of corners: [CGPoint]) -> CGRect {
        guard let first = corners.first else { return .zero }
        var box = CGRect(origin: first, size: .zero)
        for corner in corners.dropFirst() { box = box.union(CGRect(origin: corner, size: .zero)) }
        return box
    }

    override func transformed(rect convert: (CGRect) -> CGRect, point: (CGPoint) -> CGPoint) -> AVMetadataObject {
        AVMetadataMachineReadableCodeObject(type: type, time: time, duration: duration, corners: corners.map(point),
                                            stringValue: stringValue, payloadData: payloadData)
    }

    /// A description such as `<AVMetadataMachineReadableCodeObject: org.iso.QRCode "hello">`.
    open override var description: String {
        "<AVMetadataMachineReadableCodeObject: \(type.rawValue) \(stringValue.map { "\"\($0)\"" } ?? "\(payloadData.count) bytes") \(bounds)>"
    }
}
