import Foundation

/// The tag class of filename extensions, such as "jpg".
nonisolated(unsafe) public let kUTTagClassFilenameExtension: CFString = "public.filename-extension"
/// The tag class of MIME types, such as "image/jpeg".
nonisolated(unsafe) public let kUTTagClassMIMEType: CFString = "public.mime-type"
