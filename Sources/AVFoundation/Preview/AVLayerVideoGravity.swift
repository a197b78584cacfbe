import Foundation

/// Values that describe how a layer displays video content within its bounds.
public struct AVLayerVideoGravity: RawRepresentable, Hashable, Sendable, _StringConstantBridging {
    /// The gravity's name.
    public let rawValue: String
    /// Creates a gravity from its name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The video keeps its aspect ratio and fits within the layer's bounds.
    public static let resizeAspect = AVLayerVideoGravity(rawValue: "AVLayerVideoGravityResizeAspect")
    /// The video keeps its aspect ratio and fills the layer's bounds, cropped as needed.
    public static let resizeAspectFill = AVLayerVideoGravity(rawValue: "AVLayerVideoGravityResizeAspectFill")
    /// The video is stretched to fill the layer's bounds.
    public static let resize = AVLayerVideoGravity(rawValue: "AVLayerVideoGravityResize")
}
