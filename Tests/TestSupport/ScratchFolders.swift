import Foundation

/// A scratch folder for a test's files, emptied first; named after the test and this process.
public func makeScratchFolder(_ name: String = #function) -> URL {
    let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("linuxavfoundation-tests-\(getpid())")
        .appendingPathComponent(name.filter { $0.isLetter || $0.isNumber })
    try? FileManager.default.removeItem(at: folder)
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}
