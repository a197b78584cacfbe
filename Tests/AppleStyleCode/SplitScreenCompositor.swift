import AVFoundation

/// A custom compositor as editing apps write one: a class named by the video composition, with
/// its own queue, that puts the first track's frame on the left half and the second's on the
/// right, row by row in BGRA, and finishes each request from that queue.
public class SplitScreenCompositor: NSObject, AVVideoCompositing, @unchecked Sendable {
    private let renderQueue = DispatchQueue(label: "SplitScreenCompositor.render")
    private let lock = NSLock()
    private var renderContext: AVVideoCompositionRenderContext?
    private var shouldCancelAllRequests = false

    public var sourcePixelBufferAttributes: [String: any Sendable]? {
        [kCVPixelBufferPixelFormatTypeKey as String: [kCVPixelFormatType_32BGRA]]
    }

    public var requiredPixelBufferAttributesForRenderContext: [String: any Sendable] {
        [kCVPixelBufferPixelFormatTypeKey as String: [kCVPixelFormatType_32BGRA]]
    }

    public func renderContextChanged(_ newRenderContext: AVVideoCompositionRenderContext) {
        lock.lock()
        renderContext = newRenderContext
        lock.unlock()
    }

    public func startRequest(_ asyncVideoCompositionRequest: AVAsynchronousVideoCompositionRequest) {
        renderQueue.async { [weak self] in
            guard let self else { return }
            self.lock.lock()
            let cancelled = self.shouldCancelAllRequests
            self.lock.unlock()
            if cancelled {
                asyncVideoCompositionRequest.finishCancelledRequest()
                return
            }
            guard let instruction = asyncVideoCompositionRequest.videoCompositionInstruction as? SplitScreenInstruction,
                let left = asyncVideoCompositionRequest.sourceFrame(byTrackID: instruction.leftTrackID),
                let right = asyncVideoCompositionRequest.sourceFrame(byTrackID: instruction.rightTrackID),
                let output = asyncVideoCompositionRequest.renderContext.newPixelBuffer()
            else {
                asyncVideoCompositionRequest.finish(with: NSError(domain: "SplitScreenCompositor", code: 1))
                return
            }
            CVPixelBufferLockBaseAddress(left, .readOnly)
            CVPixelBufferLockBaseAddress(right, .readOnly)
            CVPixelBufferLockBaseAddress(output, [])
            let width = CVPixelBufferGetWidth(output), height = CVPixelBufferGetHeight(output)
            let outBase = CVPixelBufferGetBaseAddress(output)!, outRow = CVPixelBufferGetBytesPerRow(output)
            for (source, startX) in [(left, 0), (right, width / 2)] {
                let base = CVPixelBufferGetBaseAddress(source)!, row = CVPixelBufferGetBytesPerRow(source)
                for y in 0..<min(height, CVPixelBufferGetHeight(source)) {
                    memcpy(outBase + y * outRow + startX * 4, base + y * row + startX * 4, (width / 2) * 4)
                }
            }
            CVPixelBufferUnlockBaseAddress(output, [])
            CVPixelBufferUnlockBaseAddress(right, .readOnly)
            CVPixelBufferUnlockBaseAddress(left, .readOnly)
            asyncVideoCompositionRequest.finish(withComposedVideoFrame: output)
        }
    }

    public func cancelAllPendingVideoCompositionRequests() {
        lock.lock()
        shouldCancelAllRequests = true
        lock.unlock()
        renderQueue.async(flags: .barrier) { [weak self] in
            guard let self else { return }
            self.lock.lock()
            self.shouldCancelAllRequests = false
            self.lock.unlock()
        }
    }
}

/// The custom instruction the split-screen compositor reads: which track goes on which side.
public class SplitScreenInstruction: NSObject, AVVideoCompositionInstructionProtocol {
    public var timeRange: CMTimeRange
    public var enablePostProcessing = false
    public var containsTweening = false
    public var requiredSourceTrackIDs: [NSValue]?
    public var passthroughTrackID = kCMPersistentTrackID_Invalid
    public let leftTrackID: CMPersistentTrackID
    public let rightTrackID: CMPersistentTrackID

    public init(timeRange: CMTimeRange, leftTrackID: CMPersistentTrackID, rightTrackID: CMPersistentTrackID) {
        self.timeRange = timeRange
        self.leftTrackID = leftTrackID
        self.rightTrackID = rightTrackID
        requiredSourceTrackIDs = [NSNumber(value: leftTrackID), NSNumber(value: rightTrackID)]
        super.init()
    }
}

/// Two clips side by side: a composition of two tracks, a custom instruction, the compositor's class.
public enum SplitScreenExport {
    public static func export(_ first: AVAsset, _ second: AVAsset, to outputURL: URL, completion: @escaping @Sendable (Error?) -> Void) {
        let composition = AVMutableComposition()
        guard let leftTrack = composition.addMutableTrack(withMediaType: .video, preferredTrackID: kCMPersistentTrackID_Invalid),
            let rightTrack = composition.addMutableTrack(withMediaType: .video, preferredTrackID: kCMPersistentTrackID_Invalid),
            let firstVideo = first.tracks(withMediaType: .video).first, let secondVideo = second.tracks(withMediaType: .video).first
        else { return completion(NSError(domain: "SplitScreenExport", code: 1)) }
        let duration = CMTimeMinimum(first.duration, second.duration)
        do {
            try leftTrack.insertTimeRange(CMTimeRange(start: .zero, duration: duration), of: firstVideo, at: .zero)
            try rightTrack.insertTimeRange(CMTimeRange(start: .zero, duration: duration), of: secondVideo, at: .zero)
        } catch {
            return completion(error)
        }
        let videoComposition = AVMutableVideoComposition()
        videoComposition.customVideoCompositorClass = SplitScreenCompositor.self
        videoComposition.frameDuration = CMTime(value: 1, timescale: 30)
        videoComposition.renderSize = firstVideo.naturalSize
        videoComposition.instructions = [
            SplitScreenInstruction(timeRange: CMTimeRange(start: .zero, duration: duration), leftTrackID: leftTrack.trackID, rightTrackID: rightTrack.trackID)
        ]
        guard let exporter = AVAssetExportSession(asset: composition, presetName: AVAssetExportPresetHighestQuality) else {
            return completion(NSError(domain: "SplitScreenExport", code: 2))
        }
        exporter.outputURL = outputURL
        exporter.outputFileType = .mp4
        exporter.videoComposition = videoComposition
        exporter.exportAsynchronously {
            completion(exporter.status == .completed ? nil : exporter.error)
        }
    }
}
