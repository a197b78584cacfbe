import CaptureDevices
import Foundation

/// Machine-readable codes printed in a virtual camera's scene, for testing scanning code on
/// machines without a camera (Linux).
extension VirtualScene {
    /// Prints a code of `type` carrying `payload` with its picture's corners (top left, top right,
    /// bottom right, bottom left, quiet zone included) at `corners`, in the device's normalized
    /// coordinates at zoom 1: any quadrilateral, so codes can be turned and seen in perspective.
    /// Returns the code's identifier; throws when the type cannot be drawn or the payload does not fit it.
    @discardableResult
    public func placeCode(_ type: AVMetadataObject.ObjectType, payload: String, corners: [CGPoint]) throws -> Int {
        guard let symbology = type.codeSymbology else { throw CodeBitmap.Failure(description: "\(type.rawValue) is not a code symbology") }
        return try placeCode(symbology, payload: payload, corners: corners)
    }

    /// Prints a code `width` wide (a fraction of the frame's width) centred at `center`, turned
    /// `rotation` radians clockwise, upright in a frame `aspectRatio` times as wide as high.
    @discardableResult
    public func placeCode(_ type: AVMetadataObject.ObjectType, payload: String, center: CGPoint, width: CGFloat, rotation: CGFloat = 0,
                          aspectRatio: CGFloat = 4.0 / 3.0) throws -> Int {
        guard let symbology = type.codeSymbology else { throw CodeBitmap.Failure(description: "\(type.rawValue) is not a code symbology") }
        let bitmap = try codeBitmap(symbology, payload: payload)
        let corners = SceneCode.corners(for: bitmap, center: center, width: width, rotation: rotation, aspectRatio: aspectRatio)
        return try placeCode(symbology, payload: payload, corners: corners)
    }

    /// Moves a printed code, or returns false when there is no such code.
    @discardableResult
    public func moveCode(_ id: Int, toCorners corners: [CGPoint]) -> Bool { moveCode(id, to: corners) }

    /// Where a printed code's symbol (without its quiet zone) lies, in the device's normalized coordinates at zoom 1.
    public func symbolCorners(ofCode id: Int) -> [CGPoint]? { codes.first { $0.id == id }?.symbolCorners }
}
