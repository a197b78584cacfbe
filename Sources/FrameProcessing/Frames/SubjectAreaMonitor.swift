import CoreVideo

/// Tells when the picture a camera sees has changed substantially since it last looked: the
/// subject area change of `AVCaptureDevice.isSubjectAreaChangeMonitoringEnabled`.
///
/// Each frame is reduced to the mean brightness of an 8 x 8 grid of blocks (4 x 4 samples a
/// block, so a frame costs 1,024 reads whatever its size); the picture has changed when the
/// blocks differ from the reference picture by more than `threshold` levels of 255 on average.
/// The reference is the first frame looked at, then each frame that counted as a change.
/// Small motion (a hand, a line sweeping across) moves a few blocks and stays under it; a new
/// scene, a pan or the light going out moves most of them.
///
/// Thread ownership: used by one thread at a time (the device's); allocates nothing per frame.
package struct SubjectAreaMonitor: Sendable {
    package static let grid = 8
    private static let samples = 4
    /// Mean change, in levels of 255, that counts as substantial.
    package var threshold: Double = 24
    private var reference = [Double](repeating: 0, count: grid * grid)
    private var current = [Double](repeating: 0, count: grid * grid)
    private var hasReference = false

    package init() {}

    /// Forgets the reference: the next frame becomes it.
    package mutating func reset() { hasReference = false }

    /// Looks at a frame; whether the picture changed substantially since the reference.
    package mutating func frameChangedSubstantially(_ frame: CVPixelBuffer) -> Bool {
        guard Self.measure(frame, into: &current) else { return false }
        guard hasReference else {
            swap(&reference, &current)
            hasReference = true
            return false
        }
        var total = 0.0
        for index in 0..<current.count { total += abs(current[index] - reference[index]) }
        guard total / Double(current.count) > threshold else { return false }
        swap(&reference, &current)
        return true
    }

    /// The mean luma of each block, 0...255; false for a format it cannot read.
    private static func measure(_ frame: CVPixelBuffer, into blocks: inout [Double]) -> Bool {
        guard let plane = frame.planes.first, frame.width >= grid * samples, frame.height >= grid * samples else { return false }
        let format = frame.pixelFormatType
        let base = plane.baseAddress.assumingMemoryBound(to: UInt8.self)
        func luma(_ x: Int, _ y: Int) -> Double? {
            let row = base + y * plane.bytesPerRow
            switch format {
            case kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange, kCVPixelFormatType_OneComponent8:
                return Double(row[x])
            case kCVPixelFormatType_420YpCbCr10BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr10BiPlanarFullRange:
                return Double(row[2 * x + 1])
            case kCVPixelFormatType_32BGRA:
                let p = row + 4 * x
                return 0.114 * Double(p[0]) + 0.587 * Double(p[1]) + 0.299 * Double(p[2])
            case kCVPixelFormatType_24RGB:
                let p = row + 3 * x
                return 0.299 * Double(p[0]) + 0.587 * Double(p[1]) + 0.114 * Double(p[2])
            case kCVPixelFormatType_422YpCbCr8_yuvs:
                return Double(row[2 * x])
            case kCVPixelFormatType_422YpCbCr8:
                return Double(row[2 * x + 1])
            default:
                return nil
            }
        }
        let blockWidth = frame.width / grid, blockHeight = frame.height / grid
        for by in 0..<grid {
            for bx in 0..<grid {
                var sum = 0.0
                for sy in 0..<samples {
                    for sx in 0..<samples {
                        let x = bx * blockWidth + (2 * sx + 1) * blockWidth / (2 * samples)
                        let y = by * blockHeight + (2 * sy + 1) * blockHeight / (2 * samples)
                        guard let value = luma(x, y) else { return false }
                        sum += value
                    }
                }
                blocks[by * grid + bx] = sum / Double(samples * samples)
            }
        }
        return true
    }
}
