import AVFoundation
import Foundation
import ImageIO
import VideoToolbox

/// `avcapture thumbnail --gif`: a clip of a movie as an animated GIF (or PNG), its pictures taken
/// at a steady rate as the movie shows them, fitted into a box.
enum ThumbnailClip {
    /// The pictures the movie shows at `rate` a second from `start` for `seconds` (fewer where the
    /// movie ends sooner), upright, fitted into `box`.
    static func pictures(of asset: AVAsset, track: AVAssetTrack, start: Double, seconds: Double, rate: Double, box: CGSize) throws -> [CGImage] {
        let duration = asset.duration.isNumeric ? asset.duration.seconds : start + seconds
        let end = min(start + seconds, duration)
        let count = max(1, Int(((end - start) * rate).rounded(.up)))
        let ticks = (0..<count).map { start + Double($0) / rate }
        guard track.preferredTransform == .identity else {
            // A turned movie: its exact frames, turned, one generator request each.
            let generator = AVAssetImageGenerator(asset: asset)
            generator.appliesPreferredTrackTransform = true
            generator.maximumSize = box
            (generator.requestedTimeToleranceBefore, generator.requestedTimeToleranceAfter) = (.zero, .zero)
            return try ticks.map { try generator.copyCGImage(at: CMTime(seconds: $0, preferredTimescale: 600), actualTime: nil) }
        }
        // An upright movie: decoded once from the first tick, scaled as it is decoded; each tick
        // takes the picture shown at it (the last one that began at or before it).
        let natural = track.naturalSize
        let scale = min(1, box.width / max(1, natural.width), box.height / max(1, natural.height))
        let width = max(2, Int((natural.width * scale / 2).rounded()) * 2), height = max(2, Int((natural.height * scale / 2).rounded()) * 2)
        let reader = try AVAssetReader(asset: asset)
        reader.timeRange = CMTimeRange(start: CMTime(seconds: start, preferredTimescale: 600), end: CMTime(seconds: end, preferredTimescale: 600))
        let output = AVAssetReaderTrackOutput(
            track: track,
            outputSettings: [
                kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA, kCVPixelBufferWidthKey as String: width,
                kCVPixelBufferHeightKey as String: height,
            ])
        reader.add(output)
        guard reader.startReading() else { throw reader.error ?? CommandFailure("The movie cannot be read.") }
        defer { reader.cancelReading() }
        var pictures: [CGImage] = []
        var shown: CGImage?
        while pictures.count < count, let sample = output.copyNextSampleBuffer() {
            let time = sample.presentationTimeStamp.seconds
            while pictures.count < count, let shown, ticks[pictures.count] < time - 1e-6 { pictures.append(shown) }
            guard let pixels = sample.imageBuffer else { continue }
            var image: CGImage?
            guard VTCreateCGImageFromCVPixelBuffer(pixels, options: nil, imageOut: &image) == noErr, let image else { continue }
            shown = image
        }
        if let error = reader.error { throw error }
        while pictures.count < count, let shown { pictures.append(shown) }
        return pictures
    }

    /// The pictures as an animation of `type` ("com.compuserve.gif" or "public.png"), each shown for
    /// `delay` seconds, looping for ever.
    static func animation(_ pictures: [CGImage], type: String, delay: Double) throws -> Data {
        let data = NSMutableData()
        guard let destination = CGImageDestinationCreateWithData(data as CFMutableData, type as CFString, pictures.count, nil) else {
            throw CommandFailure("This system cannot write \(type) animations.")
        }
        let dictionary = type == "public.png" ? kCGImagePropertyPNGDictionary : kCGImagePropertyGIFDictionary
        CGImageDestinationSetProperties(destination, [dictionary: [kCGImagePropertyGIFLoopCount: 0]] as CFDictionary)
        for picture in pictures {
            CGImageDestinationAddImage(destination, picture, [dictionary: [kCGImagePropertyGIFUnclampedDelayTime: delay]] as CFDictionary)
        }
        guard CGImageDestinationFinalize(destination) else { throw CommandFailure("The animation could not be encoded as \(type).") }
        return data as Data
    }
}
