import Foundation
import SQLiteStore

/// What the FTS candidate statements returned, shared by all request threads: the row ids of a
/// statement (by its SQL, MATCH expression and bound values) and the records of recent rows.
///
/// A user typing "197 tran phu" repeats sub-queries of the previous keystrokes (the readings
/// without one word, the same word completed), and other users type the same prefixes; the
/// dataset is read-only, so a statement's rows never change. Each part is bounded and
/// approximately least-recently-used with two generations (when the young one is full it
/// becomes the old one, whose entries are dropped). Ids are a few hundred bytes a statement,
/// records a few hundred bytes a place.
final class CandidateCache: @unchecked Sendable {
    // @unchecked: every dictionary is only touched under `lock`.

    /// Statements whose row ids are kept (young generation; up to twice as many in all).
    static let statementsPerGeneration = 512
    /// Places whose records are kept (young generation; up to twice as many in all).
    static let recordsPerGeneration = 512

    private let lock = NSLock()
    private var youngRows: [String: [Int64]] = [:]
    private var oldRows: [String: [Int64]] = [:]
    private var youngRecords: [Int64: PlaceRecord] = [:]
    private var oldRecords: [Int64: PlaceRecord] = [:]

    /// The cache key of a statement run: SQL, expression and bound values.
    static func key(sql: String, expression: String, values: [SQLiteValue]) -> String {
        var key = sql
        key += "\u{1}"
        key += expression
        for value in values {
            switch value {
            case .null: key += "\u{1}n"
            case .integer(let v): key += "\u{1}i\(v)"
            case .real(let v): key += "\u{1}r\(v.bitPattern)"
            case .text(let v): key += "\u{1}t" + v
            case .blob(let v): key += "\u{1}b" + v.map { String($0) }.joined(separator: ",")
            }
        }
        return key
    }

    func rows(for key: String) -> [Int64]? {
        lock.withLock {
            if let rows = youngRows[key] { return rows }
            guard let rows = oldRows.removeValue(forKey: key) else { return nil }
            insertRows(rows, key)
            return rows
        }
    }

    func store(rows: [Int64], for key: String) {
        lock.withLock { insertRows(rows, key) }
    }

    func record(_ id: Int64) -> PlaceRecord? {
        lock.withLock {
            if let record = youngRecords[id] { return record }
            guard let record = oldRecords.removeValue(forKey: id) else { return nil }
            insertRecord(record)
            return record
        }
    }

    func store(_ record: PlaceRecord) {
        lock.withLock {
            guard youngRecords[record.id] == nil else { return }
            insertRecord(record)
        }
    }

    /// Call under `lock`.
    private func insertRows(_ rows: [Int64], _ key: String) {
        youngRows[key] = rows
        if youngRows.count >= Self.statementsPerGeneration {
            oldRows = youngRows
            youngRows = [:]
        }
    }

    /// Call under `lock`.
    private func insertRecord(_ record: PlaceRecord) {
        youngRecords[record.id] = record
        if youngRecords.count >= Self.recordsPerGeneration {
            oldRecords = youngRecords
            youngRecords = [:]
        }
    }
}
