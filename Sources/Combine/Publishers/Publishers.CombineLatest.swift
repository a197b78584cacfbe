import OpenCombine

extension Publishers {
    /// A publisher that sends the newest values of two upstreams together each time either sends
    /// one, once both have; it finishes when both have, and fails when either fails.
    public struct CombineLatest<A: Publisher, B: Publisher>: Publisher where A.Failure == B.Failure {
        /// The newest values of the two upstreams.
        public typealias Output = (A.Output, B.Output)
        /// The upstreams' failure.
        public typealias Failure = A.Failure

        /// The first upstream.
        public let a: A
        /// The second upstream.
        public let b: B

        /// Combines the newest values of two publishers.
        public init(_ a: A, _ b: B) {
            self.a = a
            self.b = b
        }

        /// Attaches a subscriber, which receives the combinations it asks for (the newest one waits).
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            UpstreamJoin.start(
                subscriber, mode: .latest { ($0[0] as! A.Output, $0[1] as! B.Output) },
                [{ a.subscribe($0.side(0, of: A.Output.self)) }, { b.subscribe($0.side(1, of: B.Output.self)) }])
        }
    }

    /// A publisher that sends the newest values of three upstreams together each time one sends
    /// one, once all have; it finishes when all have, and fails when any fails.
    public struct CombineLatest3<A: Publisher, B: Publisher, C: Publisher>: Publisher
    where A.Failure == B.Failure, B.Failure == C.Failure {
        /// The newest values of the three upstreams.
        public typealias Output = (A.Output, B.Output, C.Output)
        /// The upstreams' failure.
        public typealias Failure = A.Failure

        /// The first upstream.
        public let a: A
        /// The second upstream.
        public let b: B
        /// The third upstream.
        public let c: C

        /// Combines the newest values of three publishers.
        public init(_ a: A, _ b: B, _ c: C) {
            self.a = a
            self.b = b
            self.c = c
        }

        /// Attaches a subscriber, which receives the combinations it asks for (the newest one waits).
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            UpstreamJoin.start(
                subscriber, mode: .latest { ($0[0] as! A.Output, $0[1] as! B.Output, $0[2] as! C.Output) },
                [
                    { a.subscribe($0.side(0, of: A.Output.self)) }, { b.subscribe($0.side(1, of: B.Output.self)) },
                    { c.subscribe($0.side(2, of: C.Output.self)) },
                ])
        }
    }

    /// A publisher that sends the newest values of four upstreams together each time one sends
    /// one, once all have; it finishes when all have, and fails when any fails.
    public struct CombineLatest4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>: Publisher
    where A.Failure == B.Failure, B.Failure == C.Failure, C.Failure == D.Failure {
        /// The newest values of the four upstreams.
        public typealias Output = (A.Output, B.Output, C.Output, D.Output)
        /// The upstreams' failure.
        public typealias Failure = A.Failure

        /// The first upstream.
        public let a: A
        /// The second upstream.
        public let b: B
        /// The third upstream.
        public let c: C
        /// The fourth upstream.
        public let d: D

        /// Combines the newest values of four publishers.
        public init(_ a: A, _ b: B, _ c: C, _ d: D) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
        }

        /// Attaches a subscriber, which receives the combinations it asks for (the newest one waits).
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            UpstreamJoin.start(
                subscriber, mode: .latest { ($0[0] as! A.Output, $0[1] as! B.Output, $0[2] as! C.Output, $0[3] as! D.Output) },
                [
                    { a.subscribe($0.side(0, of: A.Output.self)) }, { b.subscribe($0.side(1, of: B.Output.self)) },
                    { c.subscribe($0.side(2, of: C.Output.self)) }, { d.subscribe($0.side(3, of: D.Output.self)) },
                ])
        }
    }
}

extension Publishers.CombineLatest: Equatable where A: Equatable, B: Equatable {}
extension Publishers.CombineLatest3: Equatable where A: Equatable, B: Equatable, C: Equatable {}
extension Publishers.CombineLatest4: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable {}

extension Publisher {
    /// Combines this publisher's newest value with another's, each time either sends one.
    public func combineLatest<P: Publisher>(_ other: P) -> Publishers.CombineLatest<Self, P> where Failure == P.Failure {
        Publishers.CombineLatest(self, other)
    }

    /// Combines this publisher's newest value with another's, through a closure, each time either sends one.
    public func combineLatest<P: Publisher, T>(
        _ other: P, _ transform: @escaping (Output, P.Output) -> T
    ) -> Publishers.Map<Publishers.CombineLatest<Self, P>, T> where Failure == P.Failure {
        Publishers.CombineLatest(self, other).map(transform)
    }

    /// Combines this publisher's newest value with two others', each time one sends one.
    public func combineLatest<P: Publisher, Q: Publisher>(
        _ publisher1: P, _ publisher2: Q
    ) -> Publishers.CombineLatest3<Self, P, Q> where Failure == P.Failure, P.Failure == Q.Failure {
        Publishers.CombineLatest3(self, publisher1, publisher2)
    }

    /// Combines this publisher's newest value with two others', through a closure, each time one sends one.
    public func combineLatest<P: Publisher, Q: Publisher, T>(
        _ publisher1: P, _ publisher2: Q, _ transform: @escaping (Output, P.Output, Q.Output) -> T
    ) -> Publishers.Map<Publishers.CombineLatest3<Self, P, Q>, T> where Failure == P.Failure, P.Failure == Q.Failure {
        Publishers.CombineLatest3(self, publisher1, publisher2).map(transform)
    }

    /// Combines this publisher's newest value with three others', each time one sends one.
    public func combineLatest<P: Publisher, Q: Publisher, R: Publisher>(
        _ publisher1: P, _ publisher2: Q, _ publisher3: R
    ) -> Publishers.CombineLatest4<Self, P, Q, R> where Failure == P.Failure, P.Failure == Q.Failure, Q.Failure == R.Failure {
        Publishers.CombineLatest4(self, publisher1, publisher2, publisher3)
    }

    /// Combines this publisher's newest value with three others', through a closure, each time one sends one.
    public func combineLatest<P: Publisher, Q: Publisher, R: Publisher, T>(
        _ publisher1: P, _ publisher2: Q, _ publisher3: R, _ transform: @escaping (Output, P.Output, Q.Output, R.Output) -> T
    ) -> Publishers.Map<Publishers.CombineLatest4<Self, P, Q, R>, T> where Failure == P.Failure, P.Failure == Q.Failure, Q.Failure == R.Failure {
        Publishers.CombineLatest4(self, publisher1, publisher2, publisher3).map(transform)
    }
}
