import CoreVideo
import Foundation

/// A media buffer with the tags that say what it is (which eye, which layer).
public struct CMTaggedBuffer: CustomStringConvertible, @unchecked Sendable {
    /// The buffer a tagged buffer holds.
    public enum Buffer: @unchecked Sendable {
        /// A pixel buffer.
        case pixelBuffer(CVPixelBuffer)
        /// A sample buffer.
        case sampleBuffer(CMSampleBuffer)
    }

    /// The tags for this buffer.
    public let tags: [CMTag]
    /// The underlying buffer containing media data.
    public let buffer: CMTaggedBuffer.Buffer

    /// Creates a new tagged buffer from tags and an existing media buffer.
    public init(tags: [CMTag], buffer: CMTaggedBuffer.Buffer) {
        self.tags = tags
        self.buffer = buffer
    }

    /// Creates a new tagged buffer from tags and an existing pixel buffer.
    public init(tags: [CMTag], pixelBuffer: CVPixelBuffer) { self.init(tags: tags, buffer: .pixelBuffer(pixelBuffer)) }

    /// Creates a new tagged buffer from tags and an existing sample buffer.
    public init(tags: [CMTag], sampleBuffer: CMSampleBuffer) { self.init(tags: tags, buffer: .sampleBuffer(sampleBuffer)) }

    /// The tags and the kind of buffer.
    public var description: String {
        let kind: String
        switch buffer {
        case .pixelBuffer: kind = "pixel buffer"
        case .sampleBuffer: kind = "sample buffer"
        }
        return "CMTaggedBuffer(tags: \(tags), \(kind))"
    }
}
