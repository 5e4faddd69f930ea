import Foundation
import SQLiteStore

/// The `meta` table of a built dataset.
public struct DatasetInfo: Sendable {
    /// Every `meta` row.
    public let values: [String: String]

    public var schemaVersion: Int? { values[DatasetSchema.MetaKey.schemaVersion].flatMap { Int($0) } }
    public var sourceFingerprint: String? { values[DatasetSchema.MetaKey.sourceFingerprint] }
    public var builtAt: String? { values[DatasetSchema.MetaKey.builtAt] }

    /// The count stored under `key` (see ``DatasetSchema/MetaKey``).
    public func count(_ key: String) -> Int? { values[key].flatMap { Int($0) } }

    /// Reads `meta` from an open database.
    public static func read(from db: Database) throws -> DatasetInfo {
        let statement = try db.prepare("SELECT key, value FROM meta")
        var values: [String: String] = [:]
        while try statement.step() { values[statement.text(0)] = statement.text(1) }
        return DatasetInfo(values: values)
    }

    /// Opens `path` read-only and reads `meta`.
    /// - Throws: ``DatasetError`` (`.database`) if the file is missing, not SQLite, or has no `meta`.
    public static func read(path: String) throws -> DatasetInfo {
        guard FileManager.default.fileExists(atPath: path) else {
            throw DatasetError(.missingInput, file: path, "no such file")
        }
        do {
            let db = try Database(path: path, mode: .readOnly)
            return try read(from: db)
        } catch let error as SQLiteError {
            throw DatasetError(.database, file: path, "not a vietmap-sim dataset (\(error.message))")
        }
    }

    /// Runs `PRAGMA quick_check` on `path`: `nil` when SQLite finds the file consistent, else its
    /// first complaint. Throws when the file cannot be opened or read at all.
    static func quickCheck(path: String) throws -> String? {
        let db = try Database(path: path, mode: .readOnly)
        let statement = try db.prepare("PRAGMA quick_check(1)")
        guard try statement.step() else { return "no result" }
        let first = statement.text(0)
        return first == "ok" ? nil : first
    }

    /// Throws unless the dataset at `path` has this build's schema version.
    public static func validate(path: String) throws -> DatasetInfo {
        let info = try read(path: path)
        guard info.schemaVersion == DatasetSchema.schemaVersion else {
            throw DatasetError(.database, file: path,
                               "dataset schema version \(info.schemaVersion.map(String.init) ?? "unknown") is not \(DatasetSchema.schemaVersion); rebuild it with `vietmap-sim import`")
        }
        return info
    }
}
