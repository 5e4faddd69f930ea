import Foundation

/// A thread-safe count, for "this was never asked".
final class Counter: @unchecked Sendable {
    // @unchecked: `count` only under `lock`.
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
