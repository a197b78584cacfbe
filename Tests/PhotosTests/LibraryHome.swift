import Foundation

/// A home folder of a test's own, made empty and set as HOME (with XDG_CONFIG_HOME unset) until
/// `restore()`: where the photo library's folders are.
struct LibraryHome {
    let url: URL
    private let saved: [String: String?]

    init(_ prefix: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        var saved: [String: String?] = [:]
        for key in ["HOME", "XDG_CONFIG_HOME"] { saved[key] = ProcessInfo.processInfo.environment[key] }
        self.saved = saved
        setenv("HOME", url.path, 1)
        unsetenv("XDG_CONFIG_HOME")
    }

    /// Puts the environment back and removes the folder.
    func restore() {
        for (key, value) in saved {
            if let value { setenv(key, value, 1) } else { unsetenv(key) }
        }
        try? FileManager.default.removeItem(at: url)
    }

    /// The names in a folder under the home folder, sorted.
    func files(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: url.appendingPathComponent(folder).path)) ?? []).sorted()
    }
}
