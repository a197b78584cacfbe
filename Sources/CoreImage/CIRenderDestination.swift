import CoreGraphics
import CoreVideo
import Foundation

/// Different ways of representing alpha in a render destination.
public enum CIRenderDestinationAlphaMode: UInt, @unchecked Sendable {
    /// Alpha is ignored: the destination is opaque.
    case none = 0
    /// Colors are multiplied by alpha.
    case premultiplied = 1
    /// Colors are not multiplied by alpha.
    case unpremultiplied = 2
}

/// A specification for configuring all attributes of a render task's destination and issuing
/// asynchronous render tasks.
///
/// Destinations here are pixel buffers (in any format the converter writes) and bitmap memory
/// (BGRA8, RGBA8 or ARGB8); Metal textures, OpenGL textures and IOSurfaces do not exist on Linux.
open class CIRenderDestination: NSObject, @unchecked Sendable {
    /// Where the pixels go.
    enum Target {
        case pixelBuffer(CVPixelBuffer)
        case bitmap(UnsafeMutableRawPointer, bytesPerRow: Int, format: CIFormat)
    }

    let target: Target
    private let size: (width: Int, height: Int)

    /// Creates a render destination based on a Core Video pixel buffer.
    public init(pixelBuffer: CVPixelBuffer) {
        target = .pixelBuffer(pixelBuffer)
        size = (pixelBuffer.width, pixelBuffer.height)
        super.init()
    }

    /// Creates a render destination based on a client-managed buffer.
    public init(bitmapData data: UnsafeMutableRawPointer, width: Int, height: Int, bytesPerRow: Int, format: CIFormat) {
        target = .bitmap(data, bytesPerRow: bytesPerRow, format: format)
        size = (max(0, width), max(0, height))
        super.init()
    }

    /// The destination's width, in pixels.
    open var width: Int { size.width }
    /// The destination's height, in pixels.
    open var height: Int { size.height }
    /// The destination's representation of alpha.
    open var alphaMode: CIRenderDestinationAlphaMode = .premultiplied
    /// A Boolean value that specifies whether the destination's origin is its top-left corner.
    open var isFlipped = false
    /// A Boolean value that specifies whether to dither the rendered values (8-bit results here are rounded).
    open var isDithered = false
    /// A Boolean value that specifies whether to clamp the rendered values to 0 through 1 (always so here).
    open var isClamped = true
    /// The destination's color space (images are worked and written in sRGB here).
    open var colorSpace: CGColorSpace?
    /// The blend kernel used to blend rendered images with the destination's existing contents.
    open var blendKernel: CIBlendKernel?
    /// A Boolean value that specifies whether blending is done in the destination's color space.
    open var blendsInDestinationColorSpace = false
}

/// Information about a completed render task.
open class CIRenderInfo: NSObject, @unchecked Sendable {
    /// The time, in seconds, the task spent rendering.
    open internal(set) var kernelExecutionTime: TimeInterval
    /// The number of passes the task made.
    open internal(set) var passCount: Int
    /// The number of pixels the task produced.
    open internal(set) var pixelsProcessed: Int
    /// The time, in seconds, spent compiling kernels (none are compiled here).
    open internal(set) var kernelCompileTime: TimeInterval = 0

    init(kernelExecutionTime: TimeInterval, passCount: Int, pixelsProcessed: Int) {
        self.kernelExecutionTime = kernelExecutionTime
        self.passCount = passCount
        self.pixelsProcessed = pixelsProcessed
        super.init()
    }
}

/// A single render task.
///
/// Tasks here complete before `startTask` returns (libvips renders on all cores meanwhile);
/// `waitUntilCompleted()` gives the result.
open class CIRenderTask: NSObject, @unchecked Sendable {
    private let result: Result<CIRenderInfo, NSError>

    init(_ result: Result<CIRenderInfo, NSError>) {
        self.result = result
        super.init()
    }

    /// Waits until the task completes, then returns information about it, or throws why it failed.
    open func waitUntilCompleted() throws -> CIRenderInfo { try result.get() }
}

extension CIContext {
    /// Fills the entire destination with black or clear depending on its alpha mode.
    public func startTask(toClear destination: CIRenderDestination) throws -> CIRenderTask {
        let clear = CIImage(color: destination.alphaMode == .none ? .black : .clear)
        return try startTask(rendering: clear, blending: false, to: destination)
    }

    /// Renders an image to a destination so that point (0, 0) of the image maps to point (0, 0) of the destination.
    public func startTask(toRender image: CIImage, to destination: CIRenderDestination) throws -> CIRenderTask {
        try startTask(rendering: image, blending: true, to: destination)
    }

