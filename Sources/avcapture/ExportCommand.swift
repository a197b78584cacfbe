import ArgumentParser
import AVFoundation
import Foundation

/// `avcapture export`: writes a movie, or part of one, to a new file with an export preset.
struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export a movie, or part of it, to a new file: as it is (passthrough) or encoded again.",
        discussion: """
            PRESET is passthrough (the default: no encoding, from the keyframe at or before the range's start), \
            low, medium, highest, 640x480, 960x540, 1280x720, 1920x1080, 3840x2160 (H.264 fitted into that box), \
            hevc, hevc1920x1080, hevc3840x2160, or m4a (sound alone); Apple's names (AVAssetExportPreset...) work too. \
            The output's extension gives its type: .mov, .mp4, .m4v or .m4a. An existing file is never overwritten. \
            --slow scales sections of the input (a slow-motion section of a 60 fps recording: --slow 1-2:4); with \
            passthrough their pictures keep their packets and are retimed, their sound is stretched as --pitch says.
            """)

    @Argument(help: "The movie to read.") var input: String
    @Argument(help: "The file to write; it must not exist.") var output: String
    @Option(help: "The export preset (see above).") var preset = "passthrough"
    @Option(help: "The part to export, as START-END in seconds, such as 1.5-4.") var range: String?
    @Option(help: "Play a section slower (or faster), as START-END:FACTOR in seconds of the input, such as 1-2:4 for a quarter speed; may be repeated.")
    var slow: [String] = []
    @Option(help: "Export at a constant frame rate, such as 30: pictures are encoded again, repeated or dropped to the rate.")
    var fps: Double?
    @Option(
        help: "How scaled sound is stretched: spectral (pitch kept, Rubber Band), timeDomain (pitch kept, SoundTouch), varispeed (pitch follows the speed).")
    var pitch = "spectral"

    static let shortNames: [String: String] = [
        "passthrough": AVAssetExportPresetPassthrough, "low": AVAssetExportPresetLowQuality, "medium": AVAssetExportPresetMediumQuality,
        "highest": AVAssetExportPresetHighestQuality, "640x480": AVAssetExportPreset640x480, "960x540": AVAssetExportPreset960x540,
        "1280x720": AVAssetExportPreset1280x720, "1920x1080": AVAssetExportPreset1920x1080, "3840x2160": AVAssetExportPreset3840x2160,
        "hevc": AVAssetExportPresetHEVCHighestQuality, "hevc1920x1080": AVAssetExportPresetHEVC1920x1080,
        "hevc3840x2160": AVAssetExportPresetHEVC3840x2160, "m4a": AVAssetExportPresetAppleM4A,
    ]

    /// The preset's full name.
    var presetName: String? { Self.shortNames[preset.lowercased()] ?? (AVAssetExportSession.allExportPresets().contains(preset) ? preset : nil) }

    /// The range as a time range; nil for the whole movie.
    func timeRange() throws -> CMTimeRange? {
        guard let range else { return nil }
        // Empty parts are kept, so that a negative start (`-1-2`) is refused rather than read as 1-2.
        let parts = range.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false).map(DurationOption.value)
        guard parts.count == 2, let start = parts[0], let end = parts[1], end > start else {
            throw ValidationError("--range is START-END in seconds with END after START, such as 1.5-4, not \(range).")
        }
        return CMTimeRange(start: CMTime(seconds: start, preferredTimescale: 600), end: CMTime(seconds: end, preferredTimescale: 600))
    }

    /// The sections to scale, in input seconds, with their factors (4: four times as long).
    func sections() throws -> [(start: Double, end: Double, factor: Double)] {
        try slow.map { text in
            let halves = text.split(separator: ":", maxSplits: 1)
            let bounds = halves.first.map { $0.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false).compactMap(DurationOption.value) } ?? []
            guard halves.count == 2, bounds.count == 2, let factor = Double(halves[1]), bounds[1] > bounds[0],
                factor >= 1.0 / 32, factor <= 32
            else {
                throw ValidationError("--slow is START-END:FACTOR with FACTOR from 1/32 to 32, such as 1-2:4, not \(text).")
            }
            return (bounds[0], bounds[1], factor)
        }.sorted { $0.start < $1.start }
    }

    static let algorithms: [String: AVAudioTimePitchAlgorithm] = ["spectral": .spectral, "timedomain": .timeDomain, "varispeed": .varispeed]

    func validate() throws {
        if let fps, !(fps >= 1 && fps <= 240) { throw ValidationError("--fps is a frame rate from 1 to 240, not \(fps).") }
        if Self.algorithms[pitch.lowercased()] == nil {
            throw ValidationError("--pitch is spectral, timeDomain or varispeed, not \(pitch).")
        }
        let scaled = try sections()
        for (earlier, later) in zip(scaled, scaled.dropFirst()) where later.start < earlier.end {
            throw ValidationError("--slow sections overlap: \(earlier.start)-\(earlier.end) and \(later.start)-\(later.end).")
        }
        if presetName == nil {
            throw ValidationError("\(preset) is no export preset: use \(Self.shortNames.keys.sorted().joined(separator: ", ")).")
        }
        _ = try timeRange()
    }

    func run() throws {
        let source = URL(fileURLWithPath: input), destination = URL(fileURLWithPath: output)
        try InputFile.check(input)
        guard !FileSystemEntry.exists(atPath: destination.path) else { throw CommandFailure("\(output) exists; it is never overwritten.") }
        let asset = AVURLAsset(url: source)
        let semaphore = DispatchSemaphore(value: 0)
        asset.loadValuesAsynchronously(forKeys: ["tracks"]) { semaphore.signal() }
        semaphore.wait()
        var loadError: NSError?
        guard asset.statusOfValue(forKey: "tracks", error: &loadError) == .loaded else {
            throw CommandFailure(loadError?.localizedDescription ?? "\(input) cannot be read.")
        }
        // Scaled sections make a composition of the movie; later sections first, so earlier times stay put.
        var exported: AVAsset = asset
        let scaled = try sections()
        if !scaled.isEmpty {
            let composition = AVMutableComposition()
            do {
                try composition.insertTimeRange(CMTimeRange(start: .zero, duration: asset.duration), of: asset, at: .zero)
            } catch {
                throw CommandFailure("\(input) cannot be edited: \(error.localizedDescription)")
            }
            for section in scaled.reversed() {
                guard section.end <= asset.duration.seconds + 0.001 else {
                    throw CommandFailure(
                        String(format: "--slow %g-%g runs past the movie's end at %.3f s.", section.start, section.end, asset.duration.seconds))
                }
                let range = CMTimeRange(
                    start: CMTime(seconds: section.start, preferredTimescale: 600), end: CMTime(seconds: section.end, preferredTimescale: 600))
                composition.scaleTimeRange(range, toDuration: CMTime(seconds: (section.end - section.start) * section.factor, preferredTimescale: 600))
            }
            exported = composition
        }
        // A constant rate is rendered and encoded again: passthrough becomes the highest quality preset.
        var name = presetName!
        if fps != nil, name == AVAssetExportPresetPassthrough {
            name = AVAssetExportPresetHighestQuality
            StandardStreams.err("--fps encodes the pictures again: exporting with the highest quality preset.\n")
        }
        guard let session = AVAssetExportSession(asset: exported, presetName: name) else { throw CommandFailure("No such preset.") }
        if let fps {
            let composition = AVMutableVideoComposition(propertiesOf: exported)
            composition.frameDuration = CMTime(seconds: 1 / fps, preferredTimescale: 600_000)
            session.videoComposition = composition
        }
        session.audioTimePitchAlgorithm = Self.algorithms[pitch.lowercased()]!
        let types: [String: AVFileType] = ["mov": .mov, "mp4": .mp4, "m4v": .m4v, "m4a": .m4a]
        let names = types.filter { session.supportedFileTypes.contains($0.value) }.keys.sorted().map { ".\($0)" }.joined(separator: ", ")
        guard let type = types[destination.pathExtension.lowercased()], session.supportedFileTypes.contains(type) else {
            throw CommandFailure("\(preset) writes \(names) files, not .\(destination.pathExtension).")
        }
        session.outputURL = destination
        session.outputFileType = type
        if let range = try timeRange() { session.timeRange = range }

        let stopSignals = StopSignals.handle(on: .global()) { session.cancelExport() }
        defer { withExtendedLifetime(stopSignals) {} }
        let started = Date()
        let done = DispatchSemaphore(value: 0)
        session.exportAsynchronously { done.signal() }
        let terminal = isatty(STDERR_FILENO) != 0
        while done.wait(timeout: .now() + 0.25) == .timedOut {
            let line = String(format: "Exporting %@: %3.0f%%  %.1fs", destination.lastPathComponent, session.progress * 100, Date().timeIntervalSince(started))
            if terminal { StandardStreams.err("\r\(line)") }
        }
        if terminal { StandardStreams.err("\r\u{1B}[K") }
        switch session.status {
        case .completed:
            let size = (try? FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? Int) ?? 0
            print(String(format: "Exported %@ (%.2f MB) in %.2f s.", output, Double(size) / 1_000_000, Date().timeIntervalSince(started)))
        case .cancelled:
            throw CommandFailure("Export cancelled; no file was written.")
        default:
            throw CommandFailure("Export failed: \(session.error?.localizedDescription ?? "unknown error").")
        }
    }
}
