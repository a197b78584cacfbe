import CV4L2
import CoreVideo
import Foundation
import FrameProcessing

/// An open V4L2 device node and the queries the backend makes of it. Not thread-safe.
final class V4L2Node {
    let path: String
    let fd: Int32

    /// Opens a node; the error is the negated errno.
    init(path: String) throws(V4L2Error) {
        let fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw V4L2Error(errno: errno, call: "open \(path)") }
        self.path = path
        self.fd = fd
    }

    deinit { close(fd) }

    /// Calls an ioctl; throws the negated errno.
    func ioctl<T>(_ request: UInt, _ argument: inout T, _ name: String) throws(V4L2Error) {
        let result = withUnsafeMutablePointer(to: &argument) { cv4l2_ioctl(fd, request, $0) }
        if result < 0 { throw V4L2Error(errno: -result, call: name) }
    }

    struct Capability {
        var driver: String
        var card: String
        var busInfo: String
        var deviceCaps: UInt32
        var isVideoCapture: Bool { deviceCaps & UInt32(V4L2_CAP_VIDEO_CAPTURE) != 0 && deviceCaps & UInt32(V4L2_CAP_STREAMING) != 0 }
    }

    func capability() throws(V4L2Error) -> Capability {
        var cap = v4l2_capability()
        try ioctl(cv4l2_querycap(), &cap, "VIDIOC_QUERYCAP")
        let caps = cap.capabilities & UInt32(V4L2_CAP_DEVICE_CAPS) != 0 ? cap.device_caps : cap.capabilities
        return Capability(driver: Self.string(cap.driver), card: Self.string(cap.card), busInfo: Self.string(cap.bus_info), deviceCaps: caps)
    }

    /// Every capture format, size and frame rate the driver lists.
    func formats() -> [CaptureVideoFormat] {
        var result: [CaptureVideoFormat] = []
        for fourcc in pixelFormats() {
            guard let mapping = V4L2PixelFormat(fourcc: fourcc) else { continue }
            for (width, height) in frameSizes(fourcc) {
                let rates = frameRates(fourcc, width: width, height: height)
                guard !rates.isEmpty else { continue }
                result.append(
                    CaptureVideoFormat(
                        width: width, height: height, pixelFormat: mapping.delivered, frameRateRanges: rates, fieldOfView: 60, isBinned: false,
                        supportsStabilization: false, maxZoomFactor: DigitalZoom.maxFactor, zoomUpscaleThreshold: 1, minISO: 100, maxISO: 1600,
                        exposureDurationRange: (1.0 / 10000)...(1.0 / max(1, rates.map(\.lowerBound).min() ?? 1)),
                        sourceCode: fourcc, mediaSubType: mapping.mediaSubType))
            }
        }
        return result
    }

    func pixelFormats() -> [UInt32] {
        var codes: [UInt32] = []
        var index: UInt32 = 0
        while true {
            var desc = v4l2_fmtdesc()
            desc.index = index
            desc.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            guard (try? ioctl(cv4l2_enum_fmt(), &desc, "VIDIOC_ENUM_FMT")) != nil else { break }
            codes.append(desc.pixelformat)
            index += 1
        }
        return codes
    }

    func frameSizes(_ fourcc: UInt32) -> [(Int, Int)] {
        var sizes: [(Int, Int)] = []
        var index: UInt32 = 0
        while true {
            var size = v4l2_frmsizeenum()
            size.index = index
            size.pixel_format = fourcc
            guard (try? ioctl(cv4l2_enum_framesizes(), &size, "VIDIOC_ENUM_FRAMESIZES")) != nil else { break }
            if size.type == V4L2_FRMSIZE_TYPE_DISCRETE.rawValue {
                sizes.append((Int(size.discrete.width), Int(size.discrete.height)))
            } else {
                // Stepwise or continuous: offer the common sizes within the range.
                let s = size.stepwise
                for (w, h) in [(320, 240), (640, 480), (1280, 720), (1920, 1080), (3840, 2160)]
                where w >= s.min_width && w <= s.max_width && h >= s.min_height && h <= s.max_height
                    && (w - Int(s.min_width)) % max(1, Int(s.step_width)) == 0 && (h - Int(s.min_height)) % max(1, Int(s.step_height)) == 0
                {
                    sizes.append((w, h))
                }
                break
            }
            index += 1
        }
        return sizes
    }

    func frameRates(_ fourcc: UInt32, width: Int, height: Int) -> [ClosedRange<Double>] {
        var rates: [ClosedRange<Double>] = []
        var index: UInt32 = 0
        while true {
            var interval = v4l2_frmivalenum()
            interval.index = index
            interval.pixel_format = fourcc
            interval.width = UInt32(width)
            interval.height = UInt32(height)
            guard (try? ioctl(cv4l2_enum_frameintervals(), &interval, "VIDIOC_ENUM_FRAMEINTERVALS")) != nil else { break }
            if interval.type == V4L2_FRMIVAL_TYPE_DISCRETE.rawValue {
                let d = interval.discrete
                if d.numerator > 0 { let fps = Double(d.denominator) / Double(d.numerator); rates.append(fps...fps) }
            } else {
                let s = interval.stepwise
                if s.min.numerator > 0, s.max.numerator > 0 {
                    rates.append((Double(s.max.denominator) / Double(s.max.numerator))...(Double(s.min.denominator) / Double(s.min.numerator)))
                }
                break
            }
            index += 1
        }
        // Merge identical rates; keep highest first as the driver listed them.
        var merged: [ClosedRange<Double>] = []
        for rate in rates where !merged.contains(rate) { merged.append(rate) }
        return merged
    }

    /// Every control the driver has, in the driver's order.
    func controls() -> [V4L2Control] {
        var controls: [V4L2Control] = []
        var query = v4l2_query_ext_ctrl()
        query.id = cv4l2_ctrl_flag_next()
        while (try? ioctl(cv4l2_query_ext_ctrl(), &query, "VIDIOC_QUERY_EXT_CTRL")) != nil {
            let type = query.type
            if query.flags & UInt32(V4L2_CTRL_FLAG_DISABLED) == 0, type != V4L2_CTRL_TYPE_CTRL_CLASS.rawValue {
                var menu: [Int64: String] = [:]
                if type == V4L2_CTRL_TYPE_MENU.rawValue {
                    var item = query.minimum
                    while item <= query.maximum {
                        var entry = v4l2_querymenu()
                        entry.id = query.id
                        entry.index = UInt32(item)
                        if (try? ioctl(cv4l2_querymenu(), &entry, "VIDIOC_QUERYMENU")) != nil { menu[item] = Self.string(entry.name) }
                        item += 1
                    }
                }
                controls.append(
                    V4L2Control(
                        id: query.id, name: Self.string(query.name), type: type, minimum: query.minimum, maximum: query.maximum,
                        step: Int64(query.step), defaultValue: query.default_value, menu: menu,
                        isReadOnly: query.flags & UInt32(V4L2_CTRL_FLAG_READ_ONLY) != 0))
            }
            query.id |= cv4l2_ctrl_flag_next()
        }
        return controls
    }

    func value(of id: UInt32) throws(V4L2Error) -> Int32 {
        var control = v4l2_control(id: id, value: 0)
        try ioctl(cv4l2_g_ctrl(), &control, "VIDIOC_G_CTRL")
        return control.value
    }

    func setValue(_ value: Int32, of id: UInt32) throws(V4L2Error) {
        var control = v4l2_control(id: id, value: value)
        try ioctl(cv4l2_s_ctrl(), &control, "VIDIOC_S_CTRL")
    }

    static func string<T>(_ tuple: T) -> String {
        withUnsafeBytes(of: tuple) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}

