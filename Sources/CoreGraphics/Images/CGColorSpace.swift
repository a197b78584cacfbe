import Foundation

/// A profile that specifies how to interpret a color value for display.
///
/// Colour spaces are named as Apple names them. Drawing on Linux does not convert between
/// colour spaces: components are drawn as given, and a colour space says what they mean (but an
/// image of floats in a linear space is encoded with sRGB's transfer function when drawn into a
/// context that is not linear).
/// Immutable and thread-safe.
public final class CGColorSpace: @unchecked Sendable {
    /// The colour space's name, or nil for a device colour space.
    nonisolated(unsafe) public let name: CFString?
    /// The colour space's model: monochrome, RGB and so on.
    public let model: CGColorSpaceModel

    init(name: CFString?, model: CGColorSpaceModel) {
        self.name = name
        self.model = model
    }

    /// Creates a colour space from one of Apple's colour space names, or nil for a name this system does not know.
    public convenience init?(name: CFString) {
        guard let model = Self.models[name as String] else { return nil }
        self.init(name: name, model: model)
    }

    /// The number of colour components, without alpha.
    public var numberOfComponents: Int { model.numberOfComponents }

    /// Whether the colour space can be the colour space of a bitmap context.
    public var supportsOutput: Bool { model == .rgb || model == .monochrome }

    /// Whether the colour space is a wide-gamut one.
    public var isWideGamutRGB: Bool {
        [
            Self.displayP3, Self.itur_2020, Self.extendedSRGB, Self.extendedLinearSRGB, Self.dcip3, Self.linearDisplayP3, Self.extendedDisplayP3,
            Self.extendedLinearDisplayP3, Self.displayP3_PQ, Self.displayP3_HLG, Self.linearITUR_2020, Self.extendedITUR_2020,
            Self.extendedLinearITUR_2020, Self.itur_2100_PQ, Self.itur_2100_HLG, Self.acescgLinear,
        ].contains(name)
    }

    /// Whether the colour space's transfer function is linear (its name says so, as Apple's linear spaces' names do).
    package var isLinear: Bool { (name as String?)?.contains("Linear") == true }

    /// The sRGB colour space.
    nonisolated(unsafe) public static let sRGB: CFString = "kCGColorSpaceSRGB"
    /// The sRGB primaries with a linear transfer function.
    nonisolated(unsafe) public static let linearSRGB: CFString = "kCGColorSpaceLinearSRGB"
    /// The sRGB colour space extended below 0 and above 1.
    nonisolated(unsafe) public static let extendedSRGB: CFString = "kCGColorSpaceExtendedSRGB"
    /// The linear sRGB colour space extended below 0 and above 1.
    nonisolated(unsafe) public static let extendedLinearSRGB: CFString = "kCGColorSpaceExtendedLinearSRGB"
    /// The Display P3 colour space.
    nonisolated(unsafe) public static let displayP3: CFString = "kCGColorSpaceDisplayP3"
    /// The DCI-P3 colour space.
    nonisolated(unsafe) public static let dcip3: CFString = "kCGColorSpaceDCIP3"
    /// The ITU-R BT.709 colour space, HD video's.
    nonisolated(unsafe) public static let itur_709: CFString = "kCGColorSpaceITUR_709"
    /// The ITU-R BT.2020 colour space, UHD video's.
    nonisolated(unsafe) public static let itur_2020: CFString = "kCGColorSpaceITUR_2020"
    /// Adobe RGB (1998).
    nonisolated(unsafe) public static let adobeRGB1998: CFString = "kCGColorSpaceAdobeRGB1998"
    /// Generic RGB with a linear transfer function.
    nonisolated(unsafe) public static let genericRGBLinear: CFString = "kCGColorSpaceGenericRGBLinear"
    /// Grey with a gamma of 2.2.
    nonisolated(unsafe) public static let genericGrayGamma2_2: CFString = "kCGColorSpaceGenericGrayGamma2_2"
    /// Grey with a linear transfer function.
    nonisolated(unsafe) public static let linearGray: CFString = "kCGColorSpaceLinearGray"
    /// Grey extended below 0 and above 1.
    nonisolated(unsafe) public static let extendedGray: CFString = "kCGColorSpaceExtendedGray"

