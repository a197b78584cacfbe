import CJPEGCodec
import CYUV
import CoreVideo
import Foundation

/// Puts Y'CbCr frames into the samples a JPEG stores, full-range planar 4:2:0 ('f420'), with no
/// trip through R'G'B'.
///
/// JPEG (JFIF) stores BT.601 Y'CbCr at full range; a camera's 4:2:2 or 4:2:0 frame with the
/// BT.601 matrix only needs its planes split out (libyuv) and, at video range, its levels
/// stretched (luma 16...235 and chroma 16...240 to 0...255, a table lookup in libyuv). A two-plane
/// 4:2:0 frame with the BT.709 matrix (most HD video) has its samples turned by a 3x3 matrix into
/// JPEG's in one step (`CJPEGSamples.h`): its chroma where it stands, since grey stays grey. Other
/// frames with BT.709, and R'G'B' ones, are not taken: they go through BGRA. Frames come from a
/// small pool, and nothing else is allocated per frame. Thread ownership: one converter belongs to
/// one thread at a time.
package final class JPEGSampleConverter: @unchecked Sendable {
    /// The most converted frames a consumer may hold at once.
    package static let poolSize = 4
    private var pool: CVPixelBufferPool?

    /// Lookup tables, four bytes to an entry (libyuv's colour tables work on 4-byte pixels): video-range luma and chroma to full range.
    private static let lumaTable: [UInt8] = table { ($0 - 16) * 255 / 219 }
    private static let chromaTable: [UInt8] = table { ($0 - 128) * 255 / 224 + 128 }

    private static func table(_ map: (Double) -> Double) -> [UInt8] {
        (0..<256).flatMap { value -> [UInt8] in
            let mapped = UInt8(max(0, min(255, map(Double(value)).rounded())))
            return [mapped, mapped, mapped, mapped]
        }
    }

    package init() {}

    /// The formats taken: 4:2:2 and 4:2:0 Y'CbCr.
    private static let formats: Set<OSType> = [
        kCVPixelFormatType_422YpCbCr8_yuvs, kCVPixelFormatType_422YpCbCr8, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange,
        kCVPixelFormatType_420YpCbCr8BiPlanarFullRange, kCVPixelFormatType_420YpCbCr8Planar, kCVPixelFormatType_420YpCbCr8PlanarFullRange,
    ]

    /// Whether a frame can become JPEG's samples without R'G'B': 4:2:2 or 4:2:0 Y'CbCr with the
    /// BT.601 matrix, or two-plane 4:2:0 with BT.709.
    package static func accepts(_ frame: CVPixelBuffer) -> Bool {
        guard formats.contains(frame.pixelFormatType), frame.width >= 2, frame.height >= 2 else { return false }
        return VideoColorimetry.matrix(of: frame) == .bt601 || matrix(of: frame) != nil
    }

    /// JPEG's samples from BT.709 two-plane 4:2:0, at video range and at full range.
    private static let bt709Matrices: (video: cje_jfif_matrix, full: cje_jfif_matrix) = {
        var video = cje_jfif_matrix(), full = cje_jfif_matrix()
        cje_jfif_matrix_make(&video, 0.2126, 0.0722, 1)
        cje_jfif_matrix_make(&full, 0.2126, 0.0722, 0)
        return (video, full)
    }()

    /// The matrix that turns a two-plane 4:2:0 BT.709 frame's samples into JPEG's; nil for any other frame.
    static func matrix(of frame: CVPixelBuffer) -> cje_jfif_matrix? {
        guard VideoColorimetry.matrix(of: frame) == .bt709 else { return nil }
        switch frame.pixelFormatType {
        case kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange: return bt709Matrices.video
        case kCVPixelFormatType_420YpCbCr8BiPlanarFullRange: return bt709Matrices.full
        default: return nil
        }
    }

    /// The frame as full-range planar 4:2:0 of the same size, or nil when it is not one `accepts(_:)` takes.
    package func convert(_ frame: CVPixelBuffer) -> CVPixelBuffer? {
        guard Self.accepts(frame) else { return nil }
        let (width, height) = (frame.width & ~1, frame.height & ~1)
        if pool?.width != width || pool?.height != height {
            pool = CVPixelBufferPool(
                width: width, height: height, pixelFormatType: kCVPixelFormatType_420YpCbCr8PlanarFullRange,
                maximumBufferCount: Self.poolSize)
        }
        guard let converted = pool?.dequeue() else { return nil }
        let s = frame.planes, d = converted.planes
        func p(_ plane: CVPixelBuffer.Plane) -> UnsafeMutablePointer<UInt8> { plane.baseAddress.assumingMemoryBound(to: UInt8.self) }
        func r(_ plane: CVPixelBuffer.Plane) -> Int32 { Int32(plane.bytesPerRow) }
        let (w, h) = (Int32(width), Int32(height))
        if var matrix = Self.matrix(of: frame) {
            let status = cje_nv12_to_jfif(
                &matrix, p(s[0]), r(s[0]), p(s[1]), r(s[1]), p(d[0]), r(d[0]), p(d[1]), r(d[1]), p(d[2]), r(d[2]), w, h)
            guard status == 0 else { return nil }
            VideoColorimetry.copy(from: frame, to: converted, matrix: .bt601)
            return converted
        }
        let status: Int32 =
            switch frame.pixelFormatType {
            case kCVPixelFormatType_422YpCbCr8_yuvs: YUY2ToI420(p(s[0]), r(s[0]), p(d[0]), r(d[0]), p(d[1]), r(d[1]), p(d[2]), r(d[2]), w, h)
            case kCVPixelFormatType_422YpCbCr8: UYVYToI420(p(s[0]), r(s[0]), p(d[0]), r(d[0]), p(d[1]), r(d[1]), p(d[2]), r(d[2]), w, h)
            case kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange:
                NV12ToI420(p(s[0]), r(s[0]), p(s[1]), r(s[1]), p(d[0]), r(d[0]), p(d[1]), r(d[1]), p(d[2]), r(d[2]), w, h)
            default: I420Copy(p(s[0]), r(s[0]), p(s[1]), r(s[1]), p(s[2]), r(s[2]), p(d[0]), r(d[0]), p(d[1]), r(d[1]), p(d[2]), r(d[2]), w, h)
            }
        guard status == 0 else { return nil }
        if !(PixelFormatDescription.of(frame.pixelFormatType)?.isFullRange ?? false) {
            Self.stretch(d[0], width: width, height: height, table: Self.lumaTable)
            Self.stretch(d[1], width: width / 2, height: height / 2, table: Self.chromaTable)
            Self.stretch(d[2], width: width / 2, height: height / 2, table: Self.chromaTable)
        }
        VideoColorimetry.copy(from: frame, to: converted)
        return converted
    }

    /// Maps every sample of a plane through a table: four at a time as libyuv's colour table does
    /// for pixels, the last few of a row one by one.
    private static func stretch(_ plane: CVPixelBuffer.Plane, width: Int, height: Int, table: [UInt8]) {
        let base = plane.baseAddress.assumingMemoryBound(to: UInt8.self)
        table.withUnsafeBufferPointer { table in
            let groups = width / 4
            if groups > 0 {
                _ = ARGBColorTable(base, Int32(plane.bytesPerRow), table.baseAddress, 0, 0, Int32(groups), Int32(height))
            }
            guard width % 4 != 0 else { return }
            for row in 0..<height {
                let line = base + row * plane.bytesPerRow
                for column in (groups * 4)..<width { line[column] = table[Int(line[column]) * 4] }
            }
        }
    }
}
