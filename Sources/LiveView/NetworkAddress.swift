import Foundation
import NIOCore

/// Facts about addresses and host names that the live view's checks rest on.
enum NetworkAddress {
    /// Whether every address `host` resolves to is a loopback address. A name that does not
    /// resolve, or resolves to any other address as well, is not loopback: the test is on
    /// addresses, never on how a name is spelled.
    static func isLoopback(host: String) -> Bool {
        let name = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(name, nil, &hints, &list) == 0, let first = list else { return false }
        defer { freeaddrinfo(list) }
        var entry: UnsafeMutablePointer<addrinfo>? = first
        var sawOne = false
        while let current = entry {
            guard let address = current.pointee.ai_addr, isLoopback(address) else { return false }
            sawOne = true
            entry = current.pointee.ai_next
        }
        return sawOne
    }

    /// Whether a bound socket address is a loopback address.
    static func isLoopback(_ address: SocketAddress) -> Bool {
        switch address {
        case .v4(let v4): return UInt32(bigEndian: v4.address.sin_addr.s_addr) >> 24 == 127
        case .v6(let v6):
            let bytes = withUnsafeBytes(of: v6.address.sin6_addr) { Array($0) }
            // ::1, or an IPv4 loopback address mapped into IPv6 (::ffff:127.x.y.z).
            return bytes == Array(repeating: 0, count: 15) + [1]
                || (bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF && bytes[12] == 127)
        case .unixDomainSocket: return true
        }
    }

    private static func isLoopback(_ address: UnsafeMutablePointer<sockaddr>) -> Bool {
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { isLoopback(SocketAddress($0.pointee, host: "")) }
        case AF_INET6:
            return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { isLoopback(SocketAddress($0.pointee, host: "")) }
        default:
            return false
        }
    }

    /// Whether `name` is an IPv4 or IPv6 address written out, not a name a resolver answers for.
    static func isAddressLiteral(_ name: String) -> Bool {
        var v4 = in_addr(), v6 = in6_addr()
        return inet_pton(AF_INET, name, &v4) == 1 || inet_pton(AF_INET6, name, &v6) == 1
    }

    /// The name and port of a `Host` header (`name`, `name:port`, `[v6]` or `[v6]:port`),
    /// lowercased and without a final dot; nil when it is malformed. A missing port is nil.
    static func parseHostHeader(_ header: String) -> (name: String, port: Int?)? {
        let value = header.lowercased()
        let name: Substring, rest: Substring
        if value.hasPrefix("[") {
            guard let close = value.firstIndex(of: "]") else { return nil }
            name = value[value.index(after: value.startIndex)..<close]
            rest = value[value.index(after: close)...]
            guard isAddressLiteral(String(name)), rest.isEmpty || rest.hasPrefix(":") else { return nil }
        } else {
            let parts = value.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            name = parts[0]
            rest = parts.count == 2 ? ":" + parts[1] : ""
        }
        var port: Int?
        if !rest.isEmpty {
            guard let number = Int(rest.dropFirst()), (1...65535).contains(number), rest.count <= 6 else { return nil }
            port = number
        }
        let trimmed = name.hasSuffix(".") ? name.dropLast() : name
        guard !trimmed.isEmpty, trimmed.allSatisfy({ $0.isLetter || $0.isNumber || "-.:".contains($0) }) else { return nil }
        return (String(trimmed), port)
    }

    /// This machine's own names: its host name, with and without its domain, and with `.local`.
    static let machineNames: Set<String> = {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return [] }
        let full = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).lowercased()
        guard !full.isEmpty else { return [] }
        let short = String(full.split(separator: ".").first ?? Substring(full))
        return [full, short, short + ".local"]
    }()
}
