import CaptureDevices
import CoreGraphics
import CoreVideo
import Foundation
import MovieEngine

// Audio Toolbox's system sound services, which camera apps call for a shutter sound and alerts:
// `import AudioToolbox` gives them, and `AVFAudio` and `AVFoundation` with it, as on Apple's
// platforms. A sound is decoded on a thread of its own and played to the sound server (or in real
// time silently without one); Apple's
// built-in sound IDs play the freedesktop sound theme's files where Debian's
// sound-theme-freedesktop is installed, and nothing otherwise. Vibration is nothing here.

/// An identifier for a system sound: one made from a file, or one of the system's.
public typealias SystemSoundID = UInt32

/// The system sound ID that vibrates the device where it can (nothing here).
public let kSystemSoundID_Vibrate: SystemSoundID = 0x0000_0FFF
/// No error occurred.
public let kAudioServicesNoError: OSStatus = 0
/// An unspecified error: the sound could not be made or played.
public let kAudioServicesSystemSoundUnspecifiedError: OSStatus = -1500
/// The sound is longer than the 30 seconds system sounds may last.
public let kAudioServicesSystemSoundExceededMaximumDurationError: OSStatus = -1502
/// A parameter is invalid, such as an ID that names no sound.
public let kAudioServicesBadSpecifierSizeError: OSStatus = 0x2173_697A  // '!siz'

/// The sounds made from files, and the players of sounds under way.
private let systemSounds = SystemSounds()

private final class SystemSounds: Sendable {
    private struct State {
        var files: [SystemSoundID: URL] = [:]
        var next: SystemSoundID = 0x1000_0001
    }
    private let state = LockedValue(State())

    /// The freedesktop sound theme's names for Apple's built-in sound IDs that capture apps use.
    private static let themeNames: [SystemSoundID: String] = [
        1000: "message-new-instant", 1003: "message-new-instant", 1007: "message-new-instant", 1057: "button-pressed",
        1104: "button-pressed", 1105: "button-pressed", 1108: "camera-shutter", 1113: "service-login", 1114: "service-logout",
        1117: "service-login", 1118: "service-logout", 1306: "button-pressed",
    ]

    /// The longest a system sound may last, in seconds.
    private static let longest = 30.0

    func create(_ url: URL) -> (SystemSoundID, OSStatus) {
        guard let reader = try? SoundFileReader(url: url), let length = try? reader.length() else { return (0, kAudioServicesSystemSoundUnspecifiedError) }
        guard Double(length) / Double(reader.sampleRate) <= Self.longest else { return (0, kAudioServicesSystemSoundExceededMaximumDurationError) }
        let id = state.withLock { state -> SystemSoundID in
            let id = state.next
            state.next += 1
            state.files[id] = url
            return id
        }
        return (id, kAudioServicesNoError)
    }

    func dispose(_ id: SystemSoundID) -> OSStatus {
        state.withLock { $0.files.removeValue(forKey: id) } == nil ? kAudioServicesBadSpecifierSizeError : kAudioServicesNoError
    }

    /// The file a sound ID plays: one made from a file, or a system sound's theme file where it is installed.
    private func file(for id: SystemSoundID) -> URL? {
        if let made = state.withLock({ $0.files[id] }) { return made }
        guard let name = Self.themeNames[id] ?? (1000...1999).contains(id).then("bell") else { return nil }
        let url = URL(fileURLWithPath: "/usr/share/sounds/freedesktop/stereo/\(name).oga")
        return FileManager.default.isReadableFile(atPath: url.path) ? url : nil
    }

    /// Plays the sound on a thread of its own (sounds may overlap, as Apple's do), then calls
    /// `completion` on the main queue; a sound that cannot be played completes at once.
    func play(_ id: SystemSoundID, completion: (@Sendable () -> Void)?) {
        let url = id == kSystemSoundID_Vibrate ? nil : file(for: id)
        guard let url else {
            if let completion { DispatchQueue.main.async(execute: completion) }
            return
        }
        let thread = Thread {
            Self.playToTheEnd(url)
            if let completion { DispatchQueue.main.async(execute: completion) }
        }
        thread.name = "AudioServices"
        thread.start()
    }

    /// Decodes the file and writes its sound to the route's output, at most 30 seconds of it,
    /// waiting until it has been heard.
    private static func playToTheEnd(_ url: URL) {
        guard let reader = try? SoundFileReader(url: url) else { return }
        let channels = reader.channels, block = 4096
        let output = PacedSoundOutput(name: "AudioServices", rate: reader.sampleRate, channels: channels)
        defer { output.close() }
        let samples = UnsafeMutablePointer<Float>.allocate(capacity: block * channels)
        defer { samples.deallocate() }
        var left = Int(longest * Double(reader.sampleRate))
        while left > 0, let frames = try? reader.read(into: samples, frames: min(block, left)), frames > 0 {
            output.write(UnsafeBufferPointer(start: samples, count: frames * channels))
            left -= frames
        }
        output.drain()
    }
}

extension Bool {
    /// `value` when true, nil otherwise.
    fileprivate func then<Value>(_ value: Value) -> Value? { self ? value : nil }
}

/// Creates a system sound object from a sound file of 30 seconds or less.
@discardableResult
public func AudioServicesCreateSystemSoundID(_ inFileURL: CFURL, _ outSystemSoundID: UnsafeMutablePointer<SystemSoundID>) -> OSStatus {
    let (id, status) = systemSounds.create(inFileURL as URL)
    outSystemSoundID.pointee = id
    return status
}

/// Disposes of a system sound object made from a file.
@discardableResult
public func AudioServicesDisposeSystemSoundID(_ inSystemSoundID: SystemSoundID) -> OSStatus { systemSounds.dispose(inSystemSoundID) }

/// Plays a system sound object.
public func AudioServicesPlaySystemSound(_ inSystemSoundID: SystemSoundID) { systemSounds.play(inSystemSoundID, completion: nil) }

/// Plays a system sound object as an alert (here as any system sound; there is nothing to vibrate).
public func AudioServicesPlayAlertSound(_ inSystemSoundID: SystemSoundID) { systemSounds.play(inSystemSoundID, completion: nil) }

/// Plays a system sound object and calls the completion block on the main queue when it has played.
public func AudioServicesPlaySystemSoundWithCompletion(_ inSystemSoundID: SystemSoundID, _ inCompletionBlock: (@Sendable () -> Void)?) {
    systemSounds.play(inSystemSoundID, completion: inCompletionBlock)
}

/// Plays a system sound object as an alert and calls the completion block on the main queue when it has played.
public func AudioServicesPlayAlertSoundWithCompletion(_ inSystemSoundID: SystemSoundID, _ inCompletionBlock: (@Sendable () -> Void)?) {
    systemSounds.play(inSystemSoundID, completion: inCompletionBlock)
}
