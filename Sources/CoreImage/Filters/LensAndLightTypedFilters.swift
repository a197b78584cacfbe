import CoreGraphics
import Foundation

/// The properties you use to configure a circular wrap filter.
public protocol CICircularWrap: CIFilterProtocol {
    /// The image to wrap.
    var inputImage: CIImage? { get set }
    /// The center of the circle.
    var center: CGPoint { get set }
    /// The radius of the circle the image wraps around.
    var radius: Float { get set }
    /// The angle, in radians, of the image's middle from the top.
    var angle: Float { get set }
}

/// The properties you use to configure a light tunnel filter.
public protocol CILightTunnel: CIFilterProtocol {
    /// The image to distort.
    var inputImage: CIImage? { get set }
    /// The center of the tunnel.
    var center: CGPoint { get set }
    /// The rotation, in radians, of the streaks.
    var rotation: Float { get set }
    /// The radius of the tunnel's opening.
    var radius: Float { get set }
}

/// The properties you use to configure a torus lens distortion filter.
public protocol CITorusLensDistortion: CIFilterProtocol {
    /// The image to distort.
    var inputImage: CIImage? { get set }
    /// The center of the ring.
    var center: CGPoint { get set }
    /// The radius of the ring's middle.
    var radius: Float { get set }
    /// The width of the ring.
    var width: Float { get set }
    /// The refraction of the glass.
    var refraction: Float { get set }
}

/// The properties you use to configure a glass lozenge filter.
public protocol CIGlassLozenge: CIFilterProtocol {
    /// The image to distort.
    var inputImage: CIImage? { get set }
    /// The center of one end of the lozenge.
    var point0: CGPoint { get set }
    /// The center of the other end of the lozenge.
    var point1: CGPoint { get set }
    /// The radius of the lozenge.
    var radius: Float { get set }
    /// The refraction of the glass.
    var refraction: Float { get set }
}

/// The properties you use to configure a stretch crop filter.
public protocol CIStretchCrop: CIFilterProtocol {
    /// The image to fit.
    var inputImage: CIImage? { get set }
    /// The size of the output image.
    var size: CGPoint { get set }
    /// How much of the difference in aspect is cropped rather than stretched.
    var cropAmount: Float { get set }
    /// How much of the stretch falls in the middle of the image.
    var centerStretchAmount: Float { get set }
}

/// The properties you use to configure a Droste filter.
public protocol CIDroste: CIFilterProtocol {
    /// The image to repeat inside itself.
    var inputImage: CIImage? { get set }
    /// One corner of the inset rectangle.
    var insetPoint0: CGPoint { get set }
    /// The opposite corner of the inset rectangle.
    var insetPoint1: CGPoint { get set }
    /// The number of strands of the spiral.
    var strands: Float { get set }
    /// The periodicity of the spiral.
    var periodicity: Float { get set }
    /// The rotation, in radians, of the repetitions.
    var rotation: Float { get set }
    /// The zoom into the repetitions.
    var zoom: Float { get set }
}

/// The properties you use to configure a sunbeams generator filter.
public protocol CISunbeamsGenerator: CIFilterProtocol {
    /// The center of the sun.
    var center: CGPoint { get set }
    /// The color of the sun and its beams.
    var color: CIColor { get set }
    /// The radius of the sun.
    var sunRadius: Float { get set }
    /// The reach of the beams, in sun radii.
    var maxStriationRadius: Float { get set }
    /// The strength of the beams' striations.
    var striationStrength: Float { get set }
    /// The contrast of the beams' striations.
    var striationContrast: Float { get set }
    /// The time, which moves the striations.
    var time: Float { get set }
}

