import CSQLite

/// A value bound to a statement parameter.
public enum SQLiteValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

/// A compiled statement. Bind, step through rows, read columns, `reset()` to reuse.
public final class Statement {
    public let handle: OpaquePointer
    public let sql: String
    // Keeps the connection alive for as long as the statement exists.
    private let database: Database

    init(handle: OpaquePointer, database: Database, sql: String) {
        self.handle = handle
        self.database = database
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    /// Resets the statement and clears its bindings.
    public func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Resets, then binds `values` to parameters 1, 2, ….
    @discardableResult
    public func bind(_ values: SQLiteValue...) throws -> Statement {
        try bind(values)
    }

    @discardableResult
    public func bind(_ values: [SQLiteValue]) throws -> Statement {
        reset()
        for (offset, value) in values.enumerated() { try bind(value, at: Int32(offset + 1)) }
        return self
    }

    public func bind(_ value: SQLiteValue, at index: Int32) throws {
        let rc: Int32
        switch value {
        case .null: rc = sqlite3_bind_null(handle, index)
        case .integer(let v): rc = sqlite3_bind_int64(handle, index, v)
        case .real(let v): rc = sqlite3_bind_double(handle, index, v)
        case .text(let v): rc = sqlite3_bind_text(handle, index, v, -1, csqlite_transient())
        case .blob(let v):
            rc = v.withUnsafeBytes { sqlite3_bind_blob64(handle, index, $0.baseAddress, sqlite3_uint64($0.count), csqlite_transient()) }
        }
        guard rc == SQLITE_OK else { throw SQLiteError.from(sqlite3_db_handle(handle), code: rc, context: "binding parameter \(index) of `\(sql.prefix(200))`") }
    }

    /// Advances to the next row; `false` when the statement is done.
    public func step() throws -> Bool {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw SQLiteError.from(sqlite3_db_handle(handle), code: rc, context: "running `\(sql.prefix(200))`")
        }
    }

    /// Steps to completion, for statements that return no rows.
    public func run() throws {
        while try step() {}
    }

    public func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }
    public func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    public func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }
    public func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    /// The column as bytes (empty for NULL).
    public func blob(_ column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let bytes = sqlite3_column_blob(handle, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }

    /// Calls `body` with the column's bytes as SQLite holds them (no copy; valid only inside `body`).
    public func withBlob<R>(_ column: Int32, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let bytes = sqlite3_column_blob(handle, column) else { return try body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        return try body(UnsafeRawBufferPointer(start: bytes, count: count))
    }

    /// The column as text ("" for NULL).
    public func text(_ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }
}

@available(*, unavailable)
extension Statement: Sendable {}
