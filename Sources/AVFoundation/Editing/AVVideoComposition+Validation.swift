import CoreGraphics
import CoreMedia
import Foundation

/// Methods you can implement to indicate whether validation of a video composition should
/// continue after specific errors are found.
///
/// Apple's methods are optional; here each has a default implementation that continues.
public protocol AVVideoCompositionValidationHandling: NSObjectProtocol {
    /// Reports that a key that has an invalid value.
    func videoComposition(_ videoComposition: AVVideoComposition, shouldContinueValidatingAfterFindingInvalidValueForKey key: String) -> Bool
    /// Reports a time range that has no corresponding video composition instruction.
    func videoComposition(_ videoComposition: AVVideoComposition, shouldContinueValidatingAfterFindingEmptyTimeRange timeRange: CMTimeRange) -> Bool
    /// Reports a video composition instruction with a time range that's invalid, that overlaps with the time range
    /// of a prior instruction, or that contains times earlier than the time range of a prior instruction.
    func videoComposition(
        _ videoComposition: AVVideoComposition,
        shouldContinueValidatingAfterFindingInvalidTimeRangeIn videoCompositionInstruction: any AVVideoCompositionInstructionProtocol
    ) -> Bool
    /// Reports a video composition layer instruction with a track ID that doesn't correspond either to the track ID
    /// used for the composition's animation tool or to a track of the asset specified.
    func videoComposition(
        _ videoComposition: AVVideoComposition,
        shouldContinueValidatingAfterFindingInvalidTrackIDIn videoCompositionInstruction: any AVVideoCompositionInstructionProtocol,
        layerInstruction: AVVideoCompositionLayerInstruction, asset: AVAsset
    ) -> Bool
}

extension AVVideoCompositionValidationHandling {
    /// Continues validating.
    public func videoComposition(_ videoComposition: AVVideoComposition, shouldContinueValidatingAfterFindingInvalidValueForKey key: String) -> Bool { true }
    /// Continues validating.
    public func videoComposition(_ videoComposition: AVVideoComposition, shouldContinueValidatingAfterFindingEmptyTimeRange timeRange: CMTimeRange) -> Bool {
        true
    }
    /// Continues validating.
    public func videoComposition(
        _ videoComposition: AVVideoComposition,
        shouldContinueValidatingAfterFindingInvalidTimeRangeIn videoCompositionInstruction: any AVVideoCompositionInstructionProtocol
    ) -> Bool { true }
    /// Continues validating.
    public func videoComposition(
        _ videoComposition: AVVideoComposition,
        shouldContinueValidatingAfterFindingInvalidTrackIDIn videoCompositionInstruction: any AVVideoCompositionInstructionProtocol,
        layerInstruction: AVVideoCompositionLayerInstruction, asset: AVAsset
    ) -> Bool { true }
}

extension AVVideoComposition {
    /// Indicates whether the time ranges of the composition's instructions conform to validation requirements.
    ///
    /// The frame duration and render size must be positive; the instructions overlapping
    /// `timeRange` must have valid time ranges, in order, without overlaps or gaps; with an
    /// asset, they must cover its duration and no more, and their layers must name its video
    /// tracks. Each problem is told to the delegate, which may stop validation.
    public func isValid(for asset: AVAsset?, timeRange: CMTimeRange, validationDelegate: (any AVVideoCompositionValidationHandling)?) -> Bool {
        let duration = asset.map(\.duration).flatMap { $0.isNumeric ? $0 : nil }
        return validate(
            trackIDs: asset.map { Set($0.tracks(withMediaType: .video).map(\.trackID)) }, duration: duration, asset: asset, timeRange: timeRange,
            delegate: validationDelegate)
    }

