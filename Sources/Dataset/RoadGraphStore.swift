import Routing
import SQLiteStore

/// Reads the road graph a dataset carries (table `road_graph`).
public enum RoadGraphStore {
    /// The dataset's road graph, or `nil` when it was built without OSM road input.
    public static func load(databasePath: String) throws -> RoadGraph? {
        let db = try Database(path: databasePath, mode: .immutable)
        let statement = try db.prepare("SELECT data FROM road_graph WHERE id = 1")
        guard try statement.step() else { return nil }
        let bytes = statement.blob(0)
        do {
            return try RoadGraph(serialized: bytes)
        } catch {
            throw DatasetError(.database, file: databasePath, "the stored road graph is damaged: \(error)")
        }
    }
}
