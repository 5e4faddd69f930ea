import Foundation

/// Time as the performance helpers see it (debounce delay, cache TTL, memo TTL). Injectable so
/// tests run instantly and deterministically with `VMManualClock`.
public protocol VMClock: Sendable {
    /// Monotonic time since an arbitrary origin.
    var now: Duration { get }
    /// Suspends for `duration`; throws `CancellationError` when the task is cancelled.
    func sleep(for duration: Duration) async throws
}

/// Real time (`ContinuousClock`, `Task.sleep`).
public struct VMSystemClock: VMClock {
    private let origin = ContinuousClock.now
    public init() {}
    public var now: Duration { ContinuousClock.now - origin }
    public func sleep(for duration: Duration) async throws { try await Task.sleep(for: duration) }
}

/// A clock that only moves when told to: `advance(by:)` wakes the sleepers that are due.
/// `waitForSleepers(_:)` lets a test wait until concurrent callers have reached their sleep.
public final class VMManualClock: VMClock, @unchecked Sendable {
    // @unchecked: all state is guarded by `lock`.
    private let lock = NSLock()
    private var current: Duration
    private var nextID: UInt64 = 0
    private var sleepers: [UInt64: (deadline: Duration, continuation: CheckedContinuation<Void, any Error>)] = [:]
    private var cancelledBeforeRegistration: Set<UInt64> = []

    public init(now: Duration = .zero) { current = now }

    public var now: Duration { lock.locked { current } }

    /// How many `sleep` calls are waiting.
    public var pendingSleepers: Int { lock.locked { sleepers.count } }

    public func sleep(for duration: Duration) async throws {
        try Task.checkCancellation()
        let id: UInt64 = lock.locked { nextID += 1; return nextID }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome: Result<Void, any Error>? = lock.locked {
                    if cancelledBeforeRegistration.remove(id) != nil { return .failure(CancellationError()) }
                    if duration <= .zero { return .success(()) }
                    sleepers[id] = (current + duration, continuation)
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let continuation: CheckedContinuation<Void, any Error>? = lock.locked {
                if let sleeper = sleepers.removeValue(forKey: id) { return sleeper.continuation }
                cancelledBeforeRegistration.insert(id)
                return nil
            }
            continuation?.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward and wakes every sleeper whose deadline has come, earliest first.
    public func advance(by duration: Duration) {
        let due: [CheckedContinuation<Void, any Error>] = lock.locked {
            current += duration
            let ready = sleepers.filter { $0.value.deadline <= current }.sorted { $0.value.deadline < $1.value.deadline }
            for (id, _) in ready { sleepers.removeValue(forKey: id) }
            return ready.map(\.value.continuation)
        }
        for continuation in due { continuation.resume() }
    }

    /// Returns once at least `count` sleepers are waiting (polls; for tests).
    public func waitForSleepers(_ count: Int, timeout: Duration = .seconds(5)) async {
        let start = ContinuousClock.now
        while pendingSleepers < count, ContinuousClock.now - start < timeout {
            try? await Task.sleep(for: .milliseconds(1))
        }
    }
}

extension NSLock {
    /// `withLock` without its macOS 14 availability.
    func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}
