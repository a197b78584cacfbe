import Foundation

/// What a multi-camera session costs the machine, as `hardwareCost` and `systemPressureCost` report it.
///
/// The budget is the pixels a second the machine takes from cameras and hands on: one 1080p30
/// camera per core, which is what this project's benchmarks measured a two-core machine to
/// sustain (four 720p30 PipeWire cameras recorded at once lose no frame, eight lose most). The
/// hardware cost counts each streaming camera's pixels a second once; the system pressure cost
/// counts them once for each output that takes them (each converts, delivers or encodes every frame).
///
/// Thread ownership: the budget is read and set under its own lock, from any thread.
enum MultiCamBudget {
    private static let budget = LockedValue<Double?>(nil)

    /// The pixels a second the machine sustains; settable for tests (nil returns to the measured default).
    static var pixelsPerSecond: Double {
        get { budget.withLock { $0 } ?? defaultPixelsPerSecond }
        set { budget.withLock { $0 = newValue } }
    }

    /// Returns the budget to one 1080p30 camera per core.
    static func reset() { budget.withLock { $0 = nil } }

    /// One 1080p30 camera per core.
    static var defaultPixelsPerSecond: Double { Double(max(1, ProcessInfo.processInfo.activeProcessorCount)) * 1920 * 1080 * 30 }

    /// The pixels a second of a format at a frame duration.
    static func pixelsPerSecond(of format: AVCaptureDevice.Format, frameDuration: CMTime) -> Double {
        let dimensions = format.formatDescription.dimensions
        let seconds = frameDuration.isNumeric && frameDuration.seconds > 0 ? frameDuration.seconds : 1.0 / 30
        return Double(dimensions.width) * Double(dimensions.height) / seconds
    }

    /// The pixels a second of a format at its highest frame rate.
    static func pixelsPerSecond(of format: AVCaptureDevice.Format) -> Double {
        let fastest = format.videoSupportedFrameRateRanges.map(\.maxFrameRate).max() ?? 30
        return pixelsPerSecond(of: format, frameDuration: CMTime(seconds: 1 / max(1, fastest), preferredTimescale: 600_000))
    }
}
