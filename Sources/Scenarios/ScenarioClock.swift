import Foundation

/// The scenario engine's time: arrival times, latencies and journal gaps are read from `now`,
/// and delayed answers are sent by `schedule`. Quota windows and burst windows see the
/// arrival the engine read here. Set it with `ScenarioEngine.Configuration.clock`: the
/// default is `SystemScenarioClock`; tests use `ManualScenarioClock` and advance time
/// instead of sleeping.
public protocol ScenarioClock: Sendable {
    /// Monotonic time in nanoseconds (from any fixed origin).
    var now: UInt64 { get }
    /// Runs `work` once `milliseconds` (at least 0) have passed on this clock, from another
    /// thread or stack than the caller's; holds no thread meanwhile.
    func schedule(afterMilliseconds milliseconds: Int, _ work: @escaping @Sendable () -> Void)
}

/// Real time: `DispatchTime` (uptime) and `DispatchQueue.global().asyncAfter` timers.
public struct SystemScenarioClock: ScenarioClock {
    public init() {}

    public var now: UInt64 {
        DispatchTime.now().uptimeNanoseconds
    }

    public func schedule(afterMilliseconds milliseconds: Int, _ work: @escaping @Sendable () -> Void) {
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(max(0, milliseconds)), execute: work)
    }
}

/// Time that moves only when told to, for tests: it starts at 0 and `advance(byMilliseconds:)`
/// moves it, running the work that came due on the caller's thread.
///
///     let clock = ManualScenarioClock()
///     let engine = ScenarioEngine(library: library, configuration: .init(clock: clock))
///     // … send a request whose rule has "delay": 500 …
///     XCTAssertTrue(clock.waitForPending(1))   // the answer is scheduled, not sent
///     clock.advance(byMilliseconds: 500)       // now it is sent
///
/// `@unchecked Sendable`: `current` and `pending` are only touched under `condition`;
/// work runs outside it (so work may read the clock and schedule more).
public final class ManualScenarioClock: ScenarioClock, @unchecked Sendable {
    private struct Item {
        let deadline: UInt64
        let work: @Sendable () -> Void
    }

    private let condition = NSCondition()
    private var current: UInt64 = 0
    /// Ordered by deadline, equal ones in scheduling order.
    private var pending: [Item] = []

    public init() {}

    public var now: UInt64 {
        condition.withLock { current }
    }

    /// Work scheduled and not yet run.
    public var pendingCount: Int {
        condition.withLock { pending.count }
    }

    /// Keeps `work` until an advance reaches `milliseconds` from now (work scheduled with 0 runs
    /// at the next advance, even by zero); never runs it on the caller's stack.
    public func schedule(afterMilliseconds milliseconds: Int, _ work: @escaping @Sendable () -> Void) {
        condition.withLock {
            let deadline = current &+ UInt64(max(0, milliseconds)) &* 1_000_000
            // After every item due by then (equal deadlines keep the scheduling order).
            var low = 0, high = pending.count
            while low < high {
                let middle = (low + high) / 2
                if pending[middle].deadline <= deadline { low = middle + 1 } else { high = middle }
            }
            pending.insert(Item(deadline: deadline, work: work), at: low)
            condition.broadcast()
        }
    }

    /// Moves time `milliseconds` (at least 0) forward and runs, synchronously and in time order
    /// (equal times in scheduling order), every work item due by then — those scheduled by work
    /// run here too when they fall within the advance. While an item runs, `now` is its own
    /// deadline, so a delayed answer's latency is exactly its delay.
    public func advance(byMilliseconds milliseconds: Int) {
        precondition(milliseconds >= 0, "time does not go back")
        let target = condition.withLock { current &+ UInt64(milliseconds) &* 1_000_000 }
        while true {
            let next: Item? = condition.withLock {
                guard let first = pending.first, first.deadline <= target else {
                    current = max(current, target)
                    return nil
                }
                let item = pending.removeFirst()
                current = max(current, item.deadline)
                return item
            }
            guard let next else { return }
            next.work()
        }
    }

    /// Waits (real time, at most `timeout` seconds) until at least `count` work items are
    /// pending — e.g. until a request sent from another thread has reached the engine and its
    /// delayed answer is scheduled. Returns whether they are.
    @discardableResult
    public func waitForPending(_ count: Int, timeout: TimeInterval = 10) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        return condition.withLock {
            while pending.count < count {
                if !condition.wait(until: deadline) { return pending.count >= count }
            }
            return true
        }
    }
}
