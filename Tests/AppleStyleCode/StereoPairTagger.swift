import AVFoundation

/// Tags the two eyes' frames of a stereo pair as spatial video code does before handing them to
/// a writer, and finds each eye again among tagged buffers.
public struct StereoPairTagger {
    /// A tagger.
    public init() {}

    /// The left and right frames as tagged buffers: each eye with its layer.
    public func tag(left: CVPixelBuffer, right: CVPixelBuffer) -> [CMTaggedBuffer] {
        let leftTags: [CMTag] = [.videoLayerID(0), .stereoView(.leftEye)]
        let rightTags: [CMTag] = [.videoLayerID(1), .stereoView(.rightEye)]
        return [CMTaggedBuffer(tags: leftTags, pixelBuffer: left), CMTaggedBuffer(tags: rightTags, pixelBuffer: right)]
    }

    /// The frame of one eye among tagged buffers.
    public func frame(for eye: CMStereoViewComponents, in buffers: [CMTaggedBuffer]) -> CVPixelBuffer? {
        for tagged in buffers where tagged.tags.contains(.stereoView(eye)) {
            if case .pixelBuffer(let pixelBuffer) = tagged.buffer { return pixelBuffer }
        }
        return nil
    }

    /// The tags a writer's input of stereo video carries.
    public var outputTags: [CMTag] { .stereoscopicForVideoOutput() }
}
