import Foundation

/// A set of components that define a colour, with a colour space that says how to interpret them.
///
/// Immutable and thread-safe.
public final class CGColor: @unchecked Sendable {
    /// The colour space of the colour.
    public let colorSpace: CGColorSpace?
    /// The colour's components, alpha last.
    public let components: [CGFloat]?

    private init(space: CGColorSpace, components: [CGFloat]) {
        colorSpace = space
        self.components = components
    }

    /// Creates a colour in the generic RGB colour space.
    public convenience init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.init(space: CGColorSpace(name: CGColorSpace.sRGB)!, components: [red, green, blue, alpha])
    }

    /// Creates a colour in the sRGB colour space.
    public convenience init(srgbRed red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.init(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// Creates a grey colour in the generic grey colour space.
    public convenience init(gray: CGFloat, alpha: CGFloat) {
        self.init(space: CGColorSpace(name: CGColorSpace.genericGrayGamma2_2)!, components: [gray, alpha])
    }

    /// Creates a colour from a colour space and its components, alpha last; nil for a colour space without components.
    public convenience init?(colorSpace space: CGColorSpace, components: UnsafePointer<CGFloat>) {
        let count = space.numberOfComponents
        guard count > 0 else { return nil }
        self.init(space: space, components: Array(UnsafeBufferPointer(start: components, count: count + 1)))
    }

    /// The number of components, alpha included.
    public var numberOfComponents: Int { components?.count ?? 0 }

    /// The colour's alpha.
    public var alpha: CGFloat { components?.last ?? 1 }

    /// Returns the colour with another alpha.
    public func copy(alpha: CGFloat) -> CGColor? {
        guard let colorSpace, var components else { return nil }
        components[components.count - 1] = alpha
        return CGColor(space: colorSpace, components: components)
    }

    /// Opaque black.
    public static let black = CGColor(gray: 0, alpha: 1)
    /// Opaque white.
    public static let white = CGColor(gray: 1, alpha: 1)
    /// Transparent black.
    public static let clear = CGColor(gray: 0, alpha: 0)

    /// The colour as premultiplied-free red, green, blue and alpha, each clamped to 0...1 (NaN is 0).
    var rgba: (red: Double, green: Double, blue: Double, alpha: Double) {
        func unit(_ value: CGFloat) -> Double { value.isNaN ? 0 : Double(min(1, max(0, value))) }
        guard let components, !components.isEmpty else { return (0, 0, 0, 1) }
        let alpha = unit(components[components.count - 1])
        switch colorSpace?.model {
        case .monochrome: return (unit(components[0]), unit(components[0]), unit(components[0]), alpha)
        case .rgb where components.count >= 4: return (unit(components[0]), unit(components[1]), unit(components[2]), alpha)
        default: return (0, 0, 0, alpha)
        }
    }
}

extension CGColor: Equatable {
    /// Whether two colours have the same colour space model and components.
    public static func == (lhs: CGColor, rhs: CGColor) -> Bool {
        lhs.colorSpace?.model == rhs.colorSpace?.model && lhs.colorSpace?.name == rhs.colorSpace?.name && lhs.components == rhs.components
    }
}
