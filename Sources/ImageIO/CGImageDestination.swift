import CoreVideo
import Foundation
import FrameProcessing

/// An opaque type that writes an image to data or a file: JPEG with libjpeg-turbo, PNG with
/// libpng, HEIC with libheif and x265 (the photo output's own encoders), TIFF and GIF with libvips.
///
/// One thread at a time: add the images, then finalize. Several images make an animated GIF or PNG,
/// or a HEIF image sequence (`public.heics`, where libheif 1.21 or newer is found); the other types
/// take the first.
public final class CGImageDestination: @unchecked Sendable {
    fileprivate enum Target {
        case data(NSMutableData)
        case file(URL)
    }
    private let target: Target
    private let type: String
    /// How many images the destination was made for.
    private let count: Int
    /// The images added, with their properties.
    private var images: [(image: CGImage, properties: [String: Any])] = []
    /// The properties of the file as a whole (a GIF's loop count).
    private var fileProperties: [String: Any] = [:]
    private var finalized = false

    /// The first image's properties, which single-image files take.
    private var properties: [String: Any] { images.first?.properties ?? [:] }

    fileprivate init?(target: Target, type: CFString, count: Int) {
        guard count >= 1, CGImageDestinationCopyTypeIdentifiers().contains(where: { ($0 as? String) == type as String }) else { return nil }
        self.target = target
        self.type = type as String
        self.count = count
    }

    fileprivate func add(_ image: CGImage, _ properties: CFDictionary?) {
        // No more images than the destination was made for, as Apple's.
        guard !finalized, images.count < count else { return }
        images.append((image, properties?.stringKeyed ?? [:]))
    }

    fileprivate func setProperties(_ properties: CFDictionary?) {
        if let properties { fileProperties.merge(properties.stringKeyed) { $1 } }
    }

    fileprivate func finalize() -> Bool {
        guard !finalized, let image = images.first?.image else { return false }
        finalized = true
        let bytes: Data?
        if type == "com.compuserve.gif" || type == "public.png", images.count > 1 {
            bytes = animation()
        } else if type == "public.heics" {
            bytes = sequence()
        } else if type == "public.tiff", image.isFloatRGBA, image.bitsPerComponent == 32 {
            // A float image stays in floats in a TIFF, as Apple's Image I/O writes it.
            bytes = LibvipsPictures.encodeFloatTIFF(image)
        } else {
            bytes = Self.bgraFrame(of: image).flatMap { encode($0) }
        }
        guard let bytes else { return false }
        switch target {
        case .data(let data):
            data.append(bytes)
            return true
        case .file(let url):
            // Written beside the file and moved into place: the file appears only when complete.
            return (try? bytes.write(to: url, options: .atomic)) != nil
        }
    }

    private func encode(_ frame: CVPixelBuffer) -> Data? {
        let quality =
            (properties[kCGImageDestinationLossyCompressionQuality] as? Double)
            ?? (properties[kCGImageDestinationLossyCompressionQuality] as? NSNumber)?.doubleValue ?? 0.85
        let unit = quality.isNaN ? 0.85 : min(1, max(0, quality))
        // The orientation and the TIFF, EXIF and GPS dictionaries given go into the file's EXIF.
        let metadata = properties
        let described = [kCGImagePropertyOrientation, kCGImagePropertyTIFFDictionary, kCGImagePropertyExifDictionary, kCGImagePropertyGPSDictionary]
        let exif = described.contains { metadata[$0] != nil } ? ExifProperties.exif(from: metadata) : nil
        switch type {
        case "public.jpeg":
            guard let jpeg = JPEGEncoder().encode(frame, quality: Int32(max(1, (unit * 100).rounded()))) else { return nil }
            let withExif = exif.flatMap { jpeg.insertingJPEGExif($0) } ?? jpeg
            // The IPTC dictionary given goes into an IPTC record, as Apple's Image I/O writes it.
            guard
                let iptc = metadata[kCGImagePropertyIPTCDictionary] as? [String: Any]
                    ?? (metadata[kCGImagePropertyIPTCDictionary] as? NSDictionary)?.stringKeyed
            else { return withExif }
            return IPTCProperties.inserting(iptc, intoJPEG: withExif)
        case "public.png": return PNGEncoder().encode(frame, exif: exif)
        case "public.heic": return try? HEICEncoder().encode(frame, quality: Int((unit * 100).rounded()), preset: "medium", exif: exif)
        case "public.tiff": return LibvipsPictures.encode(frame, suffix: ".tif", opaque: true)
        case "com.compuserve.gif": return LibvipsPictures.encode(frame, suffix: ".gif", opaque: true)
        default: return nil
        }
    }

    /// The images as an animated GIF or PNG: each shown for its GIF or PNG dictionary's delay (the
    /// unclamped one when given; a tenth of a second when neither is), looped as the file's
    /// properties say (for ever when they say nothing).
    private func animation() -> Data? {
        guard let (frames, delays, plays) = timedFrames() else { return nil }
        if type == "public.png" { return AnimatedPNG.encode(frames, delays: delays, loop: plays) }
        return LibvipsPictures.encodeAnimation(frames, delays: delays, loop: plays)
    }

