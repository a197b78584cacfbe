import Foundation

/// The numerator of a `CMTime`.
public typealias CMTimeValue = Int64
/// The denominator of a `CMTime`: units per second.
public typealias CMTimeScale = Int32
/// The epoch of a `CMTime`, which distinguishes loops of a timeline.
public typealias CMTimeEpoch = Int64
/// A track's identifier within its movie, which stays the same when the movie is edited.
public typealias CMPersistentTrackID = Int32
/// The identifier that stands for no track.
public let kCMPersistentTrackID_Invalid: CMPersistentTrackID = 0

/// Flags that say what a `CMTime` holds.
public struct CMTimeFlags: OptionSet, Sendable, Hashable {
    /// The flags' raw value.
    public let rawValue: UInt32
    /// Creates flags from their raw value.
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// The time is valid.
    public static let valid = CMTimeFlags(rawValue: 1 << 0)
    /// The time has been rounded.
    public static let hasBeenRounded = CMTimeFlags(rawValue: 1 << 1)
    /// The time is positive infinity.
    public static let positiveInfinity = CMTimeFlags(rawValue: 1 << 2)
    /// The time is negative infinity.
    public static let negativeInfinity = CMTimeFlags(rawValue: 1 << 3)
    /// The time is indefinite.
    public static let indefinite = CMTimeFlags(rawValue: 1 << 4)
    /// The flags that make a time not numeric.
    public static let impliedValueFlagsMask: CMTimeFlags = [.positiveInfinity, .negativeInfinity, .indefinite]
}

/// How a time is rounded when its timescale changes.
public enum CMTimeRoundingMethod: UInt32, Sendable {
    /// Round half away from zero.
    case roundHalfAwayFromZero = 1
    /// Round towards zero.
    case roundTowardZero = 2
    /// Round away from zero.
    case roundAwayFromZero = 3
    /// Do not round: a time that cannot be represented exactly becomes invalid.
    case quickTime = 4
    /// Round towards positive infinity.
    case roundTowardPositiveInfinity = 5
    /// Round towards negative infinity.
    case roundTowardNegativeInfinity = 6
    /// The default method, rounding half away from zero.
    public static let `default` = CMTimeRoundingMethod.roundHalfAwayFromZero
}

/// A rational time value: `value / timescale` seconds.
public struct CMTime: Sendable {
    /// The numerator.
    public var value: CMTimeValue
    /// The denominator: units per second.
    public var timescale: CMTimeScale
    /// What the time holds.
    public var flags: CMTimeFlags
    /// The epoch.
    public var epoch: CMTimeEpoch

    /// Creates a time from all of its fields.
    public init(value: CMTimeValue, timescale: CMTimeScale, flags: CMTimeFlags, epoch: CMTimeEpoch) {
        self.value = value
        self.timescale = timescale
        self.flags = flags
        self.epoch = epoch
    }

    /// Creates an invalid time with every field zero, as the imported C structure is.
    public init() { self.init(value: 0, timescale: 0, flags: [], epoch: 0) }

    /// Creates a valid time of `value / timescale` seconds; a timescale of zero or less makes an invalid time.
    public init(value: CMTimeValue, timescale: CMTimeScale) {
        self = timescale > 0 ? CMTime(value: value, timescale: timescale, flags: .valid, epoch: 0) : .invalid
    }

    /// Creates a time from seconds, rounded to the preferred timescale.
    public init(seconds: Double, preferredTimescale: CMTimeScale) {
        guard preferredTimescale > 0, !seconds.isNaN else { self = .invalid; return }
        if seconds == .infinity { self = .positiveInfinity; return }
        if seconds == -.infinity { self = .negativeInfinity; return }
        let scaled = (seconds * Double(preferredTimescale)).rounded()
        guard scaled.magnitude < 9.2e18 else { self = seconds > 0 ? .positiveInfinity : .negativeInfinity; return }
        var time = CMTime(value: CMTimeValue(scaled), timescale: preferredTimescale)
        if Double(time.value) != seconds * Double(preferredTimescale) { time.flags.insert(.hasBeenRounded) }
        self = time
    }

    /// An invalid time.
    public static let invalid = CMTime(value: 0, timescale: 0, flags: [], epoch: 0)
    /// Zero seconds.
    public static let zero = CMTime(value: 0, timescale: 1, flags: .valid, epoch: 0)
    /// Positive infinity.
    public static let positiveInfinity = CMTime(value: 0, timescale: 0, flags: [.valid, .positiveInfinity], epoch: 0)
    /// Negative infinity.
    public static let negativeInfinity = CMTime(value: 0, timescale: 0, flags: [.valid, .negativeInfinity], epoch: 0)
    /// An indefinite time, such as the duration of a live stream.
    public static let indefinite = CMTime(value: 0, timescale: 0, flags: [.valid, .indefinite], epoch: 0)