    /// Validates against a video track set and a duration, when given; `asset` is what the delegate is told of.
    private func validate(
        trackIDs videoTrackIDs: Set<CMPersistentTrackID>?, duration end: CMTime?, asset: AVAsset?, timeRange: CMTimeRange,
        delegate validationDelegate: (any AVVideoCompositionValidationHandling)?
    ) -> Bool {
        var valid = true
        /// Records a problem; whether to go on looking.
        func found(_ goOn: Bool?) -> Bool {
            valid = false
            return goOn ?? true
        }
        if !frameDuration.isNumeric || frameDuration <= .zero {
            guard found(validationDelegate?.videoComposition(self, shouldContinueValidatingAfterFindingInvalidValueForKey: "frameDuration")) else {
                return false
            }
        }
        if !(renderSize.width > 0 && renderSize.height > 0 && renderSize.width.isFinite && renderSize.height.isFinite) {
            guard found(validationDelegate?.videoComposition(self, shouldContinueValidatingAfterFindingInvalidValueForKey: "renderSize")) else { return false }
        }
        if !(renderScale > 0 && renderScale.isFinite) {
            guard found(validationDelegate?.videoComposition(self, shouldContinueValidatingAfterFindingInvalidValueForKey: "renderScale")) else { return false }
        }
        var covered = CMTime.zero
        for instruction in instructions {
            let range = instruction.timeRange
            guard range.start.isNumeric, range.duration.isNumeric, range.duration > .zero, range.start >= .zero else {
                guard found(validationDelegate?.videoComposition(self, shouldContinueValidatingAfterFindingInvalidTimeRangeIn: instruction)) else {
                    return false
                }
                continue
            }
            let rangeEnd = range.start + range.duration
            guard rangeEnd > timeRange.start, timeRange.duration.isPositiveInfinity || range.start < timeRange.start + timeRange.duration else {
                covered = max(covered, rangeEnd)
                continue
            }
            if range.start < covered || end.map({ rangeEnd > $0 }) == true {
                guard found(validationDelegate?.videoComposition(self, shouldContinueValidatingAfterFindingInvalidTimeRangeIn: instruction)) else {
                    return false
                }
            } else if range.start > covered {
                let gap = CMTimeRange(start: covered, end: range.start)
                guard found(validationDelegate?.videoComposition(self, shouldContinueValidatingAfterFindingEmptyTimeRange: gap)) else { return false }
            }
            covered = max(covered, rangeEnd)
            guard let videoTrackIDs, let layered = instruction as? AVVideoCompositionInstruction else { continue }
            // An animation tool's additional layer is a track too.
            for layer in layered.layerInstructions where !videoTrackIDs.contains(layer.trackID) && layer.trackID != animationTool?.additionalTrackID {
                let goOn = asset.flatMap { asset in
                    validationDelegate?.videoComposition(
                        self, shouldContinueValidatingAfterFindingInvalidTrackIDIn: instruction, layerInstruction: layer, asset: asset)
                }
                guard found(goOn) else { return false }
            }
        }
        if let end, covered < end, timeRange.duration.isPositiveInfinity || covered < timeRange.start + timeRange.duration {
            guard found(validationDelegate?.videoComposition(self, shouldContinueValidatingAfterFindingEmptyTimeRange: CMTimeRange(start: covered, end: end)))
            else {
                return false
            }
        }
        return valid
    }

    /// Indicates whether the time ranges of the composition's instructions conform to validation
    /// requirements, once the asset's duration and tracks are loaded.
    public func isValid(for asset: AVAsset?, timeRange: CMTimeRange, validationDelegate: (any AVVideoCompositionValidationHandling)?) async throws -> Bool {
        let duration = try await asset?.load(.duration)
        return validate(
            trackIDs: asset.map { Set($0.tracks(withMediaType: .video).map(\.trackID)) }, duration: duration.flatMap { $0.isNumeric ? $0 : nil }, asset: asset,
            timeRange: timeRange, delegate: validationDelegate)
    }

    /// Determines whether the time ranges of the composition's instructions conform to validation requirements.
    public func determineValidity(
        for asset: AVAsset?, timeRange: CMTimeRange, validationDelegate: (any AVVideoCompositionValidationHandling)?,
        completionHandler: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        let work = UncheckedSendable((self, asset, validationDelegate))
        DispatchQueue.global().async {
            let (composition, asset, delegate) = work.value
            let duration = asset.map(\.duration).flatMap { $0.isNumeric ? $0 : nil }
            let trackIDs = asset.map { Set($0.tracks(withMediaType: .video).map(\.trackID)) }
            completionHandler(composition.validate(trackIDs: trackIDs, duration: duration, asset: asset, timeRange: timeRange, delegate: delegate), nil)
        }
    }

    /// Indicates whether the time ranges of the composition's instructions conform to validation requirements,
    /// against tracks and a duration already loaded.
    public func isValid(
        for tracks: [AVAssetTrack], assetDuration duration: CMTime, timeRange: CMTimeRange, validationDelegate: (any AVVideoCompositionValidationHandling)?
    ) -> Bool {
        validate(
            trackIDs: tracks.isEmpty ? nil : Set(tracks.filter { $0.mediaType == .video }.map(\.trackID)), duration: duration.isNumeric ? duration : nil,
            asset: tracks.first?.asset, timeRange: timeRange, delegate: validationDelegate)
    }
}