/// A failed V4L2 call.
struct V4L2Error: Error, CustomStringConvertible {
    let errno: Int32
    let call: String
    var description: String { "\(call): \(String(cString: strerror(errno)))" }

    /// The backend error this failure means.
    var backendError: CaptureBackendError {
        switch errno {
        case EBUSY: return .inUse
        case EACCES, EPERM: return .notAuthorized
        case ENODEV, ENOENT, ENXIO: return .notConnected
        default: return .unsupportedConfiguration(description)
        }
    }
}

/// One V4L2 control, as the driver describes it.
package struct V4L2Control: Sendable, Equatable {
    package var id: UInt32
    package var name: String
    package var type: UInt32
    package var minimum: Int64
    package var maximum: Int64
    package var step: Int64
    package var defaultValue: Int64
    package var menu: [Int64: String]
    package var isReadOnly: Bool
    /// Whether the control is a button: setting it performs an action.
    package var isButton: Bool { type == V4L2_CTRL_TYPE_BUTTON.rawValue }
}

/// How a V4L2 pixel format is delivered.
struct V4L2PixelFormat {
    /// The pixel format frames are delivered in without conversion, or after decoding.
    let delivered: OSType
    /// The media subtype the device format reports.
    let mediaSubType: FourCharCode
    let isCompressed: Bool

    init?(fourcc: UInt32) {
        switch fourcc {
        case cv4l2_fourcc(89, 85, 89, 86):  // YUYV
            (delivered, mediaSubType, isCompressed) = (kCVPixelFormatType_422YpCbCr8_yuvs, kCVPixelFormatType_422YpCbCr8_yuvs, false)
        case cv4l2_fourcc(85, 89, 86, 89):  // UYVY
            (delivered, mediaSubType, isCompressed) = (kCVPixelFormatType_422YpCbCr8, kCVPixelFormatType_422YpCbCr8, false)
        case cv4l2_fourcc(78, 86, 49, 50):  // NV12
            (delivered, mediaSubType, isCompressed) = (kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, false)
        case cv4l2_fourcc(80, 48, 49, 48):  // P010: 10-bit NV12, as 'x420'
            (delivered, mediaSubType, isCompressed) = (
                kCVPixelFormatType_420YpCbCr10BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr10BiPlanarVideoRange, false
            )
        case cv4l2_fourcc(88, 82, 50, 52), cv4l2_fourcc(65, 82, 50, 52):  // XR24, AR24: B G R X in memory
            (delivered, mediaSubType, isCompressed) = (kCVPixelFormatType_32BGRA, kCVPixelFormatType_32BGRA, false)
        case cv4l2_fourcc(82, 71, 66, 51):  // RGB3: R G B in memory
            (delivered, mediaSubType, isCompressed) = (kCVPixelFormatType_24RGB, kCVPixelFormatType_24RGB, false)
        case cv4l2_fourcc(77, 74, 80, 71), cv4l2_fourcc(74, 80, 69, 71):  // MJPG, JPEG: decoded to full-range 4:2:0
            (delivered, mediaSubType, isCompressed) = (kCVPixelFormatType_420YpCbCr8BiPlanarFullRange, 0x646D_6231, true)  // 'dmb1'
        default:
            return nil
        }
    }
}
