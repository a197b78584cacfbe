// `import AVFAudio` gives what it gives on Apple's platforms: Audio Toolbox (audio queues, system
// sounds), Foundation and Core Audio's types (with OSStatus, which render blocks return).
@_exported import AudioToolbox
@_exported import CoreAudioTypes
@_exported import Foundation
@_exported import typealias CoreGraphics.OSStatus
@_exported import var CoreGraphics.noErr
@_exported import typealias CoreGraphics.CFURL
