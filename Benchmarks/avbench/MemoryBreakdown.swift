import CoreVideo
import Foundation

/// Where a running process's resident memory is, read from `/proc/PID/smaps`: the program's own
/// file, FFmpeg's libraries with everything they load, the C and C++ runtimes, other libraries,
/// memory shared with another process (a PipeWire server's buffers, mapped from memfds), and
/// anonymous memory (heaps, stacks, buffers; with the part in transparent huge pages, which x264
/// asks for its frames). File pages are the library's or program's code and constants the process
/// touched (the kernel maps up to 64 KiB around each page read); anonymous pages are its own.
struct MemoryBreakdown {
    /// Megabytes in each part.
    var program = 0.0, ffmpeg = 0.0, runtime = 0.0, otherLibraries = 0.0, shared = 0.0, anonymous = 0.0, hugePages = 0.0

    /// The resident total, in megabytes.
    var total: Double { program + ffmpeg + runtime + otherLibraries + shared + anonymous }

    /// One line: each part in megabytes.
    var summary: String {
        String(
            format:
                "program %.1f, FFmpeg's libraries %.1f, C/C++ runtimes %.1f, other libraries %.1f, shared buffers %.1f, anonymous %.1f (huge pages %.1f) MB",
            program, ffmpeg, runtime, otherLibraries, shared, anonymous, hugePages)
    }

    /// The libraries FFmpeg's libavformat and libswscale load (by resolved path), found once with `ldd`.
    private static let ffmpegLibraries = LockedValue<[String: Set<String>]>([:])

    /// The breakdown of process `pid` now; nil when it has gone.
    static func of(pid: Int32) -> MemoryBreakdown? {
        // Read to the end: the file's size is given as 0, and a read of that size stops at the first page.
        guard let file = FileHandle(forReadingAtPath: "/proc/\(pid)/smaps") else { return nil }
        defer { try? file.close() }
        let smaps = String(decoding: file.readDataToEndOfFile(), as: UTF8.self)
        let program = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")) ?? ""
        var mapped: [String] = []
        for line in smaps.split(separator: "\n") where line.first?.isHexDigit == true && line.contains("-") {
            if let path = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst(5).first, path.hasPrefix("/") { mapped.append(String(path)) }
        }
        let ffmpeg = mapped.filter { $0.contains("/libavformat.so") || $0.contains("/libswscale.so") }.reduce(into: Set<String>()) { set, root in
            set.formUnion(closure(of: root))
        }
        var result = MemoryBreakdown()
        var part: WritableKeyPath<MemoryBreakdown, Double> = \.anonymous
        for line in smaps.split(separator: "\n") {
            if line.first?.isHexDigit == true && line.contains("-") && !line.hasSuffix(":") {
                let path = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst(5).first.map(String.init) ?? ""
                if !path.hasPrefix("/") {
                    part = \.anonymous
                } else if path.hasPrefix("/memfd:") || path.hasPrefix("/dev/shm/") {
                    part = \.shared
                } else if path == program {
                    part = \.program
                } else if isRuntime(path) {
                    part = \.runtime
                } else if ffmpeg.contains(resolved(path)) {
                    part = \.ffmpeg
                } else {
                    part = \.otherLibraries
                }
            } else if line.hasPrefix("Rss:") {
                result[keyPath: part] += kilobytes(line) / 1024
            } else if line.hasPrefix("AnonHugePages:") {
                result.hugePages += kilobytes(line) / 1024
            }
        }
        return result
    }

    private static func kilobytes(_ line: Substring) -> Double {
        Double(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
    }

    private static func resolved(_ path: String) -> String { URL(fileURLWithPath: path).resolvingSymlinksInPath().path }

    private static func isRuntime(_ path: String) -> Bool {
        let name = URL(fileURLWithPath: path).lastPathComponent
        return ["libc.so", "libm.so", "libstdc++.so", "libgcc_s.so", "ld-linux-x86-64.so", "libpthread.so", "libdl.so"].contains { name.hasPrefix($0) }
    }

    /// `library` and every library it loads, by resolved path, leaving out the C and C++ runtimes.
    private static func closure(of library: String) -> Set<String> {
        let key = resolved(library)
        if let known = ffmpegLibraries.withLock({ $0[key] }) { return known }
        var set: Set<String> = [key]
        for line in shell(["/usr/bin/ldd", key]).output.split(separator: "\n") {
            guard let arrow = line.range(of: "=> ") else { continue }
            guard let path = line[arrow.upperBound...].split(separator: " ").first, path.hasPrefix("/"), !isRuntime(String(path)) else { continue }
            set.insert(resolved(String(path)))
        }
        ffmpegLibraries.withLock { $0[key] = set }
        return set
    }
}
