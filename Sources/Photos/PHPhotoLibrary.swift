import Foundation

/// An object that manages access and changes to the user's photo library.
///
/// On Linux the library is the user's XDG folders: photos go into the Pictures folder and
/// movies into the Videos folder (see `UserFolders`), each asset's files under one base name that
/// no file there has yet, with the bytes exactly as given. A change block's assets are written
/// all or none. Change blocks and completion handlers run on a serial queue of the library's own.
open class PHPhotoLibrary: NSObject, @unchecked Sendable {
    private static let sharedLibrary = PHPhotoLibrary()
    private let queue = DispatchQueue(label: "PHPhotoLibrary")
    private static let changeKey = DispatchSpecificKey<Change>()

    /// The requests one change block makes.
    final class Change: @unchecked Sendable {
        private(set) var requests: [PHAssetChangeRequest] = []
        private(set) var albumRequests: [PHAssetCollectionChangeRequest] = []
        func add(_ request: PHAssetChangeRequest) { requests.append(request) }
        func add(_ request: PHAssetCollectionChangeRequest) { albumRequests.append(request) }
    }

    /// The change block running now on the library's queue, if the caller is in one.
    static var currentChange: Change? { DispatchQueue.getSpecific(key: changeKey) }

    override init() { super.init() }

    /// Returns the shared photo library object.
    open class func shared() -> PHPhotoLibrary { sharedLibrary }

    // MARK: Authorization

    /// Returns the app's authorization to access the photo library: the user's own folders need no grant.
    open class func authorizationStatus() -> PHAuthorizationStatus { .authorized }

    /// Returns the app's authorization to access the photo library at `accessLevel`.
    open class func authorizationStatus(for accessLevel: PHAccessLevel) -> PHAuthorizationStatus { .authorized }

    /// Requests the user's permission to access the photo library, calling `handler` with the result on another queue.
    open class func requestAuthorization(_ handler: @escaping @Sendable (PHAuthorizationStatus) -> Void) {
        DispatchQueue.global().async { handler(authorizationStatus()) }
    }

    /// Requests permission at `accessLevel`, calling `handler` with the result on another queue.
    open class func requestAuthorization(for accessLevel: PHAccessLevel, handler: @escaping @Sendable (PHAuthorizationStatus) -> Void) {
        DispatchQueue.global().async { handler(authorizationStatus(for: accessLevel)) }
    }

    /// Requests permission at `accessLevel` and returns the result.
    open class func requestAuthorization(for accessLevel: PHAccessLevel) async -> PHAuthorizationStatus {
        authorizationStatus(for: accessLevel)
    }

    // MARK: Changes

    /// Asynchronously runs a block that requests changes to the photo library, then calls `completionHandler`.
    open func performChanges(_ changeBlock: @escaping () -> Void, completionHandler: (@Sendable (Bool, (any Error)?) -> Void)? = nil) {
        let block = UncheckedBlock(body: changeBlock)
        queue.async { [self] in
            let error = run(block.body)
            completionHandler?(error == nil, error)
        }
    }

    /// Runs a block that requests changes to the photo library and waits until they are made.
    open func performChangesAndWait(_ changeBlock: @escaping () -> Void) throws {
        let block = UncheckedBlock(body: changeBlock)
        if let error = queue.sync(execute: { run(block.body) }) { throw error }
    }

    /// Runs a block that requests changes to the photo library, returning when they are made.
    open func performChanges(_ changeBlock: @escaping () -> Void) async throws {
        let block = UncheckedBlock(body: changeBlock)
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            queue.async { [self] in
                if let error = run(block.body) { continuation.resume(throwing: error) } else { continuation.resume() }
            }
        }
    }

    /// Runs `changeBlock` on the library's queue and writes the assets it asked for; the error, or nil.
    private func run(_ changeBlock: () -> Void) -> (any Error)? {
        let change = Change()
        queue.setSpecific(key: Self.changeKey, value: change)
        changeBlock()
        queue.setSpecific(key: Self.changeKey, value: nil)
        do {
            try LibraryWriter(folders: UserFolders.current()).write(change.requests, albums: change.albumRequests)
            return nil
        } catch {
            return error
        }
    }
}

/// A change block handed to the library's queue, which runs it once.
private struct UncheckedBlock: @unchecked Sendable {
    let body: () -> Void
}
