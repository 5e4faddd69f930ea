import CSQLite

/// An SQLite failure: the result code, SQLite's own message and what we were doing.
public struct SQLiteError: Error, CustomStringConvertible, Sendable {
    public let code: Int32
    public let message: String
    public let context: String

    public init(code: Int32, message: String, context: String) {
        self.code = code
        self.message = message
        self.context = context
    }

    public var description: String { "SQLite error \(code): \(message) - while \(context)" }

    static func from(_ connection: OpaquePointer?, code: Int32, context: String) -> SQLiteError {
        let message = connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            ?? String(cString: sqlite3_errstr(code))
        return SQLiteError(code: code, message: message, context: context)
    }
}
