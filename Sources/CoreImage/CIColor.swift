import CoreGraphics
import Foundation

/// The component values defining a colour in a specific colour space (sRGB here), for Core Image.
open class CIColor: NSObject, @unchecked Sendable {
    /// The red component, 0 to 1.
    public let red: CGFloat
    /// The green component, 0 to 1.
    public let green: CGFloat
    /// The blue component, 0 to 1.
    public let blue: CGFloat
    /// The alpha component, 0 to 1.
    public let alpha: CGFloat
    /// The components, where `components` points.
    private let storage: UnsafeMutablePointer<CGFloat>

    /// Initializes a colour object with the specified red, green, blue and alpha component values.
    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
        storage = UnsafeMutablePointer<CGFloat>.allocate(capacity: 4)
        storage.initialize(from: [red, green, blue, alpha], count: 4)
        super.init()
    }

    deinit { storage.deallocate() }

    /// Initializes a colour object with the specified red, green and blue component values, opaque.
    public convenience init(red: CGFloat, green: CGFloat, blue: CGFloat) {
        self.init(red: red, green: green, blue: blue, alpha: 1)
    }

    /// Initializes a colour object with a Quartz colour (grey or RGB components).
    public convenience init(cgColor c: CGColor) {
        let components = c.components ?? [0, 0, 0, 1]
        if components.count >= 4 {
            self.init(red: components[0], green: components[1], blue: components[2], alpha: components[3])
        } else if components.count == 2 {
            self.init(red: components[0], green: components[0], blue: components[0], alpha: components[1])
        } else {
            self.init(red: 0, green: 0, blue: 0, alpha: 1)
        }
    }

    /// Initializes a colour object with a Quartz colour.
    public convenience init(color: CGColor) { self.init(cgColor: color) }

    /// The number of colour components, alpha included.
    open var numberOfComponents: Int { 4 }

    /// The colour's components: red, green, blue, alpha.
    open var components: UnsafePointer<CGFloat> { UnsafePointer(storage) }

    /// The colour's components as a string: "R G B A".
    open var stringRepresentation: String { "\(red) \(green) \(blue) \(alpha)" }

    /// Creates a colour from a string of components, as `stringRepresentation` gives them.
    public convenience init(string representation: String) {
        let values = representation.split(separator: " ").compactMap { Double($0) }.map { CGFloat($0) }
        self.init(
            red: values.count > 0 ? values[0] : 0, green: values.count > 1 ? values[1] : 0, blue: values.count > 2 ? values[2] : 0,
            alpha: values.count > 3 ? values[3] : 1)
    }

    /// Returns whether another object is a colour with the same components.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CIColor else { return false }
        return (red, green, blue, alpha) == (other.red, other.green, other.blue, other.alpha)
    }

    /// The colour's components, for hashing.
    open override var hash: Int { [red, green, blue, alpha].hashValue }

    /// Opaque black.
    public class var black: CIColor { CIColor(red: 0, green: 0, blue: 0) }
    /// Opaque white.
    public class var white: CIColor { CIColor(red: 1, green: 1, blue: 1) }
    /// Opaque grey (0.5).
    public class var gray: CIColor { CIColor(red: 0.5, green: 0.5, blue: 0.5) }
    /// Opaque red.
    public class var red: CIColor { CIColor(red: 1, green: 0, blue: 0) }
    /// Opaque green.
    public class var green: CIColor { CIColor(red: 0, green: 1, blue: 0) }
    /// Opaque blue.
    public class var blue: CIColor { CIColor(red: 0, green: 0, blue: 1) }
    /// Opaque cyan.
    public class var cyan: CIColor { CIColor(red: 0, green: 1, blue: 1) }
    /// Opaque magenta.
    public class var magenta: CIColor { CIColor(red: 1, green: 0, blue: 1) }
    /// Opaque yellow.
    public class var yellow: CIColor { CIColor(red: 1, green: 1, blue: 0) }
    /// Transparent black.
    public class var clear: CIColor { CIColor(red: 0, green: 0, blue: 0, alpha: 0) }
}
