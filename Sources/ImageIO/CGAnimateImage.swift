import Dispatch
import Foundation

/// The block an animation calls with each frame's index and image; setting the Boolean to true stops it.
public typealias CGImageSourceAnimationBlock = (Int, CGImage, UnsafeMutablePointer<Bool>) -> Void

/// The status of starting an animation.
public enum CGImageAnimationStatus: OSStatus, Sendable {
    /// A parameter, such as the start index, is out of range.
    case parameterError = -22140
    /// The image data is damaged.
    case corruptInputImage = -22141
    /// The data is no image this system reads.
    case unsupportedFormat = -22142
    /// The image data is incomplete.
    case incompleteInputImage = -22143
    /// Memory could not be allocated.
    case allocationFailure = -22144
}

/// The index of the frame the animation starts on.
nonisolated(unsafe) public let kCGImageAnimationStartIndex: CFString = "kCGImageAnimationStartIndex"
/// A delay, in seconds, to use between every two frames instead of the file's.
nonisolated(unsafe) public let kCGImageAnimationDelayTime: CFString = "kCGImageAnimationDelayTime"
/// How many times the animation plays, instead of the file's loop count (0 for ever).
nonisolated(unsafe) public let kCGImageAnimationLoopCount: CFString = "kCGImageAnimationLoopCount"

/// Animates the images in a GIF, animated PNG, WebP or HEIF image sequence file at a URL on the main queue, calling the block with each frame
/// when it is due; returns `noErr` once started, or a `CGImageAnimationStatus` code.
public func CGAnimateImageAtURLWithBlock(_ url: CFURL, _ options: CFDictionary?, _ block: @escaping CGImageSourceAnimationBlock) -> OSStatus {
    guard let source = CGImageSourceCreateWithURL(url, nil) else { return CGImageAnimationStatus.unsupportedFormat.rawValue }
    return FrameAnimation.start(source, options, block)
}

/// Animates the images in GIF, animated PNG, WebP or HEIF image sequence data on the main queue, calling the block with each frame when it is
/// due; returns `noErr` once started, or a `CGImageAnimationStatus` code.
public func CGAnimateImageDataWithBlock(_ data: CFData, _ options: CFDictionary?, _ block: @escaping CGImageSourceAnimationBlock) -> OSStatus {
    guard let source = CGImageSourceCreateWithData(data, nil) else { return CGImageAnimationStatus.unsupportedFormat.rawValue }
    return FrameAnimation.start(source, options, block)
}

/// One animation's run: each frame decoded when due and handed to the block on the main queue,
/// the next scheduled after the frame's delay, until the loops are done or the block stops it.
///
/// Thread ownership: the main queue, after `start`.
final class FrameAnimation: @unchecked Sendable {
    private let source: CGImageSource
    private let block: CGImageSourceAnimationBlock
    private let delays: [Double]
    /// Plays left after this one; nil for ever.
    private var playsLeft: Int?
    private var index: Int

    private init(source: CGImageSource, block: @escaping CGImageSourceAnimationBlock, delays: [Double], plays: Int?, start: Int) {
        (self.source, self.block, self.delays, self.playsLeft, self.index) = (source, block, delays, plays.map { $0 - 1 }, start)
    }

    static func start(_ source: CGImageSource, _ options: CFDictionary?, _ block: @escaping CGImageSourceAnimationBlock) -> OSStatus {
        let options = options?.stringKeyed ?? [:]
        func number(_ key: CFString) -> Double? { (options[key as String] as? Double) ?? (options[key as String] as? NSNumber)?.doubleValue }
        let count = CGImageSourceGetCount(source)
        let start = number(kCGImageAnimationStartIndex) ?? 0
        guard start.isFinite, start >= 0, Int(start) < count else { return CGImageAnimationStatus.parameterError.rawValue }
        let fixed = number(kCGImageAnimationDelayTime)
        if let fixed, !fixed.isFinite || fixed < 0 { return CGImageAnimationStatus.parameterError.rawValue }
        // Each frame's clamped delay, as Apple's animations use; a tenth of a second where the file says none.
        let delays = (0..<count).map { index -> Double in
            if let fixed { return fixed }
            // A GIF's, an animated PNG's, a WebP's or a HEIF sequence's dictionary (their keys are spelt alike).
            let properties = CGImageSourceCopyPropertiesAtIndex(source, index, nil) as? [String: Any]
            let animation = [kCGImagePropertyGIFDictionary, kCGImagePropertyPNGDictionary, kCGImagePropertyWebPDictionary, kCGImagePropertyHEICSDictionary].lazy
                .compactMap { properties?[$0 as String] as? [String: Any] }.first
            return (animation?[kCGImagePropertyGIFDelayTime as String] as? Double) ?? 0.1
        }
        // The option's loop count, else the file's; 0 is for ever, and a file that says nothing plays once.
        let loops = number(kCGImageAnimationLoopCount).map { $0.isFinite ? Int(max(0, $0)) : 0 } ?? source.pages.loop ?? 1
        let animation = FrameAnimation(source: source, block: block, delays: delays, plays: loops == 0 ? nil : loops, start: Int(start))
        DispatchQueue.main.async { animation.show() }
        return 0
    }

    /// Hands the due frame to the block, then schedules the next.
    private func show() {
        guard let image = CGImageSourceCreateImageAtIndex(source, index, nil) else { return }
        var stop = false
        block(index, image, &stop)
        guard !stop else { return }
        let delay = delays[index]
        index += 1
        if index == delays.count {
            index = 0
            if let left = playsLeft {
                guard left > 0 else { return }
                playsLeft = left - 1
            }
        }
        DispatchQueue.main.asyncAfter(deadline: .now() + delay) { self.show() }
    }
}
