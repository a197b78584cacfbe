import CoreGraphics
import CoreImage
import CoreMedia
import Foundation
import FrameProcessing

/// Composes the pictures of several video tracks as a video composition's instructions say: at
/// each tick of its frame duration, each layer's picture showing at that time (read by an asset
/// reader of its own), cropped, transformed and faded, top layer first, over the instruction's
/// background colour, into a buffer from a pool: by libyuv in Y'CbCr when the layers are only
/// cropped, scaled, moved and faded onto whole pixels, by pixman through any other affine
/// transform and into an animation tool's still layer tree, and by Core Image when the app's
/// filters take part.
///
/// Coordinates are Apple's for compositions: origin at the top left, y down, in the track's
/// pixels for crops and in the render size's for transforms.
///
/// Thread ownership: owned by its output, and used under the output's lock.
final class VideoCompositing {
    /// One track's pictures, read in order, the one showing at a time kept.
    private final class Source {
        let reader: AVAssetReader
        let output: AVAssetReaderTrackOutput
        private var current: CMSampleBuffer?
        private var upcoming: CMSampleBuffer?
        private var started = false

        init(reader: AVAssetReader, output: AVAssetReaderTrackOutput) {
            self.reader = reader
            self.output = output
        }

        /// The picture showing at `time`: the latest presented at or before it, while it lasts.
        func picture(at time: CMTime) -> CVPixelBuffer? {
            if !started {
                upcoming = output.copyNextSampleBuffer()
                started = true
            }
            // Half a microsecond of slack: times rescaled on the way may fall a hair after the tick.
            let slack = CMTime(value: 1, timescale: 2_000_000)
            while let candidate = upcoming, candidate.presentationTimeStamp <= time + slack {
                current = candidate
                upcoming = output.copyNextSampleBuffer()
            }
            guard let current, current.presentationTimeStamp <= time + slack else { return nil }
            let ends =
                current.duration.isNumeric && current.duration > .zero ? current.presentationTimeStamp + current.duration : upcoming?.presentationTimeStamp
            if let ends, ends <= time { return nil }
            return CMSampleBufferGetImageBuffer(current)
        }
    }

    private let sources: [CMPersistentTrackID: Source]
    /// The tracks read, made once: a custom compositor's instructions that name none take them all.
    private let sourceTrackIDs: Set<CMPersistentTrackID>
    private let instructions: [AVVideoCompositionInstruction]
    /// Every instruction, Apple's kind or the app's own, for a custom compositor.
    private let allInstructions: [any AVVideoCompositionInstructionProtocol]
    /// The composition's custom compositor, when it names one.
    private let custom: CustomCompositor?
    private let frameDuration: CMTime
    private let renderSize: CGSize
    private let pool: CVPixelBufferPool
    private let pixelFormat: OSType
    private let context = CIContext()
    /// The composer of plain layers in two-plane 4:2:0, for output in that format.
    private let layering: YCbCrLayering?
    /// The composer of layers through any affine transform, in BGRA, for BGRA and 4:2:0 output.
    private let affineLayering: AffineLayering?
    /// The composer of frames into the animation tool's still layer tree, for compositions with one.
    private let toolLayering: AnimationToolLayering?
    private var tick: CMTime
    private let end: CMTime
    private var format: CMVideoFormatDescription?
    /// The sample buffers composed pictures are handed out in, each used again once the client lets it go.
    private let shells = SampleBufferShellPool(capacity: 8)
    /// The handler that filters each composed frame, for compositions made with one.
    private let filtering: (@Sendable (AVAsynchronousCIImageFilteringRequest) -> Void)?
    /// The layer tree drawn over (and around) each composed frame, for compositions with one.
    private let animationTool: AVVideoCompositionCoreAnimationTool?
    /// An additional layer's picture, drawn once, and the track ID layer instructions name it by.
    private let additionalLayer: (trackID: CMPersistentTrackID, picture: CVPixelBuffer)?

