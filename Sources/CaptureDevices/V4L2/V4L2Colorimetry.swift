import CV4L2
import CoreVideo

extension VideoColorimetry {
    /// The colour a V4L2 driver says its frames are in (its format's colorspace and Y'CbCr
    /// encoding, the defaults resolved as the V4L2 specification resolves them); video's
    /// convention for the size when the driver leaves the colorspace to its default.
    ///
    /// Most webcams report sRGB, whose Y'CbCr encoding is BT.601 at every size, which is what
    /// vivid reports too; taking HD frames for BT.709 instead shifts their hues.
    static func v4l2(colorspace: UInt32, ycbcrEncoding: UInt32, width: Int, height: Int) -> VideoColorimetry {
        let standard = VideoColorimetry.standard(width: width, height: height)
        guard colorspace != V4L2_COLORSPACE_DEFAULT.rawValue else { return standard }
        var colour = VideoColorimetry.hd
        switch colorspace {
        case V4L2_COLORSPACE_SMPTE170M.rawValue, V4L2_COLORSPACE_470_SYSTEM_M.rawValue:
            colour.primaries = kCVImageBufferColorPrimaries_SMPTE_C as String
        case V4L2_COLORSPACE_470_SYSTEM_BG.rawValue:
            colour.primaries = kCVImageBufferColorPrimaries_EBU_3213 as String
        case V4L2_COLORSPACE_BT2020.rawValue:
            colour.primaries = kCVImageBufferColorPrimaries_ITU_R_2020 as String
            colour.transferFunction = kCVImageBufferTransferFunction_ITU_R_2020 as String
        case V4L2_COLORSPACE_DCI_P3.rawValue:
            colour.primaries = kCVImageBufferColorPrimaries_P3_D65 as String
        case V4L2_COLORSPACE_SRGB.rawValue, V4L2_COLORSPACE_JPEG.rawValue:
            colour.transferFunction = kCVImageBufferTransferFunction_sRGB as String
        default:
            break
        }
        switch ycbcrEncoding {
        case V4L2_YCBCR_ENC_601.rawValue, V4L2_YCBCR_ENC_XV601.rawValue:
            colour.matrix = .bt601
        case V4L2_YCBCR_ENC_709.rawValue, V4L2_YCBCR_ENC_XV709.rawValue:
            colour.matrix = .bt709
        case V4L2_YCBCR_ENC_DEFAULT.rawValue:
            // The specification's default: BT.709 for Rec. 709 and DCI-P3 (and, nearest of the
            // two matrices frames carry here, BT.2020), BT.601 for every other colorspace.
            let wide = [V4L2_COLORSPACE_REC709.rawValue, V4L2_COLORSPACE_DCI_P3.rawValue, V4L2_COLORSPACE_BT2020.rawValue]
            colour.matrix = wide.contains(colorspace) ? .bt709 : .bt601
        default:
            colour.matrix = standard.matrix
        }
        return colour
    }
}