    /// Whether the time is valid.
    public var isValid: Bool { flags.contains(.valid) }
    /// Whether the time is a valid, finite number of seconds.
    public var isNumeric: Bool { isValid && flags.intersection(.impliedValueFlagsMask).isEmpty }
    /// Whether the time is positive infinity.
    public var isPositiveInfinity: Bool { isValid && flags.contains(.positiveInfinity) }
    /// Whether the time is negative infinity.
    public var isNegativeInfinity: Bool { isValid && flags.contains(.negativeInfinity) }
    /// Whether the time is indefinite.
    public var isIndefinite: Bool { isValid && flags.contains(.indefinite) }
    /// Whether the time has been rounded.
    public var hasBeenRounded: Bool { flags.contains(.hasBeenRounded) }

    /// The time in seconds; NaN for invalid and indefinite times, infinity for infinite ones.
    public var seconds: Double {
        if isPositiveInfinity { return .infinity }
        if isNegativeInfinity { return -.infinity }
        guard isNumeric, timescale > 0 else { return .nan }
        return Double(value) / Double(timescale)
    }

    /// The same time in another timescale, rounded as asked.
    public func convertScale(_ newTimescale: Int32, method: CMTimeRoundingMethod) -> CMTime {
        guard isNumeric else { return self }
        guard newTimescale > 0 else { return .invalid }
        if newTimescale == timescale { return self }
        let product = value.multipliedFullWidth(by: CMTimeValue(newTimescale))
        let divisor = CMTimeValue(timescale)
        guard let (quotient, remainder) = divide128(high: product.high, low: product.low, by: divisor) else {
            return value > 0 ? .positiveInfinity : .negativeInfinity
        }
        var result = quotient
        if remainder != 0 {
            if method == .quickTime { return .invalid }
            let negative = (value < 0)
            switch method {
            case .roundTowardZero: break
            case .roundAwayFromZero: result += negative ? -1 : 1
            case .roundTowardPositiveInfinity: if !negative { result += 1 }
            case .roundTowardNegativeInfinity: if negative { result -= 1 }
            default:
                if remainder.magnitude * 2 >= UInt64(divisor) { result += negative ? -1 : 1 }
            }
        }
        var time = CMTime(value: result, timescale: newTimescale, flags: flags, epoch: epoch)
        if remainder != 0 { time.flags.insert(.hasBeenRounded) }
        return time
    }
}

/// Divides a 128-bit signed value by a positive divisor; `nil` when the quotient does not fit in 64 bits.
private func divide128(high: Int64, low: UInt64, by divisor: Int64) -> (Int64, Int64)? {
    let negative = high < 0
    // The magnitude of the dividend, as 128 bits.
    var magnitudeHigh = UInt64(bitPattern: high), magnitudeLow = low
    if negative {
        magnitudeLow = ~magnitudeLow &+ 1
        magnitudeHigh = ~magnitudeHigh &+ (magnitudeLow == 0 ? 1 : 0)
    }
    let d = UInt64(divisor)
    guard magnitudeHigh < d else { return nil }
    let (q, r) = d.dividingFullWidth((magnitudeHigh, magnitudeLow))
    if negative {
        guard q <= UInt64(Int64.max) + 1 else { return nil }
        return (q == UInt64(Int64.max) + 1 ? Int64.min : -Int64(q), -Int64(r))
    }
    guard q <= UInt64(Int64.max) else { return nil }
    return (Int64(q), Int64(r))
}

private func gcd(_ a: Int64, _ b: Int64) -> Int64 {
    var (a, b) = (a.magnitude, b.magnitude)
    while b != 0 { (a, b) = (b, a % b) }
    return Int64(a)
}

extension CMTime {
    fileprivate static func commonTimescale(_ a: CMTime, _ b: CMTime) -> CMTimeScale {
        if a.timescale == b.timescale { return a.timescale }
        let lcm = Int64(a.timescale) / gcd(Int64(a.timescale), Int64(b.timescale)) * Int64(b.timescale)
        return lcm <= Int64(Int32.max) ? CMTimeScale(lcm) : max(a.timescale, b.timescale)
    }
}

