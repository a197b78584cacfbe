import Foundation

/// The error domain of the errors the Photos framework reports.
public let PHPhotosErrorDomain = "PHPhotosErrorDomain"

/// An error the Photos framework reports.
public struct PHPhotosError: CustomNSError, Hashable, Sendable {
    /// Codes for the errors the Photos framework reports.
    public enum Code: Int, Sendable {
        /// An error that indicates an invalid request.
        case invalid = -1
        /// An error that indicates the user canceled an operation.
        case userCancelled = 3072
        /// An error that indicates the library's folder is not available.
        case libraryVolumeOffline = 3114
        /// An error that indicates the asset doesn't exist.
        case identifierNotFound = 3201
        /// An error that indicates the requested change isn't supported.
        case changeNotSupported = 3300
        /// An error that indicates the operation was interrupted.
        case operationInterrupted = 3301
        /// An error that indicates a resource is invalid.
        case invalidResource = 3302
        /// An error that indicates a resource is missing.
        case missingResource = 3303
        /// An error that indicates there isn't enough storage space.
        case notEnoughSpace = 3305
        /// An error that indicates the request isn't supported for the asset.
        case requestNotSupportedForAsset = 3306
        /// An error that indicates access to the library is restricted.
        case accessRestricted = 3310
        /// An error that indicates the user denied access to the library.
        case accessUserDenied = 3311
    }

    /// The error's code.
    public let code: Code
    /// The error's user info dictionary.
    public var errorUserInfo: [String: Any] { description.isEmpty ? [:] : [NSLocalizedDescriptionKey: description] }
    private let description: String

    /// Creates an error with `code` and a description in `userInfo`'s `NSLocalizedDescriptionKey`.
    public init(_ code: Code, userInfo: [String: Any] = [:]) {
        self.code = code
        description = userInfo[NSLocalizedDescriptionKey] as? String ?? ""
    }

    /// The domain of Photos errors.
    public static var errorDomain: String { PHPhotosErrorDomain }
    /// The error's code, as a number.
    public var errorCode: Int { code.rawValue }

    /// An error that indicates an invalid request.
    public static var invalid: Code { .invalid }
    /// An error that indicates a resource is invalid.
    public static var invalidResource: Code { .invalidResource }
    /// An error that indicates a resource is missing.
    public static var missingResource: Code { .missingResource }
    /// An error that indicates there isn't enough storage space.
    public static var notEnoughSpace: Code { .notEnoughSpace }
    /// An error that indicates the library's folder is not available.
    public static var libraryVolumeOffline: Code { .libraryVolumeOffline }
    /// An error that indicates the requested change isn't supported.
    public static var changeNotSupported: Code { .changeNotSupported }
    /// An error that indicates access to the library is restricted.
    public static var accessRestricted: Code { .accessRestricted }
}
