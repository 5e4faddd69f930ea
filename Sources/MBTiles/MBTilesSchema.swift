/// The MBTiles 1.3 layout (mapbox/mbtiles-spec `1.3/spec.md`) that `MBTilesWriter` writes and
/// `MBTilesReader` reads: the two tables, their unique indexes, the application id, and the row flip
/// between XYZ (y down, what clients request) and TMS (y up, what `tile_row` stores).
public enum MBTilesSchema {
    /// `PRAGMA application_id` the spec asks for: "MPBX".
    public static let applicationID: Int32 = 0x4d50_4258

    /// The deepest zoom accepted (2^z must fit comfortably in the integers SQLite stores).
    public static let maxZoom = 30

    static let create = """
        CREATE TABLE metadata (name TEXT, value TEXT);
        CREATE UNIQUE INDEX name ON metadata (name);
        CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);
        CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row);
        """

    /// True when (z, x, y) names a tile of the grid.
    public static func isValid(z: Int, x: Int, y: Int) -> Bool {
        guard z >= 0, z <= maxZoom else { return false }
        let n = 1 << z
        return x >= 0 && x < n && y >= 0 && y < n
    }

    /// The TMS `tile_row` of XYZ row `y` at zoom `z`: `2^z − 1 − y`. The flip is its own inverse.
    public static func tmsRow(z: Int, y: Int) -> Int { (1 << z) - 1 - y }
}
