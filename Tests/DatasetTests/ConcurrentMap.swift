import Foundation

/// `body(0)…body(count - 1)` computed on every core (`DispatchQueue.concurrentPerform`), the results
/// in index order: for tests that repeat independent, CPU-bound work (each call must touch no
/// shared mutable state, and assert nothing: the caller asserts on the results, on its own thread).
func concurrentMap<T: Sendable>(_ count: Int, _ body: @Sendable (Int) -> T) -> [T] {
    let results = LockedSlots<T>(count: count)
    DispatchQueue.concurrentPerform(iterations: count) { index in results.set(index, body(index)) }
    return results.values
}

/// Result slots written by the threads of ``concurrentMap(_:_:)``.
private final class LockedSlots<T>: @unchecked Sendable {
    // @unchecked: every access holds the lock.
    private let lock = NSLock()
    private var slots: [T?]
    init(count: Int) { slots = Array(repeating: nil, count: count) }
    func set(_ index: Int, _ value: T) { lock.lock(); slots[index] = value; lock.unlock() }
    var values: [T] { lock.lock(); defer { lock.unlock() }; return slots.map { $0! } }
}
