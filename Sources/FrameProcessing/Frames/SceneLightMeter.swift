import CoreMedia
import CoreVideo

/// How bright a real camera's scene is, read from what its exposure made of it: the mean luma
/// of every fifteenth frame, sampled on a 32x24 grid, as a scene luminance (1 a normally lit
/// room, below 0.3 a dark one, where an automatic flash or torch lights).
///
/// Thread ownership: owned by the camera's producer thread. It allocates nothing.
package struct SceneLightMeter {
    private var frames = 0
    /// Frames between readings.
    static let interval = 15
    /// The mean luma (0...1) of a picture of a normally lit room under automatic exposure.
    static let normalLuma = 0.45

    package init() {}

    /// Every `interval` frames, the scene luminance `sample` shows; nil in between, and for pixel formats it cannot read.
    package mutating func reading(of sample: CMSampleBuffer) -> Double? {
        frames += 1
        guard frames >= Self.interval, let image = sample.imageBufferStorage else { return nil }
        frames = 0
        return Self.meanLuma(of: image).map { $0 / Self.normalLuma }
    }

    /// The mean luma (0...1) of a picture, or nil for pixel formats it cannot read.
    package static func meanLuma(of image: CVPixelBuffer) -> Double? {
        let format = CVPixelBufferGetPixelFormatType(image)
        // Where a pixel's luma is (byte offset in a pixel group, group size), and its range.
        let layout: (offset: Int, step: Int, videoRange: Bool)
        switch format {
        case kCVPixelFormatType_32BGRA: layout = (1, 4, false)  // green stands in for luma
        case kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr8Planar: layout = (0, 1, true)
        case kCVPixelFormatType_420YpCbCr8BiPlanarFullRange, kCVPixelFormatType_OneComponent8: layout = (0, 1, false)
        case kCVPixelFormatType_422YpCbCr8_yuvs: layout = (0, 2, true)
        case kCVPixelFormatType_422YpCbCr8: layout = (1, 2, true)
        default: return nil
        }
        CVPixelBufferLockBaseAddress(image, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(image, .readOnly) }
        let planar = CVPixelBufferIsPlanar(image)
        guard let base = planar ? CVPixelBufferGetBaseAddressOfPlane(image, 0) : CVPixelBufferGetBaseAddress(image) else { return nil }
        let stride = planar ? CVPixelBufferGetBytesPerRowOfPlane(image, 0) : CVPixelBufferGetBytesPerRow(image)
        let width = CVPixelBufferGetWidth(image), height = CVPixelBufferGetHeight(image)
        guard width > 0, height > 0 else { return nil }
        let bytes = base.assumingMemoryBound(to: UInt8.self)
        var sum = 0
        for row in 0..<24 {
            let y = (2 * row + 1) * height / 48
            for column in 0..<32 {
                let x = (2 * column + 1) * width / 64
                sum += Int(bytes[y * stride + x * layout.step + layout.offset])
            }
        }
        let mean = Double(sum) / (32 * 24) / 255
        return layout.videoRange ? min(1, max(0, (mean * 255 - 16) / 219)) : mean
    }
}
