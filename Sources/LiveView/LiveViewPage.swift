import Foundation

/// The live view's pages: one HTML document each, with its script, served at `/`, assembled from
/// the package's resources in `Page/` (`page.html` with the style, the script both pages share,
/// and each page's bar and script).
///
/// Both pages draw each frame message (see `FrameMessage`) on a canvas the size of the layer's
/// bounds, placing it as the layer's gravity does (the picture centred for aspect fit). They decode
/// one frame at a time and skip to the newest, so a slow browser never builds a backlog; they
/// acknowledge every frame, drawn or skipped, and the server sends no more than two ahead.
/// `window.liveView` holds what the page measured (frames drawn, latencies from capture, or from
/// the moment a player's picture was due, to the canvas, in milliseconds) for tests and benchmarks.
enum LiveViewPage {
    /// Which page.
    enum Kind: Sendable {
        /// The camera's page: its controls, and a click focusing and exposing at that point.
        case camera
        /// The player's page: play and pause (a click on the picture too), position, rate,
        /// time-pitch algorithm, volume and gravity.
        case player

        var title: String { self == .camera ? "avcapture live view" : "avcapture player" }
        var bar: String { self == .camera ? "camera-bar.html" : "player-bar.html" }
        var script: String { self == .camera ? "camera.js" : "player.js" }
    }

    /// The name of the resource bundle SwiftPM builds beside the executable.
    static let bundleName = "LinuxAVFoundation_LiveView.resources"

    /// Where `scripts/install.sh` puts the page's files, from the folder it installs the executable
    /// in: `PREFIX/share/avcapture/Page` beside `PREFIX/bin`.
    static let installedFolder = "../share/avcapture/Page"

    /// The folder the page's files are read from: the resource bundle beside the executable, else
    /// the installed folder (`installedFolder`), else the sources they were built from; nil when
    /// none holds them.
    static func folder(besideExecutableIn executableFolder: URL = Bundle.main.bundleURL) -> URL? {
        let bundled = executableFolder.appendingPathComponent(bundleName).appendingPathComponent("Page")
        let installed = executableFolder.appendingPathComponent(installedFolder).standardizedFileURL
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Page")
        return [bundled, installed, source].first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("page.html").path) }
    }

    /// The page of `kind` with the token its script sends with every request; the token holds only
    /// letters, digits and `-._~`, so it needs no escaping in HTML. Throws when the page's files
    /// cannot be read.
    static func document(_ kind: Kind, token: String, from folder: URL? = folder()) throws(LiveViewConfigurationError) -> String {
        guard let folder else {
            throw LiveViewConfigurationError(
                description:
                    "The live view's page files are missing: keep \(bundleName) beside the executable, as swift build leaves it, or install with scripts/install.sh."
            )
        }
        func part(_ name: String) throws(LiveViewConfigurationError) -> String {
            guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path),
                let text = String(data: data, encoding: .utf8)
            else { throw LiveViewConfigurationError(description: "The live view's page file \(folder.appendingPathComponent(name).path) cannot be read.") }
            return text.hasSuffix("\n") ? String(text.dropLast()) : text
        }
        var page = try part("page.html")
        for (slot, value) in [
            ("{{title}}", kind.title), ("{{style}}", try part("live-view.css")), ("{{bar}}", try part(kind.bar)),
            ("{{common}}", try part("live-view.js")), ("{{script}}", try part(kind.script)), ("{{live-view-token}}", token),
        ] {
            page = page.replacingOccurrences(of: slot, with: value)
        }
        return page
    }
}
