import Dispatch
import OpenCombine

extension DispatchQueue: @retroactive Scheduler {
    /// A moment on the dispatch clock, as a dispatch queue schedules work.
    public struct SchedulerTimeType: Strideable, Codable, Hashable, Sendable {
        /// The dispatch time this moment is.
        public var dispatchTime: DispatchTime

        /// Creates a moment from a dispatch time.
        public init(_ time: DispatchTime) { dispatchTime = time }

        /// The interval from this moment to another.
        public func distance(to other: SchedulerTimeType) -> Stride {
            let from = dispatchTime.uptimeNanoseconds, to = other.dispatchTime.uptimeNanoseconds
            return to >= from
                ? Stride(magnitudeNanoseconds: Int(clamping: to - from))
                : Stride(magnitudeNanoseconds: -Int(clamping: from - to))
        }

        /// The moment an interval after this one.
        public func advanced(by n: Stride) -> SchedulerTimeType {
            let now = dispatchTime.uptimeNanoseconds
            let moved = n.magnitude >= 0 ? now.addingClamped(UInt64(n.magnitude)) : now.subtractingClamped(UInt64(n.magnitude.magnitude))
            return SchedulerTimeType(DispatchTime(uptimeNanoseconds: moved))
        }

        /// Hashes the moment's nanoseconds.
        public func hash(into hasher: inout Hasher) { hasher.combine(dispatchTime.uptimeNanoseconds) }

        /// Whether two moments are the same nanosecond.
        public static func == (lhs: SchedulerTimeType, rhs: SchedulerTimeType) -> Bool {
            lhs.dispatchTime.uptimeNanoseconds == rhs.dispatchTime.uptimeNanoseconds
        }

        /// Decodes a moment from its nanoseconds.
        public init(from decoder: any Decoder) throws {
            let nanoseconds = try decoder.singleValueContainer().decode(UInt64.self)
            dispatchTime = DispatchTime(uptimeNanoseconds: nanoseconds)
        }

        /// Encodes the moment as its nanoseconds.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(dispatchTime.uptimeNanoseconds)
        }

