import CoreGraphics
import Foundation

/// The properties you use to configure a page curl transition filter.
public protocol CIPageCurlTransition: CITransitionFilter {
    /// The image on the back of the page.
    var backsideImage: CIImage? { get set }
    /// The image whose brightness lights the curl.
    var shadingImage: CIImage? { get set }
    /// The extent of the page.
    var extent: CGRect { get set }
    /// The angle, in radians, of the curl's direction.
    var angle: Float { get set }
    /// The radius of the curl.
    var radius: Float { get set }
}

/// The properties you use to configure a page curl with shadow transition filter.
public protocol CIPageCurlWithShadowTransition: CITransitionFilter {
    /// The image on the back of the page.
    var backsideImage: CIImage? { get set }
    /// The extent of the page; empty for the image's own.
    var extent: CGRect { get set }
    /// The angle, in radians, of the curl's direction.
    var angle: Float { get set }
    /// The radius of the curl.
    var radius: Float { get set }
    /// The length of the shadow, as a share of the curl's diameter.
    var shadowSize: Float { get set }
    /// The darkness of the shadow.
    var shadowAmount: Float { get set }
    /// Where the shadow falls; empty for everywhere.
    var shadowExtent: CGRect { get set }
}

/// The typed form of the page curls: each property reads and writes its input by Apple's key.
final class PageCurlTypedFilter: TypedFilter, CIPageCurlTransition, CIPageCurlWithShadowTransition, @unchecked Sendable {

    @Input(kCIInputTargetImageKey) var targetImage: CIImage?
    @Input("inputBacksideImage") var backsideImage: CIImage?
    @Input("inputShadingImage") var shadingImage: CIImage?
    @Input(kCIInputTimeKey) var time: Float
    @Input(kCIInputExtentKey) var extent: CGRect
    @Input(kCIInputAngleKey) var angle: Float
    @Input(kCIInputRadiusKey) var radius: Float
    @Input("inputShadowSize") var shadowSize: Float
    @Input("inputShadowAmount") var shadowAmount: Float
    @Input("inputShadowExtent") var shadowExtent: CGRect
}

extension CIFilter {
    /// Transitions from one image to another by simulating a curling page, revealing the new image as the page curls.
    public class func pageCurlTransition() -> CIFilter & CIPageCurlTransition { PageCurlTypedFilter(definition: .named("CIPageCurlTransition")) }
    /// Transitions from one image to another by simulating a curling page and casting a shadow on the new image.
    public class func pageCurlWithShadowTransition() -> CIFilter & CIPageCurlWithShadowTransition {
        PageCurlTypedFilter(definition: .named("CIPageCurlWithShadowTransition"))
    }
}
