import ArrayBlob
import Routing
import SQLiteStore

/// Reads the road graph a dataset carries with its contraction hierarchies, mapped from the
/// file's sections (`FileSections`) and read in place. A dataset without hierarchy sections
/// routes with the A* alone.
public enum RoadGraphStore {
    /// The dataset's road graph, or `nil` when it was built without OSM road input.
    public static func load(databasePath: String) throws -> RoadGraph? {
        let directory: [String: Range<Int>], region: ByteRegion?
        do {
            directory = try FileSections.directory(path: databasePath)
            region = try FileSections.map(path: databasePath, name: RoadGraph.sectionName, in: directory)
        } catch {
            throw DatasetError(error.isDamage ? .damaged : .database, file: databasePath, error.description)
        }
        if let region {
            let graph: RoadGraph
            do {
                graph = try RoadGraph(region: region)
            } catch {
                throw DatasetError(.database, file: databasePath, "the stored road graph is damaged: \(error)")
            }
            var hierarchies: [ContractionHierarchy] = []
            for vehicle in Vehicle.allCases {
                do {
                    guard let region = try FileSections.map(path: databasePath, name: ContractionHierarchy.sectionName(vehicle: vehicle.rawValue),
                                                            in: directory) else { continue }
                    hierarchies.append(try ContractionHierarchy(region: region))
                } catch {
                    throw DatasetError(.database, file: databasePath, "a stored contraction hierarchy is damaged: \(error)")
                }
            }
            return graph.attaching(hierarchies)
        }
        // (Builder version ≤ 13 kept the graph in a table, in a blob format since changed.)
        let db = try Database(path: databasePath, mode: .immutable)
        let table = try db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'road_graph'")
        guard try table.step() else { return nil }
        let row = try db.prepare("SELECT 1 FROM road_graph LIMIT 1")
        guard try row.step() else { return nil }
        throw DatasetError(.database, file: databasePath,
                           "its road graph was stored by an older vietmap-sim, in a format this one no longer reads: import the data again")
    }
}
