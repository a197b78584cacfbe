import OpenCombine

extension Publishers {
    /// A publisher that sends every value of any number of upstreams of one type as they come; it
    /// finishes when all have, and fails when any fails.
    public struct MergeMany<Upstream: Publisher>: Publisher {
        /// The upstreams' values.
        public typealias Output = Upstream.Output
        /// The upstreams' failure.
        public typealias Failure = Upstream.Failure

        /// The upstreams.
        public let publishers: [Upstream]

        /// Merges the publishers given.
        public init(_ upstream: Upstream...) { publishers = upstream }

        /// Merges the publishers of a sequence.
        public init<S: Swift.Sequence>(_ upstream: S) where S.Element == Upstream { publishers = Array(upstream) }

        /// Attaches a subscriber, which receives the values it asks for, in the order they came.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            UpstreamJoin.start(
                subscriber, mode: .merge,
                publishers.enumerated().map { index, publisher in { publisher.subscribe($0.side(index, of: Output.self)) } })
        }

        /// Returns a merge of these publishers and one more.
        public func merge(with other: Upstream) -> Publishers.MergeMany<Upstream> { MergeMany(publishers + [other]) }
    }
}

extension Publishers.MergeMany: Equatable where Upstream: Equatable {}
