import CoreImage
import ImageIO

/// Photos searched as iOS apps searched them before Vision: Core Image's detectors on a
/// `CIImage` made from a `CGImage`, QR codes read into links, and faces with their eyes and mouth,
/// the photo's EXIF orientation handed to the detector so that faces are looked for upright.
public enum PhotoFeatureFinder {
    /// What the finder reports of a face.
    public struct Face {
        public var bounds: CGRect
        public var leftEye: CGPoint?
        public var rightEye: CGPoint?
        public var mouth: CGPoint?
        public var angle: Float?
        public var isSmiling: Bool
    }

    /// The links in the QR codes of a picture.
    public static func qrCodeLinks(in image: CGImage) -> [String] {
        let context = CIContext()
        let options = [CIDetectorAccuracy: CIDetectorAccuracyHigh]
        let qrDetector = CIDetector(ofType: CIDetectorTypeQRCode, context: context, options: options)
        let ciImage = CIImage(cgImage: image)
        var qrCodeLinks = [String]()
        let features = qrDetector?.features(in: ciImage) ?? []
        for case let row as CIQRCodeFeature in features {
            if let link = row.messageString { qrCodeLinks.append(link) }
        }
        return qrCodeLinks
    }

    /// The faces in the photo at `url`, upright as its EXIF orientation says.
    public static func faces(inPhotoAt url: URL) -> [Face] {
        guard let source = CGImageSourceCreateWithURL(url as CFURL, nil),
            let image = CGImageSourceCreateImageAtIndex(source, 0, nil)
        else { return [] }
        let properties = CGImageSourceCopyPropertiesAtIndex(source, 0, nil) as? [CFString: Any]
        let orientation = properties?[kCGImagePropertyOrientation] as? Int ?? 1
        let faceDetector = CIDetector(ofType: CIDetectorTypeFace, context: nil, options: [CIDetectorAccuracy: CIDetectorAccuracyHigh])
        let features =
            faceDetector?.features(
                in: CIImage(cgImage: image), options: [CIDetectorImageOrientation: orientation, CIDetectorSmile: true, CIDetectorEyeBlink: true])
            ?? []
        var faces: [Face] = []
        for feature in features {
            guard let face = feature as? CIFaceFeature else { continue }
            faces.append(
                Face(
                    bounds: face.bounds, leftEye: face.hasLeftEyePosition ? face.leftEyePosition : nil,
                    rightEye: face.hasRightEyePosition ? face.rightEyePosition : nil, mouth: face.hasMouthPosition ? face.mouthPosition : nil,
                    angle: face.hasFaceAngle ? face.faceAngle : nil, isSmiling: face.hasSmile))
        }
        return faces
    }
}
