import FrameProcessing
import CaptureDevices
import CoreVideo
import Foundation

/// Faces found by size: the annotated photographs Debian's libdlib ships with its examples (PASCAL
/// VOC pictures, every face boxed by hand), scaled so their faces take given fractions of a
/// 1280x720 frame and tiled to fill it. Recall in each band of face widths, false finds and time a
/// frame for the follower's search (1600 wide), the old 640-wide search, and dlib's own way to
/// find small faces (the frame doubled once), in the same run; then the follower at the camera's
/// rate on one of those frames.
enum FaceRecallBenchmark {
    static let folder = "/usr/share/doc/libdlib19.1/examples/faces"
    static let frameWidth = 1280, frameHeight = 720

    /// One annotated photograph: its grey pixels and its faces' boxes.
    struct Photograph {
        let name: String
        let picture: CVPixelBuffer
        let faces: [CGRect]
    }

    /// The photographs and boxes of the dataset's XML files.
    static func photographs() -> [Photograph] {
        var result: [Photograph] = []
        for list in ["testing.xml", "training.xml"] {
            guard let xml = try? String(contentsOfFile: "\(folder)/\(list)", encoding: .isoLatin1) else { continue }
            for block in xml.components(separatedBy: "<image ").dropFirst() {
                guard let name = attribute("file", in: block), let data = FileManager.default.contents(atPath: "\(folder)/\(name)"),
                    let picture = try? GreyPicture.decode(data)
                else { continue }
                let faces = block.components(separatedBy: "<box ").dropFirst().compactMap { box -> CGRect? in
                    guard !box.contains("ignore='1'"), let top = attribute("top", in: box).flatMap(Double.init),
                        let left = attribute("left", in: box).flatMap(Double.init),
                        let width = attribute("width", in: box).flatMap(Double.init), let height = attribute("height", in: box).flatMap(Double.init)
                    else { return nil }
                    return CGRect(x: left, y: top, width: width, height: height)
                }
                if !faces.isEmpty { result.append(Photograph(name: name, picture: picture, faces: faces)) }
            }
        }
        return result
    }

    private static func attribute(_ name: String, in text: String) -> String? {
        guard let start = text.range(of: "\(name)='") else { return nil }
        return text[start.upperBound...].split(separator: "'", maxSplits: 1).first.map(String.init)
    }

    /// A 1280x720 grey frame of `photo` scaled by `scale` and tiled around its faces' centre, and the faces wholly inside it.
    static func frame(of photo: Photograph, scale: Double) -> (CVPixelBuffer, [CGRect])? {
        let (w, h) = (max(1, Int(Double(photo.picture.width) * scale)), max(1, Int(Double(photo.picture.height) * scale)))
        guard let scaled = CVPixelBuffer(width: w, height: h, pixelFormatType: kCVPixelFormatType_OneComponent8),
            let frame = CVPixelBuffer(width: frameWidth, height: frameHeight, pixelFormatType: kCVPixelFormatType_OneComponent8)
        else { return nil }
        guard PlaneScaling.scale(photo.picture, into: scaled, filter: .box) else { return nil }
        let small = scaled.planes[0], target = frame.planes[0]
        let centre = photo.faces.reduce(CGPoint.zero) { CGPoint(x: $0.x + $1.midX / Double(photo.faces.count), y: $0.y + $1.midY / Double(photo.faces.count)) }
        // The tile whose faces' centre is the frame's centre, and its neighbours out to the frame's edges.
        let originX = Int(Double(frameWidth) / 2 - centre.x * scale), originY = Int(Double(frameHeight) / 2 - centre.y * scale)
        let firstX = originX - ((originX + w - 1) / w) * w, firstY = originY - ((originY + h - 1) / h) * h
        var faces: [CGRect] = []
        let bounds = CGRect(x: 0, y: 0, width: frameWidth, height: frameHeight)
        for tileY in stride(from: firstY, to: frameHeight, by: h) {
            for tileX in stride(from: firstX, to: frameWidth, by: w) {
                for row in max(0, tileY)..<min(frameHeight, tileY + h) {
                    let left = max(0, tileX), right = min(frameWidth, tileX + w)
                    guard right > left else { continue }
                    (target.baseAddress.assumingMemoryBound(to: UInt8.self) + row * target.bytesPerRow + left)
                        .update(
                            from: small.baseAddress.assumingMemoryBound(to: UInt8.self) + (row - tileY) * small.bytesPerRow + (left - tileX),
                            count: right - left)
                }
                for face in photo.faces {
                    let placed = CGRect(
                        x: Double(tileX) + face.minX * scale, y: Double(tileY) + face.minY * scale, width: face.width * scale, height: face.height * scale)
                    if bounds.contains(placed) { faces.append(placed) }
                }
            }
        }
        return (frame, faces)
    }

    /// Bands of face widths in pixels of a 1280-wide frame.
    static let bands: [(label: String, range: Range<Double>)] = [
        ("under 40 (1/32)", 0..<40), ("40-53", 40..<53.3), ("53-64 (1/20)", 53.3..<64), ("64-80", 64..<80),
        ("80-107", 80..<106.7), ("107-160", 106.7..<160), ("160 and up (1/8)", 160..<10_000),
    ]

    /// The fractions of the frame's width each photograph's middle face is scaled to.
    static let fractions: [Double] = [1.0 / 36, 1.0 / 28, 1.0 / 22, 1.0 / 18, 1.0 / 14, 1.0 / 10, 1.0 / 6]

    /// A way to search a frame.
    struct Searcher {
        let name: String
        let search: (CVPixelBuffer) -> [DetectedFace]
        var found = [Int](repeating: 0, count: FaceRecallBenchmark.bands.count)
        var falseFinds = 0
        var seconds = 0.0
    }

