import Foundation

/// Read-only connections to one database file that does not change while the pool exists, one per thread, each with its own cache of
/// prepared statements: a statement is compiled once per thread, never per request.
///
/// Server threads call `withConnection` on every request; the first call on a thread opens
/// the connection, later calls find it in thread-local storage.
public final class ConnectionPool: @unchecked Sendable {
    // @unchecked: the only shared mutable state is `opened`, guarded by `lock`; each
    // ThreadConnection is only ever touched by the thread that owns it.
    public let path: String
    private let setup: @Sendable (Database) throws -> Void
    /// Thread-local slot holding this pool's connection for the current thread (unretained:
    /// `opened` keeps every connection alive for the pool's lifetime).
    private var key = pthread_key_t()
    private let lock = NSLock()
    private var opened: [ThreadConnection] = []

    /// - Parameter setup: runs once on every new connection (pragmas, custom functions).
    public init(path: String, setup: @escaping @Sendable (Database) throws -> Void = { _ in }) {
        self.path = path
        self.setup = setup
        pthread_key_create(&key, nil)
    }

    deinit { pthread_key_delete(key) }

    /// Runs `body` with this thread's connection.
    public func withConnection<T>(_ body: (ThreadConnection) throws -> T) throws -> T {
        if let raw = pthread_getspecific(key) {
            return try body(Unmanaged<ThreadConnection>.fromOpaque(raw).takeUnretainedValue())
        }
        let database = try Database(path: path, mode: .immutable)
        try setup(database)
        let connection = ThreadConnection(database: database)
        lock.lock(); opened.append(connection); lock.unlock()
        pthread_setspecific(key, Unmanaged.passUnretained(connection).toOpaque())
        return try body(connection)
    }

    /// How many threads have opened a connection so far.
    public var connectionCount: Int {
        lock.lock(); defer { lock.unlock() }
        return opened.count
    }
}

/// A connection owned by one thread, with its prepared statements keyed by SQL text.
public final class ThreadConnection {
    public let database: Database
    private var statements: [String: Statement] = [:]

    init(database: Database) { self.database = database }

    /// The prepared statement for `sql`, compiled on first use on this thread.
    public func statement(_ sql: String) throws -> Statement {
        if let cached = statements[sql] { return cached }
        let prepared = try database.prepare(sql)
        statements[sql] = prepared
        return prepared
    }
}