extension CMTime: Comparable, Hashable {
    /// Whether two times are the same point in time, whatever their timescales.
    public static func == (lhs: CMTime, rhs: CMTime) -> Bool { CMTimeCompare(lhs, rhs) == 0 }
    /// Whether one time comes before another.
    public static func < (lhs: CMTime, rhs: CMTime) -> Bool { CMTimeCompare(lhs, rhs) < 0 }

    /// Hashes the time so that equal times hash alike.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(orderRankForCompare)
        guard orderRankForCompare == 0 else { return }
        let divisor = Swift.max(1, gcd(value, CMTimeValue(timescale)))
        hasher.combine(value / divisor)
        hasher.combine(CMTimeValue(timescale) / divisor)
    }

    /// The sum of two times.
    public static func + (lhs: CMTime, rhs: CMTime) -> CMTime { CMTimeAdd(lhs, rhs) }
    /// The difference of two times.
    public static func - (lhs: CMTime, rhs: CMTime) -> CMTime { CMTimeSubtract(lhs, rhs) }
}

extension CMTime: CustomStringConvertible {
    /// A description such as `CMTime(1/30 = 0.033s)`.
    public var description: String {
        if !isValid { return "CMTime(invalid)" }
        if isPositiveInfinity { return "CMTime(+inf)" }
        if isNegativeInfinity { return "CMTime(-inf)" }
        if isIndefinite { return "CMTime(indefinite)" }
        return "CMTime(\(value)/\(timescale) = \(seconds)s)"
    }
}

/// Makes a valid time of `value / timescale` seconds.
public func CMTimeMake(value: Int64, timescale: Int32) -> CMTime { CMTime(value: value, timescale: timescale) }

/// Makes a valid time of a value, timescale and epoch.
public func CMTimeMakeWithEpoch(value: Int64, timescale: Int32, epoch: Int64) -> CMTime {
    CMTime(value: value, timescale: timescale, flags: .valid, epoch: epoch)
}

/// The largest timescale a time may have.
public let kCMTimeMaxTimescale: Int32 = 0x7FFF_FFFF

/// Makes a time from seconds, rounded to the preferred timescale.
public func CMTimeMakeWithSeconds(_ seconds: Float64, preferredTimescale: Int32) -> CMTime {
    CMTime(seconds: seconds, preferredTimescale: preferredTimescale)
}

/// Returns the time in seconds.
public func CMTimeGetSeconds(_ time: CMTime) -> Float64 { time.seconds }

/// Compares two times: -1, 0 or 1, with invalid times greatest, then +infinity, indefinite, numbers, -infinity.
public func CMTimeCompare(_ time1: CMTime, _ time2: CMTime) -> Int32 {
    let (rank1, rank2) = (time1.orderRankForCompare, time2.orderRankForCompare)
    if rank1 != rank2 { return rank1 < rank2 ? -1 : 1 }
    guard rank1 == 0 else { return 0 }
    if time1.timescale == time2.timescale {
        return time1.value == time2.value ? 0 : (time1.value < time2.value ? -1 : 1)
    }
    let left = time1.value.multipliedFullWidth(by: CMTimeValue(time2.timescale))
    let right = time2.value.multipliedFullWidth(by: CMTimeValue(time1.timescale))
    if left.high != right.high { return left.high < right.high ? -1 : 1 }
    if left.low != right.low { return left.low < right.low ? -1 : 1 }
    return 0
}

extension CMTime {
    fileprivate var orderRankForCompare: Int {
        if !isValid { return 3 }
        if isPositiveInfinity { return 2 }
        if isIndefinite { return 1 }
        if isNegativeInfinity { return -1 }
        return 0
    }
}

/// Adds two times, in a timescale that holds both where one fits.
public func CMTimeAdd(_ lhs: CMTime, _ rhs: CMTime) -> CMTime {
    if !lhs.isValid || !rhs.isValid { return .invalid }
    if lhs.isIndefinite || rhs.isIndefinite { return .indefinite }
    if (lhs.isPositiveInfinity && rhs.isNegativeInfinity) || (lhs.isNegativeInfinity && rhs.isPositiveInfinity) { return .invalid }
    if lhs.isPositiveInfinity || rhs.isPositiveInfinity { return .positiveInfinity }
    if lhs.isNegativeInfinity || rhs.isNegativeInfinity { return .negativeInfinity }
    let scale = CMTime.commonTimescale(lhs, rhs)
    let a = lhs.convertScale(scale, method: .default), b = rhs.convertScale(scale, method: .default)
    guard a.isNumeric, b.isNumeric else { return a.isNumeric ? b : a }
    let (sum, overflow) = a.value.addingReportingOverflow(b.value)
    if overflow { return a.value > 0 ? .positiveInfinity : .negativeInfinity }
    var result = CMTime(value: sum, timescale: scale)
    if a.hasBeenRounded || b.hasBeenRounded { result.flags.insert(.hasBeenRounded) }
    return result
}

