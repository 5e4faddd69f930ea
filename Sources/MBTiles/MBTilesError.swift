import SQLiteStore

/// What went wrong writing or reading an MBTiles file; SQLite's own failures are wrapped, never lost.
public enum MBTilesError: Error, Sendable, CustomStringConvertible {
    /// `z` outside 0…`MBTilesSchema.maxZoom`, or `x`/`y` outside 0..<2^z.
    case invalidTile(z: Int, x: Int, y: Int)
    /// The same tile was added twice (the `tiles` index is unique).
    case duplicateTile(z: Int, x: Int, y: Int)
    /// `finish()` found a metadata entry the spec requires missing (`name`, `format`; `json` for `pbf`).
    case missingMetadata(String)
    /// The writer already finished, was cancelled, or failed earlier.
    case writerClosed
    /// The file is not SQLite, or lacks the `metadata`/`tiles` tables.
    case notMBTiles(path: String, reason: String)
    /// A file operation (creating the temporary file, renaming it into place) failed.
    case file(String)
    case sqlite(SQLiteError)

    public var description: String {
        switch self {
        case .invalidTile(let z, let x, let y): return "no tile \(z)/\(x)/\(y) exists"
        case .duplicateTile(let z, let x, let y): return "tile \(z)/\(x)/\(y) was added twice"
        case .missingMetadata(let name): return "MBTiles metadata '\(name)' is required but was not set"
        case .writerClosed: return "the MBTiles writer is already finished, cancelled or failed"
        case .notMBTiles(let path, let reason): return "\(path) is not an MBTiles file: \(reason)"
        case .file(let message): return message
        case .sqlite(let error): return error.description
        }
    }
}
