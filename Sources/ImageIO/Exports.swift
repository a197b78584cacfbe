// `import ImageIO` gives what Apple's headers import: Core Foundation's types (Foundation's here)
// and Core Graphics' images, geometry and colour spaces.
@_exported import CoreGraphics
