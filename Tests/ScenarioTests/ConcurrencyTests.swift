import Foundation
import HTTPServer
import Scenarios
import SimTesting
import XCTest

/// Race-free state under parallel callers, and delays that hold no server thread.
final class ConcurrencyTests: XCTestCase {
    func testParallelCallersSeeExactlyTwoFailures() throws {
        let engine = builtInEngine()
        let port = try startServer(engine, threads: 4).port
        let statuses = try parallel(48) { _ in
            try fetch(port, "/api/autocomplete/v4?apikey=scenario:fail-twice-then-succeed@race&text=ben").status
        }
        XCTAssertEqual(statuses.filter { $0 == 500 }.count, 2, "\(statuses)")
        XCTAssertEqual(statuses.filter { $0 == 200 }.count, 46)
        XCTAssertEqual(engine.journal.count(matching: JournalQuery(client: "race", status: 500)), 2)
    }

    func testDelayedRequestsHoldNoThread() throws {
        let scenario = #"""
            {"name": "slow", "description": "text=slow waits 1 s",
             "rules": [{"match": {"params": {"text": "slow"}}, "delay": 1000}]}
            """#
        let clock = ManualScenarioClock()
        let engine = try makeEngine(scenario, configuration: .init(defaultScenario: "slow", clock: clock))
        let server = try startServer(engine, threads: 2)
        let count = 200
        // All delayed requests in flight at once (each on its own connection) on a 2-thread server…
        // (Each request sent as soon as its connection is open: opening all 200 first could take a
        // loaded machine past the server's 10 s request-head deadline for the first ones.)
        let clients = try (0..<count).map { _ in
            let client = try RawHTTPClient(port: server.port, receiveTimeout: 10)
            try client.get("/api/autocomplete/v4?apikey=dev&text=slow")
            return client
        }
        XCTAssertTrue(clock.waitForPending(count, timeout: 30), "every delayed answer is scheduled")
        // …while an undelayed request is still answered (with the clock standing still: a server
        // thread held by a delayed request would never be freed).
        let fastStart = Date()
        XCTAssertEqual(try get(server, "/api/autocomplete/v4?apikey=dev&text=ben").status, 200)
        let fast = Date().timeIntervalSince(fastStart)
        XCTAssertLessThan(fast, 0.5, "an undelayed request waited \(fast) s")
        clock.advance(byMilliseconds: 999)
        XCTAssertEqual(clock.pendingCount, count, "none is due before 1 s")
        XCTAssertFalse(clients.contains { $0.hasReceivedSomething }, "no delayed answer before 1 s")
        clock.advance(byMilliseconds: 1)
        for client in clients { XCTAssertEqual(try client.readResponse().status, 200) }
        let delayed = engine.journal.entries(matching: JournalQuery(parameters: [("text", "slow")]))
        XCTAssertEqual(delayed.count, count)
        XCTAssertTrue(delayed.allSatisfy { $0.latencyMilliseconds == 1000 }, "each answered exactly 1 s after it arrived")
    }

    func testDribbledBodyArrivesWhole() throws {
        let scenario = #"{"name": "drip", "description": "d", "rules": [{"dribble": {"chunks": 4, "overMs": 300}}]}"#
        let server = try startServer(try makeEngine(scenario))
        let normal = try get(server, "/api/autocomplete/v4?apikey=dev&text=ben%20thanh")
        let started = Date()
        let dribbled = try get(server, "/api/autocomplete/v4?apikey=scenario:drip&text=ben%20thanh")
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 0.25)
        XCTAssertEqual(dribbled.status, 200)
        XCTAssertFalse(dribbled.truncated)
        XCTAssertEqual(dribbled.body, normal.body)
    }
}