    /// Renders a portion of an image to a point in the destination.
    public func startTask(toRender image: CIImage, from fromRect: CGRect, to destination: CIRenderDestination, at atPoint: CGPoint) throws -> CIRenderTask {
        let placed = image.cropped(to: fromRect).transformed(by: CGAffineTransform(translationX: atPoint.x - fromRect.minX, y: atPoint.y - fromRect.minY))
        return try startTask(rendering: placed, blending: true, to: destination)
    }

    /// An optional call to warm up a context so that subsequent renders are faster (nothing is kept to warm here).
    public func prepareRender(_ image: CIImage, from fromRect: CGRect, to destination: CIRenderDestination, at atPoint: CGPoint) throws {
        guard destination.width > 0, destination.height > 0 else { throw Self.renderError("the destination has no pixels") }
    }

    private static func renderError(_ reason: String) -> NSError {
        NSError(domain: "CIRenderTask", code: -1, userInfo: [NSLocalizedDescriptionKey: reason])
    }

    /// Renders an image over the destination's whole area, in its conventions.
    private func startTask(rendering image: CIImage, blending: Bool, to destination: CIRenderDestination) throws -> CIRenderTask {
        let (width, height) = (destination.width, destination.height)
        guard width > 0, height > 0 else { throw Self.renderError("the destination has no pixels") }
        var output = image
        // A flipped destination's rows run from the top: the image turned upside down within it.
        if destination.isFlipped { output = output.transformed(by: CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: CGFloat(height))) }
        if blending, let kernel = destination.blendKernel {
            guard let existing = try contents(of: destination), let blended = kernel.apply(foreground: output, background: existing) else {
                throw Self.renderError("the destination's contents could not be blended")
            }
            output = blended
        }
        switch destination.alphaMode {
        case .none: output = output.composited(over: CIImage(color: .black))
        case .unpremultiplied: output = output.derived(Self.unpremultiplied(output.recipe))
        case .premultiplied: break
        }
        let start = DispatchTime.now().uptimeNanoseconds
        let problem: String?
        switch destination.target {
        case .pixelBuffer(let buffer):
            problem = renderingProblem(output, to: buffer)
        case .bitmap(let data, let bytesPerRow, let format):
            guard format.layout != nil || format.floatBytesPerPixel != nil else {
                throw Self.renderError("bitmaps of format \(format.rawValue) cannot be rendered into here: BGRA8, RGBA8, ARGB8, RGBAh or RGBAf")
            }
            let pixelBytes = format.floatBytesPerPixel ?? 4
            guard bytesPerRow >= width * pixelBytes else { throw Self.renderError("\(bytesPerRow) bytes a row is too few for \(width) pixels") }
            problem = bitmapRenderingProblem(output, into: data, bytesPerRow: bytesPerRow, width: width, height: height, format: format)
        }
        if let problem { return CIRenderTask(.failure(Self.renderError(problem))) }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return CIRenderTask(.success(CIRenderInfo(kernelExecutionTime: seconds, passCount: 1, pixelsProcessed: width * height)))
    }

    /// What the destination holds now, copied, as an image (for blending over).
    private func contents(of destination: CIRenderDestination) throws -> CIImage? {
        switch destination.target {
        case .pixelBuffer(let buffer):
            guard let copy = CVPixelBuffer(width: buffer.width, height: buffer.height, pixelFormatType: buffer.pixelFormatType),
                copy.planes.count == buffer.planes.count
            else { return nil }
            for (from, to) in zip(buffer.planes, copy.planes) {
                for row in 0..<min(from.height, to.height) {
                    (to.baseAddress + row * to.bytesPerRow).copyMemory(
                        from: from.baseAddress + row * from.bytesPerRow, byteCount: min(from.bytesPerRow, to.bytesPerRow))
                }
            }
            var image = CIImage(cvPixelBuffer: copy)
            if destination.isFlipped { image = image.transformed(by: CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: CGFloat(buffer.height))) }
            return image
        case .bitmap(let data, let bytesPerRow, let format):
            let bytes = Data(bytes: data, count: bytesPerRow * destination.height)
            var image = CIImage(
                bitmapData: bytes, bytesPerRow: bytesPerRow, size: CGSize(width: destination.width, height: destination.height), format: format, colorSpace: nil
            )
            if destination.isFlipped {
                image = image.transformed(by: CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: CGFloat(destination.height)))
            }
            return image
        }
    }

    /// A recipe's colours divided by their alpha (0 where alpha is).
    private static func unpremultiplied(_ recipe: Recipe) -> Recipe {
        .computed(
            Computation(extent: recipe.extent) { context in
                let pixels = try context.pixels(recipe)
                return try Pixels.joined([try pixels.bands(0, 3) / pixels.bands(3) * 255, try pixels.bands(3)])
            })
    }
}
