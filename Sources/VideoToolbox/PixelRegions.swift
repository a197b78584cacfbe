import CoreVideo

extension CVPixelBuffer {
    /// Whether regions of the buffer can be viewed in place, and filled with black: BGRA and
    /// bi-planar 4:2:0.
    var hasRegions: Bool {
        [kCVPixelFormatType_32BGRA, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange]
            .contains(pixelFormatType)
    }

    /// A buffer that views the rectangle of this one's pixels in place (and keeps this one), its
    /// edges rounded to even pixels for 4:2:0; nil for formats without regions or an empty rectangle.
    func region(x: Int, y: Int, width: Int, height: Int) -> CVPixelBuffer? {
        guard hasRegions else { return nil }
        let chroma = pixelFormatType != kCVPixelFormatType_32BGRA
        let (x, y) = chroma ? (x & ~1, y & ~1) : (x, y)
        let (width, height) = chroma ? (width & ~1, height & ~1) : (width, height)
        guard width > 0, height > 0, x >= 0, y >= 0, x + width <= self.width, y + height <= self.height else { return nil }
        var viewed: [Plane]
        if chroma {
            let (luma, colour) = (planes[0], planes[1])
            viewed = [
                Plane(baseAddress: luma.baseAddress + y * luma.bytesPerRow + x, bytesPerRow: luma.bytesPerRow, width: width, height: height),
                Plane(
                    baseAddress: colour.baseAddress + y / 2 * colour.bytesPerRow + x, bytesPerRow: colour.bytesPerRow, width: width / 2,
                    height: height / 2),
            ]
        } else {
            let plane = planes[0]
            viewed = [Plane(baseAddress: plane.baseAddress + y * plane.bytesPerRow + x * 4, bytesPerRow: plane.bytesPerRow, width: width, height: height)]
        }
        let whole = self
        return CVPixelBuffer(width: width, height: height, pixelFormatType: pixelFormatType, planes: viewed, dataSize: dataSize) { _ = whole }
    }

    /// Paints every pixel black: opaque black in BGRA, video- or full-range black in 4:2:0.
    func fillBlack() {
        switch pixelFormatType {
        case kCVPixelFormatType_32BGRA:
            let plane = planes[0]
            for row in 0..<plane.height {
                let pixels = (plane.baseAddress + row * plane.bytesPerRow).assumingMemoryBound(to: UInt32.self)
                pixels.update(repeating: 0xFF00_0000, count: plane.width)
            }
        case kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange:
            let black: UInt8 = pixelFormatType == kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange ? 16 : 0
            for (index, plane) in planes.prefix(2).enumerated() {
                let value = index == 0 ? black : 128
                let bytes = index == 0 ? plane.width : plane.width * 2
                for row in 0..<plane.height { (plane.baseAddress + row * plane.bytesPerRow).initializeMemory(as: UInt8.self, repeating: value, count: bytes) }
            }
        default:
            break
        }
    }
}
