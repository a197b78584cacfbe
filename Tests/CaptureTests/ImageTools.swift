import Foundation
import XCTest
import TestSupport

/// Debian's own readers of image files, run as child processes: exiftool for metadata and
/// heif-info for HEIC files, so photos are checked by tools that share no code with the writer.
enum ImageTools {
    /// Whether exiftool (libimage-exiftool-perl) is installed.
    static var hasExifTool: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/exiftool") }
    /// Whether heif-info (libheif-examples) is installed.
    static var hasHeifInfo: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/heif-info") }

    /// Every tag exiftool reads from `data`, as numbers where it can (`-n`), grouped names left out.
    static func exif(of data: Data, fileExtension: String) throws -> [String: Any] {
        let url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("image-tools-\(getpid())-\(UUID().uuidString).\(fileExtension)")
        try data.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let output = try XCTUnwrap(runTool("/usr/bin/exiftool", ["-j", "-n", url.path]), "exiftool reads the file")
        let list = try XCTUnwrap(try JSONSerialization.jsonObject(with: output) as? [[String: Any]])
        return try XCTUnwrap(list.first)
    }

    /// What heif-info prints about `data`, or nil when it cannot read it.
    static func heifInfo(of data: Data) throws -> String? {
        let url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("image-tools-\(getpid())-\(UUID().uuidString).heic")
        try data.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        return runTool("/usr/bin/heif-info", [url.path]).map { String(decoding: $0, as: UTF8.self) }
    }

    /// A JPEG file without its EXIF APP1 segment.
    static func removingExif(from jpeg: Data) -> Data {
        var result = Data(jpeg.prefix(2))
        var index = 2
        let bytes = [UInt8](jpeg)
        while index + 4 <= bytes.count, bytes[index] == 0xFF, bytes[index + 1] != 0xDA {
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            let isExif = bytes[index + 1] == 0xE1 && Array(bytes[(index + 4)..<min(bytes.count, index + 10)]) == Array("Exif\0\0".utf8)
            if !isExif { result.append(contentsOf: bytes[index..<(index + 2 + length)]) }
            index += 2 + length
        }
        result.append(contentsOf: bytes[index...])
        return result
    }
}
