import CTurboJPEG
import CoreVideo
import Foundation

/// Encodes frames as JPEG with libjpeg-turbo's TurboJPEG, for photos.
///
/// A frame in another format is converted to BGRA first (in memory the encoder keeps); the
/// output buffer is TurboJPEG's worst case for the size, kept between photos of that size.
/// Thread ownership: one encoder belongs to one thread at a time.
package final class JPEGEncoder: @unchecked Sendable {
    private let handle: tjhandle?
    private let adapter = FormatAdapter()
    private var output: UnsafeMutablePointer<UInt8>?
    private var outputCapacity = 0

    package init() { handle = tjInitCompress() }

    deinit {
        if let handle { tjDestroy(handle) }
        if let output { tjFree(output) }
    }

    /// The frame as a baseline JPEG at `quality` (1...100), with 4:2:0 chroma (or 4:4:4 when
    /// `fullChroma`) and the accurate DCT (or the fast one); nil when it cannot be encoded.
    package func encode(_ frame: CVPixelBuffer, quality: Int32, fullChroma: Bool = false, accurateDCT: Bool = true) -> Data? {
        encode(frame, quality: quality, fullChroma: fullChroma, accurateDCT: accurateDCT) { Data($0) }
    }

    /// Encodes the frame as `encode(_:quality:fullChroma:accurateDCT:)` does and lends the JPEG's
    /// bytes to `body` (valid only during the call), so a caller copies them once, where it needs them.
    package func encode<Result>(_ frame: CVPixelBuffer, quality: Int32, fullChroma: Bool = false, accurateDCT: Bool = true,
                                _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result? {
        let subsampling = Int32(fullChroma ? TJSAMP_444.rawValue : TJSAMP_420.rawValue)
        guard let handle else { return nil }
        guard let source = adapter.frame(frame, in: kCVPixelFormatType_32BGRA) else { return nil }
        let needed = Int(tjBufSize(Int32(frame.width), Int32(frame.height), subsampling))
        if needed > outputCapacity {
            if let output { tjFree(output) }
            output = tjAlloc(Int32(needed))
            outputCapacity = output == nil ? 0 : needed
        }
        guard output != nil else { return nil }
        var buffer: UnsafeMutablePointer<UInt8>? = output
        var size = UInt(outputCapacity)
        let plane = source.planes[0]
        // TJFLAG_NOREALLOC: the buffer is already TurboJPEG's worst case.
        let result = tjCompress2(handle, plane.baseAddress.assumingMemoryBound(to: UInt8.self), Int32(frame.width), Int32(plane.bytesPerRow),
                                 Int32(frame.height), Int32(TJPF_BGRA.rawValue), &buffer, &size, subsampling, quality,
                                 TJFLAG_NOREALLOC | (accurateDCT ? TJFLAG_ACCURATEDCT : TJFLAG_FASTDCT))
        guard result == 0 else { return nil }
        guard let buffer else { return nil }
        return try body(UnsafeRawBufferPointer(start: buffer, count: Int(size)))
    }
}
