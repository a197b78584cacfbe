import OpenCombine

extension Publishers {
    /// A publisher that sends every value of two upstreams as they come; it finishes when all
    /// have, and fails when any fails.
    public struct Merge<A: Publisher, B: Publisher>: Publisher
    where A.Failure == B.Failure, A.Output == B.Output {
        /// The upstreams' values.
        public typealias Output = A.Output
        /// The upstreams' failure.
        public typealias Failure = A.Failure

        /// The first upstream.
        public let a: A
        /// The second upstream.
        public let b: B

        /// Merges two publishers.
        public init(_ a: A, _ b: B) {
            self.a = a
            self.b = b
        }

        /// Attaches a subscriber, which receives the values it asks for, in the order they came.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            UpstreamJoin.start(subscriber, mode: .merge, [{ a.subscribe($0.side(0, of: Output.self)) }, { b.subscribe($0.side(1, of: Output.self)) }])
        }
    }

    /// A publisher that sends every value of three upstreams as they come; it finishes when all
    /// have, and fails when any fails.
    public struct Merge3<A: Publisher, B: Publisher, C: Publisher>: Publisher
    where A.Failure == B.Failure, A.Output == B.Output, B.Failure == C.Failure, B.Output == C.Output {
        /// The upstreams' values.
        public typealias Output = A.Output
        /// The upstreams' failure.
        public typealias Failure = A.Failure

        /// The first upstream.
        public let a: A
        /// The second upstream.
        public let b: B
        /// The third upstream.
        public let c: C

        /// Merges three publishers.
        public init(_ a: A, _ b: B, _ c: C) {
            self.a = a
            self.b = b
            self.c = c
        }

        /// Attaches a subscriber, which receives the values it asks for, in the order they came.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            UpstreamJoin.start(
                subscriber, mode: .merge,
                [{ a.subscribe($0.side(0, of: Output.self)) }, { b.subscribe($0.side(1, of: Output.self)) }, { c.subscribe($0.side(2, of: Output.self)) }])
        }
    }

    /// A publisher that sends every value of four upstreams as they come; it finishes when all
    /// have, and fails when any fails.
    public struct Merge4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>: Publisher
    where A.Failure == B.Failure, A.Output == B.Output, B.Failure == C.Failure, B.Output == C.Output, C.Failure == D.Failure, C.Output == D.Output {
        /// The upstreams' values.
        public typealias Output = A.Output
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

        /// Merges four publishers.
        public init(_ a: A, _ b: B, _ c: C, _ d: D) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
        }

        /// Attaches a subscriber, which receives the values it asks for, in the order they came.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            UpstreamJoin.start(
                subscriber, mode: .merge,
                [
                    { a.subscribe($0.side(0, of: Output.self)) }, { b.subscribe($0.side(1, of: Output.self)) }, { c.subscribe($0.side(2, of: Output.self)) },
                    { d.subscribe($0.side(3, of: Output.self)) },
                ])
        }
    }

    /// A publisher that sends every value of five upstreams as they come; it finishes when all
    /// have, and fails when any fails.
    public struct Merge5<A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher>: Publisher
    where
        A.Failure == B.Failure, A.Output == B.Output, B.Failure == C.Failure, B.Output == C.Output, C.Failure == D.Failure, C.Output == D.Output,
        D.Failure == E.Failure, D.Output == E.Output
    {
        /// The upstreams' values.
        public typealias Output = A.Output
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
        /// The fifth upstream.
        public let e: E

        /// Merges five publishers.
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
        }

        /// Attaches a subscriber, which receives the values it asks for, in the order they came.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            UpstreamJoin.start(
                subscriber, mode: .merge,
                [
                    { a.subscribe($0.side(0, of: Output.self)) }, { b.subscribe($0.side(1, of: Output.self)) }, { c.subscribe($0.side(2, of: Output.self)) },
                    { d.subscribe($0.side(3, of: Output.self)) }, { e.subscribe($0.side(4, of: Output.self)) },
                ])
        }
    }

    /// A publisher that sends every value of six upstreams as they come; it finishes when all
    /// have, and fails when any fails.
    public struct Merge6<A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher>: Publisher
    where
        A.Failure == B.Failure, A.Output == B.Output, B.Failure == C.Failure, B.Output == C.Output, C.Failure == D.Failure, C.Output == D.Output,
        D.Failure == E.Failure, D.Output == E.Output, E.Failure == F.Failure, E.Output == F.Output
    {
        /// The upstreams' values.
        public typealias Output = A.Output
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
        /// The fifth upstream.
        public let e: E
        /// The sixth upstream.
        public let f: F

        /// Merges six publishers.
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
            self.f = f
        }

        /// Attaches a subscriber, which receives the values it asks for, in the order they came.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            UpstreamJoin.start(
                subscriber, mode: .merge,
                [
                    { a.subscribe($0.side(0, of: Output.self)) }, { b.subscribe($0.side(1, of: Output.self)) }, { c.subscribe($0.side(2, of: Output.self)) },
                    { d.subscribe($0.side(3, of: Output.self)) }, { e.subscribe($0.side(4, of: Output.self)) }, { f.subscribe($0.side(5, of: Output.self)) },
                ])
        }
    }

    /// A publisher that sends every value of seven upstreams as they come; it finishes when all
    /// have, and fails when any fails.
    public struct Merge7<A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher>: Publisher
    where
        A.Failure == B.Failure, A.Output == B.Output, B.Failure == C.Failure, B.Output == C.Output, C.Failure == D.Failure, C.Output == D.Output,
        D.Failure == E.Failure, D.Output == E.Output, E.Failure == F.Failure, E.Output == F.Output, F.Failure == G.Failure, F.Output == G.Output
    {
        /// The upstreams' values.
        public typealias Output = A.Output
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
        /// The fifth upstream.
        public let e: E
        /// The sixth upstream.
        public let f: F
        /// The seventh upstream.
        public let g: G

        /// Merges seven publishers.
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
            self.f = f
            self.g = g
        }

        /// Attaches a subscriber, which receives the values it asks for, in the order they came.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            UpstreamJoin.start(
                subscriber, mode: .merge,
                [
                    { a.subscribe($0.side(0, of: Output.self)) }, { b.subscribe($0.side(1, of: Output.self)) }, { c.subscribe($0.side(2, of: Output.self)) },
                    { d.subscribe($0.side(3, of: Output.self)) }, { e.subscribe($0.side(4, of: Output.self)) }, { f.subscribe($0.side(5, of: Output.self)) },
                    { g.subscribe($0.side(6, of: Output.self)) },
                ])
        }
    }

    /// A publisher that sends every value of eight upstreams as they come; it finishes when all
    /// have, and fails when any fails.
    public struct Merge8<A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher, H: Publisher>: Publisher
    where
        A.Failure == B.Failure, A.Output == B.Output, B.Failure == C.Failure, B.Output == C.Output, C.Failure == D.Failure, C.Output == D.Output,
        D.Failure == E.Failure, D.Output == E.Output, E.Failure == F.Failure, E.Output == F.Output, F.Failure == G.Failure, F.Output == G.Output,
        G.Failure == H.Failure, G.Output == H.Output
    {
        /// The upstreams' values.
        public typealias Output = A.Output
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
        /// The fifth upstream.
        public let e: E
        /// The sixth upstream.
        public let f: F
        /// The seventh upstream.
        public let g: G
        /// The eighth upstream.
        public let h: H

        /// Merges eight publishers.
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
            self.f = f
            self.g = g
            self.h = h
        }

        /// Attaches a subscriber, which receives the values it asks for, in the order they came.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            UpstreamJoin.start(
                subscriber, mode: .merge,
                [
                    { a.subscribe($0.side(0, of: Output.self)) }, { b.subscribe($0.side(1, of: Output.self)) }, { c.subscribe($0.side(2, of: Output.self)) },
                    { d.subscribe($0.side(3, of: Output.self)) }, { e.subscribe($0.side(4, of: Output.self)) }, { f.subscribe($0.side(5, of: Output.self)) },
                    { g.subscribe($0.side(6, of: Output.self)) }, { h.subscribe($0.side(7, of: Output.self)) },
                ])
        }
    }
}

