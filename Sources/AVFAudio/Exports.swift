// `import AVFAudio` gives what it gives on Apple's platforms: Foundation and Core Audio's types
// (with OSStatus, which render blocks return).
@_exported import CoreAudioTypes
@_exported import Foundation
@_exported import typealias CoreGraphics.OSStatus
@_exported import var CoreGraphics.noErr
// Core Foundation's URL, which Audio Toolbox's system sound services take.
@_exported import typealias CoreGraphics.CFURL
