import CMediaCodecs
@_spi(Plumbing) import CoreVideo
import Foundation

/// Converts frames tagged with other colour primaries or another transfer function than a
/// stream's into the stream's colour, as Apple's writer matches frames to the colour its output
/// settings name: FFmpeg's zscale filter (the zimg library) turns each frame through linear light
/// from its primaries, transfer function, matrix and range into the stream's, in the stream's
/// depth. Frames that carry no colour tags are taken to be in the stream's colour already.
///
/// Thread ownership: owned by one encoder, on its writer thread.
final class ColourMatching {
    /// A colour in FFmpeg's terms (AVCOL_PRI_*, AVCOL_TRC_*, AVCOL_SPC_*) and range.
    struct Colour: Equatable {
        var primaries: Int32
        var transfer: Int32
        var matrix: Int32
        var fullRange: Bool
    }

    private let stream: Colour
    /// The stream's tags, as the converted frames carry them.
    private let tags: [(key: NSString, value: NSString)]
    private let tenBit: Bool
    /// The graph for the last source colour, format and size seen.
    private var filter: OpaquePointer?
    private var filterSource: (colour: Colour, format: OSType, width: Int, height: Int)?
    private var pool: CVPixelBufferPool?

    /// A matcher into a stream of `colour` (in FFmpeg's terms), tagged with `tags`, 10-bit or 8-bit.
    init(stream colour: Colour, tags: [(key: NSString, value: NSString)], tenBit: Bool) {
        stream = colour
        self.tags = tags
        self.tenBit = tenBit
    }

    deinit { cmc_video_filter_free(filter) }

    /// The last frame's colour tags (the objects themselves) and what they named, so that a stream
    /// of frames tagged alike is looked up once rather than each frame.
    private var lastTags: (primaries: AnyObject?, transfer: AnyObject?, matrix: AnyObject?, codes: (Int32, Int32, Int32)?)?

    /// A frame's primaries, transfer function and matrix in FFmpeg's terms, looked up again only when its tags change.
    private func codes(of frame: CVPixelBuffer) -> (primaries: Int32, transfer: Int32, matrix: Int32)? {
        let storage = frame._attachmentStorage
        let tags = (
            storage.get(kCVImageBufferColorPrimariesKey)?.0, storage.get(kCVImageBufferTransferFunctionKey)?.0, storage.get(kCVImageBufferYCbCrMatrixKey)?.0
        )
        if let last = lastTags, last.primaries === tags.0, last.transfer === tags.1, last.matrix === tags.2 { return last.codes }
        var codes: (Int32, Int32, Int32)?
        if let primaries = (tags.0 as? NSString).flatMap({ MovieEncoder.primaries[String($0)] }),
            let transfer = (tags.1 as? NSString).flatMap({ MovieEncoder.transferFunctions[String($0)] })
        {
            codes = (primaries, transfer, (tags.2 as? NSString).flatMap { MovieEncoder.matrices[String($0)] } ?? 6)
        }
        lastTags = (tags.0, tags.1, tags.2, codes)
        return codes
    }

    /// The colour a frame is tagged with, or nil when it carries no primaries and transfer function FFmpeg knows.
    private func colour(of frame: CVPixelBuffer) -> Colour? {
        guard let (primaries, transfer, matrix) = codes(of: frame) else { return nil }
        switch frame.pixelFormatType {
        case kCVPixelFormatType_32BGRA:
            return Colour(primaries: primaries, transfer: transfer, matrix: 0, fullRange: true)
        case kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange,
            kCVPixelFormatType_420YpCbCr10BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr10BiPlanarFullRange:
            let full =
                frame.pixelFormatType == kCVPixelFormatType_420YpCbCr8BiPlanarFullRange
                || frame.pixelFormatType == kCVPixelFormatType_420YpCbCr10BiPlanarFullRange
            return Colour(primaries: primaries, transfer: transfer, matrix: matrix, fullRange: full)
        default:
            return nil
        }
    }

    /// FFmpeg's picture kind (CMC_INPUT_*) for a pixel format.
    private static func kind(_ format: OSType) -> Int32? {
        switch format {
        case kCVPixelFormatType_32BGRA: return Int32(CMC_INPUT_BGRA)
        case kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange: return Int32(CMC_INPUT_NV12)
        case kCVPixelFormatType_420YpCbCr10BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr10BiPlanarFullRange: return Int32(CMC_INPUT_P010)
        default: return nil
        }
    }

    /// The frame in the stream's colour and depth, or nil when it is in it already (or untagged).
    func matched(_ frame: CVPixelBuffer) throws(MovieEncoderError) -> CVPixelBuffer? {
        guard let source = colour(of: frame), source.primaries != stream.primaries || source.transfer != stream.transfer,
            let input = Self.kind(frame.pixelFormatType)
        else { return nil }
        let (width, height) = (frame.width, frame.height)
        let output: OSType =
            tenBit
            ? (stream.fullRange ? kCVPixelFormatType_420YpCbCr10BiPlanarFullRange : kCVPixelFormatType_420YpCbCr10BiPlanarVideoRange)
            : (stream.fullRange ? kCVPixelFormatType_420YpCbCr8BiPlanarFullRange : kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange)
        if filter == nil || filterSource?.colour != source || filterSource?.format != frame.pixelFormatType || filterSource?.width != width
            || filterSource?.height != height
        {
            cmc_video_filter_free(filter)
            filter = nil
            func range(_ full: Bool) -> String { full ? "full" : "limited" }
            let description =
                "[in]zscale=pin=\(source.primaries):tin=\(source.transfer):min=\(source.matrix):rin=\(range(source.fullRange))"
                + ":p=\(stream.primaries):t=\(stream.transfer):m=\(stream.matrix):r=\(range(stream.fullRange))[out]"
            var error: Int32 = 0
            filter = cmc_video_filter_open(description, Int32(width), Int32(height), input, Int32(tenBit ? CMC_INPUT_P010 : CMC_INPUT_NV12), &error)
            guard filter != nil else { throw .failed(code: error, message: "frames in another colour could not be converted to the movie's") }
            filterSource = (source, frame.pixelFormatType, width, height)
            pool = CVPixelBufferPool(width: width, height: height, pixelFormatType: output, maximumBufferCount: 3)
        }
        guard let filter, let made = pool?.dequeue() else { throw .failed(code: -12, message: "no buffer to convert a frame's colour into") }
        let from = frame.planes, to = made.planes
        let inputPlanes: [UnsafePointer<UInt8>?] = from.map { UnsafePointer($0.baseAddress.assumingMemoryBound(to: UInt8.self)) }
        let outputPlanes: [UnsafeMutablePointer<UInt8>?] = to.map { $0.baseAddress.assumingMemoryBound(to: UInt8.self) }
        let inputStrides = from.map { Int32($0.bytesPerRow) }, outputStrides = to.map { Int32($0.bytesPerRow) }
        let result = cmc_video_filter_run(filter, inputPlanes, inputStrides, outputPlanes, outputStrides)
        guard result >= 0 else { throw .failed(code: result, message: "a frame's colour could not be converted to the movie's") }
        for (key, value) in tags { made._attachmentStorage.set(key, value, mode: CVAttachmentMode.shouldPropagate.rawValue) }
        return made
    }
}
