// `import CoreImage` gives what Apple's headers import: Foundation (and with it the C library),
// Core Graphics, Core Video (images of pixel buffers) and Image I/O (orientations and properties).
@_exported import Foundation
@_exported import CoreGraphics
@_exported import CoreVideo
@_exported import ImageIO
