import CoreVideo
import Foundation
import FrameProcessing

/// An opaque type that reads image data from a URL or data: JPEG, PNG, HEIC, TIFF, GIF and WebP
/// pictures, decoded with libjpeg-turbo, libpng, libheif and libvips (with libwebp), the EXIF of
/// JPEG and HEIC files read with libexif.
///
/// Immutable and thread-safe; each image made from it is decoded again.
public final class CGImageSource: @unchecked Sendable {
    /// What the source holds: its data, the kind of picture the data is (nil while an incremental
    /// source has not seen enough to tell), its pages, and whether more data may come.
    private struct Contents {
        var data: Data
        var kind: PictureDecoder.Kind?
        /// A GIF's or a WebP's frames or a TIFF's pages: how many, how often an animation loops (nil
        /// when it says nothing), and each frame's delay in seconds; one picture for the other kinds.
        var pages: (count: Int, loop: Int?, delays: [Double])
        /// A HEIF image sequence's picture size, when the data is one (its frames are the pages).
        var sequenceSize: (width: Int, height: Int)?
        /// A HEIF image sequence's frames, decoded in turn.
        var sequenceReader: HEIFSequence.Reader?
        var isFinal: Bool

        init(data: Data, isFinal: Bool) {
            self.data = data
            kind = PictureDecoder.kind(of: data)
            switch kind {
            case .gif?, .tiff?, .webp?: pages = LibvipsPictures.pages(of: data) ?? (1, nil, [])
            case .png?: pages = AnimatedPNG.pages(of: data).map { ($0.count, $0.loop, $0.delays) } ?? (1, nil, [])
            case .heic?:
                let sequence = isFinal ? HEIFSequence.contents(of: data) : nil
                pages = sequence.map { ($0.delays.count, $0.plays, $0.delays) } ?? (1, nil, [])
                sequenceSize = sequence.map { ($0.width, $0.height) }
                sequenceReader = sequence != nil ? HEIFSequence.Reader(data) : nil
            case nil: pages = (0, nil, [])
            default: pages = (1, nil, [])
            }
            self.isFinal = isFinal
        }
    }

    private let contents: LockedValue<Contents>
    /// Whether the data arrives bit by bit (`CGImageSourceCreateIncremental`).
    let isIncremental: Bool

    /// The data the source holds now.
    var data: Data { contents.withLock { $0.data } }
    /// The kind of picture the data is; nil while an incremental source cannot tell yet.
    var kind: PictureDecoder.Kind? { contents.withLock { $0.kind } }
    /// The source's pictures: a GIF's frames or a TIFF's pages, with a GIF's loop count and delays.
    var pages: (count: Int, loop: Int?, delays: [Double]) { contents.withLock { $0.pages } }
    /// Whether the data is all there.
    var isFinal: Bool { contents.withLock { $0.isFinal } }
    /// Whether the data is a HEIF image sequence.
    var isSequence: Bool { contents.withLock { $0.sequenceSize != nil } }

    init?(data: Data) {
        let contents = Contents(data: data, isFinal: true)
        guard contents.kind != nil else { return nil }
        self.contents = LockedValue(contents)
        isIncremental = false
    }

    /// An incremental source, empty until data is given.
    init() {
        contents = LockedValue(Contents(data: Data(), isFinal: false))
        isIncremental = true
    }

    /// Gives an incremental source all the data received so far; after the final data, nothing more is taken.
    func update(_ data: Data, final: Bool) {
        guard isIncremental, !isFinal else { return }
        let updated = Contents(data: data, isFinal: final)
        contents.withLock { $0 = updated }
    }

    /// How far the picture at `index` (nil: the source as a whole) can be read.
    func status(at index: Int?) -> CGImageSourceStatus {
        let (data, kind, count, isFinal) = contents.withLock { ($0.data, $0.kind, $0.pages.count, $0.isFinal) }
        guard kind != nil else {
            // Sixteen bytes are more than any signature read here.
            return data.count >= 16 ? .statusUnknownType : isFinal ? (data.isEmpty ? .statusUnexpectedEOF : .statusUnknownType) : .statusReadingHeader
        }
        let picture = index ?? 0
        guard picture >= 0, picture < count else { return isFinal ? .statusInvalidData : .statusIncomplete }
        guard properties(at: picture) != nil else { return isFinal ? .statusInvalidData : .statusReadingHeader }
        if index == nil, !isFinal { return .statusIncomplete }
        // A JPEG decodes from part of its data (the rest grey, or a progressive picture's first
        // scans): it is whole once its end-of-image marker has come.
        if kind == .jpeg, !PictureHeaders.jpegReachesItsEnd(data) { return isFinal ? .statusUnexpectedEOF : .statusIncomplete }
        guard decodedImage(at: picture) != nil else { return isFinal ? .statusUnexpectedEOF : .statusIncomplete }
        return .statusComplete
    }

