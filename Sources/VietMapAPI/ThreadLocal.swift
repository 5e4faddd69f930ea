import Foundation

/// One value per thread, created on first use on that thread and kept for the owner's lifetime
/// (server threads are a fixed pool). Used for per-thread search workspaces.
final class ThreadLocal<Value: AnyObject>: @unchecked Sendable {
    // @unchecked: `values` is only touched under `lock`; each value is used by one thread only.
    private var key = pthread_key_t()
    private let make: @Sendable () -> Value
    private let lock = NSLock()
    private var values: [Value] = []

    init(_ make: @escaping @Sendable () -> Value) {
        self.make = make
        pthread_key_create(&key, nil)
    }

    deinit { pthread_key_delete(key) }

    /// This thread's value.
    var value: Value {
        if let raw = pthread_getspecific(key) { return Unmanaged<Value>.fromOpaque(raw).takeUnretainedValue() }
        let created = make()
        lock.lock(); values.append(created); lock.unlock()
        pthread_setspecific(key, Unmanaged.passUnretained(created).toOpaque())
        return created
    }
}