    static func run() throws {
        let photos = photographs()
        guard !photos.isEmpty, let detector = FaceDetector(landmarkModelPath: nil) else {
            print("Faces by size: \(folder) is missing (Debian's libdlib19.1 ships it)")
            return
        }
        let follower = Searcher(name: "follower's search, 1600 wide") { (image: CVPixelBuffer) -> [DetectedFace] in detector.detect(image) }
        let old = Searcher(name: "the old search, 640 wide") { (image: CVPixelBuffer) -> [DetectedFace] in detector.detect(image, searchWidth: 640) }
        let doubled = Searcher(name: "dlib doubled once (2560 wide)") { (image: CVPixelBuffer) -> [DetectedFace] in detector.detectUpsampled(image, upsample: 1)
        }
        var searchers = [follower, old, doubled]
        var truth = [Int](repeating: 0, count: bands.count)
        var frames = 0
        var followerFrame: (CVPixelBuffer, [CGRect])?
        for photo in photos {
            let widths: [Double] = photo.faces.map { Double($0.width) }.sorted()
            let middle: Double = widths[widths.count / 2]
            for fraction in fractions {
                let scale: Double = fraction * Double(frameWidth) / middle
                guard let (image, faces) = frame(of: photo, scale: scale), !faces.isEmpty else { continue }
                frames += 1
                if followerFrame == nil, fraction == fractions[3], faces.count >= 4 { followerFrame = (image, faces) }
                for face in faces { if let band = bands.firstIndex(where: { $0.range.contains(face.width) }) { truth[band] += 1 } }
                for index in searchers.indices {
                    let start = now()
                    let found = searchers[index].search(image)
                    searchers[index].seconds += now() - start
                    var unmatched = found
                    for face in faces {
                        guard
                            let match = unmatched.indices.max(by: {
                                FaceFollower.overlap(unmatched[$0].bounds, face) < FaceFollower.overlap(unmatched[$1].bounds, face)
                            }),
                            FaceFollower.overlap(unmatched[match].bounds, face) >= 0.3
                        else { continue }
                        unmatched.remove(at: match)
                        if let band = bands.firstIndex(where: { $0.range.contains(face.width) }) { searchers[index].found[band] += 1 }
                    }
                    searchers[index].falseFinds += unmatched.count
                }
            }
        }
        let faces = truth.reduce(0, +)
        print(
            "Faces by size: \(photos.count) annotated photographs (dlib's examples, PASCAL VOC), \(frames) frames of 1280x720, \(faces) faces; recall by face width in pixels"
        )
        print(
            "  " + "width".padding(toLength: 18, withPad: " ", startingAt: 0) + "faces"
                + searchers.map { "  " + $0.name.padding(toLength: 30, withPad: " ", startingAt: 0) }.joined())
        for (band, (label, _)) in bands.enumerated() where truth[band] > 0 {
            let cells = searchers.map { s in
                String(format: "  %3d%% (%4d)", Int((Double(s.found[band]) / Double(truth[band]) * 100).rounded()), s.found[band])
                    .padding(toLength: 32, withPad: " ", startingAt: 0)
            }
            print("  " + label.padding(toLength: 18, withPad: " ", startingAt: 0) + String(format: "%5d", truth[band]) + cells.joined())
        }
        let reference = searchers[2].seconds / Double(frames)
        for searcher in searchers {
            let recall = Double(searcher.found.reduce(0, +)) / Double(faces) * 100
            print(
                String(
                    format: "  %@: recall %.0f%%, %d false finds, %.0f ms a frame (%.2fx dlib doubled's time)", searcher.name, recall, searcher.falseFinds,
                    searcher.seconds / Double(frames) * 1000, searcher.seconds / Double(frames) / reference))
        }
        if let (image, placed) = followerFrame { follow(image, placed) }
    }

    /// The follower on one frame of several faces a sixteenth to a twentieth of the frame wide,
    /// given at 30 frames a second: its time a frame (searches run on their worker) and what it follows.
    static func follow(_ image: CVPixelBuffer, _ placed: [CGRect]) {
        guard let follower = FaceFollower(landmarkModelPath: FaceDetector.landmarkModelPath) else { return }
        // The landmark model loads on a thread of its own: every measured frame has it, as before.
        while follower.isPreparing { Thread.sleep(forTimeInterval: 0.01) }
        var time = 0.0, spent = 0.0, frames = 0, last: [FollowedFace] = []
        let start = now()
        let cpu = cpuSeconds()
        while now() - start < 6 {
            let begin = now()
            last = follower.follow(image, time: time)
            spent += now() - begin
            frames += 1
            time += 1.0 / 30
            let next = start + time
            if next > now() { Thread.sleep(forTimeInterval: next - now()) }
        }
        let elapsed = now() - start, cpuUsed = cpuSeconds() - cpu
        let matched = placed.filter { face in last.contains { FaceFollower.overlap($0.bounds, face) >= 0.3 } }.count
        print(
            String(
                format:
                    "  the follower at 30 fps on a frame of %d faces (widths %.0f-%.0f px): %.1f ms a frame on the camera's side (landmarks for roll and yaw included), "
                    + "%d searches of %.0f ms on the worker, %.2f cores in all; %d of %d faces followed at the end, %d identities given",
                placed.count, placed.map(\.width).min() ?? 0, placed.map(\.width).max() ?? 0, spent / Double(frames) * 1000,
                follower.searchesFinished, follower.secondsSearching / Double(max(1, follower.searchesFinished)) * 1000, cpuUsed / elapsed,
                matched, placed.count, Set(last.map(\.id)).count))
    }
}
