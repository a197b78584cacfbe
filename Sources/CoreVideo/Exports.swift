// Core Video's API is typed with Core Graphics' (sizes, colour spaces) and Core Foundation's
// spellings, which Apple's CoreVideo brings with it.
@_exported import CoreGraphics
