import ArrayBlob

/// Reads the map shapes a dataset carries (``MapShapes``, its `map_shapes` section), mapped and
/// read in place.
public enum MapShapeStore {
    /// The dataset's map shapes, or `nil` when it has none (built without OSM input, or by a
    /// vietmap-sim before map shapes were imported).
    public static func load(databasePath: String) throws -> MapShapes? {
        let region: ByteRegion?
        do {
            region = try FileSections.map(path: databasePath, name: MapShapes.sectionName)
        } catch {
            throw DatasetError(error.isDamage ? .damaged : .database, file: databasePath, error.description)
        }
        guard let region else { return nil }
        do {
            return try MapShapes(region: region)
        } catch {
            throw DatasetError(.database, file: databasePath, "its stored map shapes are damaged: \(error)")
        }
    }
}