/// The properties you use to configure a star shine generator filter.
public protocol CIStarShineGenerator: CIFilterProtocol {
    /// The center of the star.
    var center: CGPoint { get set }
    /// The color of the star.
    var color: CIColor { get set }
    /// The radius of the star's glow.
    var radius: Float { get set }
    /// How far the cross reaches, in radii.
    var crossScale: Float { get set }
    /// The angle, in radians, of the cross.
    var crossAngle: Float { get set }
    /// The opacity of the cross.
    var crossOpacity: Float { get set }
    /// The width of the cross's spikes.
    var crossWidth: Float { get set }
    /// How quickly the spikes fade along their length.
    var epsilon: Float { get set }
}

/// The properties you use to configure a lenticular halo generator filter.
public protocol CILenticularHaloGenerator: CIFilterProtocol {
    /// The center of the halo.
    var center: CGPoint { get set }
    /// The color of the halo.
    var color: CIColor { get set }
    /// The radius of the halo.
    var haloRadius: Float { get set }
    /// The width of the halo's rings.
    var haloWidth: Float { get set }
    /// How far the red, green and blue rings overlap.
    var haloOverlap: Float { get set }
    /// The strength of the halo's striations.
    var striationStrength: Float { get set }
    /// The contrast of the halo's striations.
    var striationContrast: Float { get set }
    /// The time, which moves the striations.
    var time: Float { get set }
}

/// The properties you use to configure a flash transition filter.
public protocol CIFlashTransition: CITransitionFilter {
    /// The center of the flash.
    var center: CGPoint { get set }
    /// The extent of the flash.
    var extent: CGRect { get set }
    /// The color of the flash.
    var color: CIColor { get set }
    /// The reach of the flash's rays, in radii.
    var maxStriationRadius: Float { get set }
    /// The strength of the flash's striations.
    var striationStrength: Float { get set }
    /// The contrast of the flash's striations.
    var striationContrast: Float { get set }
    /// The time at which the flash starts to fade into the target image.
    var fadeThreshold: Float { get set }
}

/// The properties you use to configure a mod transition filter.
public protocol CIModTransition: CITransitionFilter {
    /// The center of the pattern of holes.
    var center: CGPoint { get set }
    /// The angle, in radians, of the pattern.
    var angle: Float { get set }
    /// The size of the holes across.
    var radius: Float { get set }
    /// The size of the holes along.
    var compression: Float { get set }
}

/// The properties you use to configure a ripple transition filter.
public protocol CIRippleTransition: CITransitionFilter {
    /// The image whose brightness lights the ripple.
    var shadingImage: CIImage? { get set }
    /// The center of the ripple.
    var center: CGPoint { get set }
    /// The extent the ripple spreads over.
    var extent: CGRect { get set }
    /// The width of the ripple.
    var width: Float { get set }
    /// How far the ripple moves the picture.
    var scale: Float { get set }
}

/// The properties you use to configure an accordion fold transition filter.
public protocol CIAccordionFoldTransition: CITransitionFilter {
    /// The height of the part of the image that stays unfolded at the bottom.
    var bottomHeight: Float { get set }
    /// The number of folds.
    var numberOfFolds: Float { get set }
    /// The darkness of the panels that face away.
    var foldShadowAmount: Float { get set }
}

/// The properties you use to configure a pointillize filter.
public protocol CIPointillize: CIFilterProtocol {
    /// The image to render as dots.
    var inputImage: CIImage? { get set }
    /// The radius of the dots.
    var radius: Float { get set }
    /// The center of the grid of dots.
    var center: CGPoint { get set }
}

/// The properties you use to configure an edge work filter.
public protocol CIEdgeWork: CIFilterProtocol {
    /// The image to render as a woodcut.
    var inputImage: CIImage? { get set }
    /// The radius of the surroundings each point is compared with.
    var radius: Float { get set }
}

