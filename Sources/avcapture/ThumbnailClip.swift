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
        // An upright movie: decoded once from the first tick, at its size in 4:2:0; each
        // tick takes the picture shown at it (the last one that began at or before it), and only
        // those are scaled and converted (a 30 fps movie at 10 a clip's second: one in three).
        let natural = track.naturalSize
        let scale = min(1, box.width / max(1, natural.width), box.height / max(1, natural.height))
        let width = max(2, Int((natural.width * scale / 2).rounded()) * 2), height = max(2, Int((natural.height * scale / 2).rounded()) * 2)
        let reader = try AVAssetReader(asset: asset)
        reader.timeRange = CMTimeRange(start: CMTime(seconds: start, preferredTimescale: 600), end: CMTime(seconds: end, preferredTimescale: 600))
        let output = AVAssetReaderTrackOutput(
            track: track, outputSettings: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange])
        reader.add(output)
        guard reader.startReading() else { throw reader.error ?? CommandFailure("The movie cannot be read.") }
        defer { reader.cancelReading() }
        var made: VTPixelTransferSession?
        guard VTPixelTransferSessionCreate(allocator: nil, pixelTransferSessionOut: &made) == noErr, let transfer = made else {
            throw CommandFailure("The pictures cannot be scaled.")
        }
        defer { VTPixelTransferSessionInvalidate(transfer) }
        var pictures: [CGImage] = []
        var shown: (pixels: CVPixelBuffer, image: CGImage?)?
        /// The picture shown now, scaled and converted the first time a tick takes it.
        func take() throws -> CGImage? {
            guard let current = shown else { return nil }
            if let image = current.image { return image }
            guard let small = CVPixelBuffer(width: width, height: height, pixelFormatType: kCVPixelFormatType_32BGRA),
                VTPixelTransferSessionTransferImage(transfer, from: current.pixels, to: small) == noErr
            else { throw CommandFailure("A picture could not be scaled.") }
            var image: CGImage?
            guard VTCreateCGImageFromCVPixelBuffer(small, options: nil, imageOut: &image) == noErr else { throw CommandFailure("A picture could not be made.") }
            shown?.image = image
            return image
        }
        while pictures.count < count, let sample = output.copyNextSampleBuffer() {
            let time = sample.presentationTimeStamp.seconds
            while pictures.count < count, ticks[pictures.count] < time - 1e-6, let image = try take() { pictures.append(image) }
            guard let pixels = sample.imageBuffer else { continue }
            shown = (pixels, nil)
        }
        if let error = reader.error { throw error }
        while pictures.count < count, let image = try take() { pictures.append(image) }
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
        return Data(copying: data)
    }
}
