import Foundation
import OpenCombine

/// A moment on the wall clock, as run loops and operation queues schedule work; `Clock` is the
/// scheduler whose time it is (`RunLoop.SchedulerTimeType`, `OperationQueue.SchedulerTimeType`).
public struct _DateSchedulerTimeType<Clock>: Strideable, Codable, Hashable, Sendable {
    /// The date this moment is.
    public var date: Date

    /// Creates a moment from a date.
    public init(_ date: Date) { self.date = date }

    /// The interval from this moment to another.
    public func distance(to other: Self) -> Stride { Stride(other.date.timeIntervalSince(date)) }

    /// The moment an interval after this one.
    public func advanced(by n: Stride) -> Self { Self(date.addingTimeInterval(n.magnitude)) }

    /// An interval on the wall clock, in seconds.
    public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, ExpressibleByFloatLiteral, Hashable, Codable, Sendable {
        /// A literal interval's type, in seconds.
        public typealias FloatLiteralType = TimeInterval
        /// A literal interval's type, in seconds.
        public typealias IntegerLiteralType = TimeInterval
        /// The interval's size, in seconds.
        public typealias Magnitude = TimeInterval

        /// The interval in seconds.
        public var magnitude: TimeInterval

        /// The interval in seconds.
        public var timeInterval: TimeInterval { magnitude }

        /// Creates an interval of a number of seconds.
        public init(_ timeInterval: TimeInterval) { magnitude = timeInterval }
        /// Creates an interval of a number of seconds.
        public init(integerLiteral value: TimeInterval) { magnitude = value }
        /// Creates an interval of a number of seconds.
        public init(floatLiteral value: TimeInterval) { magnitude = value }
        /// Creates an interval of a number of seconds, if it is one exactly.
        public init?<T: BinaryInteger>(exactly source: T) {
            guard let seconds = TimeInterval(exactly: source) else { return nil }
            magnitude = seconds
        }

        /// Whether one interval is shorter than another.
        public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.magnitude < rhs.magnitude }
        /// The product of two intervals' seconds.
        public static func * (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude * rhs.magnitude) }
        /// The sum of two intervals.
        public static func + (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude + rhs.magnitude) }
        /// The difference of two intervals.
        public static func - (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude - rhs.magnitude) }
        /// Subtracts an interval.
        public static func -= (lhs: inout Stride, rhs: Stride) { lhs.magnitude -= rhs.magnitude }
        /// Multiplies by an interval's seconds.
        public static func *= (lhs: inout Stride, rhs: Stride) { lhs.magnitude *= rhs.magnitude }
        /// Adds an interval.
        public static func += (lhs: inout Stride, rhs: Stride) { lhs.magnitude += rhs.magnitude }

        /// An interval of whole seconds.
        public static func seconds(_ s: Int) -> Stride { Stride(TimeInterval(s)) }
        /// An interval of seconds.
        public static func seconds(_ s: Double) -> Stride { Stride(s) }
        /// An interval of milliseconds.
        public static func milliseconds(_ ms: Int) -> Stride { Stride(TimeInterval(ms) / 1_000) }
        /// An interval of microseconds.
        public static func microseconds(_ us: Int) -> Stride { Stride(TimeInterval(us) / 1_000_000) }
        /// An interval of nanoseconds.
        public static func nanoseconds(_ ns: Int) -> Stride { Stride(TimeInterval(ns) / 1_000_000_000) }
    }
}