    /// The uniform type identifier of the source's pictures; nil while an incremental source cannot tell.
    var typeIdentifier: CFString? {
        switch kind {
        case nil: nil
        case .jpeg?: "public.jpeg"
        case .png?: "public.png"
        case .heic?: isSequence ? "public.heics" : "public.heic"
        case .tiff?: "public.tiff"
        case .gif?: "com.compuserve.gif"
        case .webp?: "org.webmproject.webp"
        }
    }

    /// The EXIF orientation the picture's metadata says (1 when it says none).
    var orientation: Int {
        switch kind {
        case .jpeg?: PictureDecoder.exifOrientation(data) ?? 1
        case .heic?: PictureDecoder.heicExif(data).flatMap { PictureDecoder.exifOrientation($0) } ?? 1
        default: 1
        }
    }

    /// The picture at an index (a GIF's, a WebP's or an animated PNG's frame, a TIFF's page) decoded
    /// as an image over its decoded frame's memory; a picture of floating-point samples in floats when
    /// `allowFloat` (`kCGImageSourceShouldAllowFloat`), otherwise in 8-bit sRGB.
    func decodedImage(at index: Int = 0, allowFloat: Bool = false) -> CGImage? {
        let (data, kind, count, animated) = contents.withLock { ($0.data, $0.kind, $0.pages.count, !$0.pages.delays.isEmpty) }
        guard kind != nil, index >= 0, index < count else { return nil }
        if kind == .heic, animated {
            guard let (frame, hasAlpha) = try? contents.withLock({ $0.sequenceReader })?.decode(frame: index) else { return nil }
            return frame.bgraImage(opaque: !hasAlpha)
        }
        if allowFloat, kind == .tiff, LibvipsPictures.hasFloatSamples(data, page: index) {
            return Self.floatImage(data, page: index)
        }
        if kind == .png, animated {
            // Composed on the canvas by FFmpeg; an APNG's frames may be transparent.
            return AnimatedPNG.decode(data, page: index)?.bgraImage(opaque: false)
        }
        if kind == .tiff || kind == .gif || kind == .webp {
            guard let (frame, hasAlpha) = LibvipsPictures.decode(data, page: index) else { return nil }
            return frame.bgraImage(opaque: !hasAlpha)
        }
        guard let (frame, hasAlpha) = try? PictureDecoder.decodeBGRA(data) else { return nil }
        return frame.bgraImage(opaque: !hasAlpha)
    }

    /// A picture of floating-point samples as an image of 32-bit float R, G, B, A (premultiplied, or
    /// the alpha skipped when the picture has none) in extended linear sRGB, the values as the file
    /// holds them: libvips reads a float RGB TIFF's colours as linear (scRGB), and so are they here.
    private static func floatImage(_ data: Data, page: Int) -> CGImage? {
        guard let (pixels, width, height, hasAlpha) = LibvipsPictures.decodeFloats(data, page: page),
            let space = CGColorSpace(name: CGColorSpace.extendedLinearSRGB)
        else { return nil }
        let alpha: CGImageAlphaInfo = hasAlpha ? .premultipliedLast : .noneSkipLast
        let info = CGBitmapInfo.floatComponents.rawValue | CGBitmapInfo.byteOrder32Little.rawValue | alpha.rawValue
        return CGImage(
            width: width, height: height, bitsPerComponent: 32, bitsPerPixel: 128, bytesPerRow: width * 16, space: space,
            bitmapInfo: CGBitmapInfo(rawValue: info), provider: CGDataProvider(bytes: pixels), decode: nil, shouldInterpolate: true,
            intent: .defaultIntent)
    }

