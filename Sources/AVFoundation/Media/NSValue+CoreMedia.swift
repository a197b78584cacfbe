import CoreMedia
import Foundation

// Linux's Foundation stores no structs in a value, so each is kept as the 64-bit words it is made of.
extension NSValue {
    /// Creates a value that holds a time.
    public convenience init(time: CMTime) {
        var stored = time
        self.init(bytes: &stored, objCType: "[3q]")
    }

    /// Creates a value that holds a time range.
    public convenience init(timeRange: CMTimeRange) {
        var stored = timeRange
        self.init(bytes: &stored, objCType: "[6q]")
    }

    /// Creates a value that holds a time mapping.
    public convenience init(timeMapping: CMTimeMapping) {
        var stored = timeMapping
        self.init(bytes: &stored, objCType: "[12q]")
    }

    /// The time the value holds.
    public var timeValue: CMTime { stored(as: CMTime.invalid, encoding: "[3q]") }

    /// The time range the value holds.
    public var timeRangeValue: CMTimeRange { stored(as: CMTimeRange.invalid, encoding: "[6q]") }

    /// The time mapping the value holds.
    public var timeMappingValue: CMTimeMapping {
        stored(as: CMTimeMapping(source: .invalid, target: .invalid), encoding: "[12q]")
    }

    private func stored<T>(as fallback: T, encoding: String) -> T {
        guard String(cString: objCType) == encoding else { return fallback }
        var value = fallback
        withUnsafeMutableBytes(of: &value) { getValue($0.baseAddress!) }
        return value
    }
}
