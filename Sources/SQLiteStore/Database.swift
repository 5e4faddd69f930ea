import CSQLite
import Foundation

/// One SQLite connection. Not thread-safe: use it from one thread at a time
/// (open one connection per thread).
public final class Database {
    /// How to open the file.
    public enum Mode: Sendable {
        case readOnly, readWrite, create
        /// Read-only on a file nobody changes while it is open (a finished dataset): SQLite skips
        /// file locking and change detection, two `fcntl` calls per query.
        case immutable
    }

    /// The raw handle, for the rare call this wrapper does not cover.
    public let handle: OpaquePointer
    public let path: String

    public init(path: String, mode: Mode = .readOnly) throws {
        var flags: Int32 = SQLITE_OPEN_NOMUTEX
        var target = path
        switch mode {
        case .immutable:
            flags |= SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
            target = "file:" + Self.uriPath(path) + "?immutable=1"
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        case .readWrite: flags |= SQLITE_OPEN_READWRITE
        case .create: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        }
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(target, &db, flags, nil)
        guard rc == SQLITE_OK, let opened = db else {
            let error = SQLiteError.from(db, code: rc, context: "opening \(path)")
            // sqlite3_open_v2 may hand back a handle even on failure; it must still be closed.
            sqlite3_close_v2(db)
            throw error
        }
        handle = opened
        self.path = path
    }

    deinit { sqlite3_close_v2(handle) }

    /// `path` escaped for a `file:` URI (RFC 3986: '%', '?' and '#' must not appear raw).
    static func uriPath(_ path: String) -> String {
        var out = ""
        for scalar in path.unicodeScalars {
            switch scalar {
            case "%": out += "%25"
            case "?": out += "%3F"
            case "#": out += "%23"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Runs one or more statements that return no rows.
    public func execute(_ sql: String) throws {
        var errorMessage: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        if rc != SQLITE_OK {
            let message = errorMessage.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(rc))
            sqlite3_free(errorMessage)
            throw SQLiteError(code: rc, message: message, context: "executing `\(sql.prefix(200))`")
        }
    }

    /// Compiles one statement; keep it and `reset()` it to run it again.
    public func prepare(_ sql: String) throws -> Statement {
        var stmt: OpaquePointer?
        let rc = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &stmt, nil)
        guard rc == SQLITE_OK, let compiled = stmt else {
            throw SQLiteError.from(handle, code: rc, context: "preparing `\(sql.prefix(200))`")
        }
        return Statement(handle: compiled, database: self, sql: sql)
    }

    /// Runs `body` inside BEGIN/COMMIT; rolls back if it throws.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// The rowid of the last successful INSERT on this connection.
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Rows changed by the last statement.
    public var changes: Int { Int(sqlite3_changes(handle)) }
}

// A connection must only ever be used by one thread at a time.
@available(*, unavailable)
extension Database: Sendable {}