    /// The picture at an index as far as its data has arrived: an incremental source's JPEG, still
    /// PNG or GIF frame drawn from part of its data, the rest grey or transparent; otherwise as
    /// `decodedImage(at:allowFloat:)`.
    func arrivedImage(at index: Int = 0, allowFloat: Bool = false) -> CGImage? {
        if let whole = decodedImage(at: index, allowFloat: allowFloat) { return whole }
        let (data, kind, count, animated) = contents.withLock { ($0.data, $0.kind, $0.pages.count, !$0.pages.delays.isEmpty) }
        if isIncremental, kind == .gif, index >= 0, index < count, let (frame, _) = LibvipsPictures.decode(data, page: index, arrived: true) {
            // The rows to come are transparent.
            return frame.bgraImage(opaque: false)
        }
        guard isIncremental, index == 0, kind == .png, !animated, let (frame, hasAlpha) = try? PictureDecoder.decodeArrivedPNG(data) else { return nil }
        return frame.bgraImage(opaque: !hasAlpha)
    }

    /// The dictionary an animation's properties go in: a GIF's, a WebP's, an animated PNG's or a HEIF
    /// image sequence's.
    private static func animationDictionary(_ kind: PictureDecoder.Kind?, animated: Bool) -> CFString? {
        switch kind {
        case .gif?: kCGImagePropertyGIFDictionary
        case .webp?: kCGImagePropertyWebPDictionary
        case .png? where animated: kCGImagePropertyPNGDictionary
        case .heic? where animated: kCGImagePropertyHEICSDictionary
        default: nil
        }
    }

    /// A frame's delays under Apple's keys: the clamped one never under a tenth of a second (50
    /// milliseconds for an animated PNG), as browsers play them; the unclamped one as the file says.
    /// (GIF, WebP, APNG and HEICS spell the keys alike.)
    private static func delays(_ delay: Double, kind: PictureDecoder.Kind?) -> [String: Any] {
        [kCGImagePropertyGIFDelayTime as String: max(kind == .png ? 0.05 : 0.1, delay), kCGImagePropertyGIFUnclampedDelayTime as String: delay]
    }

    /// The canvas of a source's pictures.
    private static func canvas(_ data: Data, kind: PictureDecoder.Kind?, sequenceSize: (width: Int, height: Int)?) -> (width: Int, height: Int)? {
        if let sequenceSize { return sequenceSize }
        if kind == .png { return PictureDecoder.size(of: data) }
        return LibvipsPictures.size(of: data).map { ($0.width, $0.height) }
    }

    /// The properties of the source as a whole: its file size, and an animation's loop count,
    /// canvas and each frame's delays.
    func containerProperties() -> [String: Any] {
        let (data, kind, pages, sequenceSize) = contents.withLock { ($0.data, $0.kind, $0.pages, $0.sequenceSize) }
        var properties: [String: Any] = [kCGImagePropertyFileSize as String: data.count]
        if let key = Self.animationDictionary(kind, animated: !pages.delays.isEmpty),
            let (width, height) = Self.canvas(data, kind: kind, sequenceSize: sequenceSize)
        {
            var animation: [String: Any] = [
                kCGImagePropertyGIFCanvasPixelWidth as String: width, kCGImagePropertyGIFCanvasPixelHeight as String: height,
                kCGImagePropertyGIFFrameInfoArray as String: pages.delays.map { Self.delays($0, kind: kind) as NSDictionary },
            ]
            if let loop = pages.loop { animation[kCGImagePropertyGIFLoopCount as String] = loop }
            if kind == .gif, let global = PictureHeaders.gifHasGlobalColorMap(data) { animation[kCGImagePropertyGIFHasGlobalColorMap as String] = global }
            properties[key as String] = animation
        }
        return properties
    }

