// `import AVFAudio` gives what it gives on Apple's platforms: Foundation and Core Audio's types.
@_exported import CoreAudioTypes
@_exported import Foundation
