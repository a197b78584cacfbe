import Foundation
import Synchronization

/// Counts the connections the live view serves and says whether a new one's first request may
/// take a place, so that a crowd of viewers or of clients without the token is answered at once
/// and never locks the page's owner out:
/// - requests that carry the token, but for the frames WebSocket, may take any of `maximum` places;
/// - viewers (the frames WebSocket) and requests without the token only `maximum - reserved`;
/// - past that, the first request is answered 503 and its connection closed.
/// A connection keeps its place until it closes. Connections that have not sent a whole request
/// head hold no place: they are bounded by the server's accept limit and the first request's deadline.
///
/// Thread ownership: any event loop; the count is atomic.
final class ConnectionAdmission: Sendable {
    let maximum: Int
    let reserved: Int
    private let token: String
    private let count = Atomic<Int>(0)

    /// Admission for `maximum` connections, the last `reserved` for requests carrying `token`.
    init(maximum: Int, reserved: Int, token: String) {
        (self.maximum, self.reserved, self.token) = (maximum, reserved, token)
    }

    /// How many connections the server accepts at once for `maximum` served: enough beyond it to
    /// answer a crowd 503 rather than leave it in the kernel's queue.
    static func acceptLimit(for maximum: Int) -> Int { maximum * 4 + 16 }

    /// Gives the connection whose first request has `head` a place, or says why not; when it got
    /// one, `left()` must follow when the connection closes.
    func admit(_ head: ArraySlice<UInt8>) -> String? {
        let text = String(decoding: head, as: UTF8.self)
        let lines = text.split(separator: "\r\n", omittingEmptySubsequences: false)
        let viewer = lines.dropFirst().contains { Self.header($0, named: "upgrade")?.lowercased() == "websocket" }
        let limit = !viewer && carriesToken(lines) ? maximum : maximum - reserved
        let taken = count.add(1, ordering: .relaxed).newValue
        guard taken > limit else { return nil }
        count.subtract(1, ordering: .relaxed)
        if viewer { return "The live view has \(maximum - reserved) viewers, as many as it serves; try again later." }
        return taken > maximum
            ? "The live view serves \(maximum) connections at once; try again later."
            : "The live view's last places are kept for requests that carry its token."
    }

    /// A connection that had a place closed.
    func left() { count.subtract(1, ordering: .relaxed) }

    /// Whether a request's head lines carry the token, in the target's query (`token=`) or as
    /// `Authorization: Bearer`.
    private func carriesToken(_ lines: [Substring]) -> Bool {
        guard let requestLine = lines.first else { return false }
        let target = requestLine.split(separator: " ").dropFirst().first ?? ""
        if let query = target.split(separator: "?", maxSplits: 1).dropFirst().first,
            query.split(separator: "&").contains(where: { $0 == "token=\(token)" })
        {
            return true
        }
        return lines.dropFirst().contains { Self.header($0, named: "authorization") == "Bearer \(token)" }
    }

    /// The value of a header line of the name `name` (lowercase), trimmed; nil for another header.
    private static func header(_ line: Substring, named name: String) -> String? {
        guard let colon = line.firstIndex(of: ":"), line[..<colon].lowercased() == name else { return nil }
        return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
}
