import Routing
import SQLiteStore

/// Reads the road graph a dataset carries (table `road_graph`) with its contraction hierarchies (table
/// `road_graph_ch`, absent from datasets written before it existed: those route with the A* alone).
public enum RoadGraphStore {
    /// The dataset's road graph, or `nil` when it was built without OSM road input.
    public static func load(databasePath: String) throws -> RoadGraph? {
        let db = try Database(path: databasePath, mode: .immutable)
        let statement = try db.prepare("SELECT data FROM road_graph WHERE id = 1")
        guard try statement.step() else { return nil }
        let bytes = statement.blob(0)
        let graph: RoadGraph
        do {
            graph = try RoadGraph(serialized: bytes)
        } catch {
            throw DatasetError(.database, file: databasePath, "the stored road graph is damaged: \(error)")
        }
        let table = try db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'road_graph_ch'")
        guard try table.step() else { return graph }
        var hierarchies: [ContractionHierarchy] = []
        let rows = try db.prepare("SELECT data FROM road_graph_ch ORDER BY vehicle")
        while try rows.step() {
            do {
                hierarchies.append(try ContractionHierarchy(serialized: rows.blob(0)))
            } catch {
                throw DatasetError(.database, file: databasePath, "a stored contraction hierarchy is damaged: \(error)")
            }
        }
        return graph.attaching(hierarchies)
    }
}
