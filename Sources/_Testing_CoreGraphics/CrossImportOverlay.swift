// Swift Testing on Linux declares a cross-import overlay for a module named CoreGraphics
// (Testing.swiftcrossimport/CoreGraphics.swiftoverlay) without shipping it, so a test file that
// imports both would not compile. This empty module is that overlay: on Apple platforms it
// makes CGImage attachable, which this one does not do yet.
import CoreGraphics
