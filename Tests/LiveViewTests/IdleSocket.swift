import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A client that connects to loopback and never sends a byte: a forgotten or hostile socket.
final class IdleSocket {
    private let descriptor: Int32

    /// Connects to `port` on 127.0.0.1.
    init?(port: Int) {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(descriptor)
            return nil
        }
    }

    /// Whether the server has closed the connection: a read finds its end at once.
    var isClosedByServer: Bool {
        var byte: UInt8 = 0
        return recv(descriptor, &byte, 1, Int32(MSG_DONTWAIT) | Int32(MSG_PEEK)) == 0
    }

    deinit { close(descriptor) }
}