extension Publishers.Merge: Equatable where A: Equatable, B: Equatable {}
extension Publishers.Merge3: Equatable where A: Equatable, B: Equatable, C: Equatable {}
extension Publishers.Merge4: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable {}
extension Publishers.Merge5: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable {}
extension Publishers.Merge6: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable {}
extension Publishers.Merge7: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable, G: Equatable {}
extension Publishers.Merge8: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable, G: Equatable, H: Equatable {}

extension Publisher {
    /// Merges this publisher's values with another publisher's, as they come.
    public func merge<B: Publisher>(with b: B) -> Publishers.Merge<Self, B>
    where Failure == B.Failure, Output == B.Output {
        Publishers.Merge(self, b)
    }

    /// Merges this publisher's values with two other publishers', as they come.
    public func merge<B: Publisher, C: Publisher>(with b: B, _ c: C) -> Publishers.Merge3<Self, B, C>
    where Failure == B.Failure, Output == B.Output, B.Failure == C.Failure, B.Output == C.Output {
        Publishers.Merge3(self, b, c)
    }

    /// Merges this publisher's values with three other publishers', as they come.
    public func merge<B: Publisher, C: Publisher, D: Publisher>(with b: B, _ c: C, _ d: D) -> Publishers.Merge4<Self, B, C, D>
    where Failure == B.Failure, Output == B.Output, B.Failure == C.Failure, B.Output == C.Output, C.Failure == D.Failure, C.Output == D.Output {
        Publishers.Merge4(self, b, c, d)
    }

