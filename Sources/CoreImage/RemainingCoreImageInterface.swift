// The parts of Apple's Core Image that LinuxAVFoundation does not offer yet.
//
// Each item below is Apple's; when one is implemented, it moves out of this file. Implemented:
// CIImage from pixel buffers in any camera format, CGImages (float ones' values kept beyond 0-1), JPEG, PNG and HEIC data and files,
// and colours; extent, cropped(to:), transformed(by:) (and with highQualityDownsample),
// oriented(_:), oriented(forExifOrientation:), orientationTransform(for:), applyingFilter(_:parameters:),
// composited(over:), clampedToExtent(), clamped(to:), applyingGaussianBlur(sigma:), pixelBuffer, cgImage,
// properties; init(depthData:), init(portaitEffectsMatte:) and init(semanticSegmentationMatte:) (declared
// with AVFoundation, whose types they take: depth, disparity and mattes as grey). CIContext: createCGImage(_:from:) (and with BGRA8, RGBA8, ARGB8, RGBAf and RGBAh formats),
// render(_:to:) into pixel buffers of any format the converter writes, render(_:toBitmap:...),
// JPEG, PNG, HEIF and TIFF representations and their write... forms. CIFilter by name, with inputKeys,
// outputKeys, attributes, setDefaults(), filterNames(inCategory:); built in: CIGaussianBlur,
// CIColorControls, CIExposureAdjust, CIColorMatrix, CIColorInvert, CISepiaTone, CIPhotoEffectMono,
// the other photo effects (Chrome, Fade, Instant, Noir, Process, Tonal, Transfer: colour matrices in
// the spirit of Apple's unpublished curves), CIVignette, CIPerspectiveCorrection, CIPerspectiveTransform,
// CIAffineTransform, CICrop, CILanczosScaleTransform, CISourceOverCompositing, the separable blend modes
// (CIMultiplyBlendMode, CIScreenBlendMode, CIOverlayBlendMode, CIDarkenBlendMode, CILightenBlendMode,
// CIColorDodgeBlendMode, CIColorBurnBlendMode, CIHardLightBlendMode, CISoftLightBlendMode,
// CIDifferenceBlendMode, CIExclusionBlendMode), CIAdditionCompositing, CISourceInCompositing,
// CISourceOutCompositing, CISourceAtopCompositing, CIColorMonochrome, CIFalseColor, CIHueAdjust,
// CIWhitePointAdjust, CIUnsharpMask, CIAreaAverage, CIBoxBlur, CIDiscBlur, CIMedianFilter,
// CIMorphologyRectangleMaximum, CIMorphologyRectangleMinimum, CIGammaAdjust, CIColorClamp,
// CIColorPolynomial, CILinearToSRGBToneCurve, CISRGBToneCurveToLinear, CIToneCurve (a natural cubic
// spline through its points: Apple does not say which spline), CIMix, CIDissolveTransition,
// CIBlendWithMask, CIBlendWithAlphaMask, CIMultiplyCompositing, CIMaximumComponent, CIMinimumComponent,
// CIConvolution3X3, 5X5, 7X7, 9Horizontal and 9Vertical and their RGB forms, CIAffineClamp, CIAffineTile
// (a turned image tiles by its bounding box), CICheckerboardGenerator and CIStripesGenerator (hard
// edges whatever the sharpness), CIPixellate, CIMotionBlur, CISharpenLuminance,
// CIConstantColorGenerator, CIQRCodeGenerator, CIAztecCodeGenerator, CIPDF417BarcodeGenerator (its data columns, rows
// and correction level; the widths, heights, aspect ratio and compaction are the writer's own), CICode128BarcodeGenerator; by formulas of pixel arithmetic on libvips (PixelMath.swift):
// CIDivideBlendMode, CISubtractBlendMode, CILinearBurnBlendMode, CILinearDodgeBlendMode, CILinearLightBlendMode,
// CIPinLightBlendMode, CIVividLightBlendMode, the non-separable CIHueBlendMode, CISaturationBlendMode, CIColorBlendMode
// and CILuminosityBlendMode, CIMaximumCompositing, CIMinimumCompositing, CILinearGradient, CISmoothLinearGradient,
// CIRadialGradient, CIGaussianGradient, CIRandomGenerator, CIRoundedRectangleGenerator, CIAreaMaximum, CIAreaMinimum,
// CIAreaMinMax, CIAreaMinMaxRed, CIRowAverage, CIColumnAverage, CIColorPosterize, CIDotScreen, CILineScreen,
// CICircularScreen, CITwirlDistortion, CIVortexDistortion, CIPinchDistortion, CIBumpDistortion, CIHoleDistortion,
// CICircleSplashDistortion, CIBloom, CIGloom, CIEdges, CIVignetteEffect, CIColorCube, CIColorCubeWithColorSpace (the
// colour space taken as sRGB; inputExtrapolate not honoured: values outside 0-1 are clipped), CIColorCubesMixedWithMask,
// CIColorMap, CIThermal and CIXRay (palettes of our own: Apple's are not published), CIColorThreshold,
// CIColorThresholdOtsu, CIColorAbsoluteDifference, CIColorCrossPolynomial, CIDither, CIBlendWithRedMask,
// CIBlendWithBlueMask, CIMorphologyMaximum, CIMorphologyMinimum and CIMorphologyGradient (the exact disc, as the union of
// its rectangles), CIStraightenFilter, CIBicubicScaleTransform (libvips's Catmull-Rom or Mitchell-Netravali kernel
// for the B and C given: it has no other), CISwipeTransition, CICopyMachineTransition, CIBarsSwipeTransition,
// CIDisintegrateWithMaskTransition, CIFourfoldTranslatedTile, CIFourfoldReflectedTile, CIParallelogramTile,
// CIFourfoldRotatedTile, CIEightfoldReflectedTile, CIGlideReflectedTile, CIKaleidoscope, CITextImageGenerator (Pango
// through libvips, the font by fontconfig's nearest match), CIHatchedScreen, CIHueSaturationValueGradient (its dither and
// colour space not honoured), CIDisplacementDistortion, CIBumpDistortionLinear, CIZoomBlur, CIAreaHistogram,
// CIAreaLogarithmicHistogram, CIHistogramDisplayFilter, CIAreaMaximumAlpha, CIAreaMinimumAlpha, CIHexagonalPixellate,
// CICrystallize, CIMaskedVariableBlur, CINoiseReduction, CIBokehBlur, CISpotLight (its falloff the cosine off its axis
// raised to ten times the concentration: Apple does not publish its own), CILineOverlay, CICMYKHalftone, CIComicEffect,
// CIPerspectiveTransformWithExtent, CINinePartStretched, CINinePartTiled, CIPalettize, CIKMeans (clustering at most 64 x 64
// of the extent's block means), CIDocumentEnhancer, CIConvertRGBtoLab, CIConvertLabToRGB, CILabDeltaE (CIE 1994),
// CISobelGradients, CIColorCurves, CIRoundedRectangleStrokeGenerator, CIBlurredRectangleGenerator, CISixfoldRotatedTile,
// CISixfoldReflectedTile, CITwelvefoldReflectedTile, CIGlassDistortion, CIHeightFieldFromMask, CIShadedMaterial, CICircularWrap, CILightTunnel, CITorusLensDistortion,
// CIGlassLozenge, CIStretchCrop, CIDroste, CISunbeamsGenerator, CIStarShineGenerator, CILenticularHaloGenerator (formulas of
// our own for the light generators: Apple's are not published), CIFlashTransition, CIModTransition, CIRippleTransition (the
// shading image's brightness lit along the wave), CIAccordionFoldTransition, CIPointillize (dots on white), CIEdgeWork,
// CISpotColor, CITriangleTile and CITriangleKaleidoscope (the triangle mirrored across its edges), CIOpTile, CIPerspectiveTile,
// CIMaximumScaleTransform, CIEdgePreserveUpsampleFilter (joint bilateral upsampling over 5 x 5 small pixels),
// CIToneMapHeadroom (the extended Reinhard curve), CICannyEdgeDetector, CIGaborGradients (a 5 x 5 odd Gabor kernel of our
// own: Apple's is not published), CIDistanceGradientFromRedMask, CISignedDistanceGradientFromRedMask, CIAreaBoundsRed,
// CIPageCurlTransition and CIPageCurlWithShadowTransition (a cylinder rolling the page up), CIPerspectiveRotate,
// CIKeystoneCorrectionCombined, CIKeystoneCorrectionHorizontal and CIKeystoneCorrectionVertical (the camera's turn that
// makes the guides parallel found by bisection, then a roll that makes them upright or level), CIMaskToAlpha,
// CIDepthToDisparity, CIDisparityToDepth, CIMeshGenerator, CIDepthOfField (in full blur at half the points' distance from
// their line: Apple does not publish its falloff), CIAreaAlphaWeightedHistogram (each unpremultiplied colour's bin
// weighted by its alpha, over the area's pixels, at the origin and opaque, as Apple's); and their
// typed forms through
// `import CoreImage.CIFilterBuiltins`. Custom filters: CIFilter subclasses (named after their class, their input
// properties read by key) and CIFilter.registerName(_:constructor:classAttributes:) with CIFilterConstructor, found by
// name and category. CIDetector for faces (their bounds, eyes, mouth, angle and tracking, the
// accuracy, smallest size, largest count, image orientation and number of angles options: perspectives 30 degrees
// apart) and QR codes; CIFeature, CIFaceFeature,
// CIQRCodeFeature, and CIRectangleFeature and CITextFeature (which no detector makes yet). CIColor, CIVector, CIFormat. CIRenderDestination (pixel buffers
// and BGRA8, RGBA8 and ARGB8 bitmaps), CIRenderTask, CIRenderInfo, CIContext.startTask(toRender:...), startTask(toClear:),
// prepareRender, clearCaches(), reclaimResources(); CIImage(bitmapData:bytesPerRow:size:format:colorSpace:),
// samplingNearest() and samplingLinear() (and the nearestSampling option) for the transforms that follow,
// premultiplyingAlpha(), unpremultiplyingAlpha(), settingAlphaOne(in:), insertingIntermediate(). CIBlendKernel's built-in kernels for
// the compositing operators, the separable and non-separable blend modes, subtract, divide, linearBurn,
// linearDodge, linearLight, pinLight, vividLight, hardMix, darkerColor, lighterColor, componentMax, componentMin, clear,
// source, destination and exclusiveOr, with apply(foreground:background:): every built-in kernel Apple lists.
//
// Still to come:
// Filters, by Apple's categories:
//   colour effect: CIPaletteCentroid (Apple does not document how its output's pixels hold the centroids);
//   generators: CIBarcodeGenerator (a descriptor's error-corrected codewords: ZXing-C++'s writers encode
//     text, not codewords), CIAttributedTextImageGenerator (an attributed string's fonts and colours are
//     AppKit's and UIKit's types, which Linux lacks);
// What cannot exist here: the kernel languages (CIKernel, CIColorKernel, CIWarpKernel, from Metal or
//     the Core Image Kernel Language: no Metal compiler on Linux), and the filters that need Apple's
//     models (CIDepthBlurEffect, CIPersonSegmentation, CISaliencyMapFilter, the portrait and depth filters).
// Still to come beside filters: setting a custom filter's input properties by key without its own setValue(_:forKey:)
//     (Apple's key-value coding reaches @objc properties, which Swift on Linux does not have);
// CIImage: the auxiliary image options of init(data:options:) (and depthData, portraitEffectsMatte
//     read from files), init(texture:) (Metal), a sampling mode for the distortions and other filters that sample
//     (it holds for transforms), matchedToWorkingSpace(from:)
// CIContext: colour management (workingColorSpace and outputColorSpace are taken as sRGB; pixels
//     are worked on in sRGB's encoded values, not linear light), render(_:to:commandBuffer:...) and render destinations of Metal and OpenGL textures and IOSurfaces,
//     Metal and OpenGL contexts
// CIDetector: rectangles and text (CIDetectorTypeRectangle, CIDetectorTypeText, and with them
//     CIDetectorAspectRatio, CIDetectorFocalLength, CIDetectorReturnSubFeatures: no quadrilateral or
//     text-region detector among the libraries used yet); of faces, eye blinks and smiles
//     (CIDetectorEyeBlink, CIDetectorSmile: no classifier for them here; leftEyeClosed, rightEyeClosed
//     and hasSmile stay false)
