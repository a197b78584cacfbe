import CoreImage
import CoreMedia
import Foundation

/// An object that generates images from a video asset: the picture shown at a time, decoded by
/// an asset reader, scaled to fit a maximum size and turned by the track's preferred transform.
///
/// With zero tolerances the image is the exact frame shown at the requested time (decoded from
/// the keyframe before it); with Apple's default tolerances (infinite) it is the first picture
/// decoding reaches, that keyframe, which is much faster. Thread-safe; asynchronous requests run
/// in order on a queue of the generator's own.
open class AVAssetImageGenerator: NSObject, @unchecked Sendable {
    /// The asset images are generated from.
    public let asset: AVAsset
    private struct Settings {
        var appliesPreferredTrackTransform = false
        var maximumSize = CGSize.zero
        var apertureMode: ApertureMode? = .cleanAperture
        var toleranceBefore = CMTime.positiveInfinity
        var toleranceAfter = CMTime.positiveInfinity
        var videoComposition: AVVideoComposition?
        var generation = 0
    }
    private let settings = LockedValue(Settings())
    private let queue = DispatchQueue(label: "AVAssetImageGenerator")

    /// Creates a generator of images from an asset.
    public init(asset: AVAsset) {
        self.asset = asset
        super.init()
    }

    /// Whether images are turned by the video track's preferred transform, upright as played.
    open var appliesPreferredTrackTransform: Bool {
        get { settings.withLock { $0.appliesPreferredTrackTransform } }
        set { settings.withLock { $0.appliesPreferredTrackTransform = newValue } }
    }

    /// The largest size images may have, their aspect ratio kept; zero for the pictures' own size.
    open var maximumSize: CGSize {
        get { settings.withLock { $0.maximumSize } }
        set { settings.withLock { $0.maximumSize = newValue } }
    }

    /// Which part of the picture is kept (movies here have no aperture dimensions: all of it).
    open var apertureMode: ApertureMode? {
        get { settings.withLock { $0.apertureMode } }
        set { settings.withLock { $0.apertureMode = newValue } }
    }

    /// How much earlier than the requested time the image's time may be.
    open var requestedTimeToleranceBefore: CMTime {
        get { settings.withLock { $0.toleranceBefore } }
        set { settings.withLock { $0.toleranceBefore = newValue } }
    }

    /// How much later than the requested time the image's time may be.
    open var requestedTimeToleranceAfter: CMTime {
        get { settings.withLock { $0.toleranceAfter } }
        set { settings.withLock { $0.toleranceAfter = newValue } }
    }

    /// The video composition images are made with (its render size is not applied yet).
    open var videoComposition: AVVideoComposition? {
        get { settings.withLock { $0.videoComposition } }
        set { settings.withLock { $0.videoComposition = newValue } }
    }

    /// Returns the image shown at a time, and the time of the picture it shows.
    open func copyCGImage(at requestedTime: CMTime, actualTime: UnsafeMutablePointer<CMTime>?) throws -> CGImage {
        let (image, time) = try generate(at: requestedTime)
        actualTime?.pointee = time
        return image
    }