    /// Display P3 with a linear transfer function.
    nonisolated(unsafe) public static let linearDisplayP3: CFString = "kCGColorSpaceLinearDisplayP3"
    /// Display P3 extended below 0 and above 1.
    nonisolated(unsafe) public static let extendedDisplayP3: CFString = "kCGColorSpaceExtendedDisplayP3"
    /// Display P3 with a linear transfer function, extended below 0 and above 1.
    nonisolated(unsafe) public static let extendedLinearDisplayP3: CFString = "kCGColorSpaceExtendedLinearDisplayP3"
    /// Display P3 primaries with the PQ transfer function (SMPTE ST 2084).
    nonisolated(unsafe) public static let displayP3_PQ: CFString = "kCGColorSpaceDisplayP3_PQ"
    /// Display P3 primaries with the hybrid log-gamma transfer function.
    nonisolated(unsafe) public static let displayP3_HLG: CFString = "kCGColorSpaceDisplayP3_HLG"
    /// ITU-R BT.2020 with a linear transfer function.
    nonisolated(unsafe) public static let linearITUR_2020: CFString = "kCGColorSpaceLinearITUR_2020"
    /// ITU-R BT.2020 extended below 0 and above 1.
    nonisolated(unsafe) public static let extendedITUR_2020: CFString = "kCGColorSpaceExtendedITUR_2020"
    /// ITU-R BT.2020 with a linear transfer function, extended below 0 and above 1.
    nonisolated(unsafe) public static let extendedLinearITUR_2020: CFString = "kCGColorSpaceExtendedLinearITUR_2020"
    /// ITU-R BT.2100 with the PQ transfer function: HDR10 video's.
    nonisolated(unsafe) public static let itur_2100_PQ: CFString = "kCGColorSpaceITUR_2100_PQ"
    /// ITU-R BT.2100 with the hybrid log-gamma transfer function: HLG video's.
    nonisolated(unsafe) public static let itur_2100_HLG: CFString = "kCGColorSpaceITUR_2100_HLG"
    /// Grey with a linear transfer function, extended below 0 and above 1.
    nonisolated(unsafe) public static let extendedLinearGray: CFString = "kCGColorSpaceExtendedLinearGray"
    /// The ACES CG colour space, with a linear transfer function.
    nonisolated(unsafe) public static let acescgLinear: CFString = "kCGColorSpaceACESCGLinear"

    /// The type identifier of colour spaces, which `CFGetTypeID(_:)` gives for each.
    public class var typeID: CFTypeID { CoreFoundationTypeIDs.shared.identifier(of: CGColorSpace.self) }

    private static let models: [String: CGColorSpaceModel] = [
        sRGB as String: .rgb, linearSRGB as String: .rgb, extendedSRGB as String: .rgb, extendedLinearSRGB as String: .rgb,
        displayP3 as String: .rgb, dcip3 as String: .rgb, itur_709 as String: .rgb, itur_2020 as String: .rgb,
        adobeRGB1998 as String: .rgb, genericRGBLinear as String: .rgb,
        genericGrayGamma2_2 as String: .monochrome, linearGray as String: .monochrome, extendedGray as String: .monochrome,
        linearDisplayP3 as String: .rgb, extendedDisplayP3 as String: .rgb, extendedLinearDisplayP3 as String: .rgb,
        displayP3_PQ as String: .rgb, displayP3_HLG as String: .rgb, linearITUR_2020 as String: .rgb, extendedITUR_2020 as String: .rgb,
        extendedLinearITUR_2020 as String: .rgb, itur_2100_PQ as String: .rgb, itur_2100_HLG as String: .rgb,
        extendedLinearGray as String: .monochrome, acescgLinear as String: .rgb,
    ]
}

