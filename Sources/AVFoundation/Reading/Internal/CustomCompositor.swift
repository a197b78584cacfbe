import CoreGraphics
import CoreImage
import CoreMedia
import Foundation
import MovieEngine
import Synchronization

/// A video composition's custom compositor at work: one instance of the app's class (made with
/// its `init()`, as Apple's engine makes it), its render context and pool, and a request for each
/// frame, waited for until the compositor finishes it.
///
/// Thread ownership: used by one compositing under its output's lock; `cancel()` from any thread.
final class CustomCompositor {
    /// The app's compositor.
    let compositor: any AVVideoCompositing
    private let context: AVVideoCompositionRenderContext
    /// The pixel format the compositor takes its source frames in.
    let sourcePixelFormat: OSType
    private let outputPool: CVPixelBufferPool
    private let outputFormat: OSType
    private let converter = CIContext()
    private let cancelled = Atomic(false)

    /// The pixel formats this engine reads source frames in and makes render buffers in.
    private static let formats: [OSType] = [
        kCVPixelFormatType_32BGRA, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange,
    ]

    /// Makes the compositor of `composition` and tells it its render context.
    init(_ type: any AVVideoCompositing.Type, composition: AVVideoComposition, renderSize: CGSize, outputPool: CVPixelBufferPool, outputFormat: OSType) throws {
        guard let made = ObjectCreation.instance(of: type) as? any AVVideoCompositing else {
            throw AVError(
                .invalidVideoComposition,
                userInfo: [NSLocalizedDescriptionKey: "The custom compositor class \(type) could not be made: it must be an NSObject subclass."])
        }
        compositor = made
        guard let source = Self.pixelFormats(made.sourcePixelBufferAttributes?[kCVPixelBufferPixelFormatTypeKey as String]).first(where: Self.formats.contains),
            let render = Self.pixelFormats(made.requiredPixelBufferAttributesForRenderContext[kCVPixelBufferPixelFormatTypeKey as String]).first(
                where: Self.formats.contains)
        else {
            throw AVError(
                .invalidVideoComposition,
                userInfo: [
                    NSLocalizedDescriptionKey: "The custom compositor must name a pixel format for its sources and its render context: 32BGRA, 420v or 420f."
                ])
        }
        guard let pool = CVPixelBufferPool(width: Int(renderSize.width), height: Int(renderSize.height), pixelFormatType: render, maximumBufferCount: 6) else {
            throw AVError(.invalidVideoComposition, userInfo: [NSLocalizedDescriptionKey: "Render buffers of that format and size cannot be made."])
        }
        sourcePixelFormat = source
        context = AVVideoCompositionRenderContext(videoComposition: composition, size: renderSize, pool: pool)
        self.outputPool = outputPool
        self.outputFormat = outputFormat
        made.renderContextChanged(context)
    }

    /// Pixel formats as attributes give them: a number, or an array of numbers.
    private static func pixelFormats(_ value: Any?) -> [OSType] {
        if let list = value as? [Any] { return list.compactMap { attributeOSType($0) } }
        return attributeOSType(value).map { [$0] } ?? []
    }

    /// The tracks whose frames instructions need: each one's required tracks, or all the video tracks when one says nil.
    static func neededTracks(_ instructions: [any AVVideoCompositionInstructionProtocol], tracks: [AVAssetTrack]) -> Set<CMPersistentTrackID> {
        var needed = Set<CMPersistentTrackID>()
        for instruction in instructions {
            guard let required = instruction.requiredSourceTrackIDs else { return Set(tracks.map(\.trackID)) }
            needed.formUnion(required.compactMap { ($0 as? NSNumber)?.int32Value })
            if instruction.passthroughTrackID != kCMPersistentTrackID_Invalid { needed.insert(instruction.passthroughTrackID) }
        }
        return needed
    }

    /// Stops waiting: the compositor is asked to cancel what it has pending.
    func cancel() { cancelled.store(true, ordering: .releasing) }

    /// The frame at `time`: the passthrough track's frame, or the one the compositor composes from
    /// the instruction's source frames; in the output's format.
    func frame(
        at time: CMTime, instruction: any AVVideoCompositionInstructionProtocol, trackIDs: Set<CMPersistentTrackID>,
        picture: (CMPersistentTrackID) -> CVPixelBuffer?
    ) throws -> CVPixelBuffer {
        if instruction.passthroughTrackID != kCMPersistentTrackID_Invalid, let frame = picture(instruction.passthroughTrackID) {
            return try inOutputFormat(frame)
        }
        let wanted = instruction.requiredSourceTrackIDs.map { Set($0.compactMap { ($0 as? NSNumber)?.int32Value }) } ?? trackIDs
        var frames: [CMPersistentTrackID: CVPixelBuffer] = [:]
        for trackID in wanted { frames[trackID] = picture(trackID) }
        let request = AVAsynchronousVideoCompositionRequest(renderContext: context, compositionTime: time, instruction: instruction, frames: frames)
        compositor.startRequest(request)
        switch request.outcome(shouldCancel: { cancelled.load(ordering: .acquiring) }, cancel: { compositor.cancelAllPendingVideoCompositionRequests() }) {
        case .composed(let frame): return try inOutputFormat(frame)
        case .failed(let error): throw error
        case .cancelled:
            throw AVError(.operationInterrupted, userInfo: [NSLocalizedDescriptionKey: "The custom compositor cancelled the frame at \(time.seconds) s."])
        }
    }

    /// A frame in the output's format and render size: itself when it already is, else drawn by Core Image into an output buffer.
    private func inOutputFormat(_ frame: CVPixelBuffer) throws -> CVPixelBuffer {
        if CVPixelBufferGetPixelFormatType(frame) == outputFormat, CVPixelBufferGetWidth(frame) == Int(context.size.width),
            CVPixelBufferGetHeight(frame) == Int(context.size.height)
        {
            return frame
        }
        guard let buffer = outputPool.dequeue() else { throw AVError(.exportFailed, userInfo: [NSLocalizedDescriptionKey: "No picture buffer is free."]) }
        let image = CIImage(cvPixelBuffer: frame).cropped(to: CGRect(origin: .zero, size: context.size))
        if let problem = converter.renderingProblem(image, to: buffer) {
            throw AVError(.exportFailed, userInfo: [NSLocalizedDescriptionKey: "A composed frame could not be converted: \(problem)."])
        }
        return buffer
    }
}
