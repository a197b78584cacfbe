/// The key for a filter's input image.
public let kCIInputImageKey = "inputImage"
/// The key for a filter's output image.
public let kCIOutputImageKey = "outputImage"
/// The key for a background image (compositing filters).
public let kCIInputBackgroundImageKey = "inputBackgroundImage"
/// The key for a radius (blurs).
public let kCIInputRadiusKey = "inputRadius"
/// The key for a saturation.
public let kCIInputSaturationKey = "inputSaturation"
/// The key for a brightness.
public let kCIInputBrightnessKey = "inputBrightness"
/// The key for a contrast.
public let kCIInputContrastKey = "inputContrast"
/// The key for an exposure value in stops.
public let kCIInputEVKey = "inputEV"
/// The key for an intensity.
public let kCIInputIntensityKey = "inputIntensity"
/// The key for a scale.
public let kCIInputScaleKey = "inputScale"
/// The key for an aspect ratio.
public let kCIInputAspectRatioKey = "inputAspectRatio"
/// The key for a colour.
public let kCIInputColorKey = "inputColor"
/// The key for an affine transform.
public let kCIInputTransformKey = "inputTransform"
/// The key for a rectangle given as a vector (x, y, width, height).
public let kCIInputExtentKey = "inputExtent"
/// The key for a centre point.
public let kCIInputCenterKey = "inputCenter"
/// The key for an angle in radians.
public let kCIInputAngleKey = "inputAngle"

/// The attribute naming a filter.
public let kCIAttributeFilterName = "CIAttributeFilterName"
/// The attribute giving a filter's display name.
public let kCIAttributeFilterDisplayName = "CIAttributeFilterDisplayName"
/// The attribute listing a filter's categories.
public let kCIAttributeFilterCategories = "CIAttributeFilterCategories"
/// The attribute naming an input's class.
public let kCIAttributeClass = "CIAttributeClass"
/// The attribute giving an input's type.
public let kCIAttributeType = "CIAttributeType"
/// The attribute giving an input's default value.
public let kCIAttributeDefault = "CIAttributeDefault"
/// The attribute giving an input's minimum.
public let kCIAttributeMin = "CIAttributeMin"
/// The attribute giving an input's maximum.
public let kCIAttributeMax = "CIAttributeMax"
/// The attribute giving the minimum a slider for an input shows.
public let kCIAttributeSliderMin = "CIAttributeSliderMin"
/// The attribute giving the maximum a slider for an input shows.
public let kCIAttributeSliderMax = "CIAttributeSliderMax"
/// The attribute giving an input's display name.
public let kCIAttributeDisplayName = "CIAttributeDisplayName"

/// An input that is a number.
public let kCIAttributeTypeScalar = "CIAttributeTypeScalar"
/// An input that is a Boolean value.
public let kCIAttributeTypeBoolean = "CIAttributeTypeBoolean"
/// An input that is a distance in pixels.
public let kCIAttributeTypeDistance = "CIAttributeTypeDistance"
/// An input that is an angle.
public let kCIAttributeTypeAngle = "CIAttributeTypeAngle"
/// An input that is a position.
public let kCIAttributeTypePosition = "CIAttributeTypePosition"
/// An attribute type: a two-dimensional offset.
public let kCIAttributeTypeOffset = "CIAttributeTypeOffset"
/// An input that is a rectangle.
public let kCIAttributeTypeRectangle = "CIAttributeTypeRectangle"
/// An input that is an affine transform.
public let kCIAttributeTypeTransform = "CIAttributeTypeTransform"
/// An input that is an opaque colour.
public let kCIAttributeTypeOpaqueColor = "CIAttributeTypeOpaqueColor"
/// An input that is an image.
public let kCIAttributeTypeImage = "CIAttributeTypeImage"

/// Filters that blur.
public let kCICategoryBlur = "CICategoryBlur"
/// Filters that adjust colour.
public let kCICategoryColorAdjustment = "CICategoryColorAdjustment"
/// Filters that apply colour effects.
public let kCICategoryColorEffect = "CICategoryColorEffect"
/// Filters that change geometry.
public let kCICategoryGeometryAdjustment = "CICategoryGeometryAdjustment"
/// Filters that composite images.
public let kCICategoryCompositeOperation = "CICategoryCompositeOperation"
/// Filters that generate images.
public let kCICategoryGenerator = "CICategoryGenerator"
/// Filters that work on video.
public let kCICategoryVideo = "CICategoryVideo"
/// Filters that work on still images.
public let kCICategoryStillImage = "CICategoryStillImage"
/// Filters that are built in.
public let kCICategoryBuiltIn = "CICategoryBuiltIn"
/// A color attribute type, with an alpha component.
public let kCIAttributeTypeColor = "CIAttributeTypeColor"
/// A filter category for filters that sharpen images.
public let kCICategorySharpen = "CICategorySharpen"
/// A filter category for filters that work with interlaced images.
public let kCICategoryInterlaced = "CICategoryInterlaced"
/// A filter category for filters that work with non-square pixels.
public let kCICategoryNonSquarePixels = "CICategoryNonSquarePixels"
/// A filter category for filters that reduce an image to a few values (averages, extremes, histograms).
public let kCICategoryReduction = "CICategoryReduction"
/// A filter category for filters that transition from one image to another.
public let kCICategoryTransition = "CICategoryTransition"
/// A key for an amount, as a mix's.
public let kCIInputAmountKey = "inputAmount"
/// A key for the image a transition ends on.
public let kCIInputTargetImageKey = "inputTargetImage"
/// A key for a transition's time, from 0 to 1.
public let kCIInputTimeKey = "inputTime"
/// A key for a mask image.
public let kCIInputMaskImageKey = "inputMaskImage"
/// A time attribute type.
public let kCIAttributeTypeTime = "CIAttributeTypeTime"
/// A filter category for filters that give an image a stylized look.
public let kCICategoryStylize = "CICategoryStylize"
/// A key for a convolution's weights.
public let kCIInputWeightsKey = "inputWeights"
/// A key for an amount added after an operation.
public let kCIInputBiasKey = "inputBias"
/// A filter category for filters that tile an image.
public let kCICategoryTileEffect = "CICategoryTileEffect"
/// A key for a width, as a pattern's.
public let kCIInputWidthKey = "inputWidth"
/// A key for the sharpness of a pattern's edges.
public let kCIInputSharpnessKey = "inputSharpness"

/// A filter category: filters that generate a gradient.
public let kCICategoryGradient = "CICategoryGradient"
/// A filter category: filters that distort an image's geometry.
public let kCICategoryDistortionEffect = "CICategoryDistortionEffect"
/// A filter category: filters that simulate a halftone screen.
public let kCICategoryHalftoneEffect = "CICategoryHalftoneEffect"
/// A filter category: filters that can work with high dynamic range images.
public let kCICategoryHighDynamicRange = "CICategoryHighDynamicRange"
/// An integer attribute type.
public let kCIAttributeTypeInteger = "CIAttributeTypeInteger"
/// A count attribute type.
public let kCIAttributeTypeCount = "CIAttributeTypeCount"
/// A three-dimensional position attribute type.
public let kCIAttributeTypePosition3 = "CIAttributeTypePosition3"
