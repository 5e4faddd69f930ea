import Foundation
import HTTPServer
import HTTPTestSupport
import XCTest

/// Cost-aware serving: heavy requests run on a `HeavyWorkExecutor`, so light ones are answered
/// while every heavy one is still running or queued; the executor takes clients in turns.
final class CostAwareServingTests: XCTestCase {
    /// A gate heavy jobs wait at until the test opens it (on the executor's threads, never the server's).
    private final class Gate: @unchecked Sendable {
        private let condition = NSCondition()
        private var open = false

        func wait() {
            condition.withLock { while !open { condition.wait() } }
        }

        func release() {
            condition.withLock {
                open = true
                condition.broadcast()
            }
        }
    }

    func testLightRequestsAreAnsweredWhileEveryHeavyOneIsStillRunningOrQueued() throws {
        let executor = HeavyWorkExecutor(threads: 1)
        addTeardownBlock { executor.stop() }
        let gate = Gate()
        addTeardownBlock { gate.release() }
        let inner = ClosureResponder { request, response in
            if request.path == "/heavy" { gate.wait() }
            response.send(.text("\(request.path) from \(request.clientAddress ?? "?")"))
        }
        // One server thread: on it, a single heavy request would hold every light one.
        let server = try startServer(HTTPServerConfiguration(threads: 1),
                                     responder: CostAwareServing.middleware(executor: executor) { $0.path == "/heavy" ? "test" : nil }(inner))
        let heavy = try (0..<4).map { _ in try RawHTTPClient(port: server.port) }
        for client in heavy { try client.get("/heavy") }
        let deadline = Date().addingTimeInterval(10)
        while executor.counters != .init(queued: 3, running: 1, completed: 0), Date() < deadline { usleep(2_000) }
        XCTAssertEqual(executor.counters, .init(queued: 3, running: 1, completed: 0))

        for _ in 0..<20 {
            let light = try RawHTTPClient(port: server.port)
            try light.get("/light")
            let response = try light.readResponse()
            XCTAssertEqual(response.status, 200)
            XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "/light from 127.0.0.1")
        }
        XCTAssertEqual(executor.counters.completed, 0, "every heavy request still waits at the gate")
        XCTAssertTrue(heavy.allSatisfy { !$0.hasReceivedSomething })

        gate.release()
        for client in heavy {
            let response = try client.readResponse()
            XCTAssertEqual(response.status, 200)
            XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "/heavy from 127.0.0.1")
        }
        while executor.counters.completed < 4, Date() < deadline { usleep(2_000) }
        XCTAssertEqual(executor.counters, .init(queued: 0, running: 0, completed: 4))
    }

    func testClientsTakeTurnsSoABacklogDelaysOthersByOneJob() throws {
        let executor = HeavyWorkExecutor(threads: 1)
        addTeardownBlock { executor.stop() }
        let gate = Gate()
        addTeardownBlock { gate.release() }
        let order = Recorder<String>()
        executor.submit(client: "first") { gate.wait() }
        for index in 1...4 { executor.submit(client: "busy") { order.append("busy \(index)") } }
        executor.submit(client: "other") { order.append("other 1") }
        executor.submit(client: "busy") { order.append("busy 5") }
        executor.submit(client: "other") { order.append("other 2") }
        gate.release()
        XCTAssertTrue(order.wait(forCount: 7, timeout: 10))
        XCTAssertEqual(order.all, ["busy 1", "other 1", "busy 2", "other 2", "busy 3", "busy 4", "busy 5"])
    }

    func testStopDropsQueuedJobsAndLetsTheRunningOneFinish() throws {
        let executor = HeavyWorkExecutor(threads: 1)
        let gate = Gate()
        let ran = Recorder<String>()
        executor.submit(client: "a") {
            gate.wait()
            ran.append("running")
        }
        executor.submit(client: "a") { ran.append("queued") }
        let deadline = Date().addingTimeInterval(10)
        while executor.counters.running == 0, Date() < deadline { usleep(2_000) }
        executor.stop()
        XCTAssertEqual(executor.counters.queued, 0)
        gate.release()
        XCTAssertTrue(ran.wait(forCount: 1, timeout: 10))
        executor.submit(client: "a") { ran.append("after stop") }
        while executor.counters.running > 0, Date() < deadline { usleep(2_000) }
        XCTAssertEqual(ran.all, ["running"])
    }

    func testWorkOnTheExecutorKnowsItIsThere() throws {
        let executor = HeavyWorkExecutor(threads: 1)
        addTeardownBlock { executor.stop() }
        let seen = Recorder<Bool>()
        executor.submit(client: "") { seen.append(HeavyWorkExecutor.isCurrentThreadWorker) }
        XCTAssertTrue(seen.wait(forCount: 1))
        XCTAssertEqual(seen.all, [true])
        XCTAssertFalse(HeavyWorkExecutor.isCurrentThreadWorker)
    }
}
