import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// A Unix socket where a sound or media server would listen, which accepts clients and then
/// either hangs up at once (a server that dies during discovery) or never says a word (a server
/// that hangs). It stands in for servers failing in ways the real ones cannot be made to on cue.
final class UnansweringServer: @unchecked Sendable {
    enum Behaviour { case hangsUp, staysSilent }

    let path: String
    private let socket: Int32
    private let behaviour: Behaviour
    private let lock = NSLock()
    private var clients: [Int32] = []
    private var stopped = false

    /// Listens at `path`; nil when the socket cannot be made.
    init?(path: String, behaviour: Behaviour) {
        self.path = path
        self.behaviour = behaviour
        unlink(path)
        socket = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return nil }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.utf8.count < capacity else { close(socket); return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            bytes.copyBytes(from: path.utf8)
            bytes[path.utf8.count] = 0
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, listen(socket, 16) == 0 else { close(socket); return nil }
        Thread.detachNewThread { [self] in acceptClients() }
    }

    private func acceptClients() {
        while true {
            let client = accept(socket, nil, nil)
            if client < 0 { return }
            switch behaviour {
            case .hangsUp: close(client)
            case .staysSilent:
                let keep = lock.withLock { () -> Bool in
                    if !stopped { clients.append(client) }
                    return !stopped
                }
                if !keep { close(client) }
            }
        }
    }

    /// Stops listening and hangs up on every client.
    func stop() {
        let open = lock.withLock { () -> [Int32] in
            stopped = true
            defer { clients.removeAll() }
            return clients
        }
        open.forEach { close($0) }
        shutdown(socket, Int32(SHUT_RDWR))
        close(socket)
        unlink(path)
    }
}
