import AVFoundation

/// Two clips merged with a crossfade as iOS editing tutorials merge them: a composition of two
/// video tracks, one instruction over the whole with a layer instruction for each, the first
/// fading out over the second, exported with the highest quality preset.
public enum ClipMerger {
    public static func merge(
        _ first: AVAsset, _ second: AVAsset, fadeSeconds: Double, to outputURL: URL, completion: @escaping @Sendable (Error?) -> Void
    ) {
        let mixComposition = AVMutableComposition()
        guard
            let firstTrack = mixComposition.addMutableTrack(withMediaType: .video, preferredTrackID: Int32(kCMPersistentTrackID_Invalid)),
            let secondTrack = mixComposition.addMutableTrack(withMediaType: .video, preferredTrackID: Int32(kCMPersistentTrackID_Invalid)),
            let firstVideo = first.tracks(withMediaType: .video).first, let secondVideo = second.tracks(withMediaType: .video).first
        else {
            completion(NSError(domain: "ClipMerger", code: 1))
            return
        }
        let fade = CMTime(seconds: fadeSeconds, preferredTimescale: 600)
        let secondStart = CMTimeSubtract(first.duration, fade)
        do {
            try firstTrack.insertTimeRange(CMTimeRangeMake(start: .zero, duration: first.duration), of: firstVideo, at: .zero)
            try secondTrack.insertTimeRange(CMTimeRangeMake(start: .zero, duration: second.duration), of: secondVideo, at: secondStart)
        } catch {
            completion(error)
            return
        }

        let mainInstruction = AVMutableVideoCompositionInstruction()
        mainInstruction.timeRange = CMTimeRangeMake(start: .zero, duration: CMTimeAdd(secondStart, second.duration))
        let firstInstruction = AVMutableVideoCompositionLayerInstruction(assetTrack: firstTrack)
        firstInstruction.setOpacityRamp(fromStartOpacity: 1.0, toEndOpacity: 0.0, timeRange: CMTimeRangeMake(start: secondStart, duration: fade))
        let secondInstruction = AVMutableVideoCompositionLayerInstruction(assetTrack: secondTrack)
        mainInstruction.layerInstructions = [firstInstruction, secondInstruction]

        let mainComposition = AVMutableVideoComposition()
        mainComposition.instructions = [mainInstruction]
        mainComposition.frameDuration = CMTimeMake(value: 1, timescale: 30)
        mainComposition.renderSize = firstVideo.naturalSize

        guard let exporter = AVAssetExportSession(asset: mixComposition, presetName: AVAssetExportPresetHighestQuality) else {
            completion(NSError(domain: "ClipMerger", code: 2))
            return
        }
        exporter.outputURL = outputURL
        exporter.outputFileType = .mov
        exporter.shouldOptimizeForNetworkUse = true
        exporter.videoComposition = mainComposition
        exporter.exportAsynchronously {
            completion(exporter.status == .completed ? nil : exporter.error)
        }
    }

    /// A frame of a movie at a time, as a thumbnail strip takes it.
    public static func frame(of asset: AVAsset, at seconds: Double) -> CGImage? {
        let generator = AVAssetImageGenerator(asset: asset)
        generator.requestedTimeToleranceBefore = .zero
        generator.requestedTimeToleranceAfter = .zero
        return try? generator.copyCGImage(at: CMTime(seconds: seconds, preferredTimescale: 600), actualTime: nil)
    }
}
