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
/// `@unchecked Sendable`: `current`, `pending` and `nextOrder` are only touched under `condition`;
/// work runs outside it (so work may read the clock and schedule more).
public final class ManualScenarioClock: ScenarioClock, @unchecked Sendable {
    private struct Item {
        let deadline: UInt64
        /// Breaks ties between equal deadlines: the order of scheduling.
        let order: UInt64
        let work: @Sendable () -> Void
    }

    private let condition = NSCondition()
    private var current: UInt64 = 0
    private var pending: [Item] = []
    private var nextOrder: UInt64 = 0

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
            pending.append(Item(deadline: deadline, order: nextOrder, work: work))
            nextOrder &+= 1
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
                var first: Int?
                for index in pending.indices where pending[index].deadline <= target {
                    if let best = first,
                       (pending[best].deadline, pending[best].order) <= (pending[index].deadline, pending[index].order) { continue }
                    first = index
                }
                guard let first else {
                    current = max(current, target)
                    return nil
                }
                let item = pending.remove(at: first)
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
