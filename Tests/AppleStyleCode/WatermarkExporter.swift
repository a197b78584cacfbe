import AVFoundation

/// A watermark as iOS tutorials add one: a logo image in a layer at the bottom left, half
/// transparent, over a video layer, in a parent layer the animation tool renders with each frame.
public enum WatermarkExporter {
    /// A 64x64 logo of one colour, drawn with Core Graphics.
    public static func logo(red: CGFloat, green: CGFloat, blue: CGFloat) -> CGImage? {
        guard
            let context = CGContext(
                data: nil, width: 64, height: 64, bitsPerComponent: 8, bytesPerRow: 0, space: CGColorSpaceCreateDeviceRGB(),
                bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)
        else { return nil }
        context.setFillColor(CGColor(red: red, green: green, blue: blue, alpha: 1))
        context.fill(CGRect(x: 0, y: 0, width: 64, height: 64))
        return context.makeImage()
    }

    public static func export(_ asset: AVAsset, logo: CGImage, to outputURL: URL, completion: @escaping @Sendable (Error?) -> Void) {
        guard let track = asset.tracks(withMediaType: .video).first else { return completion(NSError(domain: "WatermarkExporter", code: 1)) }
        let videoSize = track.naturalSize
        let videoLayer = CALayer()
        videoLayer.frame = CGRect(origin: .zero, size: videoSize)
        let overlayLayer = CALayer()
        overlayLayer.frame = CGRect(origin: .zero, size: videoSize)
        let watermarkLayer = CALayer()
        watermarkLayer.contents = logo
        watermarkLayer.frame = CGRect(x: 20, y: 20, width: 64, height: 64)
        watermarkLayer.opacity = 0.5
        overlayLayer.addSublayer(watermarkLayer)
        let parentLayer = CALayer()
        parentLayer.frame = CGRect(origin: .zero, size: videoSize)
        parentLayer.addSublayer(videoLayer)
        parentLayer.addSublayer(overlayLayer)

        let videoComposition = AVMutableVideoComposition(propertiesOf: asset)
        videoComposition.animationTool = AVVideoCompositionCoreAnimationTool(postProcessingAsVideoLayer: videoLayer, in: parentLayer)
        guard let exporter = AVAssetExportSession(asset: asset, presetName: AVAssetExportPresetHighestQuality) else {
            return completion(NSError(domain: "WatermarkExporter", code: 2))
        }
        exporter.outputURL = outputURL
        exporter.outputFileType = .mov
        exporter.videoComposition = videoComposition
        exporter.exportAsynchronously {
            completion(exporter.status == .completed ? nil : exporter.error)
        }
    }
}