    /// What the picture at an index's header and EXIF say, under Apple's keys; a GIF frame's delay too.
    func properties(at index: Int = 0) -> [String: Any]? {
        let (data, kind, pages) = contents.withLock { ($0.data, $0.kind, $0.pages) }
        guard kind != nil, index >= 0, index < pages.count else { return nil }
        var properties: [String: Any] = [:]
        if kind == .tiff || kind == .gif || kind == .webp {
            guard let (width, height, hasAlpha) = LibvipsPictures.size(of: data, page: index) else { return nil }
            properties[kCGImagePropertyPixelWidth] = width
            properties[kCGImagePropertyPixelHeight] = height
            properties[kCGImagePropertyHasAlpha] = hasAlpha
            if let key = Self.animationDictionary(kind, animated: true), index < pages.delays.count {
                properties[key as String] = Self.delays(pages.delays[index], kind: kind)
            }
        } else if kind == .heic, let size = contents.withLock({ $0.sequenceSize }) {
            // A frame of a HEIF image sequence.
            properties[kCGImagePropertyPixelWidth] = size.width
            properties[kCGImagePropertyPixelHeight] = size.height
            if index < pages.delays.count { properties[kCGImagePropertyHEICSDictionary as String] = Self.delays(pages.delays[index], kind: kind) }
        } else {
            guard let size = PictureDecoder.size(of: data) else { return nil }
            properties[kCGImagePropertyPixelWidth] = size.width
            properties[kCGImagePropertyPixelHeight] = size.height
            if kind == .png {
                // The file's chunks, and an animated PNG's frame delays beside them.
                let (png, dpi) = PictureHeaders.png(data)
                let delays = index < pages.delays.count ? Self.delays(pages.delays[index], kind: kind) : [:]
                properties[kCGImagePropertyPNGDictionary as String] = png.merging(delays) { $1 }
                if let dpi { (properties[kCGImagePropertyDPIWidth], properties[kCGImagePropertyDPIHeight]) = (dpi.0, dpi.1) }
            }
            if kind == .jpeg {
                let (jfif, dpi) = PictureHeaders.jfif(data)
                if let jfif { properties[kCGImagePropertyJFIFDictionary as String] = jfif }
                if let iptc = IPTCProperties.properties(ofJPEG: data) { properties[kCGImagePropertyIPTCDictionary as String] = iptc }
                if let dpi { (properties[kCGImagePropertyDPIWidth], properties[kCGImagePropertyDPIHeight]) = (dpi.0, dpi.1) }
            }
        }
        // A float TIFF's samples are 32-bit floats (libtiff gives a 16-bit float's as 32 bits too).
        let isFloat = kind == .tiff && LibvipsPictures.hasFloatSamples(data, page: index)
        properties[kCGImagePropertyDepth] = isFloat ? 32 : 8
        if isFloat { properties[kCGImagePropertyIsFloat] = true }
        properties[kCGImagePropertyColorModel] = kCGImagePropertyColorModelRGB as String
        if kind == .png { properties[kCGImagePropertyHasAlpha] = PictureDecoder.pngHasAlpha(data) }
        if kind == .heic, properties[kCGImagePropertyHEICSDictionary as String] == nil {
            properties[kCGImagePropertyHasAlpha] = PictureDecoder.heicInfo(data)?.hasAlpha ?? false
        }
        // The orientation and the TIFF, EXIF and GPS dictionaries of a JPEG's or a HEIC's EXIF.
        let exif = kind == .jpeg ? data : kind == .heic && pages.delays.isEmpty ? PictureDecoder.heicExif(data) : nil
        if let exif { properties.merge(ExifProperties.properties(fromExif: exif)) { $1 } }
        return properties
    }

    /// The transform that displays a picture of `width` x `height` stored in EXIF orientation `orientation`, in Quartz's coordinates.
    static func displayTransform(_ orientation: Int, width: CGFloat, height: CGFloat) -> CGAffineTransform {
        let (w, h) = (width, height)
        switch orientation {
        case 2: return CGAffineTransform(a: -1, b: 0, c: 0, d: 1, tx: w, ty: 0)
        case 3: return CGAffineTransform(a: -1, b: 0, c: 0, d: -1, tx: w, ty: h)
        case 4: return CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: h)
        case 5: return CGAffineTransform(a: 0, b: -1, c: -1, d: 0, tx: h, ty: w)
        case 6: return CGAffineTransform(a: 0, b: -1, c: 1, d: 0, tx: 0, ty: w)
        case 7: return CGAffineTransform(a: 0, b: 1, c: 1, d: 0, tx: 0, ty: 0)
        case 8: return CGAffineTransform(a: 0, b: 1, c: -1, d: 0, tx: h, ty: 0)
        default: return .identity
        }
    }
}

