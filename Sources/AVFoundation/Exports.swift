// `import AVFoundation` gives what it gives on Apple's platforms: Foundation (and with it
// Dispatch and the C library), the Core Graphics geometry, Core Media and Core Video, and Core
// Image's barcode descriptors, which the metadata output's code objects carry, and Observation
// (`@Observable` models of a camera). Foundation's URL loading (`URLSession`, `URLRequest`), which
// Apple's Foundation holds, lives in FoundationNetworking on Linux: it comes too, as the resource
// loader's requests are `URLRequest`s. Uniform Type Identifiers comes as Apple's headers bring
// it: file types and `UTType` name the same formats. Audio Toolbox comes as AVFAudio's headers bring
// it: audio queues, which voice code records and plays with. Media Toolbox's audio processing
// taps come as AVAudioMix.h brings them: an audio mix's parameters carry one.
@_exported import Foundation
@_exported import FoundationNetworking
@_exported import CoreGraphics
@_exported import CoreMedia
@_exported import AVFAudio
@_exported import AudioToolbox
@_exported import MediaToolbox
@_exported import CoreVideo
@_exported import ImageIO
@_exported import CoreImage
@_exported import class CaptureDevices.VirtualScene
@_exported import class QuartzCore.CALayer
@_exported import func QuartzCore.CACurrentMediaTime
@_exported import Observation
@_exported import UniformTypeIdentifiers
