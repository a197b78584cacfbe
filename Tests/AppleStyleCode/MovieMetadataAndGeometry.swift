import AVFoundation

/// The location item iOS apps attach to a recording, written as they write it.
public func locationMetadataItem(latitude: Double, longitude: Double) -> AVMutableMetadataItem {
    let item = AVMutableMetadataItem()
    item.keySpace = AVMetadataKeySpace.common
    item.key = AVMetadataKey.commonKeyLocation as NSString
    item.value = String(format: "%+08.4lf%+09.4lf/", latitude, longitude) as NSString
    return item
}

/// The transform that shows a landscape `size` upright in portrait, as writers set it on their video input.
public func portraitTransform(for size: CGSize) -> CGAffineTransform {
    CGAffineTransform(translationX: size.height, y: 0).rotated(by: .pi / 2)
}

/// The horizontal field of view that a zoom factor leaves, from the format's own, in degrees.
public func zoomedFieldOfView(_ fieldOfView: Float, zoomFactor: CGFloat) -> CGFloat {
    let half = CGFloat(fieldOfView) * .pi / 360
    return 2 * atan(tan(half) / zoomFactor) * 180 / .pi
}

/// Presets and media types as the strings some apps keep in their settings.
public func storedSettings() -> [String: NSString] {
    [
        "preset": AVCaptureSession.Preset.hd1280x720 as NSString, "media": AVMediaType.video as NSString,
        "fileType": AVFileType.mov as NSString, "codec": AVVideoCodecType.h264 as NSString,
    ]
}

/// A temporary movie location, as apps make one.
public func temporaryMovieURL(named name: String) -> URL {
    URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(name).appendingPathExtension("mov")
}

/// Logs as apps log.
public func logCapture(_ message: String, duration: TimeInterval) {
    NSLog("%@ after %.2f s", message, duration)
}