    /// Returns the image shown at a time, and the time of the picture it shows.
    open func image(at time: CMTime) async throws -> (image: CGImage, actualTime: CMTime) {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { [self] in
                do { continuation.resume(returning: try generate(at: time)) } catch { continuation.resume(throwing: error) }
            }
        }
    }

    /// Generates an image at a time and calls the handler with it, on a queue of the generator's own.
    open func generateCGImageAsynchronously(for requestedTime: CMTime, completionHandler handler: @escaping @Sendable (CGImage?, CMTime, (any Error)?) -> Void)
    {
        queue.async { [self] in
            do {
                let (image, time) = try generate(at: requestedTime)
                handler(image, time, nil)
            } catch {
                handler(nil, requestedTime, error)
            }
        }
    }

    /// Generates images at times, in order, calling the handler once for each; requests cancelled
    /// by `cancelAllCGImageGeneration()` are answered `.cancelled`.
    open func generateCGImagesAsynchronously(forTimes requestedTimes: [NSValue], completionHandler handler: @escaping AVAssetImageGeneratorCompletionHandler) {
        let generation = settings.withLock { $0.generation }
        for value in requestedTimes {
            let time = value.timeValue
            queue.async { [self] in
                guard settings.withLock({ $0.generation }) == generation else {
                    return handler(time, nil, time, .cancelled, nil)
                }
                do {
                    let (image, actual) = try generate(at: time)
                    handler(time, image, actual, .succeeded, nil)
                } catch {
                    handler(time, nil, time, .failed, error)
                }
            }
        }
    }

    /// Cancels the asynchronous requests not yet answered.
    open func cancelAllCGImageGeneration() { settings.withLock { $0.generation += 1 } }

    /// The images at times, as an asynchronous sequence of results in the order of the times.
    open func images(for times: [CMTime]) -> Images { Images(generator: self, times: times) }

    // MARK: Generating

    /// The most pixels a movie's picture may have to be decoded for an image (Linux): as many as a still picture may.
    static let maximumDecodedPixels = 100_000_000

    private func generate(at requestedTime: CMTime) throws -> (CGImage, CMTime) {
        guard requestedTime.isNumeric else {
            throw AVError(.noImageAtTime, userInfo: [NSLocalizedDescriptionKey: "\(requestedTime) is not a time"])
        }
        let options = settings.withLock { $0 }
        guard let track = asset.tracks(withMediaType: .video).first else {
            throw AVError(.noImageAtTime, userInfo: [NSLocalizedDescriptionKey: "The asset has no video track."])
        }
        let duration = asset.duration
        var time = max(.zero, requestedTime)
        // A time at or past the end shows the last picture.
        if duration.isNumeric, duration > .zero, time >= duration {
            time = max(
                .zero,
                duration - max(track.minFrameDuration.isNumeric ? track.minFrameDuration : CMTime(value: 1, timescale: 30), CMTime(value: 1, timescale: 1000)))
        }
        if let composition = options.videoComposition, !composition.instructions.isEmpty {
            return try composedImage(at: time, composition: composition, maximumSize: options.maximumSize)
        }
        // A picture is decoded whole before it is scaled: a track of more pixels than a picture may
        // have (a few kilobytes of HEVC can declare 16000x12000) is refused before anything is decoded.
        let natural = track.naturalSize
        guard natural.width.isFinite, natural.height.isFinite, Double(natural.width) * Double(natural.height) <= Double(Self.maximumDecodedPixels) else {
            throw AVError(
                .decodeFailed,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "The movie's pictures are \(Int(natural.width))x\(Int(natural.height)), more than the \(Self.maximumDecodedPixels / 1_000_000) megapixels a picture is decoded at."
                ])
        }
        let reader = try AVAssetReader(asset: asset)
        reader.timeRange = CMTimeRange(start: time, duration: .positiveInfinity)
        var outputSettings: [String: Any] = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA]
        if let size = Self.fit(
            track.naturalSize, in: options.maximumSize, turned: options.appliesPreferredTrackTransform ? track.preferredTransform : .identity)
        {
            outputSettings[kCVPixelBufferWidthKey as String] = size.width
            outputSettings[kCVPixelBufferHeightKey as String] = size.height
        }
        let output = AVAssetReaderTrackOutput(track: track, outputSettings: outputSettings)
        // With a tolerance before the time, the first picture decoded (the keyframe before it) may do.
        if options.toleranceBefore > .zero { output.earliestPicture.withLock { $0 = time - options.toleranceBefore } }
        reader.add(output)
        guard reader.startReading() else { throw reader.error ?? AVError(.noImageAtTime) }
        defer { reader.cancelReading() }
        guard let sample = output.copyNextSampleBuffer(), let pixels = sample.imageBuffer, var image = FrameImages.image(of: pixels) else {
            throw reader.error ?? AVError(.noImageAtTime, userInfo: [NSLocalizedDescriptionKey: "No picture is shown at \(requestedTime.seconds) s."])
        }
        if options.appliesPreferredTrackTransform {
            let scale = CGFloat(image.width) / max(1, track.naturalSize.width)
            let transform = track.preferredTransform
            let scaled = CGAffineTransform(a: transform.a, b: transform.b, c: transform.c, d: transform.d, tx: transform.tx * scale, ty: transform.ty * scale)
            image = FrameImages.transformed(image, by: scaled) ?? image
        }
        return (image, sample.presentationTimeStamp)
    }

    /// The frame a video composition composes at a time, at its render size or fitted into `maximumSize`.
    private func composedImage(at time: CMTime, composition: AVVideoComposition, maximumSize: CGSize) throws -> (CGImage, CMTime) {
        let reader = try AVAssetReader(asset: asset)
        reader.timeRange = CMTimeRange(start: time, duration: composition.frameDuration)
        let output = AVAssetReaderVideoCompositionOutput(videoTracks: asset.tracks(withMediaType: .video), videoSettings: nil)
        output.videoComposition = composition
        reader.add(output)
        guard reader.startReading() else { throw reader.error ?? AVError(.noImageAtTime) }
        defer { reader.cancelReading() }
        guard let sample = output.copyNextSampleBuffer(), let pixels = sample.imageBuffer else {
            throw reader.error ?? AVError(.noImageAtTime, userInfo: [NSLocalizedDescriptionKey: "No picture is composed at \(time.seconds) s."])
        }
        var image = CIImage(cvPixelBuffer: pixels)
        if let size = Self.fit(image.extent.size, in: maximumSize, turned: .identity) {
            image = image.transformed(
                by: CGAffineTransform(scaleX: CGFloat(size.width) / image.extent.width, y: CGFloat(size.height) / image.extent.height),
                highQualityDownsample: true)
        }
        guard let picture = CIContext().createCGImage(image, from: image.extent.integral) else {
            throw AVError(
                .noImageAtTime, userInfo: [NSLocalizedDescriptionKey: CIContext.lastRenderingProblem ?? "The composed picture could not be rendered."])
        }
        return (picture, sample.presentationTimeStamp)
    }

    /// The even size, at most `maximum` (after turning), that keeps a picture's aspect ratio; nil for the picture's own size.
    static func fit(_ natural: CGSize, in maximum: CGSize, turned transform: CGAffineTransform) -> (width: Int, height: Int)? {
        guard natural.width > 0, natural.height > 0, maximum.width > 0 || maximum.height > 0 else { return nil }
        let shown = CGRect(origin: .zero, size: natural).applying(transform).size
        let limits = (width: maximum.width > 0 ? maximum.width : .infinity, height: maximum.height > 0 ? maximum.height : .infinity)
        let scale = min(1, limits.width / shown.width, limits.height / shown.height)
        guard scale < 1 else { return nil }
        return (max(2, Int((natural.width * scale).rounded())), max(2, Int((natural.height * scale).rounded())))
    }
}

