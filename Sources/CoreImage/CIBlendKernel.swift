import CoreGraphics
import Foundation

/// A kernel that blends a foreground image over a background image, as Core Image's built-in
/// blend kernels do.
///
/// The built-in kernels here are the compositing operators and the separable blend modes, with the
/// W3C's formulas; kernels written in a kernel language do not exist on Linux.
open class CIBlendKernel: NSObject, @unchecked Sendable {
    /// How the two images are combined.
    private enum Operation {
        /// Foreground over background.
        case over
        /// Background over foreground.
        case under
        /// A blend mode, with the foreground as the source.
        case mode(BlendMode)
        /// A blend mode with the images' roles swapped: the background as the source.
        case swapped(BlendMode)
        /// A blend mode or operator computed by its formula, with the foreground as the source.
        case computed(ComputedBlend)
    }

    private let operation: Operation

    private init(_ operation: Operation) {
        self.operation = operation
        super.init()
    }

    /// Creates a new image using the blend kernel and the specified foreground and background images.
    open func apply(foreground: CIImage, background: CIImage) -> CIImage? {
        switch operation {
        case .over: return foreground.composited(over: background)
        case .under: return background.composited(over: foreground)
        case .mode(let mode): return foreground.derived(Recipe.blending(foreground.recipe, background.recipe, mode))
        case .swapped(let mode): return foreground.derived(Recipe.blending(background.recipe, foreground.recipe, mode))
        case .computed(let blend): return foreground.derived(blend.recipe(foreground.recipe, background.recipe))
        }
    }

    /// Creates a new image using the blend kernel, the specified foreground and background images, and a color space (taken as sRGB).
    open func apply(foreground: CIImage, background: CIImage, colorSpace: CGColorSpace) -> CIImage? {
        apply(foreground: foreground, background: background)
    }

