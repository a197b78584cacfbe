import XCTest
import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// The tool runs on ordinary memory pages: transparent huge pages, which keep whole 2 MB pages
/// resident for the few bytes an encoder or a thread's arena touches, are left off for it.
final class ProcessMemoryTests: XCTestCase {
    func testTheToolLeavesTransparentHugePagesOffForItself() throws {
        let own = try Self.hugePagesAllowed(in: "self")
        try XCTSkipUnless(own == true, "this kernel has no transparent huge pages to leave off")
        let (process, output) = try AVCaptureTool.startMonitor()
        defer { AVCaptureTool.stop(process) }
        // Its first line comes from its command, which runs after the tool has prepared itself.
        XCTAssertFalse(output.availableData.isEmpty, "monitor prints a line as it starts")
        XCTAssertEqual(try Self.hugePagesAllowed(in: String(process.processIdentifier)), false)
    }

    /// The kernel's `THP_enabled` line of /proc/PID/status: whether the process may be given
    /// transparent huge pages; nil where the kernel does not say.
    private static func hugePagesAllowed(in process: String) throws -> Bool? {
        let status = try String(contentsOfFile: "/proc/\(process)/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("THP_enabled:") }) else { return nil }
        return line.split(separator: "\t").last.map { $0.trimmingCharacters(in: .whitespaces) == "1" }
    }
}
