import ArgumentParser
import AVFoundation
import Foundation

/// `avcapture export`: writes a movie, or part of one, to a new file with an export preset.
struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Export a movie, or part of it, to a new file: as it is (passthrough) or encoded again.",
        discussion: """
            PRESET is passthrough (the default: no encoding, from the keyframe at or before the range's start), \
            low, medium, highest, 640x480, 960x540, 1280x720, 1920x1080, 3840x2160 (H.264 fitted into that box), \
            hevc, hevc1920x1080, hevc3840x2160, or m4a (sound alone); Apple's names (AVAssetExportPreset...) work too. \
            The output's extension gives its type: .mov, .mp4, .m4v or .m4a. An existing file is never overwritten.
            """)

    @Argument(help: "The movie to read.") var input: String
    @Argument(help: "The file to write; it must not exist.") var output: String
    @Option(help: "The export preset (see above).") var preset = "passthrough"
    @Option(help: "The part to export, as START-END in seconds, such as 1.5-4.") var range: String?

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
        let parts = range.split(separator: "-", maxSplits: 1).map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let start = parts[0], let end = parts[1], start >= 0, end > start, end.isFinite else {
            throw ValidationError("--range is START-END in seconds with END after START, such as 1.5-4, not \(range).")
        }
        return CMTimeRange(start: CMTime(seconds: start, preferredTimescale: 600), end: CMTime(seconds: end, preferredTimescale: 600))
    }

    func validate() throws {
        if presetName == nil {
            throw ValidationError("\(preset) is no export preset: use \(Self.shortNames.keys.sorted().joined(separator: ", ")).")
        }
        _ = try timeRange()
    }

    func run() throws {
        let source = URL(fileURLWithPath: input), destination = URL(fileURLWithPath: output)
        guard FileManager.default.fileExists(atPath: source.path) else { throw CommandFailure("\(input) does not exist.") }
        guard !FileManager.default.fileExists(atPath: destination.path) else { throw CommandFailure("\(output) exists; it is never overwritten.") }
        let asset = AVURLAsset(url: source)
        let semaphore = DispatchSemaphore(value: 0)
        asset.loadValuesAsynchronously(forKeys: ["tracks"]) { semaphore.signal() }
        semaphore.wait()
        var loadError: NSError?
        guard asset.statusOfValue(forKey: "tracks", error: &loadError) == .loaded else {
            throw CommandFailure(loadError?.localizedDescription ?? "\(input) cannot be read.")
        }
        guard let session = AVAssetExportSession(asset: asset, presetName: presetName!) else { throw CommandFailure("No such preset.") }
        let types: [String: AVFileType] = ["mov": .mov, "mp4": .mp4, "m4v": .m4v, "m4a": .m4a]
        let names = types.filter { session.supportedFileTypes.contains($0.value) }.keys.sorted().map { ".\($0)" }.joined(separator: ", ")
        guard let type = types[destination.pathExtension.lowercased()], session.supportedFileTypes.contains(type) else {
            throw CommandFailure("\(preset) writes \(names) files, not .\(destination.pathExtension).")
        }
        session.outputURL = destination
        session.outputFileType = type
        if let range = try timeRange() { session.timeRange = range }

        let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        signal(SIGINT, SIG_IGN)
        interrupt.setEventHandler { session.cancelExport() }
        interrupt.activate()
        let started = Date()
        let done = DispatchSemaphore(value: 0)
        session.exportAsynchronously { done.signal() }
        let terminal = isatty(STDERR_FILENO) != 0
        while done.wait(timeout: .now() + 0.25) == .timedOut {
            let line = String(format: "Exporting %@: %3.0f%%  %.1fs", destination.lastPathComponent, session.progress * 100, Date().timeIntervalSince(started))
            if terminal { FileHandle.standardError.write(Data("\r\(line)".utf8)) }
        }
        if terminal { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
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
