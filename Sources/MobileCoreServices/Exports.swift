// `import MobileCoreServices` (and `import CoreServices` on macOS) gives Core Foundation's types
// with the uniform type identifier constants and functions older media code names files by, and
// Uniform Type Identifiers' UTType, which Apple's brings too.
@_exported import CoreGraphics
@_exported import Foundation
@_exported import UniformTypeIdentifiers
