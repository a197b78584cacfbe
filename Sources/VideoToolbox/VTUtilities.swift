import CoreGraphics
import CoreMedia
import CoreVideo
import FrameProcessing

/// Creates an image from a pixel buffer: a BGRA buffer is read where it is (the image keeps the
/// buffer), other formats are converted to BGRA first (libyuv).
@discardableResult
public func VTCreateCGImageFromCVPixelBuffer(_ pixelBuffer: CVPixelBuffer, options: CFDictionary?, imageOut: UnsafeMutablePointer<CGImage?>) -> OSStatus {
    var bgra = pixelBuffer
    if pixelBuffer.pixelFormatType != kCVPixelFormatType_32BGRA {
        guard PixelFormatConverter.supportedFormats.contains(pixelBuffer.pixelFormatType),
            let converted = CVPixelBuffer(width: pixelBuffer.width, height: pixelBuffer.height, pixelFormatType: kCVPixelFormatType_32BGRA),
            PixelFormatConverter().convert(pixelBuffer, into: converted)
        else {
            imageOut.pointee = nil
            return kVTPixelTransferNotSupportedErr
        }
        bgra = converted
    }
    guard let image = bgra.bgraImage(opaque: true) else {
        imageOut.pointee = nil
        return kVTAllocationFailedErr
    }
    imageOut.pointee = image
    return noErr
}

/// Whether the system has a hardware decoder for the codec: none is used here, so false.
public func VTIsHardwareDecodeSupported(_ codecType: CMVideoCodecType) -> Bool { false }
