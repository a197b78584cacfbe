// Swift Testing on Linux declares a cross-import overlay for a module named CoreGraphics
// (Testing.swiftcrossimport/CoreGraphics.swiftoverlay) without shipping it, so a test file that
// imports both would not compile. This empty module is that overlay: on Apple platforms it
// makes CGImage attachable; Linux has no CGImage, so it has nothing to add.
import CoreGraphics
