import Foundation
import SQLiteStore

/// Writes an MBTiles 1.3 file (`MBTilesSchema`) without ever leaving a half-written one at its path.
///
/// Everything goes to a temporary file beside the target (`<path>.partial-<uuid>`, same directory so
/// the final rename is atomic); `finish()` commits, closes and renames it into place, replacing any
/// file there. A writer that fails, is cancelled, or is dropped without `finish()` (the caller threw)
/// deletes its temporary file: the target path then holds no file, or the one it held before.
///
/// Tiles come in XYZ (`y` from the north, what clients request) and are stored with TMS rows. Inserts
/// are batched, `batchSize` tiles to a transaction, each insert a reuse of one prepared statement.
///
///     let writer = try MBTilesWriter(path: "/tmp/hcmc.mbtiles")
///     try writer.setMetadata(MBTilesMetadata(name: "HCMC", format: .pbf, vectorLayers: layers))
///     try writer.addTile(z: 14, x: 13048, y: 7698, data: gzippedMVT)
///     try writer.finish()
///
/// Not thread-safe: one writer, one thread at a time.
public final class MBTilesWriter {
    /// Where `finish()` puts the file.
    public let path: String
    /// The file being written until `finish()`.
    public let temporaryPath: String
    public let batchSize: Int
    /// Tiles added so far.
    public private(set) var tileCount = 0

    private enum State { case open, finished, closed }
    private var state = State.open
    private var database: Database?
    private var insertTile: Statement?
    private var upsertMetadata: Statement?
    private var pendingInBatch = 0
    /// A `BEGIN` is open (it may hold no tile yet: the first insert of a batch can be refused).
    private var inTransaction = false
    private var metadataNames: Set<String> = []
    private var format: String?

