import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// A TCP or UDP port on 127.0.0.1 that nothing listens on now.
public func freeLoopbackPort(udp: Bool = false) -> Int {
    let descriptor = socket(AF_INET, Int32(udp ? SOCK_DGRAM.rawValue : SOCK_STREAM.rawValue), 0)
    defer { close(descriptor) }
    var address = loopbackAddress(port: 0)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) } }
    _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }
    return Int(UInt16(bigEndian: address.sin_port))
}

/// 127.0.0.1 at `port`, as the socket calls take it.
private func loopbackAddress(port: Int) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return address
}

/// A client connection to loopback that sends `request`, reads the first bytes of the answer
/// when they are `awaiting`, and then never reads or closes: a forgotten, hostile or frozen client.
///
/// With an empty request it is a socket that never sends a byte; with a small receive buffer and
/// a WebSocket handshake it is a paused browser tab whose socket the server's writes soon fill.
public final class HeldConnection {
    private let descriptor: Int32

    /// Connects to `port` on 127.0.0.1; nil when the connection, the request or the awaited answer fails.
    public init?(port: Int, request: String = "", awaiting expected: String? = nil, receiveBufferSize: Int32? = nil) {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        if var size = receiveBufferSize {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = loopbackAddress(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(descriptor)
            return nil
        }
        if !request.isEmpty {
            guard request.utf8CString.withUnsafeBufferPointer({ send(descriptor, $0.baseAddress, $0.count - 1, 0) }) > 0 else {
                close(descriptor)
                return nil
            }
        }
        if let expected {
            var head = [UInt8](repeating: 0, count: expected.utf8.count)
            guard recv(descriptor, &head, head.count, Int32(MSG_WAITALL)) == head.count, String(decoding: head, as: UTF8.self) == expected else {
                close(descriptor)
                return nil
            }
        }
    }

    /// A viewer that opens the frames WebSocket at `path` and then never reads: a paused or frozen
    /// browser tab, its receive buffer small so that the server's writes to it block after a few frames.
    public static func stalledViewer(port: Int, path: String = "/frames") -> HeldConnection? {
        let handshake =
            "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        return HeldConnection(port: port, request: handshake, awaiting: "HTTP/1.1 101", receiveBufferSize: 4096)
    }

    /// Whether the server has closed the connection: reading what it sent finds its end at once.
    public var isClosedByServer: Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if count == 0 { return true }
            if count < 0 { return false }  // open, with nothing more to read now
        }
    }

    deinit { close(descriptor) }
}

/// Sends `request` on a new connection to `port` on 127.0.0.1 and reads the answer until the server
/// closes the connection or `seconds` pass; the bytes read, and how long until the first of them.
public func exchangeOnLoopback(port: Int, request: String, seconds: Double = 10) -> (answer: String, firstByteAfter: Double?) {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { return ("", nil) }
    defer { close(descriptor) }
    var address = loopbackAddress(port: port)
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else { return ("", nil) }
    let start = Date()
    _ = request.utf8CString.withUnsafeBufferPointer { send(descriptor, $0.baseAddress, $0.count - 1, Int32(MSG_NOSIGNAL)) }
    var answer: [UInt8] = []
    var firstByte: Double?
    var buffer = [UInt8](repeating: 0, count: 4096)
    while Date().timeIntervalSince(start) < seconds {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, 50) >= 0 else { break }
        guard poller.revents != 0 else { continue }
        let count = recv(descriptor, &buffer, buffer.count, 0)
        if count <= 0 { break }
        if firstByte == nil { firstByte = Date().timeIntervalSince(start) }
        answer += buffer[..<count]
    }
    return (String(decoding: answer, as: UTF8.self), firstByte)
}

/// Whether a socket on this machine listens on `port`, as /proc/net lists them (a TCP socket in
/// the LISTEN state, or a bound UDP socket): a server is ready without a client taking its one
/// connection to find out.
public func isListening(onLoopbackPort port: Int, udp: Bool = false) -> Bool {
    let tables = udp ? ["/proc/net/udp", "/proc/net/udp6"] : ["/proc/net/tcp", "/proc/net/tcp6"]
    let local = String(format: ":%04X", port)
    for table in tables {
        // Read to the end: /proc's tables are longer than the first page String(contentsOfFile:) reads.
        guard let data = FileHandle(forReadingAtPath: table)?.readDataToEndOfFile(), let text = String(data: data, encoding: .utf8) else { continue }
        for line in text.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ")
            guard fields.count > 3, fields[1].hasSuffix(local) else { continue }
            if udp || fields[3] == "0A" { return true }
        }
    }
    return false
}