        /// An interval on the dispatch clock, in nanoseconds; literals are seconds.
        public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, ExpressibleByFloatLiteral, Hashable, Codable, Sendable {
            /// A literal interval's type, in seconds.
            public typealias FloatLiteralType = Double
            /// A literal interval's type, in seconds.
            public typealias IntegerLiteralType = Int
            /// The interval's size, in nanoseconds.
            public typealias Magnitude = Int

            /// The interval in nanoseconds.
            public var magnitude: Int

            init(magnitudeNanoseconds: Int) { magnitude = magnitudeNanoseconds }

            /// The interval as a dispatch time interval.
            public var timeInterval: DispatchTimeInterval { .nanoseconds(magnitude) }

            /// Creates an interval from a dispatch time interval (`.never` is the longest interval).
            public init(_ timeInterval: DispatchTimeInterval) {
                switch timeInterval {
                case .seconds(let s): magnitude = s.multipliedClamped(by: 1_000_000_000)
                case .milliseconds(let ms): magnitude = ms.multipliedClamped(by: 1_000_000)
                case .microseconds(let us): magnitude = us.multipliedClamped(by: 1_000)
                case .nanoseconds(let ns): magnitude = ns
                case .never: magnitude = .max
                @unknown default: magnitude = .max
                }
            }

            /// Creates an interval of a number of seconds.
            public init(floatLiteral value: Double) { self = .seconds(value) }

            /// Creates an interval of a number of seconds.
            public init(integerLiteral value: Int) { self = .seconds(value) }

            /// Creates an interval of a number of seconds, if it is one exactly.
            public init?<T: BinaryInteger>(exactly source: T) {
                guard let seconds = Int(exactly: source) else { return nil }
                let (nanoseconds, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
                guard !overflow else { return nil }
                magnitude = nanoseconds
            }

            /// Whether one interval is shorter than another.
            public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.magnitude < rhs.magnitude }
            /// The product of two intervals' nanoseconds.
            public static func * (lhs: Stride, rhs: Stride) -> Stride { Stride(magnitudeNanoseconds: lhs.magnitude.multipliedClamped(by: rhs.magnitude)) }
            /// The sum of two intervals.
            public static func + (lhs: Stride, rhs: Stride) -> Stride { Stride(magnitudeNanoseconds: lhs.magnitude.addingClamped(rhs.magnitude)) }
            /// The difference of two intervals.
            public static func - (lhs: Stride, rhs: Stride) -> Stride { Stride(magnitudeNanoseconds: lhs.magnitude.addingClamped(-rhs.magnitude)) }
            /// Subtracts an interval.
            public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }
            /// Multiplies by an interval's nanoseconds.
            public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }
            /// Adds an interval.
            public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }

            /// An interval of whole seconds.
            public static func seconds(_ s: Int) -> Stride { Stride(.seconds(s)) }
            /// An interval of seconds.
            public static func seconds(_ s: Double) -> Stride {
                let nanoseconds = (s * 1_000_000_000).rounded()
                guard nanoseconds.isFinite else { return Stride(magnitudeNanoseconds: nanoseconds < 0 ? .min : .max) }
                return Stride(magnitudeNanoseconds: Int(exactly: nanoseconds) ?? (nanoseconds < 0 ? .min : .max))
            }
            /// An interval of milliseconds.
            public static func milliseconds(_ ms: Int) -> Stride { Stride(.milliseconds(ms)) }
            /// An interval of microseconds.
            public static func microseconds(_ us: Int) -> Stride { Stride(.microseconds(us)) }
            /// An interval of nanoseconds.
            public static func nanoseconds(_ ns: Int) -> Stride { Stride(.nanoseconds(ns)) }
        }
    }

    /// How a dispatch queue runs scheduled work: its quality of service, flags and group.
    public struct SchedulerOptions {
        /// The quality of service the work runs at.
        public var qos: DispatchQoS
        /// The flags of the work item.
        public var flags: DispatchWorkItemFlags
        /// The group the work is part of.
        public var group: DispatchGroup?

        /// Creates scheduler options.
        public init(qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [], group: DispatchGroup? = nil) {
            self.qos = qos
            self.flags = flags
            self.group = group
        }
    }

    /// The least tolerance the queue allows: none.
    public var minimumTolerance: SchedulerTimeType.Stride { .nanoseconds(0) }

    /// The queue's clock now.
    public var now: SchedulerTimeType { SchedulerTimeType(.now()) }

    /// Runs an action on the queue as soon as possible.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let work = ScheduledAction(action)
        async(group: options?.group, qos: options?.qos ?? .unspecified, flags: options?.flags ?? []) { work.run() }
    }

    /// Runs an action on the queue once, at a moment or after it.
    public func schedule(after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let work = ScheduledAction(action)
        asyncAfter(deadline: date.dispatchTime, qos: options?.qos ?? .unspecified, flags: options?.flags ?? []) { work.run() }
    }

    /// Runs an action on the queue from a moment on, at an interval, until cancelled.
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) -> any Cancellable {
        let work = ScheduledAction(action)
        let timer = DispatchSource.makeTimerSource(queue: self)
        timer.schedule(deadline: date.dispatchTime, repeating: interval.timeInterval, leeway: tolerance.timeInterval)
        timer.setEventHandler(qos: options?.qos ?? .unspecified, flags: options?.flags ?? []) { work.run() }
        timer.resume()
        return AnyCancellable { timer.cancel() }
    }
}

/// An action a scheduler runs on its own thread or queue: Combine hands schedulers closures that
/// are not `Sendable`, with the contract that they run where the scheduler runs its work.
final class ScheduledAction: @unchecked Sendable {
    private let action: () -> Void

    init(_ action: @escaping () -> Void) { self.action = action }

    func run() { action() }
}

extension Int {
    func multipliedClamped(by other: Int) -> Int {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        return overflow ? ((self < 0) != (other < 0) ? .min : .max) : product
    }

    func addingClamped(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other < 0 ? .min : .max) : sum
    }
}

extension UInt64 {
    func addingClamped(_ other: UInt64) -> UInt64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? .max : sum
    }

    func subtractingClamped(_ other: UInt64) -> UInt64 { other > self ? 0 : self - other }
}