/// The properties you use to configure a spot color filter.
public protocol CISpotColor: CIFilterProtocol {
    /// The image whose colors are replaced.
    var inputImage: CIImage? { get set }
    /// The center of the first color range to replace.
    var centerColor1: CIColor { get set }
    /// The replacement for the first color range.
    var replacementColor1: CIColor { get set }
    /// How closely a color must match the first center color to be replaced.
    var closeness1: Float { get set }
    /// The sharpness of the first range's edge.
    var contrast1: Float { get set }
    /// The center of the second color range to replace.
    var centerColor2: CIColor { get set }
    /// The replacement for the second color range.
    var replacementColor2: CIColor { get set }
    /// How closely a color must match the second center color to be replaced.
    var closeness2: Float { get set }
    /// The sharpness of the second range's edge.
    var contrast2: Float { get set }
    /// The center of the third color range to replace.
    var centerColor3: CIColor { get set }
    /// The replacement for the third color range.
    var replacementColor3: CIColor { get set }
    /// How closely a color must match the third center color to be replaced.
    var closeness3: Float { get set }
    /// The sharpness of the third range's edge.
    var contrast3: Float { get set }
}

/// The typed form of the lenses, the light generators, the reveal transitions, pointillize, edge
/// work and spot color: each property reads and writes its input by Apple's key.
final class LensAndLightTypedFilter: TypedFilter, CICircularWrap, CILightTunnel, CITorusLensDistortion, CIGlassLozenge, CIStretchCrop, CIDroste,
    CISunbeamsGenerator, CIStarShineGenerator, CILenticularHaloGenerator, CIFlashTransition, CIModTransition, CIRippleTransition, CIAccordionFoldTransition,
    CIPointillize, CIEdgeWork, CISpotColor,
    @unchecked Sendable
{
    @Input(kCIInputCenterKey) var center: CGPoint
    @Input(kCIInputRadiusKey) var radius: Float
    @Input(kCIInputAngleKey) var angle: Float
    @Input("inputRotation") var rotation: Float
    @Input(kCIInputWidthKey) var width: Float
    @Input("inputRefraction") var refraction: Float
    @Input("inputPoint0") var point0: CGPoint
    @Input("inputPoint1") var point1: CGPoint
    @Input("inputSize") var size: CGPoint
    @Input("inputCropAmount") var cropAmount: Float
    @Input("inputCenterStretchAmount") var centerStretchAmount: Float
    @Input("inputInsetPoint0") var insetPoint0: CGPoint
    @Input("inputInsetPoint1") var insetPoint1: CGPoint
    @Input("inputStrands") var strands: Float
    @Input("inputPeriodicity") var periodicity: Float
    @Input("inputZoom") var zoom: Float
    @Input(kCIInputColorKey) var color: CIColor
    @Input("inputSunRadius") var sunRadius: Float
    @Input("inputMaxStriationRadius") var maxStriationRadius: Float
    @Input("inputStriationStrength") var striationStrength: Float
    @Input("inputStriationContrast") var striationContrast: Float
    @Input(kCIInputTimeKey) var time: Float
    @Input("inputCrossScale") var crossScale: Float
    @Input("inputCrossAngle") var crossAngle: Float
    @Input("inputCrossOpacity") var crossOpacity: Float
    @Input("inputCrossWidth") var crossWidth: Float
    @Input("inputEpsilon") var epsilon: Float
    @Input("inputHaloRadius") var haloRadius: Float
    @Input("inputHaloWidth") var haloWidth: Float
    @Input("inputHaloOverlap") var haloOverlap: Float
    @Input(kCIInputExtentKey) var extent: CGRect
    @Input("inputFadeThreshold") var fadeThreshold: Float
    @Input("inputCompression") var compression: Float
    @Input("inputShadingImage") var shadingImage: CIImage?
    @Input(kCIInputScaleKey) var scale: Float
    @Input("inputBottomHeight") var bottomHeight: Float
    @Input("inputNumberOfFolds") var numberOfFolds: Float
    @Input("inputFoldShadowAmount") var foldShadowAmount: Float
    @Input("inputCenterColor1") var centerColor1: CIColor
    @Input("inputReplacementColor1") var replacementColor1: CIColor
    @Input("inputCloseness1") var closeness1: Float
    @Input("inputContrast1") var contrast1: Float
    @Input("inputCenterColor2") var centerColor2: CIColor
    @Input("inputReplacementColor2") var replacementColor2: CIColor
    @Input("inputCloseness2") var closeness2: Float
    @Input("inputContrast2") var contrast2: Float
    @Input("inputCenterColor3") var centerColor3: CIColor
    @Input("inputReplacementColor3") var replacementColor3: CIColor
    @Input("inputCloseness3") var closeness3: Float
    @Input("inputContrast3") var contrast3: Float
    @Input(kCIInputTargetImageKey) var targetImage: CIImage?
}

