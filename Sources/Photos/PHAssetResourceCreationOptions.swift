import Foundation

/// Options for adding a resource to a new asset.
open class PHAssetResourceCreationOptions: NSObject, NSCopying, @unchecked Sendable {
    /// The file name for the asset resource; the library's file keeps its base name.
    open var originalFilename: String?
    /// The uniform type identifier for the resource's data.
    open var uniformTypeIdentifier: String?
    /// Whether Photos moves a file resource into the library instead of copying it.
    open var shouldMoveFile = false

    /// Creates options with no file name, no type and copying.
    public override init() { super.init() }

    /// Returns a copy of these options.
    open func copy(with zone: NSZone? = nil) -> Any {
        let copy = PHAssetResourceCreationOptions()
        copy.originalFilename = originalFilename
        copy.uniformTypeIdentifier = uniformTypeIdentifier
        copy.shouldMoveFile = shouldMoveFile
        return copy
    }
}
