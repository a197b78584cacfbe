import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A viewer that opens the frames WebSocket and then never reads: a paused or frozen browser tab.
///
/// Its receive buffer is made small, so the server's writes to it block after a few frames.
final class StalledViewer {
    private let descriptor: Int32

    /// Connects to `port` on loopback and completes the WebSocket handshake for `path`.
    init?(port: Int, path: String = "/frames") {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        var size: Int32 = 4096
        setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        let handshake = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        guard connected == 0, handshake.utf8CString.withUnsafeBufferPointer({ send(descriptor, $0.baseAddress, $0.count - 1, 0) }) > 0 else {
            close(descriptor)
            return nil
        }
        // Read the 101 response's first bytes, then stop reading for good.
        var head = [UInt8](repeating: 0, count: 12)
        guard recv(descriptor, &head, head.count, 0) == head.count, String(decoding: head, as: UTF8.self).hasPrefix("HTTP/1.1 101") else {
            close(descriptor)
            return nil
        }
    }

    deinit { close(descriptor) }
}
