import CaptureDevices
import Foundation
import FrameProcessing

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
    public func placeCode(
        _ type: AVMetadataObject.ObjectType, payload: String, center: CGPoint, width: CGFloat, rotation: CGFloat = 0,
        aspectRatio: CGFloat = 4.0 / 3.0
    ) throws -> Int {
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

/// Pictures placed in a virtual camera's scene, such as photographs of faces for testing face
/// detection (Linux).
extension VirtualScene {
    /// Places the picture in a JPEG, PNG, PGM or PPM file, in grey, with its corners (top left,
    /// top right, bottom right, bottom left) at `corners` in the device's normalized coordinates
    /// at zoom 1. Returns the picture's identifier; throws when the file cannot be read.
    @discardableResult
    public func placePicture(contentsOf url: URL, corners: [CGPoint]) throws -> Int {
        guard corners.count == 4 else { throw CodeBitmap.Failure(description: "a picture has four corners; got \(corners.count)") }
        return placePicture(try GreyPicture.decode(Data(contentsOf: url)), corners: corners)
    }

    /// Places a picture `width` wide (a fraction of the frame's width) centred at `center`,
    /// turned `rotation` radians clockwise, upright in a frame `aspectRatio` times as wide as high.
    @discardableResult
    public func placePicture(contentsOf url: URL, center: CGPoint, width: CGFloat, rotation: CGFloat = 0, aspectRatio: CGFloat = 4.0 / 3.0) throws -> Int {
        let picture = try GreyPicture.decode(Data(contentsOf: url))
        let corners = ScenePicture.corners(
            width: picture.width, height: picture.height, center: center, width: width, rotation: rotation,
            aspectRatio: aspectRatio)
        return placePicture(picture, corners: corners)
    }

    /// Moves a placed picture, or returns false when there is no such picture.
    @discardableResult
    public func movePicture(_ id: Int, toCorners corners: [CGPoint]) -> Bool { movePicture(id, to: corners) }
}
