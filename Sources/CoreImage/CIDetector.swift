import Foundation
import FrameProcessing

/// An image processor that identifies notable features, such as faces and barcodes, in a still
/// image or video.
///
/// On Linux, faces are found by dlib's frontal face detector (with its landmark model, where
/// Debian's libdlib-data is installed, for the eyes, the mouth and the face's angle) and QR codes
/// by ZXing-C++, each looking at the image again in several ways before it gives up, as a still
/// is read. Rectangle and text detectors are not available: `init(ofType:context:options:)` is
/// nil for them, as it is for any type a platform does not support.
///
/// A detector may be used from any thread; one search runs at a time.
open class CIDetector: NSObject, @unchecked Sendable {
    private enum Search {
        case faces(FaceDetector, searchWidth: Int?, tracking: Bool, angles: Int)
        case codes(CodeReader)
    }

    private let search: Search
    private let context: CIContext
    private let minimumFeatureSize: Double?
    private let lock = NSLock()
    private var tracker = FaceTracking()

    /// Creates and returns a configured detector; nil when the type is not one this platform supports.
    public init?(ofType type: String, context: CIContext?, options: [String: Any]? = nil) {
        let options = options ?? [:]
        let count = Self.number(options[CIDetectorMaxFeatureCount]).map { Int($0) }
        switch type {
        case CIDetectorTypeFace:
            guard let detector = FaceDetector() else { return nil }
            let low = options[CIDetectorAccuracy] as? String == CIDetectorAccuracyLow
            // 1, 3, 5, 7, 9 or 11 perspectives: upright, then turned each way by 30 degrees more each time.
            let angles = Self.number(options[CIDetectorNumberOfAngles]).map { min(11, max(1, Int($0.rounded()))) } ?? 1
            search = .faces(
                detector, searchWidth: low ? FaceDetector.coarseSearchWidth : nil, tracking: Self.flag(options[CIDetectorTracking]),
                angles: angles - (angles + 1) % 2)
        case CIDetectorTypeQRCode:
            search = .codes(CodeReader(symbologies: [.qr], maximumCodes: max(1, count ?? 16)))
        default:
            return nil
        }
        minimumFeatureSize = Self.number(options[CIDetectorMinFeatureSize]).flatMap { $0 > 0 && $0 <= 1 ? $0 : nil }
        self.context = context ?? CIContext()
        super.init()
    }

    /// Searches for features in an image.
    open func features(in image: CIImage) -> [CIFeature] {
        features(in: image, options: nil)
    }

    /// Searches for features in an image based on the specified image orientation.
    ///
    /// `CIDetectorImageOrientation` (an EXIF orientation, 1 through 8) says which way is up in the
    /// image: faces are looked for upright in the image turned that way, and what is found is in
    /// the image's own coordinates.
    open func features(in image: CIImage, options: [String: Any]? = nil) -> [CIFeature] {
        let orientation = Self.number(options?[CIDetectorImageOrientation]).flatMap { CGImagePropertyOrientation(rawValue: UInt32(exactly: $0.rounded()) ?? 0) }
        let turn = orientation.map { image.orientationTransform(for: $0) } ?? .identity
        guard let upright = GreyRendering(image.transformed(by: turn), context: context) else { return [] }
        // From the grey picture's pixels (top down) to the image's coordinates.
        let back = upright.toImage.concatenating(turn.inverted())
        lock.lock()
        defer { lock.unlock() }
        switch search {
        case .faces(let detector, let width, let tracking, let angles):
            var facts = faces(in: upright, detector: detector, searchWidth: width).map { $0.applying(back) }
            // The other perspectives: the picture turned by a multiple of the step, each way; a face
            // found again at another angle is kept as first found.
            for turns in stride(from: 1, through: angles / 2, by: 1) {
                for sign in [-1.0, 1.0] {
                    let degrees = sign * Self.angleStep * Double(turns)
                    // Half a turn is one perspective; beyond it the turns repeat.
                    guard abs(degrees) <= 180, degrees != -180 else { continue }
                    let spin = turn.concatenating(CGAffineTransform(rotationAngle: degrees * .pi / 180))
                    guard let turned = GreyRendering(image.transformed(by: spin), context: context) else { continue }
                    let fromTurned = turned.toImage.concatenating(spin.inverted())
                    for var face in faces(in: turned, detector: detector, searchWidth: width) {
                        // Measured in the turned picture: the face leans that much less in the image.
                        face.angle = face.angle.map { $0 - Float(degrees) }
                        let placed = face.applying(fromTurned, keepingShape: true)
                        let centre = CGPoint(x: placed.bounds.midX, y: placed.bounds.midY)
                        if !facts.contains(where: { $0.bounds.contains(centre) }) { facts.append(placed) }
                    }
                }
            }
            if tracking { tracker.follow(&facts) }
            return facts.map(CIFaceFeature.init)
        case .codes(let reader):
            return reader.readStill(upright.buffer).compactMap { code -> CIFeature? in
                guard code.corners.count == 4 else { return nil }
                let corners = code.corners.map { $0.applying(back) }
                return CIQRCodeFeature(
                    topLeft: corners[0], topRight: corners[1], bottomLeft: corners[3], bottomRight: corners[2], message: code.text,
                    descriptor: CIBarcodeDescriptor.describing(code) as? CIQRCodeDescriptor)
            }
        }
    }

