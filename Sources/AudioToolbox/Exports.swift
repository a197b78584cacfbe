// `import AudioToolbox` gives the system sound services camera apps call
// (`AudioServicesPlaySystemSound`), which live with AVFAudio here, as `import AVFoundation` gives
// them on Apple's platforms.
@_exported import AVFAudio
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
