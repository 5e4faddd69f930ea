import Foundation
import Platform
import SimTesting
import TestExpectations
import Testing

/// `serve` transport flags as a user meets them: bad values, bind conflicts.
extension CLITests {
    @Test func testTransportFlagUsageErrors() throws {
        for arguments in [["serve", "--max-connections", "0"], ["serve", "--max-connections-per-client", "-1"],
                          ["serve", "--header-timeout", "soon"], ["serve", "--drain-timeout", "-1"],
                          ["serve", "--tls-cert", "/nope.pem"], ["serve", "--tls", "--tls-key", "/nope.pem"]] {
            let outcome = try run(arguments)
            expectEqual(outcome.status, 64, "\(arguments): \(outcome.stderr)")
            expectEqual(outcome.stderr.split(separator: "\n").count, 1, "\(arguments): \(outcome.stderr)")
        }
    }

    @Test func testServeOnIPv6LoopbackRefusesAPortTakenOnIPv4Loopback() throws {
        // Another server on 127.0.0.1:PORT.
        let fd = Sockets.makeStream(family: AF_INET)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Bool in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        expectTrue(bound)
        expectEqual(Sockets.listen(fd, 4), 0)
        let port = UInt16(bigEndian: address.sin_port)

        let db = try TestDataset.path()
        for host in ["::1", "::"] {
            let started = Date()
            let outcome = try run(["serve", "--host", host, "--port", String(port), "--db", db])
            expectEqual(outcome.status, 1, "\(host): \(outcome.stderr)")
            // The last line is the error (an earlier one may report the scenarios loaded from ./Scenarios).
            let last = outcome.stderr.split(separator: "\n").last.map(String.init) ?? ""
            expectTrue(last.hasPrefix("vietmap-sim: port \(port) is already in use on 127.0.0.1"), outcome.stderr)
            expectLessThan(Date().timeIntervalSince(started), 10)
        }
    }
}
