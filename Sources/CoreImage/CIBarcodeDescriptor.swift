import Foundation

/// An abstract base class that represents a machine-readable code's attributes.
///
/// Subclasses describe the symbol of one kind of code: its payload as codewords and the fields
/// its specification defines. On Linux, the descriptors a metadata output gives are built from
/// what ZXing-C++ reports about the symbol it read (see each subclass for what that is).
open class CIBarcodeDescriptor: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
    /// A Boolean value that indicates whether the class supports secure coding: it does.
    public class var supportsSecureCoding: Bool { true }

    override init() {}

    /// Creates a descriptor from an archive; the base class has nothing of its own to decode.
    public required init?(coder: NSCoder) {}

    /// Archives the descriptor; the base class has nothing of its own to encode.
    open func encode(with coder: NSCoder) {}

    /// Returns the descriptor itself: descriptors are immutable.
    open func copy(with zone: NSZone? = nil) -> Any { self }
}