/// Whether a thumbnail is made from the full image when the file has none: always.
nonisolated(unsafe) public let kCGImageSourceCreateThumbnailFromImageAlways: CFString = "kCGImageSourceCreateThumbnailFromImageAlways"
/// Whether a thumbnail is made from the full image when the file has none.
nonisolated(unsafe) public let kCGImageSourceCreateThumbnailFromImageIfAbsent: CFString = "kCGImageSourceCreateThumbnailFromImageIfAbsent"
/// The most pixels a thumbnail's longer side has.
nonisolated(unsafe) public let kCGImageSourceThumbnailMaxPixelSize: CFString = "kCGImageSourceThumbnailMaxPixelSize"
/// Whether a thumbnail is turned and mirrored as the picture's orientation says.
nonisolated(unsafe) public let kCGImageSourceCreateThumbnailWithTransform: CFString = "kCGImageSourceCreateThumbnailWithTransform"
/// Whether decoded images are kept (images here are decoded each time they are asked for).
nonisolated(unsafe) public let kCGImageSourceShouldCache: CFString = "kCGImageSourceShouldCache"
/// Whether images are decoded when they are made rather than when drawn (they are always decoded when made here).
nonisolated(unsafe) public let kCGImageSourceShouldCacheImmediately: CFString = "kCGImageSourceShouldCacheImmediately"
/// Whether an image is returned in floating-point values when the file holds them (a float TIFF's
/// in extended linear sRGB); otherwise such a picture is given in 8-bit sRGB.
nonisolated(unsafe) public let kCGImageSourceShouldAllowFloat: CFString = "kCGImageSourceShouldAllowFloat"
/// The uniform type identifier the data is expected to be.
nonisolated(unsafe) public let kCGImageSourceTypeIdentifierHint: CFString = "kCGImageSourceTypeIdentifierHint"
/// Whether an image has transparency.
nonisolated(unsafe) public let kCGImagePropertyHasAlpha: CFString = "HasAlpha"
/// The RGB colour model's name.
nonisolated(unsafe) public let kCGImagePropertyColorModelRGB: CFString = "RGB"

/// The status of an image source, or of one of its images, as its data arrives.
public enum CGImageSourceStatus: Int32, Sendable {
    /// The end of the file came before the image's data did.
    case statusUnexpectedEOF = -5
    /// The data is not valid image data.
    case statusInvalidData = -4
    /// The data is of a type this system does not read.
    case statusUnknownType = -3
    /// The header is still being read.
    case statusReadingHeader = -2
    /// Not all of the data has arrived yet.
    case statusIncomplete = -1
    /// All of the data has arrived and been read.
    case statusComplete = 0
}

/// Creates an empty image source that you fill with data as it arrives, with `CGImageSourceUpdateData`.
public func CGImageSourceCreateIncremental(_ options: CFDictionary?) -> CGImageSource { CGImageSource() }

/// Gives an incremental source all the data received so far; `final` says it is all of it.
public func CGImageSourceUpdateData(_ isrc: CGImageSource, _ data: CFData, _ final: Bool) { isrc.update(Data(copying: data), final: final) }

/// Gives an incremental source all the data a provider holds so far; `final` says it is all of it.
public func CGImageSourceUpdateDataProvider(_ isrc: CGImageSource, _ provider: CGDataProvider, _ final: Bool) {
    if let data = provider.data { isrc.update(Data(copying: data), final: final) }
}

/// The status of the source as a whole: complete once its data is all there and its first image decodes.
public func CGImageSourceGetStatus(_ isrc: CGImageSource) -> CGImageSourceStatus { isrc.status(at: nil) }

/// The status of the image at an index: complete once it decodes.
public func CGImageSourceGetStatusAtIndex(_ isrc: CGImageSource, _ index: Int) -> CGImageSourceStatus { isrc.status(at: index) }

/// Creates an image source that reads from data; nil when the data is no picture this system reads.
public func CGImageSourceCreateWithData(_ data: CFData, _ options: CFDictionary?) -> CGImageSource? { CGImageSource(data: Data(copying: data)) }

/// Creates an image source that reads from a file; nil when it cannot be read or is no picture this system reads.
public func CGImageSourceCreateWithURL(_ url: CFURL, _ options: CFDictionary?) -> CGImageSource? {
    guard url.isFileURL, let data = try? Data(contentsOf: url as URL, options: .mappedIfSafe) else { return nil }
    return CGImageSource(data: data)
}

/// The uniform type identifier of the source's pictures.
public func CGImageSourceGetType(_ isrc: CGImageSource) -> CFString? { isrc.typeIdentifier }

