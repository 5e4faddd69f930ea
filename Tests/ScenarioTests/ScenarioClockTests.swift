import Foundation
import HTTPServer
import Scenarios
import SimTesting
import XCTest

/// The engine's clock: `ManualScenarioClock` runs due work in time order when advanced, and a
/// delayed answer goes out exactly when the clock passes its delay.
final class ScenarioClockTests: XCTestCase {
    /// What ran, and the clock's time (ms) while it ran.
    private final class Log: @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [(String, UInt64)] = []

        func note(_ name: String, _ clock: ManualScenarioClock) {
            let milliseconds = clock.now / 1_000_000
            lock.withLock { entries.append((name, milliseconds)) }
        }

        var names: [String] { lock.withLock { entries.map(\.0) } }
        var times: [UInt64] { lock.withLock { entries.map(\.1) } }
    }

    func testAdvanceRunsDueWorkInTimeOrder() {
        let clock = ManualScenarioClock()
        let log = Log()
        for (name, delay) in [("c", 30), ("a1", 10), ("b", 20), ("a2", 10)] {
            clock.schedule(afterMilliseconds: delay) { log.note(name, clock) }
        }
        XCTAssertEqual(clock.now, 0)
        XCTAssertEqual(clock.pendingCount, 4)
        clock.advance(byMilliseconds: 9)
        XCTAssertEqual(log.names, [], "nothing is due before 10 ms")
        clock.advance(byMilliseconds: 11)
        XCTAssertEqual(log.names, ["a1", "a2", "b"], "equal times run in scheduling order")
        XCTAssertEqual(log.times, [10, 10, 20], "each item runs at its own time")
        XCTAssertEqual(clock.now, 20_000_000)
        clock.advance(byMilliseconds: 100)
        XCTAssertEqual(log.names, ["a1", "a2", "b", "c"])
        XCTAssertEqual(clock.now, 120_000_000, "the clock ends at the target")
        XCTAssertEqual(clock.pendingCount, 0)
    }

    func testWorkScheduledFromWorkRunsWhenItFallsWithinTheAdvance() {
        let clock = ManualScenarioClock()
        let log = Log()
        clock.schedule(afterMilliseconds: 10) {
            log.note("outer", clock)
            clock.schedule(afterMilliseconds: 5) { log.note("inner-15", clock) }
            clock.schedule(afterMilliseconds: 50) { log.note("inner-60", clock) }
            clock.schedule(afterMilliseconds: 0) { log.note("inner-10", clock) }
        }
        clock.advance(byMilliseconds: 20)
        XCTAssertEqual(log.names, ["outer", "inner-10", "inner-15"])
        XCTAssertEqual(log.times, [10, 10, 15])
        XCTAssertEqual(clock.pendingCount, 1)
        clock.advance(byMilliseconds: 39)
        XCTAssertEqual(log.names.count, 3, "60 ms is not reached at 59 ms")
        clock.advance(byMilliseconds: 1)
        XCTAssertEqual(log.names.last, "inner-60")
        XCTAssertEqual(log.times.last, 60)
    }

    func testAdvanceByZeroRunsOnlyWorkAlreadyDue() {
        let clock = ManualScenarioClock()
        clock.advance(byMilliseconds: 5)
        let log = Log()
        clock.schedule(afterMilliseconds: 0) { log.note("now", clock) }
        clock.schedule(afterMilliseconds: 1) { log.note("later", clock) }
        XCTAssertEqual(log.names, [], "scheduling never runs work on the caller's stack")
        clock.advance(byMilliseconds: 0)
        XCTAssertEqual(log.names, ["now"])
        XCTAssertEqual(log.times, [5])
        XCTAssertEqual(clock.now, 5_000_000, "advancing by zero does not move time")
        XCTAssertEqual(clock.pendingCount, 1)
        clock.advance(byMilliseconds: 0)
        XCTAssertEqual(log.names, ["now"])
    }

    func testConcurrentSchedulingKeepsEveryItemAndItsOrder() throws {
        let clock = ManualScenarioClock()
        let log = Log()
        let perThread = 500
        _ = try parallel(8) { thread in
            for index in 0..<perThread {
                let delay = (index * 7 + thread * 13) % 1000
                clock.schedule(afterMilliseconds: delay) { log.note("\(delay)", clock) }
            }
        }
        XCTAssertEqual(clock.pendingCount, 8 * perThread)
        XCTAssertTrue(clock.waitForPending(8 * perThread, timeout: 0), "already pending: no wait")
        clock.advance(byMilliseconds: 999)
        let times = log.times
        XCTAssertEqual(times.count, 8 * perThread)
        XCTAssertEqual(times, times.sorted(), "run in time order")
        XCTAssertEqual(log.names, times.map { "\($0)" }, "each at its own time")
        XCTAssertEqual(clock.pendingCount, 0)
    }

    func testWaitForPendingSeesWorkScheduledFromAnotherThread() {
        let clock = ManualScenarioClock()
        Thread.detachNewThread { clock.schedule(afterMilliseconds: 1) {} }
        XCTAssertTrue(clock.waitForPending(1))
        XCTAssertFalse(clock.waitForPending(2, timeout: 0.05))
    }

    func testSystemClockIsMonotonicAndRunsWorkLater() {
        let clock = SystemScenarioClock()
        let before = clock.now
        let ran = expectation(description: "scheduled work ran")
        let ranAt = Box(UInt64(0))
        clock.schedule(afterMilliseconds: 20) {
            ranAt.set(clock.now)
            ran.fulfill()
        }
        wait(for: [ran], timeout: 5)
        XCTAssertGreaterThanOrEqual(ranAt.value, before + 20_000_000)
    }

    // MARK: A delayed answer over HTTP

    private let slow = #"""
        {"name": "slow", "description": "autocomplete answers after 500 ms",
         "rules": [{"match": {"endpoint": "autocomplete"}, "delay": 500}]}
        """#

    func testADelayedAnswerIsSentExactlyWhenTheClockPassesTheDelay() throws {
        let clock = ManualScenarioClock()
        let engine = try makeEngine(slow, configuration: .init(clock: clock))
        let server = try startServer(engine)
        let client = try RawHTTPClient(port: server.port)
        try client.get("/api/autocomplete/v4?apikey=scenario:slow&text=ben")
        XCTAssertTrue(clock.waitForPending(1), "the request reached the engine")
        XCTAssertFalse(client.hasReceivedSomething, "not answered before the clock moves")
        XCTAssertNil(engine.journal.entries().last?.status, "pending in the journal")
        XCTAssertEqual(engine.journal.entries().last?.delayMilliseconds, 500)

        clock.advance(byMilliseconds: 499)
        XCTAssertEqual(clock.pendingCount, 1)
        XCTAssertFalse(client.hasReceivedSomething, "not answered at 499 ms")
        XCTAssertNil(engine.journal.entries().last?.status)

        clock.advance(byMilliseconds: 1)
        XCTAssertEqual(clock.pendingCount, 0)
        XCTAssertEqual(try client.readResponse().status, 200)
        let entry = try XCTUnwrap(engine.journal.entries().last)
        XCTAssertEqual(entry.status, 200)
        XCTAssertEqual(entry.latencyMilliseconds, 500, "latency is the clock's, exactly the delay")
        XCTAssertEqual(entry.arrivalMilliseconds, 0)
        XCTAssertGreaterThan(try get(server, "/api/place/v4?apikey=scenario:slow&refid=x").status, 0,
                             "an undelayed endpoint answers without advancing")
    }

    func testTheSystemClockStillDelaysRealAnswers() throws {
        let engine = try makeEngine(slow.replacingOccurrences(of: "500", with: "100"))
        let server = try startServer(engine)
        let started = Date()
        XCTAssertEqual(try get(server, "/api/autocomplete/v4?apikey=scenario:slow&text=ben").status, 200)
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 0.099)
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(engine.journal.entries().last?.latencyMilliseconds), 100)
    }
}

/// A value shared with a closure on another thread.
/// `@unchecked Sendable`: `stored` is only touched under `lock`.
private final class Box<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value { lock.withLock { stored } }
    func set(_ value: Value) { lock.withLock { stored = value } }
}