extension CIFilter {
    /// Wraps an image around a transparent circle.
    public class func circularWrap() -> CIFilter & CICircularWrap { LensAndLightTypedFilter(definition: .named("CICircularWrap")) }
    /// Rotates a portion of an image about a center to give a tunneling effect.
    public class func lightTunnel() -> CIFilter & CILightTunnel { LensAndLightTypedFilter(definition: .named("CILightTunnel")) }
    /// Creates a torus-shaped lens and distorts the portion of the image over which it's placed.
    public class func torusLensDistortion() -> CIFilter & CITorusLensDistortion { LensAndLightTypedFilter(definition: .named("CITorusLensDistortion")) }
    /// Creates a lozenge-shaped lens and distorts the portion of the image over which it's placed.
    public class func glassLozenge() -> CIFilter & CIGlassLozenge { LensAndLightTypedFilter(definition: .named("CIGlassLozenge")) }
    /// Distorts an image by stretching or cropping it to fit a target size.
    public class func stretchCrop() -> CIFilter & CIStretchCrop { LensAndLightTypedFilter(definition: .named("CIStretchCrop")) }
    /// Performs M.C. Escher's Droste effect on an image.
    public class func droste() -> CIFilter & CIDroste { LensAndLightTypedFilter(definition: .named("CIDroste")) }
    /// Generates a sun effect.
    public class func sunbeamsGenerator() -> CIFilter & CISunbeamsGenerator { LensAndLightTypedFilter(definition: .named("CISunbeamsGenerator")) }
    /// Generates a starburst pattern.
    public class func starShineGenerator() -> CIFilter & CIStarShineGenerator { LensAndLightTypedFilter(definition: .named("CIStarShineGenerator")) }
    /// Simulates a halo that's generated by the diffraction associated with the spread of a lens.
    public class func lenticularHaloGenerator() -> CIFilter & CILenticularHaloGenerator {
        LensAndLightTypedFilter(definition: .named("CILenticularHaloGenerator"))
    }
    /// Creates a flash of light to transition between two images.
    public class func flashTransition() -> CIFilter & CIFlashTransition { LensAndLightTypedFilter(definition: .named("CIFlashTransition")) }
    /// Transitions between two images by revealing the target image through irregularly shaped holes.
    public class func modTransition() -> CIFilter & CIModTransition { LensAndLightTypedFilter(definition: .named("CIModTransition")) }
    /// Transitions between two images by creating a circular wave that expands from a center point.
    public class func rippleTransition() -> CIFilter & CIRippleTransition { LensAndLightTypedFilter(definition: .named("CIRippleTransition")) }
    /// Transitions from one image to another by unfolding and crossfading.
    public class func accordionFoldTransition() -> CIFilter & CIAccordionFoldTransition {
        LensAndLightTypedFilter(definition: .named("CIAccordionFoldTransition"))
    }
    /// Renders an image in a pointillistic style.
    public class func pointillize() -> CIFilter & CIPointillize { LensAndLightTypedFilter(definition: .named("CIPointillize")) }
    /// Produces a stylized black-and-white rendition of an image that looks similar to a woodblock cutout.
    public class func edgeWork() -> CIFilter & CIEdgeWork { LensAndLightTypedFilter(definition: .named("CIEdgeWork")) }
    /// Replaces colors of an image with specified colors.
    public class func spotColor() -> CIFilter & CISpotColor { LensAndLightTypedFilter(definition: .named("CISpotColor")) }
}
