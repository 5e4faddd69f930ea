import Foundation
import VietMapClient
import XCTest

/// The reference app's performance tips (§9) as reusable pieces, on a manual clock.
final class PerformanceHelperTests: XCTestCase {
    let sim = ClientTestSimulator.shared

    func testBurstOfFiveQueriesSendsOneRequest() async throws {
        let clock = VMManualClock()
        let counting = CountingProvider(sim.provider())
        let search = DebouncedAutocomplete(provider: counting, delay: .milliseconds(300), clock: clock)
        let httpBefore = sim.log.all.count

        // Typing "ben thanh" key by key, one call every 50 ms: 5 calls within 250 ms.
        var calls: [Task<[VMSearchItem]?, any Error>] = []
        for (i, text) in ["b", "be", "ben", "ben th", "ben thanh"].enumerated() {
            calls.append(Task { try await search.suggestions(for: text, focus: Places.focus) })
            await clock.waitForSleepers(i + 1)
            if i < 4 { clock.advance(by: .milliseconds(50)) }
        }
        XCTAssertEqual(counting.count, 0, "nothing is sent while typing")
        clock.advance(by: .milliseconds(300))
        var results: [[VMSearchItem]?] = []
        for call in calls { results.append(try await call.value) }

        XCTAssertEqual(results.prefix(4).map { $0 == nil }, [true, true, true, true], "earlier calls are superseded")
        let last = try XCTUnwrap(results[4])
        XCTAssertTrue(last.prefix(5).contains { $0.name == "Chợ Bến Thành" }, "\(last.map(\.name))")
        XCTAssertEqual(counting.requests.map { $0.parameters.first }, [VMParameter("text", "ben thanh")])
        XCTAssertEqual(sim.log.all.count - httpBefore, 1, "one HTTP request reached the server")

        // After a pause, the next query is sent on its own.
        let next = Task { try await search.suggestions(for: "nha tho", focus: Places.focus) }
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(299))
        XCTAssertEqual(counting.count, 1)
        clock.advance(by: .milliseconds(1))
        let items = try await next.value
        XCTAssertNotNil(items)
        XCTAssertEqual(counting.count, 2)
    }

    func testSupersededWhileInFlightAndCancellation() async throws {
        let clock = VMManualClock()
        let gate = GatedProvider(sim.provider())
        let search = DebouncedAutocomplete(provider: gate, delay: .milliseconds(300), clock: clock)
        let first = Task { try await search.suggestions(for: "ben thanh") }
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(300))
        await gate.waitUntilWaiting(1)          // the first query is on the wire…
        let second = Task { try await search.suggestions(for: "nha tho duc ba") }
        await clock.waitForSleepers(1)          // …when a newer one arrives
        gate.open()
        let firstResult = try await first.value
        XCTAssertNil(firstResult, "an answer for an outdated text is not delivered")
        clock.advance(by: .milliseconds(300))
        let secondResult = try await second.value
        XCTAssertEqual(secondResult?.first?.name, "Nhà thờ Đức Bà")

        // A cancelled caller gets nil; blank text answers [] at once and supersedes.
        let cancelled = Task { try await search.suggestions(for: "ben") }
        await clock.waitForSleepers(1)
        cancelled.cancel()
        let cancelledResult = try await cancelled.value
        XCTAssertNil(cancelledResult)
        let pending = Task { try await search.suggestions(for: "ben") }
        await clock.waitForSleepers(1)
        let blank = try await search.suggestions(for: "  ")
        XCTAssertEqual(blank?.count, 0)
        clock.advance(by: .milliseconds(300))
        let pendingResult = try await pending.value
        XCTAssertNil(pendingResult)
        XCTAssertEqual(gate.count, 2)
    }

    func testSuggestionCacheHitWithinTTLAndMissAfter() async throws {
        let clock = VMManualClock()
        let counting = CountingProvider(sim.provider())
        let cache = SuggestionCache(ttl: .seconds(30), clock: clock)
        let here = VMCoordinate(latitude: 10.77690, longitude: 106.70080)
        let nearby = VMCoordinate(latitude: 10.77710, longitude: 106.70060)   // ~30 m away, same 0.001° cell
        let far = VMCoordinate(latitude: 10.78500, longitude: 106.70080)      // ~900 m away

        let first = try await cache.suggestions(text: "ben thanh", focus: here, from: counting)
        XCTAssertEqual(counting.count, 1)
        let hit = try await cache.suggestions(text: "ben thanh", focus: nearby, from: counting)
        XCTAssertEqual(counting.count, 1, "same text, same ~100 m cell: from the cache")
        XCTAssertEqual(try canonicalJSON(hit), try canonicalJSON(first))
        clock.advance(by: .seconds(29))
        _ = try await cache.suggestions(text: "ben thanh", focus: here, from: counting)
        XCTAssertEqual(counting.count, 1, "still within the TTL")

        _ = try await cache.suggestions(text: "ben thanh", focus: far, from: counting)
        XCTAssertEqual(counting.count, 2, "another cell is another query")
        _ = try await cache.suggestions(text: "ben thanh ", focus: here, from: counting)
        XCTAssertEqual(counting.count, 3, "the exact text is the key")
        _ = try await cache.suggestions(text: "ben thanh", focus: here, displayType: 2, from: counting)
        XCTAssertEqual(counting.count, 4, "display_type is part of the key")

        clock.advance(by: .seconds(1))
        _ = try await cache.suggestions(text: "ben thanh", focus: here, from: counting)
        XCTAssertEqual(counting.count, 5, "expired after 30 s")
        let (hits, misses) = (await cache.hits, await cache.misses)
        XCTAssertEqual(hits, 2)
        XCTAssertEqual(misses, 5)

        // Errors are not cached; concurrent misses share one request.
        let wrongKey = CountingProvider(sim.provider(apiKey: "wrong"))
        for _ in 0..<2 {
            let error = await assertThrowsClientError { try await cache.suggestions(text: "x", from: wrongKey) }
            XCTAssertEqual(error?.status, 401)
        }
        XCTAssertEqual(wrongKey.count, 2)
        let concurrent = CountingProvider(sim.provider())
        async let a = cache.suggestions(text: "cho", focus: here, from: concurrent)
        async let b = cache.suggestions(text: "cho", focus: here, from: concurrent)
        let (ra, rb) = try await (a, b)
        XCTAssertEqual(try canonicalJSON(ra), try canonicalJSON(rb))
        XCTAssertEqual(concurrent.count, 1)
    }

    func testDebounceUsesTheCache() async throws {
        let clock = VMManualClock()
        let counting = CountingProvider(sim.provider())
        let search = DebouncedAutocomplete(provider: counting, cache: SuggestionCache(clock: clock), clock: clock)
        for _ in 0..<2 {
            let call = Task { try await search.suggestions(for: "ben thanh", focus: Places.focus) }
            await clock.waitForSleepers(1)
            clock.advance(by: .milliseconds(300))
            let items = try await call.value
            XCTAssertEqual(items?.isEmpty, false)
        }
        XCTAssertEqual(counting.count, 1)
    }

    func testRouteMemo() async throws {
        let counting = CountingProvider(sim.provider())
        let clock = VMManualClock()
        let planner = RoutePlanner(provider: counting, ttl: .seconds(600), clock: clock)
        let a = Places.benThanhMarket, b = Places.q3

        let first = try await planner.route(points: [a, b])
        let second = try await planner.route(points: [a, b])
        XCTAssertEqual(counting.count, 1, "an unchanged route is not requested again")
        XCTAssertEqual(try canonicalJSON(first), try canonicalJSON(second))
        // A difference below what is sent (1e-6°) is the same request.
        _ = try await planner.route(points: [VMCoordinate(latitude: a.latitude + 1e-8, longitude: a.longitude), b])
        XCTAssertEqual(counting.count, 1)

        let moved = VMCoordinate(latitude: b.latitude + 0.001, longitude: b.longitude)
        let changed = try await planner.route(points: [a, moved])
        XCTAssertEqual(counting.count, 2, "a changed point is a new route")
        XCTAssertNotEqual(try canonicalJSON(changed), try canonicalJSON(first))
        _ = try await planner.route(points: [a, b], vehicle: .motorcycle)
        XCTAssertEqual(counting.count, 3, "another vehicle is a new route")
        _ = try await planner.route(points: [b, a])
        XCTAssertEqual(counting.count, 4, "the reverse direction is a new route")
        _ = try await planner.route(points: [a, b])
        XCTAssertEqual(counting.count, 4)

        // Concurrent identical requests share one; failures are not memoized; the TTL expires.
        let c = VMCoordinate(latitude: 10.7760, longitude: 106.7020)
        async let x = planner.route(points: [a, c])
        async let y = planner.route(points: [a, c])
        _ = try await (x, y)
        XCTAssertEqual(counting.count, 5)
        for _ in 0..<2 {
            let error = await assertThrowsClientError { try await planner.route(points: [Places.focus, Places.hoanKiem]) }
            guard case .noRoute? = error else { return XCTFail("\(String(describing: error))") }
        }
        XCTAssertEqual(counting.count, 7)
        clock.advance(by: .seconds(600))
        _ = try await planner.route(points: [a, b])
        XCTAssertEqual(counting.count, 8)
        let sent = await planner.requestsSent
        XCTAssertEqual(sent, 8)
    }
}

/// Holds every request until `open()` (to have one in flight on purpose).
final class GatedProvider: VietMapProvider, @unchecked Sendable {
    // @unchecked: state guarded by `lock`.
    let wrapped: any VietMapProvider
    private let lock = NSLock()
    private var isOpen = false
    private var waiting = 0
    private var sent = 0

    init(_ wrapped: any VietMapProvider) { self.wrapped = wrapped }

    var count: Int { locked { sent } }

    func open() { locked { isOpen = true } }

    func waitUntilWaiting(_ n: Int) async {
        while locked({ waiting }) < n { try? await Task.sleep(for: .milliseconds(1)) }
    }

    func send(_ request: VMRequest) async throws -> VMRawResponse {
        locked { sent += 1; waiting += 1 }
        while !locked({ isOpen }) { try await Task.sleep(for: .milliseconds(1)) }
        locked { waiting -= 1 }
        return try await wrapped.send(request)
    }

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }
}
