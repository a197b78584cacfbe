// `import AudioToolbox` gives what Apple's gives: Core Audio's types, Foundation, and Core
// Foundation's run loop, strings and URLs (AVFAudio brings Audio Toolbox, not the other way round).
@_exported import CoreAudioTypes
@_exported import Foundation
@_exported import typealias CoreGraphics.OSStatus
@_exported import var CoreGraphics.noErr
@_exported import typealias CoreGraphics.CFURL
// The audio queue's C structures, and the Darwin Boolean its timeline answers with.
@_exported import CAudioToolbox
@_exported import struct CoreGraphics.DarwinBoolean
// Core Foundation's run loop, which Apple's AudioToolbox brings with Core Foundation: audio queues
// call back on the run loop they are given (CFRunLoopGetCurrent(), CFRunLoopMode.commonModes).
@_exported import typealias CoreGraphics.CFRunLoop
@_exported import typealias CoreGraphics.CFString
@_exported import struct CoreGraphics.CFRunLoopMode
@_exported import enum CoreGraphics.CFRunLoopRunResult
@_exported import let CoreGraphics.kCFRunLoopDefaultMode
@_exported import let CoreGraphics.kCFRunLoopCommonModes
@_exported import func CoreGraphics.CFRunLoopGetCurrent
@_exported import func CoreGraphics.CFRunLoopGetMain
@_exported import func CoreGraphics.CFRunLoopRun
@_exported import func CoreGraphics.CFRunLoopRunInMode
@_exported import func CoreGraphics.CFRunLoopStop
@_exported import func CoreGraphics.CFRunLoopWakeUp