/// Subtracts one time from another.
public func CMTimeSubtract(_ lhs: CMTime, _ rhs: CMTime) -> CMTime {
    var negated = rhs
    if rhs.isPositiveInfinity {
        negated = .negativeInfinity
    } else if rhs.isNegativeInfinity {
        negated = .positiveInfinity
    } else if rhs.isNumeric {
        negated.value = -rhs.value
    }
    return CMTimeAdd(lhs, negated)
}

/// Multiplies a time by a whole number.
public func CMTimeMultiply(_ time: CMTime, multiplier: Int32) -> CMTime {
    guard time.isNumeric else {
        if multiplier < 0, time.isPositiveInfinity { return .negativeInfinity }
        if multiplier < 0, time.isNegativeInfinity { return .positiveInfinity }
        return time
    }
    let (product, overflow) = time.value.multipliedReportingOverflow(by: CMTimeValue(multiplier))
    if overflow { return (time.value > 0) == (multiplier > 0) ? .positiveInfinity : .negativeInfinity }
    return CMTime(value: product, timescale: time.timescale, flags: time.flags, epoch: time.epoch)
}

/// Multiplies a time by a real number, keeping its timescale.
public func CMTimeMultiplyByFloat64(_ time: CMTime, multiplier: Float64) -> CMTime {
    guard time.isNumeric else { return time }
    return CMTime(seconds: time.seconds * multiplier, preferredTimescale: time.timescale)
}

/// Multiplies a time by the ratio of two whole numbers.
public func CMTimeMultiplyByRatio(_ time: CMTime, multiplier: Int32, divisor: Int32) -> CMTime {
    guard divisor != 0 else { return .invalid }
    guard time.isNumeric else { return time }
    let (high, low) = time.value.multipliedFullWidth(by: CMTimeValue(multiplier))
    let product = Double(high) * 18446744073709551616.0 + Double(low)
    return CMTime(value: CMTimeValue((product / Double(divisor)).rounded()), timescale: time.timescale)
}

/// Converts a time to another timescale.
public func CMTimeConvertScale(_ time: CMTime, timescale newTimescale: Int32, method: CMTimeRoundingMethod) -> CMTime {
    time.convertScale(newTimescale, method: method)
}

/// Returns the lesser of two times.
public func CMTimeMinimum(_ time1: CMTime, _ time2: CMTime) -> CMTime { CMTimeCompare(time1, time2) <= 0 ? time1 : time2 }

/// Returns the greater of two times.
public func CMTimeMaximum(_ time1: CMTime, _ time2: CMTime) -> CMTime { CMTimeCompare(time1, time2) >= 0 ? time1 : time2 }

/// Returns the absolute value of a time.
public func CMTimeAbsoluteValue(_ time: CMTime) -> CMTime {
    if time.isNegativeInfinity { return .positiveInfinity }
    guard time.isNumeric, time.value < 0 else { return time }
    return CMTime(value: -time.value, timescale: time.timescale, flags: time.flags, epoch: time.epoch)
}

/// Whether a time is valid.
public func CMTIME_IS_VALID(_ time: CMTime) -> Bool { time.isValid }
/// Whether a time is invalid.
public func CMTIME_IS_INVALID(_ time: CMTime) -> Bool { !time.isValid }
/// Whether a time is numeric.
public func CMTIME_IS_NUMERIC(_ time: CMTime) -> Bool { time.isNumeric }
/// Whether a time is positive infinity.
public func CMTIME_IS_POSITIVE_INFINITY(_ time: CMTime) -> Bool { time.isPositiveInfinity }
/// Whether a time is negative infinity.
public func CMTIME_IS_NEGATIVE_INFINITY(_ time: CMTime) -> Bool { time.isNegativeInfinity }
/// Whether a time is indefinite.
public func CMTIME_IS_INDEFINITE(_ time: CMTime) -> Bool { time.isIndefinite }
/// An invalid time.
public let kCMTimeInvalid = CMTime.invalid
/// Zero seconds.
public let kCMTimeZero = CMTime.zero
/// Positive infinity.
public let kCMTimePositiveInfinity = CMTime.positiveInfinity
/// Negative infinity.
public let kCMTimeNegativeInfinity = CMTime.negativeInfinity
/// An indefinite time.
public let kCMTimeIndefinite = CMTime.indefinite
