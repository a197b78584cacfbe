import OpenCombine

// OpenCombine declares these two only where no module named Combine can be imported (see
// Combine.swift); declared here they are there in every build, and shadow OpenCombine's where
// both exist.

extension Optional {
    /// A publisher that sends the optional's value once to each subscriber, if it has one, then finishes.
    public typealias Publisher = OCombine.Publisher

    /// A publisher that sends the optional's value once to each subscriber, if it has one, then finishes.
    public var publisher: Publisher { Publisher(self) }
}

extension Result {
    /// A publisher that sends the result's value once to each subscriber and finishes, or fails with its error.
    public typealias Publisher = OCombine.Publisher

    /// A publisher that sends the result's value once to each subscriber and finishes, or fails with its error.
    public var publisher: Publisher { Publisher(self) }
}
