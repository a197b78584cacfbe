import CFaceDetection
import CYUV
import CoreVideo
import Foundation

/// A face the detector found.
package struct DetectedFace: Sendable, Equatable {
    /// The face's box in pixels of the picture searched.
    package var bounds: CGRect
    /// How sure the detector is (its HOG score; above 0).
    package var score: Double
    /// The line through the eyes, degrees clockwise in the picture, when the landmark model is installed.
    package var roll: Double?
    /// How far the face is turned, degrees (positive to the picture's right), when the landmark model is installed.
    package var yaw: Double?
}

/// Finds faces with dlib's HOG frontal face detector, and their roll and yaw with its 68-point
/// landmark model (Debian's libdlib-data) where it is installed.
///
/// Pictures wider than `searchWidth` are scaled down first, so a frame costs about the same at
/// any size (faces smaller than about 80 pixels at that width are missed). Thread ownership:
/// one detector belongs to one thread; its scratch buffers are made once per picture size.
package final class FaceDetector: @unchecked Sendable {
    /// Where Debian's libdlib-data puts the landmark model.
    package static let landmarkModelPath = "/usr/share/dlib/shape_predictor_68_face_landmarks.dat"
    /// The widest picture searched.
    package static let searchWidth = 640
    /// Added to dlib's own threshold: its weakest detections on busy pictures are rarely faces.
    static let threshold = 0.3

    private let handle: OpaquePointer
    /// Whether roll and yaw are measured.
    package let hasLandmarks: Bool
    /// Why the landmark model is not in use, if it is not.
    package let landmarkProblem: String?
    private var grey: CVPixelBuffer?
    private var scaled: CVPixelBuffer?
    private var found = [cfd_face](repeating: cfd_face(), count: 16)

    /// A detector, loading the landmark model from `landmarkModelPath` (nil for none); nil when dlib cannot make one.
    package init?(landmarkModelPath: String? = FaceDetector.landmarkModelPath) {
        guard let handle = cfd_detector_new() else { return nil }
        self.handle = handle
        var problem: String?
        if let path = landmarkModelPath {
            if FileManager.default.fileExists(atPath: path) {
                var message = [CChar](repeating: 0, count: 256)
                if cfd_detector_load_landmarks(handle, path, &message, message.count) != 0 {
                    problem = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                }
            } else {
                problem = "\(path) is not installed (Debian's libdlib-data)"
            }
        } else {
            problem = "no landmark model asked for"
        }
        landmarkProblem = problem
        hasLandmarks = problem == nil
    }

    deinit { cfd_detector_free(handle) }

    /// The faces in `image` (any pixel format cameras deliver), searching only `region` (in
    /// pixels; the whole picture when nil), strongest first, their boxes in the picture's pixels.
    package func detect(_ image: CVPixelBuffer, region: CGRect? = nil) -> [DetectedFace] {
        let width = image.width, height = image.height
        let crop = (region ?? CGRect(x: 0, y: 0, width: width, height: height)).integral.intersection(CGRect(x: 0, y: 0, width: width, height: height))
        guard crop.width >= 32, crop.height >= 32 else { return [] }
        CVPixelBufferLockBaseAddress(image, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(image, .readOnly) }
        // The picture's grey: a luma plane as it is, or made from packed or BGRA pixels.
        guard var (luma, stride) = lumaPlane(of: image) else { return [] }
        luma += Int(crop.minY) * stride + Int(crop.minX)
        var (searchW, searchH) = (Int(crop.width), Int(crop.height))
        var scale = 1.0
        if searchW > Self.searchWidth {
            scale = Double(searchW) / Double(Self.searchWidth)
            let (w, h) = (Self.searchWidth, max(1, Int(Double(searchH) / scale)))
            if scaled?.width != w || scaled?.height != h { scaled = CVPixelBuffer(width: w, height: h, pixelFormatType: kCVPixelFormatType_OneComponent8) }
            guard let scaled else { return [] }
            let plane = scaled.planes[0]
            ScalePlane(luma, Int32(stride), Int32(searchW), Int32(searchH), plane.baseAddress.assumingMemoryBound(to: UInt8.self),
                       Int32(plane.bytesPerRow), Int32(w), Int32(h), kFilterBox)
            (luma, stride, searchW, searchH) = (UnsafePointer(plane.baseAddress.assumingMemoryBound(to: UInt8.self)), plane.bytesPerRow, w, h)
        }
        let count = found.withUnsafeMutableBufferPointer { faces in
            cfd_detect(handle, luma, Int32(searchW), Int32(searchH), Int32(stride), Self.threshold, faces.baseAddress, Int32(faces.count))
        }
        guard count > 0 else { return [] }
        return found.prefix(Int(count)).map { face in
            DetectedFace(bounds: CGRect(x: crop.minX + face.x * scale, y: crop.minY + face.y * scale, width: face.width * scale, height: face.height * scale),
                         score: face.score, roll: face.has_angles != 0 ? face.roll : nil, yaw: face.has_angles != 0 ? face.yaw : nil)
        }
    }

    /// The picture's luma plane and its stride, converting packed and BGRA pictures into a grey scratch buffer.
    private func lumaPlane(of image: CVPixelBuffer) -> (UnsafePointer<UInt8>, Int)? {
        let format = image.pixelFormatType
        let first = image.planes[0]
        let source = UnsafePointer(first.baseAddress.assumingMemoryBound(to: UInt8.self))
        switch format {
        case kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange,
             kCVPixelFormatType_420YpCbCr8Planar, kCVPixelFormatType_OneComponent8:
            return (source, first.bytesPerRow)
        case kCVPixelFormatType_32BGRA, kCVPixelFormatType_422YpCbCr8_yuvs, kCVPixelFormatType_422YpCbCr8:
            if grey?.width != image.width || grey?.height != image.height {
                grey = CVPixelBuffer(width: image.width, height: image.height, pixelFormatType: kCVPixelFormatType_OneComponent8)
            }
            guard let grey else { return nil }
            let plane = grey.planes[0]
            let target = plane.baseAddress.assumingMemoryBound(to: UInt8.self)
            let (w, h, s, d) = (Int32(image.width), Int32(image.height), Int32(first.bytesPerRow), Int32(plane.bytesPerRow))
            switch format {
            case kCVPixelFormatType_32BGRA: ARGBToJ400(source, s, target, d, w, h)
            case kCVPixelFormatType_422YpCbCr8_yuvs: YUY2ToY(source, s, target, d, w, h)
            default: UYVYToY(source, s, target, d, w, h)
            }
            return (UnsafePointer(target), plane.bytesPerRow)
        default:
            return nil
        }
    }
}