    init(tracks: [AVAssetTrack], composition: AVVideoComposition, pixelFormat: OSType, timeRange: CMTimeRange) throws {
        let size = composition.renderSize
        guard size.width >= 1, size.height >= 1, size.width <= 16_384, size.height <= 16_384, composition.frameDuration.isNumeric,
            composition.frameDuration > .zero
        else {
            throw AVError(
                .invalidVideoComposition,
                userInfo: [NSLocalizedDescriptionKey: "The video composition needs a render size of 1 to 16384 a side and a positive frame duration."])
        }
        allInstructions = composition.instructions
        instructions = allInstructions.compactMap { $0 as? AVVideoCompositionInstruction }
        let compositorClass = composition.customVideoCompositorClass
        guard compositorClass != nil ? !allInstructions.isEmpty : !instructions.isEmpty else {
            throw AVError(.invalidVideoComposition, userInfo: [NSLocalizedDescriptionKey: "The video composition has no instructions of Apple's kind."])
        }
        guard let pool = CVPixelBufferPool(width: Int(size.width), height: Int(size.height), pixelFormatType: pixelFormat, maximumBufferCount: 6) else {
            throw AVError(.invalidVideoComposition, userInfo: [NSLocalizedDescriptionKey: "Pictures of that format and size cannot be made."])
        }
        self.pool = pool
        self.pixelFormat = pixelFormat
        renderSize = CGSize(width: Int(size.width), height: Int(size.height))
        layering = YCbCrLayering(renderSize: renderSize, pixelFormat: pixelFormat)
        affineLayering = AffineLayering(renderSize: renderSize, pixelFormat: pixelFormat)
        frameDuration = composition.frameDuration
        filtering = composition.filtering.withLock { $0 }
        let tool = composition.animationTool
        animationTool = tool?.additionalTrackID == nil ? tool : nil
        toolLayering =
            filtering == nil
            ? animationTool.flatMap {
                AnimationToolLayering(tool: $0, renderSize: CGSize(width: Int(size.width), height: Int(size.height)), pixelFormat: pixelFormat)
            } : nil
        if let tool, let trackID = tool.additionalTrackID {
            // A still layer tree: drawn once, at the render size, and shown as a track's frame each time.
            guard let picture = CVPixelBuffer(width: Int(size.width), height: Int(size.height), pixelFormatType: kCVPixelFormatType_32BGRA),
                CIContext().renderingProblem(tool.additionalPicture(renderSize: CGSize(width: Int(size.width), height: Int(size.height))), to: picture) == nil
            else {
                throw AVError(.invalidVideoComposition, userInfo: [NSLocalizedDescriptionKey: "The additional layer could not be drawn."])
            }
            additionalLayer = (trackID, picture)
        } else {
            additionalLayer = nil
        }
        custom = try compositorClass.map {
            try CustomCompositor(
                $0, composition: composition, renderSize: CGSize(width: Int(size.width), height: Int(size.height)), outputPool: pool, outputFormat: pixelFormat)
        }
        let needed =
            custom != nil ? CustomCompositor.neededTracks(allInstructions, tracks: tracks) : Set(instructions.flatMap { $0.layerInstructions.map(\.trackID) })
        let sourceFormat = custom?.sourcePixelFormat ?? pixelFormat
        var sources: [CMPersistentTrackID: Source] = [:]
        for track in tracks where needed.contains(track.trackID) {
            guard let asset = track.asset else { throw AVError(.failedToLoadMediaData) }
            let reader = try AVAssetReader(asset: asset)
            reader.timeRange = timeRange
            // Read in the format given out: a frame one layer shows as it is passes straight through,
            // and Core Image converts what it composes.
            let output = AVAssetReaderTrackOutput(track: track, outputSettings: [kCVPixelBufferPixelFormatTypeKey as String: sourceFormat])
            output.alwaysCopiesSampleData = false
            reader.add(output)
            guard reader.startReading() else { throw reader.error ?? AVError(.failedToLoadMediaData) }
            sources[track.trackID] = Source(reader: reader, output: output)
        }
        self.sources = sources
        sourceTrackIDs = Set(sources.keys).union(additionalLayer.map { [$0.trackID] } ?? [])
        tick = timeRange.start.isNumeric ? timeRange.start : .zero
        let last = allInstructions.map(\.timeRange.end).filter(\.isNumeric).max() ?? .zero
        end = timeRange.end.isNumeric ? min(timeRange.end, last) : last
    }

    deinit { for source in sources.values { source.reader.cancelReading() } }

    /// The app's compositor, when the composition names one.
    var customCompositor: (any AVVideoCompositing)? { custom?.compositor }

    /// Stops waiting for a custom compositor: reading was cancelled. Any thread.
    func cancel() { custom?.cancel() }

    /// The next composed picture, nil after the last instruction's end.
    func next() throws -> CMSampleBuffer? {
        guard tick < end else { return nil }
        let time = tick
        tick = tick + frameDuration
        let buffer: CVPixelBuffer
        if let custom {
            guard let instruction = allInstructions.first(where: { $0.timeRange.containsTime(time) }) else {
                throw AVError(.invalidVideoComposition, userInfo: [NSLocalizedDescriptionKey: "No instruction covers \(time.seconds) s."])
            }
            let composed = try custom.frame(at: time, instruction: instruction, trackIDs: sourceTrackIDs) { picture(of: $0, at: time) }
            if let animationTool, instruction.enablePostProcessing {
                guard let made = pool.dequeue() else { throw AVError(.exportFailed, userInfo: [NSLocalizedDescriptionKey: "No picture buffer is free."]) }
                let picture = animationTool.composite(video: CIImage(cvPixelBuffer: composed), renderSize: renderSize)
                if let problem = context.renderingProblem(picture, to: made) {
                    throw AVError(.exportFailed, userInfo: [NSLocalizedDescriptionKey: "A composed frame could not be rendered: \(problem)."])
                }
                buffer = made
            } else {
                buffer = composed
            }
        } else if filtering == nil, animationTool == nil, let passing = passthrough(at: time) {
            buffer = passing
        } else {
            guard let made = pool.dequeue() else { throw AVError(.exportFailed, userInfo: [NSLocalizedDescriptionKey: "No picture buffer is free."]) }
            buffer = made
            let layered =
                filtering == nil
                && instructions.first(where: { $0.timeRange.containsTime(time) }).map { instruction in
                    if animationTool != nil, instruction.enablePostProcessing {
                        return toolLayering?.compose(instruction, at: time, into: made) { picture(of: $0, at: time) } ?? false
                    }
                    return layering?.compose(instruction, at: time, into: made) { picture(of: $0, at: time) } ?? false
                        || affineLayering?.compose(instruction, at: time, into: made) { picture(of: $0, at: time) } ?? false
                } ?? false
            if !layered { try render(at: time, into: buffer) }
        }
        if format == nil {
            var made: CMVideoFormatDescription?
            CMVideoFormatDescriptionCreateForImageBuffer(allocator: nil, imageBuffer: buffer, formatDescriptionOut: &made)
            format = made
        }
        guard let format, CMVideoFormatDescriptionMatchesImageBuffer(format, imageBuffer: buffer) else { return nil }
        return shells.sampleBuffer(
            imageBuffer: buffer, formatDescription: format,
            timing: CMSampleTimingInfo(duration: frameDuration, presentationTimeStamp: time, decodeTimeStamp: .invalid))
    }

