import Foundation

/// A pointer through which a method hands back an error, as Objective-C's `NSError **`.
///
/// Apple's Foundation declares it; swift-corelibs-foundation does not, so AVFAudio's methods that
/// take one (`AVAudioConverter.convert(to:error:withInputFrom:)`) declare it here: callers pass
/// `&error` for a `var error: NSError?` as on Apple's platforms.
public typealias NSErrorPointer = UnsafeMutablePointer<NSError?>?
