import Foundation

/// A value guarded by an `NSLock`: the small shared state of the engine (the active
/// scenario, the library snapshot, the state registry).
///
/// `@unchecked Sendable`: every access to `value` goes through `withLock`.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// A copy of the current value.
    var current: Value {
        withLock { $0 }
    }
}
