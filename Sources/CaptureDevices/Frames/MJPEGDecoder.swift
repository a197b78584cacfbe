import CYUV
import CoreVideo
import Foundation

/// Decodes MJPEG frames (libjpeg-turbo, through libyuv) into frames of any pixel format the frame path carries.
///
/// Thread ownership: one decoder belongs to one thread at a time. Frames decode straight into
/// the target when it is full-range 4:2:0, and through one scratch frame, allocated once, otherwise.
package final class MJPEGDecoder: @unchecked Sendable {
    private var scratch: VideoFramePool?
    private let converter = PixelFormatConverter()

    package init() {}

    /// Decodes `count` bytes of JPEG into `target`, whose size must be the picture's; returns whether it could.
    package func decode(_ jpeg: UnsafePointer<UInt8>, count: Int, into target: CVPixelBuffer) -> Bool {
        let (width, height) = (target.width, target.height)
        var decoded = target
        if target.pixelFormatType != kCVPixelFormatType_420YpCbCr8BiPlanarFullRange {
            if scratch == nil || scratch?.width != width || scratch?.height != height {
                scratch = VideoFramePool(width: width, height: height, pixelFormat: kCVPixelFormatType_420YpCbCr8BiPlanarFullRange, capacity: 1)
            }
            guard let (frame, _) = scratch?.dequeue() else { return false }
            decoded = frame
        }
        let planes = decoded.planes
        let result = MJPGToNV12(jpeg, count, planes[0].baseAddress.assumingMemoryBound(to: UInt8.self), Int32(planes[0].bytesPerRow),
                                planes[1].baseAddress.assumingMemoryBound(to: UInt8.self), Int32(planes[1].bytesPerRow),
                                Int32(width), Int32(height), Int32(width), Int32(height))
        guard result == 0 else { return false }
        return decoded === target || converter.convert(decoded, into: target)
    }
}
