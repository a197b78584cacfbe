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
    /// `fullChroma`) and the accurate DCT (or the fast one); nil when it cannot be encoded. A frame
    /// already in JPEG's samples ('f420', see `JPEGSampleConverter`) is encoded as it is.
    package func encode(_ frame: CVPixelBuffer, quality: Int32, fullChroma: Bool = false, accurateDCT: Bool = true) -> Data? {
        encode(frame, quality: quality, fullChroma: fullChroma, accurateDCT: accurateDCT) { Data($0) }
    }

    /// Encodes the frame as `encode(_:quality:fullChroma:accurateDCT:)` does and lends the JPEG's
    /// bytes to `body` (valid only during the call), so a caller copies them once, where it needs them.
    package func encode<Result>(_ frame: CVPixelBuffer, quality: Int32, fullChroma: Bool = false, accurateDCT: Bool = true,
                                _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result? {
        let planar = frame.pixelFormatType == kCVPixelFormatType_420YpCbCr8PlanarFullRange
        // JPEG's own samples are encoded as they are, in their 4:2:0.
        let subsampling = Int32(fullChroma && !planar ? TJSAMP_444.rawValue : TJSAMP_420.rawValue)
        guard let handle else { return nil }
        let source: CVPixelBuffer
        if planar { source = frame } else {
            guard let bgra = adapter.frame(frame, in: kCVPixelFormatType_32BGRA) else { return nil }
            source = bgra
        }
        let needed = Int(tjBufSize(Int32(frame.width), Int32(frame.height), subsampling))
        if needed > outputCapacity {
            if let output { tjFree(output) }
            output = tjAlloc(Int32(needed))
            outputCapacity = output == nil ? 0 : needed
        }
        guard output != nil else { return nil }
        var buffer: UnsafeMutablePointer<UInt8>? = output
        var size = UInt(outputCapacity)
        // TJFLAG_NOREALLOC: the buffer is already TurboJPEG's worst case.
        let flags = TJFLAG_NOREALLOC | (accurateDCT ? TJFLAG_ACCURATEDCT : TJFLAG_FASTDCT)
        let result: Int32
        if planar {
            let planes = source.planes
            // On the stack: three plane addresses and their strides.
            result = withUnsafeTemporaryAllocation(of: UnsafePointer<UInt8>?.self, capacity: 3) { pointers in
                withUnsafeTemporaryAllocation(of: Int32.self, capacity: 3) { strides in
                    for index in 0..<3 {
                        pointers[index] = UnsafePointer(planes[index].baseAddress.assumingMemoryBound(to: UInt8.self))
                        strides[index] = Int32(planes[index].bytesPerRow)
                    }
                    return tjCompressFromYUVPlanes(handle, pointers.baseAddress, Int32(frame.width), strides.baseAddress, Int32(frame.height),
                                                   subsampling, &buffer, &size, quality, flags)
                }
            }
        } else {
            let plane = source.planes[0]
            result = tjCompress2(handle, plane.baseAddress.assumingMemoryBound(to: UInt8.self), Int32(frame.width), Int32(plane.bytesPerRow),
                                 Int32(frame.height), Int32(TJPF_BGRA.rawValue), &buffer, &size, subsampling, quality, flags)
        }
        guard result == 0 else { return nil }
        guard let buffer else { return nil }
        return try body(UnsafeRawBufferPointer(start: buffer, count: Int(size)))
    }
}
