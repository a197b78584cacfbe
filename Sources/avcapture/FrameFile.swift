import AVFoundation
import Foundation

/// Writing frames to image files.
enum FrameFile {
    /// Copies a frame into a new BGRA pixel buffer, converting Y'CbCr with BT.601.
    static func copyAsBGRA(_ image: CVPixelBuffer) -> CVPixelBuffer? {
        let width = CVPixelBufferGetWidth(image), height = CVPixelBufferGetHeight(image)
        var out: CVPixelBuffer?
        guard CVPixelBufferCreate(kCFAllocatorDefault, width, height, kCVPixelFormatType_32BGRA, nil, &out) == kCVReturnSuccess, let out else { return nil }
        CVPixelBufferLockBaseAddress(image, .readOnly)
        CVPixelBufferLockBaseAddress(out, [])
        defer {
            CVPixelBufferUnlockBaseAddress(out, [])
            CVPixelBufferUnlockBaseAddress(image, .readOnly)
        }
        let format = CVPixelBufferGetPixelFormatType(image)
        let dst = CVPixelBufferGetBaseAddress(out)!.assumingMemoryBound(to: UInt8.self)
        let dstStride = CVPixelBufferGetBytesPerRow(out)
        if format == kCVPixelFormatType_32BGRA {
            let src = CVPixelBufferGetBaseAddress(image)!.assumingMemoryBound(to: UInt8.self)
            for row in 0..<height { (dst + row * dstStride).update(from: src + row * CVPixelBufferGetBytesPerRow(image), count: width * 4) }
            return out
        }
        guard format == kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange || format == kCVPixelFormatType_420YpCbCr8BiPlanarFullRange else { return nil }
        let full = format == kCVPixelFormatType_420YpCbCr8BiPlanarFullRange
        let y = CVPixelBufferGetBaseAddressOfPlane(image, 0)!.assumingMemoryBound(to: UInt8.self)
        let uv = CVPixelBufferGetBaseAddressOfPlane(image, 1)!.assumingMemoryBound(to: UInt8.self)
        let yStride = CVPixelBufferGetBytesPerRowOfPlane(image, 0), uvStride = CVPixelBufferGetBytesPerRowOfPlane(image, 1)
        for row in 0..<height {
            for column in 0..<width {
                var luma = Double(y[row * yStride + column])
                var cb = Double(uv[(row / 2) * uvStride + (column / 2) * 2]) - 128
                var cr = Double(uv[(row / 2) * uvStride + (column / 2) * 2 + 1]) - 128
                if !full { luma = (luma - 16) * 255 / 219; cb *= 255 / 224; cr *= 255 / 224 }
                let r = luma + 1.402 * cr, g = luma - 0.344136 * cb - 0.714136 * cr, b = luma + 1.772 * cb
                let pixel = dst + row * dstStride + column * 4
                pixel[0] = UInt8(max(0, min(255, b.rounded())))
                pixel[1] = UInt8(max(0, min(255, g.rounded())))
                pixel[2] = UInt8(max(0, min(255, r.rounded())))
                pixel[3] = 255
            }
        }
        return out
    }

    /// Writes a BGRA pixel buffer as a binary PPM file.
    static func writePPM(_ image: CVPixelBuffer, to path: String) throws {
        let width = CVPixelBufferGetWidth(image), height = CVPixelBufferGetHeight(image)
        var data = Data("P6\n\(width) \(height)\n255\n".utf8)
        data.reserveCapacity(data.count + width * height * 3)
        CVPixelBufferLockBaseAddress(image, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(image, .readOnly) }
        let base = CVPixelBufferGetBaseAddress(image)!.assumingMemoryBound(to: UInt8.self)
        let stride = CVPixelBufferGetBytesPerRow(image)
        for row in 0..<height {
            for column in 0..<width {
                let pixel = base + row * stride + column * 4
                data.append(contentsOf: [pixel[2], pixel[1], pixel[0]])
            }
        }
        try NewFile.write(data, to: path)
    }
}
