import Foundation
@testable import HTTPServer
import Platform
import XCTest

/// `ConnectionGuard` on its own, with socket pairs standing in for client connections:
/// the two ways it used to close a busy keep-alive connection whose request had arrived.
final class ConnectionGuardTests: XCTestCase {
    /// A connected pair: `server` is what the guard gets, `client` shows what it did.
    private func socketPair() throws -> (server: Int32, client: Int32) {
        var fds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Sockets.streamType, 0, &fds) == 0 else { throw POSIXError(.EMFILE) }
        addTeardownBlock { close(fds[0]); close(fds[1]) }
        return (fds[0], fds[1])
    }

    /// Whether the guard shut the server end down (the client end then reads EOF).
    private func wasShutDown(_ pair: (server: Int32, client: Int32)) -> Bool {
        var byte: UInt8 = 0
        return recv(pair.client, &byte, 1, Int32(MSG_DONTWAIT)) == 0
    }

    func testASweepWhoseClockIsOlderThanTheLastRequestClosesNothing() throws {
        let connectionGuard = ConnectionGuard(maxConnections: 10, headerTimeout: 1, bodyTimeout: 1)
        let keptAlive = try socketPair()
        let connection = connectionGuard.opened(socket: keptAlive.server)
        let clockBefore = ConnectionGuard.now()
        usleep(2_000)
        // What an MHD thread does while the sweep waits for the lock with `clockBefore`:
        connectionGuard.requestCompleted(connection)
        connectionGuard.sweep(now: clockBefore)
        connectionGuard.headComplete(connection)
        connectionGuard.sweep(now: clockBefore)
        XCTAssertEqual(connectionGuard.counters.timedOut, 0)
        XCTAssertFalse(wasShutDown(keptAlive), "an unsigned wrap made the connection look ancient")

        // The deadline itself still holds.
        connectionGuard.sweep(now: ConnectionGuard.now() + 2_000_000_000)
        XCTAssertEqual(connectionGuard.counters.timedOut, 1)
        XCTAssertTrue(wasShutDown(keptAlive))
    }

    func testTheSweepReadsItsClockUnderTheLock() throws {
        let connectionGuard = ConnectionGuard(maxConnections: 10, headerTimeout: 0.05, bodyTimeout: 0.05)
        let pair = try socketPair()
        let connection = connectionGuard.opened(socket: pair.server)
        // Requests ending back to back while sweeps run: none may time out.
        let sweeping = DispatchQueue(label: "sweeps")
        let done = DispatchSemaphore(value: 0)
        sweeping.async {
            for _ in 0..<20_000 { connectionGuard.sweep() }
            done.signal()
        }
        // Until the last sweep is over, so that no deadline really passes.
        while done.wait(timeout: .now()) == .timedOut {
            connectionGuard.requestCompleted(connection)
            connectionGuard.headComplete(connection)
        }
        XCTAssertEqual(connectionGuard.counters.timedOut, 0)
        XCTAssertFalse(wasShutDown(pair))
    }

    func testEvictionSparesAConnectionWhoseNextRequestHasArrived() throws {
        let connectionGuard = ConnectionGuard(maxConnections: 1, headerTimeout: 0, bodyTimeout: 0)
        let busy = try socketPair()
        _ = connectionGuard.opened(socket: busy.server)
        XCTAssertEqual(send(busy.client, "GET / HTTP/1.1\r\n\r\n", 18, 0), 18)  // not read by the server yet

        let newcomer = try socketPair()
        _ = connectionGuard.opened(socket: newcomer.server)
        XCTAssertFalse(wasShutDown(busy), "its request is in the socket: it is not waiting for one")
        XCTAssertTrue(wasShutDown(newcomer), "nobody is idle: the new connection is refused")

        // Once the request is read (and answered), the connection is idle again and can be evicted.
        var buffer = [UInt8](repeating: 0, count: 64)
        XCTAssertEqual(recv(busy.server, &buffer, buffer.count, 0), 18)
        let third = try socketPair()
        _ = connectionGuard.opened(socket: third.server)
        XCTAssertTrue(wasShutDown(busy))
        XCTAssertFalse(wasShutDown(third))
        XCTAssertEqual(connectionGuard.counters.evicted, 2)
    }
}
