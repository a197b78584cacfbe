import AVFoundation

/// A title card as editing apps add one: a layer tree composed as a track of its own
/// (`AVVideoCompositionCoreAnimationTool(additionalLayer:asTrackID:)`), over the video for the
/// first second, then faded out, with a layer instruction like any other track's.
public enum TitleCardExporter {
    public static func export(_ asset: AVAsset, cardColor: CGColor, to outputURL: URL, completion: @escaping @Sendable (Error?) -> Void) {
        guard let track = asset.tracks(withMediaType: .video).first else { return completion(NSError(domain: "TitleCardExporter", code: 1)) }
        let videoSize = track.naturalSize
        // A band across the bottom third of the picture.
        let cardLayer = CALayer()
        cardLayer.frame = CGRect(origin: .zero, size: videoSize)
        let band = CALayer()
        band.frame = CGRect(x: 0, y: 0, width: videoSize.width, height: videoSize.height / 3)
        band.backgroundColor = cardColor
        cardLayer.addSublayer(band)

        let cardTrackID = asset.unusedTrackID()
        let duration = asset.duration
        let instruction = AVMutableVideoCompositionInstruction()
        instruction.timeRange = CMTimeRange(start: .zero, duration: duration)
        let cardInstruction = AVMutableVideoCompositionLayerInstruction()
        cardInstruction.trackID = cardTrackID
        cardInstruction.setOpacity(1, at: .zero)
        cardInstruction.setOpacityRamp(
            fromStartOpacity: 1, toEndOpacity: 0,
            timeRange: CMTimeRange(start: CMTime(value: 1, timescale: 1), duration: CMTime(value: 1, timescale: 2)))
        instruction.layerInstructions = [cardInstruction, AVMutableVideoCompositionLayerInstruction(assetTrack: track)]

        let videoComposition = AVMutableVideoComposition()
        videoComposition.renderSize = videoSize
        videoComposition.frameDuration = CMTime(value: 1, timescale: 30)
        videoComposition.instructions = [instruction]
        videoComposition.animationTool = AVVideoCompositionCoreAnimationTool(additionalLayer: cardLayer, asTrackID: cardTrackID)
        guard videoComposition.isValid(for: asset, timeRange: instruction.timeRange, validationDelegate: nil) else {
            return completion(NSError(domain: "TitleCardExporter", code: 3))
        }
        guard let exporter = AVAssetExportSession(asset: asset, presetName: AVAssetExportPresetHighestQuality) else {
            return completion(NSError(domain: "TitleCardExporter", code: 2))
        }
        exporter.outputURL = outputURL
        exporter.outputFileType = .mp4
        exporter.videoComposition = videoComposition
        exporter.exportAsynchronously {
            completion(exporter.status == .completed ? nil : exporter.error)
        }
    }
}