    /// Creates the temporary file and its tables. The directory of `path` must exist.
    public init(path: String, batchSize: Int = 1_000) throws(MBTilesError) {
        self.path = path
        self.batchSize = max(1, batchSize)
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .file("cannot write \(path): directory \(directory) does not exist")
        }
        temporaryPath = path + ".partial-" + UUID().uuidString
        do {
            let database = try Database(path: temporaryPath, mode: .create)
            self.database = database
            // The temporary file is thrown away on any failure, so no rollback journal on disk and
            // no fsync per commit; `finish()` syncs the file once before the rename.
            try database.execute("PRAGMA journal_mode = MEMORY; PRAGMA synchronous = OFF;")
            try database.execute("PRAGMA application_id = \(MBTilesSchema.applicationID);")
            try database.execute(MBTilesSchema.create)
            insertTile = try database.prepare(
                "INSERT INTO tiles (zoom_level, tile_column, tile_row, tile_data) VALUES (?, ?, ?, ?)")
            upsertMetadata = try database.prepare("INSERT OR REPLACE INTO metadata (name, value) VALUES (?, ?)")
        } catch {
            discard()
            throw Self.wrap(error)
        }
    }

    deinit {
        if state != .finished { discard() }
    }

    /// Sets one metadata row (a later value for the same name replaces the earlier one).
    public func setMetadata(_ name: String, _ value: String) throws(MBTilesError) {
        let statement = try openStatement(upsertMetadata)
        try guarded {
            try statement.bind(.text(name), .text(value)).run()
        }
        metadataNames.insert(name)
        if name == "format" { format = value }
    }

    /// Sets every row `metadata` holds (`MBTilesMetadata.entries`).
    public func setMetadata(_ metadata: MBTilesMetadata) throws(MBTilesError) {
        for entry in metadata.entries { try setMetadata(entry.name, entry.value) }
    }

    /// Adds the tile at XYZ (`z`, `x`, `y`); it is stored at TMS row `2^z − 1 − y`. `data` is stored
    /// as given (for `pbf`, already gzip-compressed). A tile added twice is refused (`duplicateTile`)
    /// and the writer stays usable.
    public func addTile(z: Int, x: Int, y: Int, data: [UInt8]) throws(MBTilesError) {
        guard MBTilesSchema.isValid(z: z, x: x, y: y) else { throw .invalidTile(z: z, x: x, y: y) }
        let statement = try openStatement(insertTile)
        guard let database else { throw .writerClosed }
        try guarded {
            if !inTransaction { try database.execute("BEGIN") }
        }
        inTransaction = true
        do {
            try statement.bind(.integer(Int64(z)), .integer(Int64(x)),
                               .integer(Int64(MBTilesSchema.tmsRow(z: z, y: y))), .blob(data)).run()
        } catch let error as SQLiteError where error.code & 0xFF == 19 {  // SQLITE_CONSTRAINT: the unique index
            statement.reset()
            throw .duplicateTile(z: z, x: x, y: y)
        } catch {
            discard()
            throw Self.wrap(error)
        }
        statement.reset()  // drops the bound blob now rather than at the next bind
        tileCount += 1
        pendingInBatch += 1
        if pendingInBatch >= batchSize { try commitBatch() }
    }

    /// Commits, checks the required metadata (`name`, `format`, and `json` when `format` is `pbf`),
    /// syncs and closes the file and renames it to `path`. Missing metadata throws `missingMetadata`
    /// and leaves the writer open (set it and call again); any other failure discards the file.
    public func finish() throws(MBTilesError) {
        guard state == .open else { throw .writerClosed }
        for name in ["name", "format"] where !metadataNames.contains(name) { throw .missingMetadata(name) }
        if format == "pbf", !metadataNames.contains("json") { throw .missingMetadata("json") }
        try commitBatch()
        insertTile = nil
        upsertMetadata = nil
        database = nil  // the last reference: closes the connection
        do {
            let handle = try FileHandle(forUpdating: URL(fileURLWithPath: temporaryPath))
            try handle.synchronize()
            try handle.close()
        } catch {
            discard()
            throw .file("cannot sync \(temporaryPath): \(error)")
        }
        guard rename(temporaryPath, path) == 0 else {
            let reason = String(cString: strerror(errno))
            discard()
            throw .file("cannot rename \(temporaryPath) to \(path): \(reason)")
        }
        state = .finished
    }

    /// Abandons the file: the temporary file is deleted and nothing appears at `path`.
    public func cancel() {
        if state != .finished { discard() }
    }

    /// Writes a whole file: `body` adds metadata and tiles, then the file is finished; if `body`
    /// throws, the file is discarded and the error rethrown.
    public static func write(to path: String, batchSize: Int = 1_000, _ body: (MBTilesWriter) throws -> Void) throws {
        let writer = try MBTilesWriter(path: path, batchSize: batchSize)
        do {
            try body(writer)
        } catch {
            writer.cancel()
            throw error
        }
        try writer.finish()
    }

    // MARK: - Internals

    private func commitBatch() throws(MBTilesError) {
        guard inTransaction else { return }
        guard let database else { throw .writerClosed }
        try guarded { try database.execute("COMMIT") }
        inTransaction = false
        pendingInBatch = 0
    }

    private func openStatement(_ statement: Statement?) throws(MBTilesError) -> Statement {
        guard state == .open, let statement else { throw .writerClosed }
        return statement
    }

    /// Runs `body`; on failure the writer is discarded and the error wrapped.
    private func guarded(_ body: () throws -> Void) throws(MBTilesError) {
        do { try body() } catch {
            discard()
            throw Self.wrap(error)
        }
    }

    private func discard() {
        state = .closed
        insertTile = nil
        upsertMetadata = nil
        database = nil
        for suffix in ["", "-journal", "-wal", "-shm"] { unlink(temporaryPath + suffix) }
    }

    static func wrap(_ error: any Error) -> MBTilesError {
        if let error = error as? MBTilesError { return error }
        if let error = error as? SQLiteError { return .sqlite(error) }
        return .file(String(describing: error))
    }
}