/// The number of images in the source (a HEIF image sequence's frames; a still HEIC file's primary picture is its image).
public func CGImageSourceGetCount(_ isrc: CGImageSource) -> Int { isrc.pages.count }

/// The uniform type identifiers image sources read.
public func CGImageSourceCopyTypeIdentifiers() -> CFArray {
    let sequences: [String] = HEIFSequence.isAvailable ? ["public.heics"] : []
    return (["public.jpeg", "public.png", "public.heic"] + sequences + ["public.tiff", "com.compuserve.gif", "org.webmproject.webp"]) as CFArray
}

/// The properties of the source as a whole: its file size, and an animation's (GIF, WebP, APNG, HEIF image sequence) loop count, canvas size and frames' delays.
public func CGImageSourceCopyProperties(_ isrc: CGImageSource, _ options: CFDictionary?) -> CFDictionary? { isrc.containerProperties() as NSDictionary }

/// The properties of the image at an index: size, depth, colour model, orientation, and the TIFF, EXIF and GPS dictionaries.
public func CGImageSourceCopyPropertiesAtIndex(_ isrc: CGImageSource, _ index: Int, _ options: CFDictionary?) -> CFDictionary? {
    isrc.properties(at: index).map { $0 as NSDictionary }
}

/// Decodes the image at an index (an incremental source's JPEG or PNG as far as its data has
/// arrived); nil when the index is out of range or the picture is damaged.
public func CGImageSourceCreateImageAtIndex(_ isrc: CGImageSource, _ index: Int, _ options: CFDictionary?) -> CGImage? {
    let options = options?.stringKeyed ?? [:]
    let allowFloat = (options[kCGImageSourceShouldAllowFloat] as? Bool) ?? (options[kCGImageSourceShouldAllowFloat] as? NSNumber)?.boolValue ?? false
    return isrc.arrivedImage(at: index, allowFloat: allowFloat)
}

/// A thumbnail of the image at an index: made from the full picture when the options ask for it
/// (files' embedded thumbnails are not read yet, so without them there is none), no larger than
/// `kCGImageSourceThumbnailMaxPixelSize`, and upright when `kCGImageSourceCreateThumbnailWithTransform`.
public func CGImageSourceCreateThumbnailAtIndex(_ isrc: CGImageSource, _ index: Int, _ options: CFDictionary?) -> CGImage? {
    let options = options?.stringKeyed ?? [:]
    func flag(_ key: CFString) -> Bool { (options[key] as? Bool) ?? (options[key] as? NSNumber)?.boolValue ?? false }
    guard flag(kCGImageSourceCreateThumbnailFromImageAlways) || flag(kCGImageSourceCreateThumbnailFromImageIfAbsent),
        let image = isrc.decodedImage(at: index)
    else { return nil }
    let orientation = flag(kCGImageSourceCreateThumbnailWithTransform) ? isrc.orientation : 1
    let turned = orientation >= 5
    let (width, height) = turned ? (image.height, image.width) : (image.width, image.height)
    let limit = (options[kCGImageSourceThumbnailMaxPixelSize] as? Int) ?? (options[kCGImageSourceThumbnailMaxPixelSize] as? NSNumber)?.intValue ?? Int.max
    let scale = limit > 0 ? min(1, Double(limit) / Double(max(width, height))) : 1
    let (outWidth, outHeight) = (max(1, Int((Double(width) * scale).rounded())), max(1, Int((Double(height) * scale).rounded())))
    if orientation == 1, outWidth == image.width, outHeight == image.height { return image }
    let info = CGBitmapInfo.byteOrder32Little.rawValue | image.alphaInfo.rawValue
    guard
        let context = CGContext(
            data: nil, width: outWidth, height: outHeight, bitsPerComponent: 8, bytesPerRow: 0, space: image.colorSpace ?? CGColorSpaceCreateDeviceRGB(),
            bitmapInfo: info)
    else { return nil }
    context.interpolationQuality = .high
    context.scaleBy(x: CGFloat(outWidth) / CGFloat(width), y: CGFloat(outHeight) / CGFloat(height))
    context.concatenate(CGImageSource.displayTransform(orientation, width: CGFloat(image.width), height: CGFloat(image.height)))
    context.draw(image, in: CGRect(x: 0, y: 0, width: image.width, height: image.height))
    return context.makeImage()
}
