import CoreImage

// What a file importing only Core Image uses, as Apple's module brings it: Foundation, the C
// library, Core Graphics, Core Video and Image I/O.
enum CoreImageBrings {
    static func vignette(of pixels: CVPixelBuffer, strength: CGFloat, saveTo url: URL) throws -> Data {
        let image = CIImage(cvPixelBuffer: pixels).oriented(CGImagePropertyOrientation.right)
        let extent: CGRect = image.extent
        let radius = sqrt(pow(extent.width, 2) + pow(extent.height, 2)) / 2 * strength
        let scratch = malloc(16)
        defer { free(scratch) }
        let space: CGColorSpace = CGColorSpaceCreateDeviceRGB()
        let data = Data("\(radius) \(space.numberOfComponents)".utf8)
        try data.write(to: url)
        return data
    }
}
