import CoreImage
import Foundation

extension CIImage {
    /// Initializes an image object from depth data: its depth or disparity map as grey, 0 black and 1 white.
    public convenience init?(depthData data: AVDepthData) {
        self.init(depthData: data, options: nil)
    }

    /// Initializes an image object from depth data, with options.
    public convenience init?(depthData data: AVDepthData, options: [CIImageOption: Any]? = nil) {
        self.init(cvPixelBuffer: data.depthDataMap, options: options)
    }

    /// Initializes an image object from a portrait effects matte: how much of each pixel is a person, as grey.
    public convenience init?(portaitEffectsMatte matte: AVPortraitEffectsMatte) {
        self.init(portaitEffectsMatte: matte, options: nil)
    }

    /// Initializes an image object from a portrait effects matte, with options.
    public convenience init?(portaitEffectsMatte matte: AVPortraitEffectsMatte, options: [CIImageOption: Any]? = nil) {
        self.init(cvPixelBuffer: matte.mattingImage, options: options)
    }

    /// Initializes an image object from a semantic segmentation matte: how much of each pixel belongs to the segment, as grey.
    public convenience init?(semanticSegmentationMatte matte: AVSemanticSegmentationMatte) {
        self.init(semanticSegmentationMatte: matte, options: nil)
    }

    /// Initializes an image object from a semantic segmentation matte, with options.
    public convenience init?(semanticSegmentationMatte matte: AVSemanticSegmentationMatte, options: [CIImageOption: Any]? = nil) {
        self.init(cvPixelBuffer: matte.mattingImage, options: options)
    }
}
