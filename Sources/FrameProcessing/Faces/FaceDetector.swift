import CFaceDetection
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
/// dlib's detector looks through an 80-pixel window, so pictures are searched at a width where a
/// face one twentieth of the picture's width fills it (1,600 pixels: larger pictures are scaled
/// down, smaller ones up), and a picture costs about the same at any size. Thread ownership: one
/// detector belongs to one thread; its scratch buffers are made once per picture size.
package final class FaceDetector: @unchecked Sendable {
    /// Where Debian's libdlib-data puts the landmark model.
    package static let landmarkModelPath = "/usr/share/dlib/shape_predictor_68_face_landmarks.dat"
    /// The side of the detector's window in pixels: the smallest face it finds in the picture it is given.
    package static let window = 80.0
    /// The smallest face looked for, as a fraction of the picture's width.
    package static let smallestFace = 1.0 / 20
    /// The width pictures are searched at: where the smallest face looked for fills the window.
    package static let searchWidth = Int(window / smallestFace)
    /// The width of the follower's coarse searches: faces an eighth of the picture's width or more,
    /// in an eighth of a full search's time.
    package static let coarseSearchWidth = 640
    /// Added to dlib's own threshold: its weakest detections on busy pictures are rarely faces.
    static let threshold = 0.3

    private let handle: OpaquePointer
    /// Whether roll and yaw are measured.
    package let hasLandmarks: Bool
    /// Why the landmark model is not in use, if it is not.
    package let landmarkProblem: String?
    private let luma = LumaReader()
    private var scaled: CVPixelBuffer?
    private var found = [cfd_face](repeating: cfd_face(), count: 32)

    /// Why dlib cannot be used, loading it the first time this is asked; nil when it is loaded.
    package static var libraryProblem: String? { cfd_load().map { String(cString: $0) } }

    /// A detector, loading the landmark model from `landmarkModelPath` (nil for none); nil when dlib
    /// cannot be loaded (`libraryProblem`) or cannot make one.
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
    /// pixels; the whole picture when nil) at `searchWidth` for the whole picture's width,
    /// strongest first, their boxes in the picture's pixels.
    package func detect(_ image: CVPixelBuffer, region: CGRect? = nil, searchWidth: Int = FaceDetector.searchWidth) -> [DetectedFace] {
        CVPixelBufferLockBaseAddress(image, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(image, .readOnly) }
        guard let plane = luma.plane(of: image),
            let search = FaceSearchPicture(plane, region: region, searchWidth: searchWidth, reusing: scaled)
        else { return [] }
        scaled = search.buffer
        return detect(in: search)
    }

    /// The faces in a picture prepared for searching, strongest first, their boxes in the original picture's pixels.
    package func detect(in search: FaceSearchPicture) -> [DetectedFace] {
        let plane = search.buffer.planes[0]
        let count = found.withUnsafeMutableBufferPointer { faces in
            cfd_detect(
                handle, plane.baseAddress.assumingMemoryBound(to: UInt8.self), Int32(search.buffer.width), Int32(search.buffer.height),
                Int32(plane.bytesPerRow), Self.threshold, faces.baseAddress, Int32(faces.count))
        }
        return faces(count, scale: search.scale, origin: search.origin)
    }

    /// The faces dlib's own way finds small ones: the whole picture doubled `upsample` times and searched.
    package func detectUpsampled(_ image: CVPixelBuffer, upsample: Int) -> [DetectedFace] {
        CVPixelBufferLockBaseAddress(image, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(image, .readOnly) }
        guard let plane = luma.plane(of: image) else { return [] }
        let count = found.withUnsafeMutableBufferPointer { faces in
            cfd_detect_upsampled(
                handle, plane.base, Int32(plane.width), Int32(plane.height), Int32(plane.bytesPerRow), Self.threshold,
                Int32(upsample), faces.baseAddress, Int32(faces.count))
        }
        return faces(count, scale: 1, origin: .zero)
    }

    /// The roll and yaw of the face in `box` (pixels of `plane`), from the landmark model; nil without it.
    package func angles(of box: CGRect, in plane: GreyPlane) -> (roll: Double, yaw: Double)? {
        var roll = 0.0, yaw = 0.0
        guard hasLandmarks, box.width >= 1, box.height >= 1,
            cfd_measure_angles(
                handle, plane.base, Int32(plane.width), Int32(plane.height), Int32(plane.bytesPerRow),
                box.minX, box.minY, box.width, box.height, &roll, &yaw) == 0
        else { return nil }
        return (roll, yaw)
    }

    /// The 68 landmarks of the face in `box` (pixels of `plane`) in dlib's order, in the plane's
    /// pixels; nil without the landmark model.
    package func landmarks(of box: CGRect, in plane: GreyPlane) -> [CGPoint]? {
        var points = [Double](repeating: 0, count: 136)
        guard hasLandmarks,
            cfd_landmarks(
                handle, plane.base, Int32(plane.width), Int32(plane.height), Int32(plane.bytesPerRow),
                box.minX, box.minY, box.width, box.height, &points) == 0
        else { return nil }
        return (0..<68).map { CGPoint(x: points[2 * $0], y: points[2 * $0 + 1]) }
    }

    private func faces(_ count: Int32, scale: Double, origin: CGPoint) -> [DetectedFace] {
        guard count > 0 else { return [] }
        return found.prefix(Int(count)).map { face in
            DetectedFace(
                bounds: CGRect(x: origin.x + face.x / scale, y: origin.y + face.y / scale, width: face.width / scale, height: face.height / scale),
                score: face.score, roll: face.has_angles != 0 ? face.roll : nil, yaw: face.has_angles != 0 ? face.yaw : nil)
        }
    }
}

/// A picture prepared for the face detector: the grey of a picture's region, scaled so that the
/// whole picture would be `searchWidth` wide.
package struct FaceSearchPicture: @unchecked Sendable {
    /// The scaled grey pixels.
    package let buffer: CVPixelBuffer
    /// Where the region starts in the original picture, in its pixels.
    package let origin: CGPoint
    /// Pixels searched per pixel of the original picture.
    package let scale: Double

    /// Scales the grey of `region` (pixels; the whole plane when nil) into `reusing` when it is the
    /// right size, or into a new buffer; nil when the region is too small to hold a face.
    package init?(_ plane: GreyPlane, region: CGRect?, searchWidth: Int, reusing: CVPixelBuffer?) {
        let whole = CGRect(x: 0, y: 0, width: plane.width, height: plane.height)
        let scale = Double(searchWidth) / Double(plane.width)
        guard let (crop, origin) = plane.cropped(to: region ?? whole, minimumSide: Int((FaceDetector.window / scale).rounded(.up))) else { return nil }
        let (width, height) = (max(1, Int(Double(crop.width) * scale)), max(1, Int(Double(crop.height) * scale)))
        let buffer: CVPixelBuffer
        if let reusing, reusing.width == width, reusing.height == height {
            buffer = reusing
        } else {
            guard let made = CVPixelBuffer(width: width, height: height, pixelFormatType: kCVPixelFormatType_OneComponent8) else { return nil }
            buffer = made
        }
        let target = buffer.planes[0]
        PlaneScaling.scaleSamples(
            .init(UnsafeMutablePointer(mutating: crop.base), bytesPerRow: crop.bytesPerRow, width: crop.width, height: crop.height),
            into: .init(target, width: width, height: height), filter: scale < 1 ? .box : .bilinear)
        self.buffer = buffer
        self.origin = origin
        self.scale = Double(width) / Double(crop.width)
    }
}