    /// The frame a track shows at a time: a source track's, or the additional layer's.
    private func picture(of trackID: CMPersistentTrackID, at time: CMTime) -> CVPixelBuffer? {
        if let source = sources[trackID] { return source.picture(at: time) }
        return additionalLayer.flatMap { $0.trackID == trackID ? $0.picture : nil }
    }

    /// The frame of the one layer showing at a time when it is shown as it is: at the render
    /// size, not moved, faded or cropped (Apple's passthrough).
    private func passthrough(at time: CMTime) -> CVPixelBuffer? {
        guard let instruction = instructions.first(where: { $0.timeRange.containsTime(time) }), instruction.layerInstructions.count == 1,
            let layer = instruction.layerInstructions.first, layer.transform(at: time).isIdentity, layer.opacity(at: time) >= 1,
            let frame = picture(of: layer.trackID, at: time), CVPixelBufferGetPixelFormatType(frame) == pixelFormat,
            CVPixelBufferGetWidth(frame) == Int(renderSize.width), CVPixelBufferGetHeight(frame) == Int(renderSize.height)
        else { return nil }
        if let crop = layer.crop(at: time), !crop.contains(CGRect(origin: .zero, size: renderSize)) { return nil }
        return frame
    }

    /// Composes the frame at a time into a buffer.
    private func render(at time: CMTime, into buffer: CVPixelBuffer) throws {
        var picture = composed(at: time)
        if let filtering {
            // The app's filters, given the upright frame; the frame waits for them to finish.
            let request = AVAsynchronousCIImageFilteringRequest(renderSize: renderSize, compositionTime: time, sourceImage: picture)
            filtering(request)
            switch request.result() {
            case .success(let filtered): picture = filtered.cropped(to: CGRect(origin: .zero, size: renderSize))
            case .failure(let error): throw error
            }
        }
        if let animationTool, instructions.first(where: { $0.timeRange.containsTime(time) })?.enablePostProcessing ?? true {
            picture = animationTool.composite(video: picture, renderSize: renderSize)
        }
        if let problem = context.renderingProblem(picture, to: buffer) {
            throw AVError(.exportFailed, userInfo: [NSLocalizedDescriptionKey: "A composed frame could not be rendered: \(problem)."])
        }
    }

    /// The picture at a time, as a recipe: the instruction's layers over its background.
    private func composed(at time: CMTime) -> CIImage {
        let bounds = CGRect(origin: .zero, size: renderSize)
        let instruction = instructions.first { $0.timeRange.containsTime(time) }
        var picture = CIImage(color: CIColor(cgColor: instruction?.backgroundColor ?? CGColor(red: 0, green: 0, blue: 0, alpha: 1))).cropped(to: bounds)
        for layer in (instruction?.layerInstructions ?? []).reversed() {
            guard let frame = self.picture(of: layer.trackID, at: time) else { continue }
            let height = CGFloat(CVPixelBufferGetHeight(frame))
            var image = CIImage(cvPixelBuffer: frame)
            if let crop = layer.crop(at: time) {
                image = image.cropped(to: CGRect(x: crop.minX, y: height - crop.maxY, width: crop.width, height: crop.height))
            }
            // From the track's top-left coordinates, through the layer's transform, to the render's, in Core Image's y-up terms.
            let intoTrack = CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: height)
            let intoRender = CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: renderSize.height)
            image = image.transformed(by: intoTrack.concatenating(layer.transform(at: time)).concatenating(intoRender))
            let opacity = CGFloat(layer.opacity(at: time))
            if opacity <= 0 { continue }
            if opacity < 1 { image = image.applyingFilter("CIColorMatrix", parameters: ["inputAVector": CIVector(x: 0, y: 0, z: 0, w: opacity)]) }
            picture = image.composited(over: picture)
        }
        return picture.cropped(to: bounds)
    }
}
