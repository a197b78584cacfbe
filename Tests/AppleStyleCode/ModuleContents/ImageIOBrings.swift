import ImageIO

// What a file importing only Image I/O uses, as Apple's module brings it: Core Foundation's types
// and Core Graphics' images and geometry.
enum ImageIOBrings {
    static func firstImage(of data: CFData, at url: CFURL) -> (CGImage?, CGAffineTransform) {
        let options: CFDictionary = [kCGImageSourceShouldCache: false] as CFDictionary
        let type: CFString = kCGImageSourceTypeIdentifierHint
        _ = (type, url)
        guard let source = CGImageSourceCreateWithData(data, options) else { return (nil, .identity) }
        return (CGImageSourceCreateImageAtIndex(source, 0, nil), CGAffineTransform(rotationAngle: .pi / 2))
    }
}