    /// The faces in an upright grey picture, in its pixels, with the eyes, mouth and angle where the landmark model is loaded.
    private func faces(in picture: GreyRendering, detector: FaceDetector, searchWidth: Int?) -> [CIFaceFeature.Facts] {
        let width = Double(picture.buffer.width), minor = Double(min(picture.buffer.width, picture.buffer.height))
        // The window is FaceDetector.window pixels: the smallest face asked for must fill it.
        let asked = minimumFeatureSize.map { Int((FaceDetector.window * width / ($0 * minor)).rounded()) }
        let search = min(max(asked ?? searchWidth ?? FaceDetector.searchWidth, Int(FaceDetector.window)), 4 * FaceDetector.searchWidth)
        let found = detector.detect(picture.buffer, searchWidth: search)
        guard !found.isEmpty else { return [] }
        CVPixelBufferLockBaseAddress(picture.buffer, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(picture.buffer, .readOnly) }
        guard let grey = LumaReader().plane(of: picture.buffer) else { return found.map { CIFaceFeature.Facts(bounds: $0.bounds) } }
        return found.map { face in
            var facts = CIFaceFeature.Facts(bounds: face.bounds)
            guard let points = detector.landmarks(of: face.bounds, in: grey) else { return facts }
            func centre(_ range: ClosedRange<Int>) -> CGPoint {
                let sum = range.reduce(CGPoint.zero) { CGPoint(x: $0.x + points[$1].x, y: $0.y + points[$1].y) }
                return CGPoint(x: sum.x / CGFloat(range.count), y: sum.y / CGFloat(range.count))
            }
            // The subject's right eye (36-41) is on the observer's left.
            let left = centre(36...41), right = centre(42...47)
            facts.leftEye = left
            facts.rightEye = right
            facts.mouth = centre(48...59)
            // Counterclockwise as seen, in pixels whose rows run down.
            facts.angle = Float(atan2(left.y - right.y, right.x - left.x) * 180 / .pi)
            return facts
        }
    }

    /// The turn between one perspective and the next, in degrees: dlib's frontal detector (with
    /// its filters for faces turned a little each way) finds faces leaning up to about 35 degrees
    /// either way, so that the perspectives overlap; eleven go all the way round.
    private static let angleStep = 30.0

    /// A number from an option's value: any integer or floating-point type, a Boolean, or `NSNumber`.
    private static func number(_ value: Any?) -> Double? { ExifProperties.number(value) }

    /// Whether an option's value is true (or a non-zero number).
    private static func flag(_ value: Any?) -> Bool { (number(value) ?? 0) != 0 }
}

/// Detects faces.
public let CIDetectorTypeFace = "CIDetectorTypeFace"
/// Detects rectangles.
public let CIDetectorTypeRectangle = "CIDetectorTypeRectangle"
/// Detects Quick Response codes (a type of 2D barcode).
public let CIDetectorTypeQRCode = "CIDetectorTypeQRCode"
/// Detects text.
public let CIDetectorTypeText = "CIDetectorTypeText"

/// A key used to specify the desired accuracy for the detector.
public let CIDetectorAccuracy = "CIDetectorAccuracy"
/// Indicates that the detector should choose techniques that are lower in accuracy, but can be processed more quickly.
public let CIDetectorAccuracyLow = "CIDetectorAccuracyLow"
/// Indicates that the detector should choose techniques that are higher in accuracy, even if it requires more processing time.
public let CIDetectorAccuracyHigh = "CIDetectorAccuracyHigh"
/// A key used to enable or disable face tracking for the detector.
public let CIDetectorTracking = "CIDetectorTracking"
/// A key used to specify the minimum size that the detector will recognize as a feature.
public let CIDetectorMinFeatureSize = "CIDetectorMinFeatureSize"
/// A key used to configure the maximum number of features the detector returns.
public let CIDetectorMaxFeatureCount = "CIDetectorMaxFeatureCount"
/// A key used to specify the number of perspectives to use for detecting a face.
public let CIDetectorNumberOfAngles = "CIDetectorNumberOfAngles"
/// A key used to specify the display orientation of the image whose features you want to detect.
public let CIDetectorImageOrientation = "CIDetectorImageOrientation"
/// A key used to specify whether the detector should extract eye blink information.
public let CIDetectorEyeBlink = "CIDetectorEyeBlink"
/// A key used to specify whether the detector should extract smile information.
public let CIDetectorSmile = "CIDetectorSmile"
/// A key used to specify the focal length of the camera used to capture the image.
public let CIDetectorFocalLength = "CIDetectorFocalLength"
/// A key used to specify the aspect ratio of the rectangles to search for.
public let CIDetectorAspectRatio = "CIDetectorAspectRatio"
/// A key used to specify whether to return feature information for components of detected features.
public let CIDetectorReturnSubFeatures = "CIDetectorReturnSubFeatures"
