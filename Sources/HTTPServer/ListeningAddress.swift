import Foundation
import Platform

/// The socket address the server binds to, parsed from an IP literal.
package struct ListeningAddress {
    private enum Storage {
        case v4(sockaddr_in)
        case v6(sockaddr_in6)
    }

    private let storage: Storage

    /// `host` is an IPv4 or IPv6 literal (brackets allowed), or `"localhost"` (127.0.0.1).
    package init?(host: String, port: UInt16) {
        var literal = host == "localhost" ? "127.0.0.1" : host
        if literal.hasPrefix("["), literal.hasSuffix("]") { literal = String(literal.dropFirst().dropLast()) }
        var v4 = sockaddr_in()
        if inet_pton(AF_INET, literal, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = port.bigEndian
            storage = .v4(v4)
            return
        }
        var v6 = sockaddr_in6()
        if inet_pton(AF_INET6, literal, &v6.sin6_addr) == 1 {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = port.bigEndian
            storage = .v6(v6)
            return
        }
        return nil
    }

    package var isIPv6: Bool {
        if case .v6 = storage { return true }
        return false
    }

    package func withSockaddr<Result>(_ body: (UnsafePointer<sockaddr>) -> Result) -> Result {
        switch storage {
        case .v4(var address):
            return withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
        case .v6(var address):
            return withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
        }
    }

    /// For a loopback or wildcard address: the loopback address of the other family
    /// (`::1` for IPv4, `127.0.0.1` for IPv6) when a listener already holds `port` there,
    /// as text; otherwise nil. `localhost` resolves to both, so a client could reach that
    /// other listener instead of this server.
    func takenSibling(port: UInt16) -> String? {
        switch storage {
        case .v4(let address):
            let host = UInt32(bigEndian: address.sin_addr.s_addr)
            guard host == 0 || host >> 24 == 127 else { return nil }
            var sibling = sockaddr_in6()
            sibling.sin6_family = sa_family_t(AF_INET6)
            sibling.sin6_port = port.bigEndian
            sibling.sin6_addr = in6addr_loopback
            return Self.isListenerBound(&sibling, family: AF_INET6) ? "::1" : nil
        case .v6(var address):
            let bytes = withUnsafeBytes(of: &address.sin6_addr) { Array($0) }
            let isAny = bytes.allSatisfy { $0 == 0 }
            let isLoopback = bytes.dropLast().allSatisfy { $0 == 0 } && bytes.last == 1
            guard isAny || isLoopback else { return nil }
            var sibling = sockaddr_in()
            sibling.sin_family = sa_family_t(AF_INET)
            sibling.sin_port = port.bigEndian
            sibling.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
            return Self.isListenerBound(&sibling, family: AF_INET) ? "127.0.0.1" : nil
        }
    }

    /// Tries to bind a TCP socket to `address` with SO_REUSEADDR (which on Linux and macOS
    /// still fails when a socket is listening there, but not for leftover TIME_WAIT
    /// connections). True when the bind fails with EADDRINUSE.
    private static func isListenerBound<Address>(_ address: inout Address, family: Int32) -> Bool {
        let fd = Sockets.makeStream(family: family)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        if family == AF_INET6 {
            _ = setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &one, socklen_t(MemoryLayout<Int32>.size))
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<Address>.size))
            }
        }
        return result != 0 && errno == EADDRINUSE
    }
}