    /// A blend kernel that adds the foreground and background color components.
    open class var componentAdd: CIBlendKernel { CIBlendKernel(.mode(.addition)) }
    /// A blend kernel that multiplies the foreground and background color components, alpha included.
    open class var componentMultiply: CIBlendKernel { CIBlendKernel(.mode(.multiplyCompositing)) }
    /// A blend kernel that places the foreground over the background.
    open class var sourceOver: CIBlendKernel { CIBlendKernel(.over) }
    /// A blend kernel that places the background over the foreground.
    open class var destinationOver: CIBlendKernel { CIBlendKernel(.under) }
    /// A blend kernel that keeps the foreground where the background is.
    open class var sourceIn: CIBlendKernel { CIBlendKernel(.mode(.sourceIn)) }
    /// A blend kernel that keeps the background where the foreground is.
    open class var destinationIn: CIBlendKernel { CIBlendKernel(.swapped(.sourceIn)) }
    /// A blend kernel that keeps the foreground where the background is not.
    open class var sourceOut: CIBlendKernel { CIBlendKernel(.mode(.sourceOut)) }
    /// A blend kernel that keeps the background where the foreground is not.
    open class var destinationOut: CIBlendKernel { CIBlendKernel(.swapped(.sourceOut)) }
    /// A blend kernel that places the foreground over the background, inside the background's shape.
    open class var sourceAtop: CIBlendKernel { CIBlendKernel(.mode(.sourceAtop)) }
    /// A blend kernel that places the background over the foreground, inside the foreground's shape.
    open class var destinationAtop: CIBlendKernel { CIBlendKernel(.swapped(.sourceAtop)) }
    /// A blend kernel that multiplies the foreground and background colors.
    open class var multiply: CIBlendKernel { CIBlendKernel(.mode(.multiply)) }
    /// A blend kernel that screens the foreground over the background.
    open class var screen: CIBlendKernel { CIBlendKernel(.mode(.screen)) }
    /// A blend kernel that multiplies or screens the colors, depending on the background's.
    open class var overlay: CIBlendKernel { CIBlendKernel(.mode(.overlay)) }
    /// A blend kernel that keeps the darker of the foreground and background colors.
    open class var darken: CIBlendKernel { CIBlendKernel(.mode(.darken)) }
    /// A blend kernel that keeps the lighter of the foreground and background colors.
    open class var lighten: CIBlendKernel { CIBlendKernel(.mode(.lighten)) }
    /// A blend kernel that brightens the background to reflect the foreground.
    open class var colorDodge: CIBlendKernel { CIBlendKernel(.mode(.colorDodge)) }
    /// A blend kernel that darkens the background to reflect the foreground.
    open class var colorBurn: CIBlendKernel { CIBlendKernel(.mode(.colorBurn)) }
    /// A blend kernel that multiplies or screens the colors, depending on the foreground's.
    open class var hardLight: CIBlendKernel { CIBlendKernel(.mode(.hardLight)) }
    /// A blend kernel that darkens or lightens the colors, depending on the foreground's.
    open class var softLight: CIBlendKernel { CIBlendKernel(.mode(.softLight)) }
    /// A blend kernel that subtracts the darker of the two colors from the lighter.
    open class var difference: CIBlendKernel { CIBlendKernel(.mode(.difference)) }
    /// A blend kernel like the difference, with lower contrast.
    open class var exclusion: CIBlendKernel { CIBlendKernel(.mode(.exclusion)) }
    /// A blend kernel that subtracts the foreground color from the background color.
    open class var subtract: CIBlendKernel { CIBlendKernel(.computed(.subtract)) }
    /// A blend kernel that divides the background color by the foreground color.
    open class var divide: CIBlendKernel { CIBlendKernel(.computed(.divide)) }
    /// A blend kernel that darkens the background by the sum of the two colors less one.
    open class var linearBurn: CIBlendKernel { CIBlendKernel(.computed(.linearBurn)) }
    /// A blend kernel that brightens the background by adding the foreground color.
    open class var linearDodge: CIBlendKernel { CIBlendKernel(.computed(.linearDodge)) }
    /// A blend kernel that burns or dodges linearly, depending on the foreground color.
    open class var linearLight: CIBlendKernel { CIBlendKernel(.computed(.linearLight)) }
    /// A blend kernel that keeps the darker or the lighter color, depending on the foreground color.
    open class var pinLight: CIBlendKernel { CIBlendKernel(.computed(.pinLight)) }
    /// A blend kernel that burns or dodges by contrast, depending on the foreground color.
    open class var vividLight: CIBlendKernel { CIBlendKernel(.computed(.vividLight)) }
    /// A blend kernel that takes the foreground's hue with the background's saturation and luminosity.
    open class var hue: CIBlendKernel { CIBlendKernel(.computed(.hue)) }
    /// A blend kernel that takes the foreground's saturation with the background's hue and luminosity.
    open class var saturation: CIBlendKernel { CIBlendKernel(.computed(.saturation)) }
    /// A blend kernel that takes the foreground's hue and saturation with the background's luminosity.
    open class var color: CIBlendKernel { CIBlendKernel(.computed(.color)) }
    /// A blend kernel that takes the foreground's luminosity with the background's hue and saturation.
    open class var luminosity: CIBlendKernel { CIBlendKernel(.computed(.luminosity)) }
    /// A blend kernel that keeps the larger of each component, alpha included.
    open class var componentMax: CIBlendKernel { CIBlendKernel(.computed(.componentMax)) }
    /// A blend kernel that keeps the smaller of each component, alpha included.
    open class var componentMin: CIBlendKernel { CIBlendKernel(.computed(.componentMin)) }
    /// A blend kernel that sets each component to 1 where the two sum to 1 or more, else 0.
    open class var hardMix: CIBlendKernel { CIBlendKernel(.computed(.hardMix)) }
    /// A blend kernel that keeps whichever color has the lower luminosity.
    open class var darkerColor: CIBlendKernel { CIBlendKernel(.computed(.darkerColor)) }
    /// A blend kernel that keeps whichever color has the higher luminosity.
    open class var lighterColor: CIBlendKernel { CIBlendKernel(.computed(.lighterColor)) }
    /// A blend kernel that gives a transparent result.
    open class var clear: CIBlendKernel { CIBlendKernel(.computed(.clear)) }
    /// A blend kernel that keeps the foreground alone.
    open class var source: CIBlendKernel { CIBlendKernel(.computed(.source)) }
    /// A blend kernel that keeps the background alone.
    open class var destination: CIBlendKernel { CIBlendKernel(.computed(.destination)) }
    /// A blend kernel that keeps each image where the other is not.
    open class var exclusiveOr: CIBlendKernel { CIBlendKernel(.computed(.exclusiveOr)) }
}
