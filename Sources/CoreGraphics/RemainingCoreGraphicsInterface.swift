// The parts of Apple's Core Graphics that LinuxAVFoundation does not offer yet.
//
// Each declaration below is Apple's, commented out; when one is implemented, it moves out of
// this file. Geometry, colour spaces and colours, bitmap images over data providers, bitmap
// contexts (8 bits a component: BGRA, BGRX, RGBA, RGBX and the other 32-bit orders, grey,
// alpha only) with paths, fills, strokes, dashes, clips, the CTM, blend modes and images drawn
// with interpolation are implemented, drawn with cairo and converted with pixman.

// MARK: Images
// init?(jpegDataProviderSource:decode:shouldInterpolate:intent:), init?(pngDataProviderSource:...)  (Image I/O decodes files)
// init?(maskWidth:height:bitsPerComponent:bitsPerPixel:bytesPerRow:provider:decode:shouldInterpolate:), masking(_:)
// copy(maskingColorComponents:), decode arrays (images are read as their components say)
// var utType: CFString?, 16-bit, float and CMYK images drawn into contexts (they are described, not drawn)

// MARK: Colour
// Conversion between colour spaces when drawing (components are drawn as given), CGColorConversionInfo,
// init?(iccData:), copyICCData(), CGColorSpace(propertyListPlist:), CGColor(genericCMYKCyan:...), patterns

// MARK: Contexts
// 16-bit and float bitmap contexts; PDF contexts (CGContext(consumer:mediaBox:_:)); layers (CGLayer)
// Text (showGlyphs, CTFont drawing), shadows (setShadow(offset:blur:color:)), gradients
// (drawLinearGradient, drawRadialGradient, CGGradient, CGShading), patterns, transparency layers
// (beginTransparencyLayer), clip(to:mask:), replacePathWithStrokedPath(), path(using:) containment
// tests (pathContains(_:mode:)), convertToUserSpace(_:)/convertToDeviceSpace(_:)

// MARK: Paths
// contains(_:using:transform:), copy(strokingWithWidth:lineCap:lineJoin:miterLimit:transform:),
// copy(dashingWithPhase:lengths:transform:), applyWithBlock(_:), boundingBoxOfPath, addRelativeArc(center:radius:startAngle:delta:transform:),
// addArc(tangent1End:tangent2End:radius:transform:)

// MARK: Core Foundation
// func CFDictionaryCreate(_:_:_:_:_:_:) and CFArrayCreate(_:_:_:_:) over C arrays of pointers,
// CFDictionaryApplyFunction(_:_:_:), CFDictionaryGetKeysAndValues(_:_:_:), CFArrayApplyFunction(_:_:_:_:),
// CFStringGetCString(_:_:_:_:) and CFString's other C functions beyond its length and creation from a C string,
// CFDate's and CFTimeZone's functions, CFPreferences, CFRunLoop's sources, observers and timers (Dispatch runs
// callbacks here; running, stopping and waking a run loop are built, over Foundation's RunLoop),
// custom key and value callbacks (Foundation's collections retain and compare objects, as the default ones do)