    /// The images as a HEIF image sequence, timed and looped as `animation()` times a GIF, from the
    /// HEICS dictionaries; the first image is the file's still picture too.
    private func sequence() -> Data? {
        guard let (frames, delays, plays) = timedFrames() else { return nil }
        let quality = number(images[0].properties, kCGImageDestinationLossyCompressionQuality) ?? 0.85
        return try? HEIFSequence.encode(frames, delays: delays, plays: plays, quality: quality)
    }

    /// The images as BGRA frames, with each one's delay and how many times the animation plays (0
    /// for ever), from the type's animation dictionaries (GIF, APNG and HEICS spell their keys alike).
    private func timedFrames() -> (frames: [CVPixelBuffer], delays: [Double], plays: Int)? {
        let frames = images.compactMap { Self.bgraFrame(of: $0.image) }
        guard frames.count == images.count else { return nil }
        let dictionary =
            switch type {
            case "public.png": kCGImagePropertyPNGDictionary
            case "public.heics": kCGImagePropertyHEICSDictionary
            default: kCGImagePropertyGIFDictionary
            }
        let delays = images.map { entry -> Double in
            let animation = entry.properties[dictionary as String] as? [String: Any]
            let delay = number(animation, kCGImagePropertyGIFUnclampedDelayTime) ?? number(animation, kCGImagePropertyGIFDelayTime) ?? 0.1
            return delay.isFinite && delay >= 0 ? delay : 0.1
        }
        let loop = number(fileProperties[dictionary as String] as? [String: Any], kCGImagePropertyGIFLoopCount) ?? 0
        let plays = loop.isFinite ? Int(max(0, min(65535, loop))) : 0
        return (frames, delays, plays)
    }

    /// A number a properties dictionary holds under a key.
    private func number(_ dictionary: [String: Any]?, _ key: CFString) -> Double? {
        (dictionary?[key as String] as? Double) ?? (dictionary?[key as String] as? NSNumber)?.doubleValue
    }

    /// The image's pixels as an opaque BGRA frame, drawn through a bitmap context (over white where transparent).
    private static func bgraFrame(of image: CGImage) -> CVPixelBuffer? {
        guard let frame = CVPixelBuffer(width: image.width, height: image.height, pixelFormatType: kCVPixelFormatType_32BGRA) else { return nil }
        CVPixelBufferLockBaseAddress(frame, [])
        defer { CVPixelBufferUnlockBaseAddress(frame, []) }
        guard
            let context = CGContext(
                data: CVPixelBufferGetBaseAddress(frame), width: image.width, height: image.height, bitsPerComponent: 8,
                bytesPerRow: CVPixelBufferGetBytesPerRow(frame), space: CGColorSpaceCreateDeviceRGB(),
                bitmapInfo: CGBitmapInfo.byteOrder32Little.rawValue | CGImageAlphaInfo.premultipliedFirst.rawValue)
        else { return nil }
        context.setFillColor(gray: 1, alpha: 1)
        context.fill(CGRect(x: 0, y: 0, width: image.width, height: image.height))
        context.draw(image, in: CGRect(x: 0, y: 0, width: image.width, height: image.height))
        return frame
    }
}

/// The quality of lossy compression, from 0 (smallest) to 1 (best).
nonisolated(unsafe) public let kCGImageDestinationLossyCompressionQuality: CFString = "kCGImageDestinationLossyCompressionQuality"

/// The uniform type identifiers image destinations write.
public func CGImageDestinationCopyTypeIdentifiers() -> CFArray {
    let sequences: [String] = HEIFSequence.isAvailable ? ["public.heics"] : []
    return (["public.jpeg", "public.png", "public.heic"] + sequences + ["public.tiff", "com.compuserve.gif"]) as CFArray
}

/// Creates a destination that appends the encoded image to `data`; nil for a type this system does not write.
public func CGImageDestinationCreateWithData(_ data: CFMutableData, _ type: CFString, _ count: Int, _ options: CFDictionary?) -> CGImageDestination? {
    CGImageDestination(target: .data(data), type: type, count: count)
}

/// Creates a destination that writes the encoded image to a file; nil for a type this system does not write.
public func CGImageDestinationCreateWithURL(_ url: CFURL, _ type: CFString, _ count: Int, _ options: CFDictionary?) -> CGImageDestination? {
    guard url.isFileURL else { return nil }
    return CGImageDestination(target: .file(url as URL), type: type, count: count)
}

/// Adds the image to write, with properties such as `kCGImageDestinationLossyCompressionQuality`.
public func CGImageDestinationAddImage(_ idst: CGImageDestination, _ image: CGImage, _ properties: CFDictionary?) { idst.add(image, properties) }

/// Applies properties to the file as a whole, such as a GIF's loop count.
public func CGImageDestinationSetProperties(_ idst: CGImageDestination, _ properties: CFDictionary?) { idst.setProperties(properties) }

/// Encodes and writes the image; false when there is none, or it could not be encoded or written.
public func CGImageDestinationFinalize(_ idst: CGImageDestination) -> Bool { idst.finalize() }
