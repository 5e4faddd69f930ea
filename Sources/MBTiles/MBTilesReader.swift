import SQLiteStore

/// Reads an MBTiles file (`MBTilesSchema`): its metadata and its tiles by XYZ address (the TMS row
/// flip is done here, as `MBTilesWriter` does it on the way in).
///
/// Opens read-only with statements prepared once. Not thread-safe: one reader per thread.
public final class MBTilesReader {
    public let path: String
    private let database: Database
    private let selectTile: Statement
    private let selectMetadata: Statement

    /// Opens `path`; throws `notMBTiles` if it is not SQLite or lacks the `metadata`/`tiles` tables.
    public init(path: String) throws(MBTilesError) {
        self.path = path
        do {
            database = try Database(path: path, mode: .readOnly)
            let tables = try database.prepare(
                "SELECT count(*) FROM sqlite_master WHERE type IN ('table', 'view') AND name IN ('metadata', 'tiles')")
            guard try tables.step(), tables.int(0) == 2 else {
                throw MBTilesError.notMBTiles(path: path, reason: "no 'metadata' and 'tiles' tables")
            }
            selectTile = try database.prepare(
                "SELECT tile_data FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?")
            selectMetadata = try database.prepare("SELECT name, value FROM metadata")
        } catch let error as SQLiteError where [26, 11].contains(error.code & 0xFF) {  // SQLITE_NOTADB, SQLITE_CORRUPT
            throw .notMBTiles(path: path, reason: error.message)
        } catch {
            throw MBTilesWriter.wrap(error)
        }
    }

    /// Every metadata row, by name.
    public func metadata() throws(MBTilesError) -> [String: String] {
        var out: [String: String] = [:]
        do {
            selectMetadata.reset()
            defer { selectMetadata.reset() }
            while try selectMetadata.step() { out[selectMetadata.text(0)] = selectMetadata.text(1) }
        } catch {
            throw MBTilesWriter.wrap(error)
        }
        return out
    }

    /// The stored bytes of XYZ tile (`z`, `x`, `y`), or nil when the file has none there.
    public func tile(z: Int, x: Int, y: Int) throws(MBTilesError) -> [UInt8]? {
        guard MBTilesSchema.isValid(z: z, x: x, y: y) else { throw .invalidTile(z: z, x: x, y: y) }
        do {
            try selectTile.bind(.integer(Int64(z)), .integer(Int64(x)), .integer(Int64(MBTilesSchema.tmsRow(z: z, y: y))))
            defer { selectTile.reset() }
            return try selectTile.step() ? selectTile.blob(0) : nil
        } catch {
            throw MBTilesWriter.wrap(error)
        }
    }

    /// How many tiles the file holds.
    public func tileCount() throws(MBTilesError) -> Int {
        do {
            let count = try database.prepare("SELECT count(*) FROM tiles")
            return try count.step() ? count.int(0) : 0
        } catch {
            throw MBTilesWriter.wrap(error)
        }
    }
}
