import Foundation

/// What one `DatasetBuilder.build` did: inputs, counts, how old-format codes were obtained,
/// notes (skipped inputs, fallbacks), time and size.
public struct DatasetBuildReport: Sendable, CustomStringConvertible {
    /// One input file and what was read from it.
    public struct Input: Sendable {
        public let url: URL
        public let kind: InputKind
        /// Data rows / units / POI nodes read (0 for skipped inputs).
        public let records: Int
    }

    /// Administrative units per scheme and level.
    public struct AdminCounts: Sendable, Equatable {
        public var newProvinces = 0, newWards = 0
        public var oldProvinces = 0, oldDistricts = 0, oldWards = 0

        public init(newProvinces: Int = 0, newWards: Int = 0, oldProvinces: Int = 0, oldDistricts: Int = 0, oldWards: Int = 0) {
            self.newProvinces = newProvinces
            self.newWards = newWards
            self.oldProvinces = oldProvinces
            self.oldDistricts = oldDistricts
            self.oldWards = oldWards
        }
    }

    public var output: URL
    public var fingerprint: String
    public var inputs: [Input] = []
    /// `place` rows per kind (admin = both schemes, all levels).
    public var placeCounts: [DatasetSchema.PlaceKind: Int] = [:]
    public var adminCounts = AdminCounts()
    /// Ordinary places (POIs, streets, addresses) by where their old ward came from.
    public var oldCodeSources: [OldCodeSource: Int] = [:]
    /// Ordinary places whose old district came from the input while the ward was derived.
    public var oldDistrictFromData = 0
    public var notes: [String] = []
    /// What the import cleaning did, by rule (docs/search.md): places repaired or dropped.
    public var cleaning: [String: Int] = [:]
    /// Rules of ``cleaning`` that drop the place (the others repair a value).
    public static let droppingRules: Set<String> = ["emptied-name", "advertising", "stacked-duplicates", "foreign-script-name-dropped"]
    /// Places dropped by the cleaning.
    public var droppedByCleaning: Int { cleaning.filter { Self.droppingRules.contains($0.key) }.values.reduce(0, +) }
    /// Road graph size (graph nodes = junctions and way ends; 0 without OSM road input).
    public var roadNodes = 0
    public var roadEdges = 0
    /// Map shapes stored (buildings, water, land use, waterways, railways; ``MapShapes``) by kind,
    /// and the bytes of their section.
    public var mapShapeCounts: [MapShapeKind: Int] = [:]
    public var mapShapeBytes = 0
    /// Wall-clock seconds for the whole build.
    public var seconds: Double = 0
    /// Size of the written database file.
    public var bytes: Int64 = 0

    public var oldCodesFromData: Int { oldCodeSources[.data] ?? 0 }
    public var oldCodesDerived: Int {
        oldCodeSources.filter { $0.key != .data && $0.key != .unresolved }.values.reduce(0, +)
    }
    public var totalPlaces: Int { placeCounts.values.reduce(0, +) }

    public var description: String {
        var lines: [String] = []
        lines.append("dataset \(output.path) (\(String(format: "%.1f", Double(bytes) / 1_048_576)) MB, \(String(format: "%.2f", seconds)) s, fingerprint \(fingerprint))")
        for input in inputs {
            lines.append("  \(input.url.lastPathComponent): \(input.kind), \(input.records) records")
        }
        let kinds = DatasetSchema.PlaceKind.allCases.map { "\($0) \(placeCounts[$0] ?? 0)" }.joined(separator: ", ")
        lines.append("places: \(totalPlaces) (\(kinds))")
        let a = adminCounts
        lines.append("admin units: new \(a.newProvinces) provinces / \(a.newWards) wards; old \(a.oldProvinces) provinces / \(a.oldDistricts) districts / \(a.oldWards) wards")
        let derived = OldCodeSource.allCases.filter { $0 != .data }.map { "\($0.rawValue) \(oldCodeSources[$0] ?? 0)" }.joined(separator: ", ")
        lines.append("old-format codes: \(oldCodesFromData) from data, \(oldCodesDerived) derived (\(derived); old district from data for \(oldDistrictFromData))")
        lines.append(roadNodes > 0 ? "road graph: \(roadNodes) nodes, \(roadEdges) edges" : "road graph: none (no OSM road input)")
        if !mapShapeCounts.isEmpty {
            let counts = MapShapeKind.allCases.compactMap { kind in mapShapeCounts[kind].map { "\(kind) \($0)" } }.joined(separator: ", ")
            lines.append("map shapes: \(mapShapeCounts.values.reduce(0, +)) (\(counts)), \(mapShapeBytes) bytes")
        }
        for note in notes { lines.append("note: \(note)") }
        return lines.joined(separator: "\n")
    }
}
