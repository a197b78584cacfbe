// The typed filters (CIFilter.gaussianBlur() and the rest) are declared in Swift, in CoreImage;
// this submodule exists so that `import CoreImage.CIFilterBuiltins` finds them, as on Apple's platforms.
