// Swift Testing on Linux declares a cross-import overlay for a module named CoreImage
// (Testing.swiftcrossimport/CoreImage.swiftoverlay) without shipping it, so a test file that
// imports both would not compile. This empty module is that overlay: on Apple platforms it
// makes CIImage attachable; Linux has no CIImage, so it has nothing to add.
import CoreImage
