import AVFoundation
import Foundation

/// An HTTP Live Streaming folder a segment writer fills: `init.mp4`, `segmentN.m4s` and the
/// playlist `index.m3u8`, which any web server or CDN can serve while it grows.
///
/// Each file appears only once complete (written under a hidden name, then renamed), the
/// playlist after the segment it names, and first once its segments last three target durations
/// (where players start playing a live playlist). Thread ownership: the writer's thread calls the delegate;
/// `finish()` is called after the writer finished, so the two never run at once.
final class HLSFolder: NSObject, AVAssetWriterDelegate, @unchecked Sendable {
    /// The folder.
    let folder: URL
    /// The playlist's name in the folder.
    static let playlistName = "index.m3u8"
    private let state = LockedValue<State>(State())

    private struct State {
        var durations: [Double] = []
        var failure: String?
    }

    /// Segments written so far.
    var segmentCount: Int { state.withLock { $0.durations.count } }
    /// The first file that could not be written, if one could not.
    var failure: String? { state.withLock { $0.failure } }

    /// Uses `folder`, creating it if need be; refuses an empty path, and a folder that already holds
    /// any file the stream would write (a playlist, `init.mp4`, a `segmentN.m4s`): a stream never
    /// replaces a file it did not write.
    init(folder path: String) throws(CommandFailure) {
        guard !path.isEmpty else { throw CommandFailure("--hls needs a folder; an empty path names none.") }
        let folder = URL(fileURLWithPath: path)
        self.folder = folder
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder) {
            guard isFolder.boolValue else { throw CommandFailure("\(folder.path) exists and is not a folder.") }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            if let taken = names.sorted().first(where: Self.isStreamFileName) {
                throw CommandFailure("\(folder.path) already holds \(taken), which the stream would replace; choose an empty folder.")
            }
        } else {
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw CommandFailure("The folder \(folder.path) cannot be created: \(error.localizedDescription)")
            }
        }
        super.init()
    }

    /// Whether the stream writes a file of this name: the playlist, `init.mp4` or `segmentN.m4s`.
    static func isStreamFileName(_ name: String) -> Bool {
        if name == playlistName || name == "init.mp4" { return true }
        guard name.hasPrefix("segment"), name.hasSuffix(".m4s") else { return false }
        let number = name.dropFirst("segment".count).dropLast(".m4s".count)
        return !number.isEmpty && number.allSatisfy { $0.isASCII && $0.isNumber }
    }

    func assetWriter(_ writer: AVAssetWriter, didOutputSegmentData segmentData: Data, segmentType: AVAssetSegmentType, segmentReport: AVAssetSegmentReport?) {
        switch segmentType {
        case .initialization:
            write(segmentData, named: "init.mp4")
        case .separable:
            let reports = segmentReport?.trackReports ?? []
            let duration = (reports.first { $0.mediaType == .video } ?? reports.first).map { $0.duration.seconds } ?? 0
            let index = state.withLock { $0.durations.count }
            guard write(segmentData, named: "segment\(index).m4s") else { return }
            let durations = state.withLock { state -> [Double] in
                state.durations.append(duration.isFinite ? duration : 0)
                return state.durations
            }
            // A live playlist is published once it is long enough to start playing from: players start
            // three target durations from its end (RFC 8216, 6.3.3), and Chromium refuses a shorter one.
            guard Self.isLongEnough(durations) else { return }
            write(Data(Self.playlist(durations: durations, ended: false).utf8), named: Self.playlistName)
        }
    }

    /// The target duration: the longest segment's, rounded to the nearest second (RFC 8216, 4.3.3.1), at least 1.
    static func targetDuration(_ durations: [Double]) -> Int { max(1, Int((durations.max() ?? 1).rounded())) }

    /// Whether segments of `durations` last at least three target durations.
    static func isLongEnough(_ durations: [Double]) -> Bool {
        durations.reduce(0, +) >= Double(3 * targetDuration(durations)) - 0.05
    }

    /// Marks the playlist ended: nothing more will be added.
    func finish() {
        let durations = state.withLock { $0.durations }
        guard !durations.isEmpty else { return }
        write(Data(Self.playlist(durations: durations, ended: true).utf8), named: Self.playlistName)
    }

    /// A media playlist of fragmented MPEG-4 segments (RFC 8216): version 7 for EXT-X-MAP.
    static func playlist(durations: [Double], ended: Bool) -> String {
        var lines = [
            "#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-TARGETDURATION:\(targetDuration(durations))", "#EXT-X-MEDIA-SEQUENCE:0",
            "#EXT-X-PLAYLIST-TYPE:EVENT", "#EXT-X-INDEPENDENT-SEGMENTS", "#EXT-X-MAP:URI=\"init.mp4\"",
        ]
        for (index, duration) in durations.enumerated() {
            lines.append(String(format: "#EXTINF:%.3f,", duration))
            lines.append("segment\(index).m4s")
        }
        if ended { lines.append("#EXT-X-ENDLIST") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Writes a file whole under a new hidden name (`PartialFile.writeHidden`), then gives it its name: the playlist replaces the one the stream wrote
    /// before; every other file takes a free name only. False (and the failure kept) when it cannot.
    @discardableResult
    private func write(_ data: Data, named name: String) -> Bool {
        let final = folder.appendingPathComponent(name)
        var hidden: String?
        do {
            let written = try PartialFile.writeHidden(data, in: folder, stem: name)
            hidden = written
            if name == Self.playlistName {
                guard rename(written, final.path) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            } else {
                // A hard link fails where the name is taken, by anything (a link planted there included).
                guard link(written, final.path) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
                unlink(written)
            }
            return true
        } catch {
            if let hidden { unlink(hidden) }
            let reason = (error as? POSIXError)?.code == .EEXIST ? "a file of that name appeared, and it is not replaced" : error.localizedDescription
            state.withLock { state in
                if state.failure == nil { state.failure = "\(final.path) could not be written: \(reason)." }
            }
            return false
        }
    }
}