/// The kind of colour a colour space describes.
public enum CGColorSpaceModel: Int32, Sendable {
    /// An unknown model.
    case unknown = -1
    /// Grey.
    case monochrome = 0
    /// Red, green and blue.
    case rgb = 1
    /// Cyan, magenta, yellow and black.
    case cmyk = 2
    /// CIE L*a*b*.
    case lab = 3
    /// Any number of inks.
    case deviceN = 4
    /// Colours indexed in a table.
    case indexed = 5
    /// A pattern.
    case pattern = 6
    /// CIE XYZ.
    case XYZ = 7

    var numberOfComponents: Int {
        switch self {
        case .monochrome: 1
        case .rgb, .lab, .XYZ: 3
        case .cmyk: 4
        case .unknown, .deviceN, .indexed, .pattern: 0
        }
    }
}

/// Returns the device-dependent RGB colour space.
public func CGColorSpaceCreateDeviceRGB() -> CGColorSpace { CGColorSpace(name: nil, model: .rgb) }

/// Returns the device-dependent grey colour space.
public func CGColorSpaceCreateDeviceGray() -> CGColorSpace { CGColorSpace(name: nil, model: .monochrome) }

/// Returns a colour space from one of Apple's colour space names.
public func CGColorSpaceCreateWithName(_ name: CFString) -> CGColorSpace? { CGColorSpace(name: name) }

/// Returns the number of colour components of a colour space.
public func CGColorSpaceGetNumberOfComponents(_ space: CGColorSpace?) -> Int { space?.numberOfComponents ?? 0 }

/// Returns the model of a colour space.
public func CGColorSpaceGetModel(_ space: CGColorSpace?) -> CGColorSpaceModel { space?.model ?? .unknown }

/// The sRGB colour space's name.
nonisolated(unsafe) public let kCGColorSpaceSRGB: CFString = CGColorSpace.sRGB
/// The linear sRGB colour space's name.
nonisolated(unsafe) public let kCGColorSpaceLinearSRGB: CFString = CGColorSpace.linearSRGB
/// The extended sRGB colour space's name.
nonisolated(unsafe) public let kCGColorSpaceExtendedSRGB: CFString = CGColorSpace.extendedSRGB
/// The Display P3 colour space's name.
nonisolated(unsafe) public let kCGColorSpaceDisplayP3: CFString = CGColorSpace.displayP3
/// The ITU-R BT.709 colour space's name.
nonisolated(unsafe) public let kCGColorSpaceITUR_709: CFString = CGColorSpace.itur_709
/// The ITU-R BT.2020 colour space's name.
nonisolated(unsafe) public let kCGColorSpaceITUR_2020: CFString = CGColorSpace.itur_2020
/// The gamma 2.2 grey colour space's name.
nonisolated(unsafe) public let kCGColorSpaceGenericGrayGamma2_2: CFString = CGColorSpace.genericGrayGamma2_2
/// The linear grey colour space's name.
nonisolated(unsafe) public let kCGColorSpaceLinearGray: CFString = CGColorSpace.linearGray
/// The extended linear Display P3 colour space's name.
nonisolated(unsafe) public let kCGColorSpaceExtendedLinearDisplayP3: CFString = CGColorSpace.extendedLinearDisplayP3
/// The ITU-R BT.2100 PQ colour space's name.
nonisolated(unsafe) public let kCGColorSpaceITUR_2100_PQ: CFString = CGColorSpace.itur_2100_PQ
/// The ITU-R BT.2100 HLG colour space's name.
nonisolated(unsafe) public let kCGColorSpaceITUR_2100_HLG: CFString = CGColorSpace.itur_2100_HLG
/// The Display P3 PQ colour space's name.
nonisolated(unsafe) public let kCGColorSpaceDisplayP3_PQ: CFString = CGColorSpace.displayP3_PQ
/// The Display P3 HLG colour space's name.
nonisolated(unsafe) public let kCGColorSpaceDisplayP3_HLG: CFString = CGColorSpace.displayP3_HLG
