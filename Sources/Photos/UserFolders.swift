import Foundation

/// The user's Pictures and Videos folders, as the XDG user directories say.
///
/// Read from `$XDG_CONFIG_HOME/user-dirs.dirs` (`~/.config/user-dirs.dirs` when unset), whose
/// lines such as `XDG_PICTURES_DIR="$HOME/Pictures"` name them; a folder the file does not name
/// falls back to `~/Pictures` or `~/Videos`.
struct UserFolders {
    /// Where photos go.
    let pictures: URL
    /// Where movies go.
    let videos: URL

    /// The folders for the current environment.
    static func current(environment: [String: String] = ProcessInfo.processInfo.environment) -> UserFolders {
        let home =
            environment["HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? FileManager.default.homeDirectoryForCurrentUser
        let config =
            environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? URL(fileURLWithPath: $0, isDirectory: true) : nil }
            ?? home.appendingPathComponent(".config", isDirectory: true)
        let named = (try? String(contentsOf: config.appendingPathComponent("user-dirs.dirs"), encoding: .utf8)).map { parse($0, home: home) } ?? [:]
        return UserFolders(
            pictures: named["XDG_PICTURES_DIR"] ?? home.appendingPathComponent("Pictures", isDirectory: true),
            videos: named["XDG_VIDEOS_DIR"] ?? home.appendingPathComponent("Videos", isDirectory: true))
    }

    /// The folders a user-dirs.dirs file names: `KEY="$HOME/path"` or `KEY="/absolute/path"`;
    /// a folder that is the home folder itself means "none" in the spec and is left out.
    static func parse(_ text: String, home: URL) -> [String: URL] {
        var folders: [String: URL] = [:]
        for line in text.split(whereSeparator: \.isNewline) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard !trimmed.hasPrefix("#"), let equals = trimmed.firstIndex(of: "=") else { continue }
            let key = String(trimmed[..<equals])
            var value = String(trimmed[trimmed.index(after: equals)...])
            guard value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") else { continue }
            value = String(value.dropFirst().dropLast())
            let url: URL
            if value.hasPrefix("$HOME") {
                let rest = value.dropFirst("$HOME".count).drop { $0 == "/" }
                if rest.isEmpty { continue }
                url = home.appendingPathComponent(String(rest), isDirectory: true)
            } else if value.hasPrefix("/") {
                url = URL(fileURLWithPath: value, isDirectory: true)
            } else {
                continue
            }
            folders[key] = url
        }
        return folders
    }
}
