import AVFoundation
import MobileCoreServices

/// The MIME type an uploader sends a recorded file with, found as networking code written before
/// UTType finds it: the extension's type identifier, then that type's preferred MIME type, both
/// returned retained as `Unmanaged<CFString>`.
public enum UploadMIMETypes {
    /// The MIME type of the file at `path`, or "application/octet-stream".
    public static func mimeType(forPath path: String) -> String {
        let url = NSURL(fileURLWithPath: path)
        let pathExtension = url.pathExtension
        if let uti = UTTypeCreatePreferredIdentifierForTag(kUTTagClassFilenameExtension, pathExtension! as NSString, nil)?.takeRetainedValue() {
            if let mimetype = UTTypeCopyPreferredTagWithClass(uti, kUTTagClassMIMEType)?.takeRetainedValue() {
                return mimetype as String
            }
        }
        return "application/octet-stream"
    }

    /// Whether the file at `path` is a movie, as a picker's filter asks.
    public static func isMovie(_ path: String) -> Bool {
        guard
            let uti = UTTypeCreatePreferredIdentifierForTag(kUTTagClassFilenameExtension, (path as NSString).pathExtension as CFString, nil)?
                .takeRetainedValue()
        else { return false }
        return UTTypeConformsTo(uti, kUTTypeMovie)
    }
}
