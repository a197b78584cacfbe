/// Stops the process for a misuse that AVFoundation reports with an exception on Apple platforms.
///
/// Each helper names the rule that was broken, so that the message says what to fix.
enum ProgrammingError {
    /// Stops for an invalid argument, as Apple's `NSInvalidArgumentException`.
    static func invalidArgument(_ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) -> Never {
        fatalError("*** NSInvalidArgumentException: \(message())", file: file, line: line)
    }

    /// Stops for a call made in the wrong state, as Apple's `NSGenericException`.
    static func invalidState(_ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) -> Never {
        fatalError("*** NSGenericException: \(message())", file: file, line: line)
    }

    /// Stops unless `device` is locked for configuration by this client.
    static func requireConfigurationLock(_ device: AVCaptureDevice, _ property: String, file: StaticString = #fileID, line: UInt = #line) {
        if !device.isLockedForConfigurationByClient {
            invalidState("-[AVCaptureDevice set\(property)] may not be called without first successfully calling lockForConfiguration", file: file, line: line)
        }
    }

    /// Stops unless a mode or feature is supported.
    static func requireSupported(_ supported: Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
        if !supported { invalidArgument(message(), file: file, line: line) }
    }
}
