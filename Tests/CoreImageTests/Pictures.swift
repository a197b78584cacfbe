import CoreGraphics
import CoreImage
import CoreVideo
import Foundation

/// Pictures with known pixels, and reading pixels back, for the Core Image tests.
enum Pictures {
    /// A colour as 8-bit red, green, blue, alpha.
    struct RGBA: Equatable, CustomStringConvertible {
        var r: Int, g: Int, b: Int, a: Int
        var description: String { "(\(r), \(g), \(b), \(a))" }

        /// Whether each component is within `tolerance` of another colour's.
        func isClose(to other: RGBA, tolerance: Int = 2) -> Bool {
            abs(r - other.r) <= tolerance && abs(g - other.g) <= tolerance && abs(b - other.b) <= tolerance && abs(a - other.a) <= tolerance
        }

        static let red = RGBA(r: 255, g: 0, b: 0, a: 255)
        static let green = RGBA(r: 0, g: 255, b: 0, a: 255)
        static let blue = RGBA(r: 0, g: 0, b: 255, a: 255)
        static let white = RGBA(r: 255, g: 255, b: 255, a: 255)
        static let clear = RGBA(r: 0, g: 0, b: 0, a: 0)
    }

    /// A BGRA frame as it is seen, top row first: its top-left quarter red, top-right green,
    /// bottom-left blue, bottom-right white.
    static func quadrants(width: Int = 64, height: Int = 48) -> CVPixelBuffer {
        var buffer: CVPixelBuffer?
        CVPixelBufferCreate(nil, width, height, kCVPixelFormatType_32BGRA, nil, &buffer)
        let frame = buffer!
        CVPixelBufferLockBaseAddress(frame, [])
        let base = CVPixelBufferGetBaseAddress(frame)!.assumingMemoryBound(to: UInt8.self)
        let stride = CVPixelBufferGetBytesPerRow(frame)
        for y in 0..<height {
            for x in 0..<width {
                let colour: RGBA = y < height / 2 ? (x < width / 2 ? .red : .green) : (x < width / 2 ? .blue : .white)
                let pixel = base + y * stride + x * 4
                (pixel[0], pixel[1], pixel[2], pixel[3]) = (UInt8(colour.b), UInt8(colour.g), UInt8(colour.r), UInt8(colour.a))
            }
        }
        CVPixelBufferUnlockBaseAddress(frame, [])
        return frame
    }

    /// A BGRA frame of one colour.
    static func solid(_ colour: RGBA, width: Int = 32, height: Int = 32) -> CVPixelBuffer {
        var buffer: CVPixelBuffer?
        CVPixelBufferCreate(nil, width, height, kCVPixelFormatType_32BGRA, nil, &buffer)
        let frame = buffer!
        let base = CVPixelBufferGetBaseAddress(frame)!.assumingMemoryBound(to: UInt8.self)
        for y in 0..<height {
            for x in 0..<width {
                let pixel = base + y * CVPixelBufferGetBytesPerRow(frame) + x * 4
                (pixel[0], pixel[1], pixel[2], pixel[3]) = (UInt8(colour.b), UInt8(colour.g), UInt8(colour.r), UInt8(colour.a))
            }
        }
        return frame
    }

    /// A BGRA frame whose red is 4 x and green 4 y at the pixel x across and y up from the bottom:
    /// a plane in which bilinear sampling at any point (X, Y) of Core Image's coordinates gives red
    /// 4 (X - 0.5) and green 4 (Y - 0.5) exactly.
    static func ramp(width: Int = 64, height: Int = 48) -> CVPixelBuffer {
        var buffer: CVPixelBuffer?
        CVPixelBufferCreate(nil, width, height, kCVPixelFormatType_32BGRA, nil, &buffer)
        let frame = buffer!
        let base = CVPixelBufferGetBaseAddress(frame)!.assumingMemoryBound(to: UInt8.self)
        for row in 0..<height {
            for x in 0..<width {
                let pixel = base + row * CVPixelBufferGetBytesPerRow(frame) + x * 4
                (pixel[0], pixel[1], pixel[2], pixel[3]) = (0, UInt8(4 * (height - 1 - row)), UInt8(4 * x), 255)
            }
        }
        return frame
    }

    /// Where a pixel of an image made from a ramp (red 4 x, green 4 y) was sampled from, in Core
    /// Image's coordinates, and its alpha.
    static func rampSource(_ image: CIImage, x: Int, y: Int, context: CIContext = CIContext()) -> (x: Double, y: Double, alpha: Double) {
        let value = value(image, x: x, y: y, context: context)
        return (value[0] / 4 + 0.5, value[1] / 4 + 0.5, value[3])
    }

    /// The R, G, B, A (0-255) of one pixel of an image, at (`x`, `y`) in Core Image's coordinates.
    static func value(_ image: CIImage, x: Int, y: Int, context: CIContext = CIContext()) -> [Double] {
        var bytes = [UInt8](repeating: 0, count: 4)
        context.render(image, toBitmap: &bytes, rowBytes: 4, bounds: CGRect(x: x, y: y, width: 1, height: 1), format: .RGBA8, colorSpace: nil)
        return bytes.map(Double.init)
    }

    /// The pixel at (`x`, `y`) of an image, top row 0, whatever its 32-bit layout.
    static func pixel(_ image: CGImage, x: Int, y: Int) -> RGBA {
        let data = image.dataProvider!.data! as Data
        let offset = y * image.bytesPerRow + x * 4
        let bytes = (Int(data[offset]), Int(data[offset + 1]), Int(data[offset + 2]), Int(data[offset + 3]))
        let alphaFirst = image.alphaInfo == .premultipliedFirst || image.alphaInfo == .first || image.alphaInfo == .noneSkipFirst
        if image.byteOrderInfo == .order32Little {
            // Little-endian 32-bit words: B, G, R, A in memory for alpha first.
            return alphaFirst ? RGBA(r: bytes.2, g: bytes.1, b: bytes.0, a: bytes.3) : RGBA(r: bytes.3, g: bytes.2, b: bytes.1, a: bytes.0)
        }
        return alphaFirst ? RGBA(r: bytes.1, g: bytes.2, b: bytes.3, a: bytes.0) : RGBA(r: bytes.0, g: bytes.1, b: bytes.2, a: bytes.3)
    }

    /// The pixel at (`x`, `y`) of a BGRA frame, top row 0.
    static func pixel(_ frame: CVPixelBuffer, x: Int, y: Int) -> RGBA {
        let base = CVPixelBufferGetBaseAddress(frame)!.assumingMemoryBound(to: UInt8.self)
        let pixel = base + y * CVPixelBufferGetBytesPerRow(frame) + x * 4
        return RGBA(r: Int(pixel[2]), g: Int(pixel[1]), b: Int(pixel[0]), a: Int(pixel[3]))
    }

    /// An image rendered over its whole extent.
    static func render(_ image: CIImage, context: CIContext = CIContext()) -> CGImage? {
        context.createCGImage(image, from: image.extent)
    }
}
