import ArrayBlob
import Routing
import SQLiteStore

/// Reads the road graph a dataset carries with its contraction hierarchies: read in place from
/// the file's mapped sections (`FileSections`; O(1): the arrays and the graph's derived search
/// index are views of the file's pages, their values covered by the file's checksum), or, in a
/// dataset written before sections existed, copied from the tables `road_graph` and
/// `road_graph_ch` and fully checked (absent from still older datasets: those route with the A*
/// alone).
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
        let db = try Database(path: databasePath, mode: .immutable)
        let statement = try db.prepare("SELECT data FROM road_graph WHERE id = 1")
        guard try statement.step() else { return nil }
        let graph: RoadGraph
        do {
            graph = try RoadGraph(serialized: statement.blob(0))
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
