import Foundation
import HTTPServer
import Scenarios
import XCTest

/// What the contract runner asks of the engine: delays in scenario time only
/// (`X-VietMap-Sim-Virtual-Delay`), answers the scenario leaves alone not computed and edited
/// answers computed once (`X-VietMap-Sim-Untouched`) — decisions taken as always.
final class VirtualDelayTests: XCTestCase {
    /// The answers a handler sent, and how often the inner handler was asked.
    private final class Calls: @unchecked Sendable {
        private let lock = NSLock()
        private var answers: [HTTPResponse] = []
        private var innerCount = 0

        func answered(_ response: HTTPResponse) { lock.withLock { answers.append(response) } }
        func innerAsked() { lock.withLock { innerCount += 1 } }
        var sent: [HTTPResponse] { lock.withLock { answers } }
        var inner: Int { lock.withLock { innerCount } }
    }

    private let route = "/api/route/v4?point=10.7769,106.7008&point=10.7725,106.6980&vehicle=car"

    private func handler(_ engine: ScenarioEngine, _ calls: Calls) -> any HTTPResponder {
        engine.wrap(ClosureResponder { _, reply in
            calls.innerAsked()
            reply.send(HTTPResponse(status: 200, body: Data(#"{"paths":[{"points":"_p~iF~ps|U_ulLnnqC_mqNvxq`@"}]}"#.utf8)))
        })
    }

    private func send(_ handler: any HTTPResponder, _ target: String, key: String, _ headers: [String: String], _ calls: Calls) {
        var fields = HTTPHeaders()
        for (name, value) in headers { fields.set(name, value) }
        handler.respond(to: HTTPRequest(method: "GET", target: target + "&apikey=\(key)", headers: fields), reply: ResponseHandle { calls.answered($0) })
    }

    func testAVirtualDelayIsSentAtOnceNamingTheDelayAndARealOneWaitsForTheClock() throws {
        let clock = ManualScenarioClock()
        let engine = try makeEngine(#"{"name": "slow", "description": "d", "rules": [{"match": {"endpoint": "route"}, "delay": 12000}]}"#,
                                    configuration: .init(clock: clock))
        let calls = Calls()
        let handler = handler(engine, calls)
        send(handler, route, key: "scenario:slow@a", ["X-VietMap-Sim-Virtual-Delay": "1"], calls)
        XCTAssertEqual(calls.sent.count, 1, "answered without the clock moving")
        XCTAssertEqual(calls.sent.first?.status, 200)
        XCTAssertEqual(calls.sent.first?.headers["X-VietMap-Sim-Virtual-Delay"], "12000")
        XCTAssertEqual(clock.pendingCount, 0)

        send(handler, route, key: "scenario:slow@b", [:], calls)
        XCTAssertEqual(calls.sent.count, 1, "without the header the answer waits for its delay")
        XCTAssertEqual(clock.pendingCount, 1)
        clock.advance(byMilliseconds: 12000)
        XCTAssertEqual(calls.sent.count, 2)
        XCTAssertNil(calls.sent.last?.headers["X-VietMap-Sim-Virtual-Delay"])
    }

    func testAnAnswerTheScenarioLeavesAloneIsNotComputedButStillCountsForTheQuota() throws {
        let engine = try makeEngine(#"{"name": "q", "description": "d", "rules": [{"match": {"endpoint": "route"}, "quota": {"limit": 2, "windowSeconds": 86400}}]}"#)
        let calls = Calls()
        let handler = handler(engine, calls)
        let headers = ["X-VietMap-Sim-Virtual-Delay": "1", "X-VietMap-Sim-Untouched": "1", "X-VietMap-Sim-Pace": "50"]
        for _ in 0..<3 { send(handler, route, key: "scenario:q@a", headers, calls) }
        XCTAssertEqual(calls.sent.map(\.status), [204, 204, 429], "within the quota: untouched; the third is over it")
        XCTAssertEqual(calls.sent.prefix(2).map { $0.headers["X-VietMap-Sim-Untouched"] }, ["1", "1"])
        XCTAssertNil(calls.sent.last?.headers["X-VietMap-Sim-Untouched"])
        XCTAssertEqual(calls.inner, 0, "no answer was computed")
    }

    func testAnswersWithoutScenarioAreReusedForAcceptedKeysOnly() throws {
        let engine = try makeEngine(#"{"name": "e", "description": "d", "rules": [{"match": {"endpoint": "place"}, "delay": 1}]}"#, configuration: .init(apiKeys: ["k1", "k2"]))
        let calls = Calls()
        let handler = handler(engine, calls)
        let reuse = ["X-VietMap-Sim-Untouched": "1"]
        send(handler, route, key: "k1", reuse, calls)
        send(handler, route, key: "k2", reuse, calls)
        XCTAssertEqual(calls.inner, 1, "every accepted key gets the same answer")
        send(handler, route, key: "wrong", reuse, calls)
        send(handler, route, key: "other", reuse, calls)
        XCTAssertEqual(calls.inner, 3, "a refused key's answer is its own, never an accepted key's")
        send(handler, route, key: "k1", [:], calls)
        XCTAssertEqual(calls.inner, 4, "a client that does not ask gets its own")
    }

    func testAnEditedAnswerIsComputedOnceForClientsThatAcceptReuse() throws {
        let engine = try makeEngine(#"{"name": "e", "description": "d", "rules": [{"match": {"endpoint": "route"}, "respond": {"status": 503}}]}"#)
        let calls = Calls()
        let handler = handler(engine, calls)
        let headers = ["X-VietMap-Sim-Virtual-Delay": "1", "X-VietMap-Sim-Untouched": "1"]
        send(handler, route, key: "scenario:e@a", headers, calls)
        send(handler, route, key: "scenario:e@b", headers, calls)
        XCTAssertEqual(calls.sent.map(\.status), [503, 503])
        XCTAssertEqual(Set(calls.sent.map(\.body)).count, 1, "the same edited answer")
        XCTAssertEqual(calls.inner, 1, "the real answer was computed once")
        send(handler, route, key: "scenario:e@c", [:], calls)
        XCTAssertEqual(calls.inner, 2, "a client that does not ask gets its own")
        XCTAssertEqual(calls.sent.last?.status, 503)
    }
}
