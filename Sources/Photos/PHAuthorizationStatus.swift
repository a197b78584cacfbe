/// Information about your app's authorization to access the user's photo library.
@frozen
public enum PHAuthorizationStatus: Int, Sendable {
    /// The user hasn't set the app's authorization status.
    case notDetermined = 0
    /// The app isn't authorized to access the photo library, and the user can't grant such permission.
    case restricted = 1
    /// The user explicitly denied this app access to the photo library.
    case denied = 2
    /// The user explicitly granted this app access to the photo library.
    case authorized = 3
    /// The user authorized this app for limited photo library access.
    case limited = 4
}

/// The app's level of access to the user's photo library.
@frozen
public enum PHAccessLevel: Int, Sendable {
    /// The option to add assets to the user's photo library.
    case addOnly = 1
    /// The option to read from and write to the user's photo library.
    case readWrite = 2
}