extension AVAssetImageGenerator {
    /// Which part of a picture an image generator keeps.
    public struct ApertureMode: Hashable, RawRepresentable, Sendable {
        /// The mode's name.
        public let rawValue: String
        /// Creates a mode from its name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The picture cropped to its clean aperture and scaled to its pixel aspect ratio.
        public static let cleanAperture = ApertureMode(rawValue: "CleanAperture")
        /// The picture scaled to its pixel aspect ratio, not cropped.
        public static let productionAperture = ApertureMode(rawValue: "ProductionAperture")
        /// The picture's encoded pixels.
        public static let encodedPixels = ApertureMode(rawValue: "EncodedPixels")
    }

    /// How an asynchronous request ended.
    public enum Result: Int, Sendable {
        /// An image was generated.
        case succeeded = 0
        /// No image could be generated.
        case failed = 1
        /// The request was cancelled.
        case cancelled = 2
    }

    /// The images an image generator makes for times, as an asynchronous sequence.
    public struct Images: AsyncSequence, Sendable {
        /// One result: the image and its times, or the error.
        public typealias Element = Result
        let generator: AVAssetImageGenerator
        let times: [CMTime]

        /// An image generated for a requested time, or why none could be.
        public enum Result: Sendable {
            /// An image, its requested time and the time of the picture it shows.
            case success(requestedTime: CMTime, image: CGImage, actualTime: CMTime)
            /// The requested time and the error.
            case failure(requestedTime: CMTime, error: any Error)

            /// The requested time.
            public var requestedTime: CMTime {
                switch self {
                case .success(let time, _, _), .failure(let time, _): time
                }
            }
            /// The image, or the error thrown.
            public var image: CGImage {
                get throws {
                    switch self {
                    case .success(_, let image, _): return image
                    case .failure(_, let error): throw error
                    }
                }
            }
            /// The time of the picture the image shows, or the error thrown.
            public var actualTime: CMTime {
                get throws {
                    switch self {
                    case .success(_, _, let time): return time
                    case .failure(_, let error): throw error
                    }
                }
            }
        }

        /// Makes an iterator over the results.
        public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(generator: generator, times: times[...]) }

        /// Generates each image when it is asked for.
        public struct AsyncIterator: AsyncIteratorProtocol {
            let generator: AVAssetImageGenerator
            var times: ArraySlice<CMTime>

            /// The next result, or nil after the last time.
            public mutating func next() async -> Result? {
                guard let time = times.popFirst() else { return nil }
                do {
                    let (image, actual) = try await generator.image(at: time)
                    return .success(requestedTime: time, image: image, actualTime: actual)
                } catch {
                    return .failure(requestedTime: time, error: error)
                }
            }
        }
    }
}

/// The handler of an asynchronous image request: the requested time, the image, its actual time, how it ended and the error.
public typealias AVAssetImageGeneratorCompletionHandler = @Sendable (CMTime, CGImage?, CMTime, AVAssetImageGenerator.Result, (any Error)?) -> Void
