import Foundation
import Platform

/// Whether a socket address is on this machine: loopback (`127.0.0.0/8`, `::1`, their
/// IPv4-mapped form), unspecified (`0.0.0.0`, `::`, which connect to this machine) or an address
/// of one of its interfaces. The proxy never tunnels to the simulator's own ports there, so its
/// admin API cannot be reached through the proxy, whatever `--proxy-pass` allows.
package enum LocalEndpoint {
    /// The port of `address` (IPv4 or IPv6), or nil for another family.
    package static func port(_ address: UnsafePointer<sockaddr>) -> UInt16? {
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
        case AF_INET6:
            return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
        default:
            return nil
        }
    }

    package static func isThisMachine(_ address: UnsafePointer<sockaddr>) -> Bool {
        guard let bytes = addressBytes(address) else { return false }
        if bytes.count == 4, bytes[0] == 127 || bytes.allSatisfy({ $0 == 0 }) { return true }
        if bytes.count == 16 {
            if bytes.allSatisfy({ $0 == 0 }) || bytes == [UInt8](repeating: 0, count: 15) + [1] { return true }
            let mapped = bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF
            if mapped, bytes[12] == 127 || bytes[12...].allSatisfy({ $0 == 0 }) { return true }
        }
        return interfaceAddresses().contains(bytes)
    }

    /// The raw address of `address` (4 or 16 bytes).
    private static func addressBytes(_ address: UnsafePointer<sockaddr>) -> [UInt8]? {
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { pointer in
                withUnsafeBytes(of: pointer.pointee.sin_addr) { Array($0) }
            }
        case AF_INET6:
            return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                withUnsafeBytes(of: pointer.pointee.sin6_addr) { Array($0) }
            }
        default:
            return nil
        }
    }

    /// The addresses of this machine's interfaces (`getifaddrs`).
    private static func interfaceAddresses() -> Set<[UInt8]> {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return [] }
        defer { freeifaddrs(list) }
        var found: Set<[UInt8]> = []
        var cursor = list
        while let entry = cursor {
            cursor = entry.pointee.ifa_next
            if let address = entry.pointee.ifa_addr, let bytes = addressBytes(UnsafePointer(address)) { found.insert(bytes) }
        }
        return found
    }
}