    /// Merges this publisher's values with four other publishers', as they come.
    public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher>(with b: B, _ c: C, _ d: D, _ e: E) -> Publishers.Merge5<Self, B, C, D, E>
    where
        Failure == B.Failure, Output == B.Output, B.Failure == C.Failure, B.Output == C.Output, C.Failure == D.Failure, C.Output == D.Output,
        D.Failure == E.Failure, D.Output == E.Output
    {
        Publishers.Merge5(self, b, c, d, e)
    }

    /// Merges this publisher's values with five other publishers', as they come.
    public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher>(with b: B, _ c: C, _ d: D, _ e: E, _ f: F)
        -> Publishers.Merge6<Self, B, C, D, E, F>
    where
        Failure == B.Failure, Output == B.Output, B.Failure == C.Failure, B.Output == C.Output, C.Failure == D.Failure, C.Output == D.Output,
        D.Failure == E.Failure, D.Output == E.Output, E.Failure == F.Failure, E.Output == F.Output
    {
        Publishers.Merge6(self, b, c, d, e, f)
    }

    /// Merges this publisher's values with six other publishers', as they come.
    public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher>(with b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G)
        -> Publishers.Merge7<Self, B, C, D, E, F, G>
    where
        Failure == B.Failure, Output == B.Output, B.Failure == C.Failure, B.Output == C.Output, C.Failure == D.Failure, C.Output == D.Output,
        D.Failure == E.Failure, D.Output == E.Output, E.Failure == F.Failure, E.Output == F.Output, F.Failure == G.Failure, F.Output == G.Output
    {
        Publishers.Merge7(self, b, c, d, e, f, g)
    }

    /// Merges this publisher's values with seven other publishers', as they come.
    public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher, H: Publisher>(
        with b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H
    ) -> Publishers.Merge8<Self, B, C, D, E, F, G, H>
    where
        Failure == B.Failure, Output == B.Output, B.Failure == C.Failure, B.Output == C.Output, C.Failure == D.Failure, C.Output == D.Output,
        D.Failure == E.Failure, D.Output == E.Output, E.Failure == F.Failure, E.Output == F.Output, F.Failure == G.Failure, F.Output == G.Output,
        G.Failure == H.Failure, G.Output == H.Output
    {
        Publishers.Merge8(self, b, c, d, e, f, g, h)
    }
}
