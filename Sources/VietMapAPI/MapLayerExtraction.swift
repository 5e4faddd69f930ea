import ArrayBlob
import MapTiles
import Routing
import Search

/// The dataset as map features in world coordinates, in VietMap's source-layer schema (`VietMapTileSchema`):
/// roads, road labels and ferries from the road graph, POIs from the places, label points from the admin units.
/// Pure functions of the dataset: the tile endpoints cut these once per dataset, then per tile.
public enum MapLayerExtraction {
    /// Every feature of every populated layer: `roads(_:)` (when there is a graph), `points(_:)`,
    /// `adminPoints(_:)`.
    public static func features(graph: RoadGraph?, search: PlaceSearch) -> [MapFeature] {
        var features = graph.map(roads) ?? []
        features += points(search)
        features += adminPoints(search.admin)
        return features
    }

    /// `vietmap_network`: one line per road edge, graph node to graph node (junctions are line ends), with
    /// `roadclass` (1…9), `structure` (0 surface, 1 bridge, 2 tunnel), `oneway` (1: only in the direction of the
    /// line — a road open only adj → base is written reversed), `undercons` (0), `prefix`, `name` (the latter two
    /// only for named roads); its feature id is the edge index. `vietmap_network_name`: the named lines again
    /// with `name`, `prefix`, `roadclass` (`routeno` for numbered routes), consecutive edges of one name and class
    /// merged into one line where exactly two of them meet. `vietmap_ferry`: ferry edges with `name`.
    ///
    /// One way of a road: cars' access, or motorcycles' where cars have none; open to neither (foot and bike
    /// ways) counts as two-way.
    public static func roads(_ graph: RoadGraph) -> [MapFeature] {
        let storage = graph.storage
        let edgeCount = graph.edgeCount
        // Names are shared by many edges: split each once.
        var parts = [StreetNameParts?](repeating: nil, count: storage.nameCount)
        func nameParts(_ index: Int32) -> StreetNameParts? {
            guard !storage.nameIsEmpty(index) else { return nil }
            if let known = parts[Int(index)] { return known }
            let split = StreetNameParts(roadName: storage.name(at: Int(index)))
            parts[Int(index)] = split
            return split
        }
        var roads: [MapFeature] = []
        roads.reserveCapacity(edgeCount)
        var ferries: [MapFeature] = []
        // Named edges per (name, roadclass), for the label layer.
        var labelled: [LabelKey: [Int32]] = [:]
        var edgeClass = [UInt8](repeating: 0, count: edgeCount)
        for edge in 0..<edgeCount {
            let nameIndex = storage.edgeNameIndex[edge]
            let split = nameParts(nameIndex)
            guard let osmClass = RoadClass(rawValue: storage.edgeRoadClass[edge]) else { continue }
            var line = worldLine(graph, edge: edge)
            guard line.count >= 2 else { continue }
            guard let roadClass = VietMapTileSchema.roadClass(osmClass, prefix: split?.prefix) else {
                var properties: [MapProperty] = []
                if let split { properties.append(MapProperty("name", .string(split.label))) }
                ferries.append(MapFeature(id: UInt64(edge), layer: VietMapTileSchema.ferry, minZoom: 9, geometry: .lines([line]),
                                          properties: properties))
                continue
            }
            edgeClass[edge] = UInt8(roadClass)
            let structure = VietMapTileSchema.structure(flags: storage.edgeFlags[edge], prefix: split?.prefix)
            let (forward, backward) = directions(graph, edge: edge)
            if backward && !forward { line.reverse() }
            var properties: [MapProperty] = [
                MapProperty("roadclass", .int(Int64(roadClass))),
                MapProperty("structure", .int(Int64(structure.rawValue))),
                MapProperty("oneway", .int(forward != backward ? 1 : 0)),
                MapProperty("undercons", .int(0)),
            ]
            if let split {
                properties.append(MapProperty("prefix", .string(split.prefix)))
                properties.append(MapProperty("name", .string(split.name)))
                labelled[LabelKey(name: nameIndex, roadClass: UInt8(roadClass)), default: []].append(Int32(edge))
            }
            roads.append(MapFeature(id: UInt64(edge), layer: VietMapTileSchema.network,
                                    minZoom: VietMapTileSchema.roadMinZoom(roadClass: roadClass, structure: structure.rawValue),
                                    geometry: .lines([line]), properties: properties))
        }
        var labels: [MapFeature] = []
        labels.reserveCapacity(labelled.count * 2)
        for (key, edges) in labelled.sorted(by: { $0.value[0] < $1.value[0] }) {
            guard let split = nameParts(key.name) else { continue }
            var properties: [MapProperty] = [
                MapProperty("name", .string(split.name)),
                MapProperty("prefix", .string(split.prefix)),
                MapProperty("roadclass", .int(Int64(key.roadClass))),
            ]
            if let route = split.routeNumber { properties.append(MapProperty("routeno", .string(route))) }
            for chain in chains(graph, edges: edges) {
                labels.append(MapFeature(id: UInt64(chain.firstEdge), layer: VietMapTileSchema.networkName,
                                         minZoom: VietMapTileSchema.roadNameMinZoom(roadClass: Int(key.roadClass)),
                                         geometry: .lines([chain.points]), properties: properties))
            }
        }
        return roads + labels + ferries
    }

    /// `vietmap_point`: every POI with `class` (its icon), `vm_class`, `shortname` (the label), `name` and
    /// `ref_id` (the `auto:` id autocomplete hands out in the new address format); its feature id is the place id.
    public static func points(_ search: PlaceSearch) -> [MapFeature] {
        var features: [MapFeature] = []
        search.forEachPlace(kind: .poi) { place in
            guard !place.name.isEmpty else { return }
            let pointClass = VietMapTileSchema.pointClass(categories: place.categories, name: place.name)
            let rank = VietMapTileSchema.pointRank(importance: place.importance)
            let point = WorldPoint(latitude: place.coordinate.lat, longitude: place.coordinate.lng)
            features.append(MapFeature(
                id: UInt64(bitPattern: place.id), layer: VietMapTileSchema.point,
                minZoom: VietMapTileSchema.pointMinZoom(class: pointClass, rank: rank), geometry: .points([point]),
                properties: [
                    MapProperty("class", .string(pointClass)),
                    MapProperty("vm_class", .int(Int64(rank))),
                    MapProperty("shortname", .string(place.name)),
                    MapProperty("name", .string(place.name)),
                    MapProperty("ref_id", .string(RefID(key: place.key, format: .new).encoded)),
                ]))
        }
        return features
    }

    /// `vietmap_admin_point`: the provinces and wards of the 2025 scheme at their centroids, with `class`
    /// (`VietMapTileSchema.adminClass`), `name`, `prefix` and `abbrprefix`; feature id the unit's code.
    public static func adminPoints(_ admin: AdminDirectory) -> [MapFeature] {
        var features: [MapFeature] = []
        for unit in admin.units where unit.scheme == .new {
            guard unit.centroid.lat != 0 || unit.centroid.lng != 0, !unit.name.isEmpty else { continue }
            let adminClass = VietMapTileSchema.adminClass(level: unit.level, prefix: unit.prefix)
            features.append(MapFeature(
                id: UInt64(max(0, unit.code)), layer: VietMapTileSchema.adminPoint,
                minZoom: VietMapTileSchema.adminMinZoom(class: adminClass, name: unit.name),
                geometry: .points([WorldPoint(latitude: unit.centroid.lat, longitude: unit.centroid.lng)]),
                properties: [
                    MapProperty("class", .int(Int64(adminClass))),
                    MapProperty("name", .string(unit.name)),
                    MapProperty("prefix", .string(unit.prefix)),
                    MapProperty("abbrprefix", .string(VietMapTileSchema.abbreviatedAdminPrefix(unit.prefix))),
                ]))
        }
        return features
    }

    // MARK: Helpers

    private struct LabelKey: Hashable {
        let name: Int32
        let roadClass: UInt8
    }

    /// Whether the road may be driven base → adj and adj → base (cars, else motorcycles, else both ways).
    static func directions(_ graph: RoadGraph, edge: Int) -> (forward: Bool, backward: Bool) {
        for vehicle in [Vehicle.car, .motorcycle] {
            let forward = graph.isAccessible(edge: edge, forward: true, vehicle: vehicle)
            let backward = graph.isAccessible(edge: edge, forward: false, vehicle: vehicle)
            if forward || backward { return (forward, backward) }
        }
        return (true, true)
    }

    /// The edge's geometry base → adj in world coordinates, repeated points dropped.
    static func worldLine(_ graph: RoadGraph, edge: Int) -> [WorldPoint] {
        let storage = graph.storage
        let start = Int(storage.edgeGeometryStart[edge]), end = Int(storage.edgeGeometryStart[edge + 1])
        var line: [WorldPoint] = []
        line.reserveCapacity(end - start + 2)
        func add(_ latE7: Int32, _ lonE7: Int32) {
            let point = WorldPoint(latitude: Double(latE7) / 1e7, longitude: Double(lonE7) / 1e7)
            if line.last != point { line.append(point) }
        }
        let base = Int(storage.edgeBaseNode[edge]), adj = Int(storage.edgeAdjNode[edge])
        add(storage.nodeLatE7[base], storage.nodeLonE7[base])
        for i in start..<end { add(storage.pillarLatE7[i], storage.pillarLonE7[i]) }
        add(storage.nodeLatE7[adj], storage.nodeLonE7[adj])
        return line
    }

    /// The edges of one name and class joined into lines: at a node where exactly two of them meet the two
    /// continue one line; elsewhere (junctions of three, ends) lines end. Cycles become one closed line.
    static func chains(_ graph: RoadGraph, edges: [Int32]) -> [(firstEdge: Int, points: [WorldPoint])] {
        let storage = graph.storage
        if edges.count == 1 {
            return [(Int(edges[0]), worldLine(graph, edge: Int(edges[0])))]
        }
        var incident: [Int32: [Int32]] = [:]
        for edge in edges {
            incident[storage.edgeBaseNode[Int(edge)], default: []].append(edge)
            incident[storage.edgeAdjNode[Int(edge)], default: []].append(edge)
        }
        var used = Set<Int32>()
        var result: [(firstEdge: Int, points: [WorldPoint])] = []
        /// Walks from `node` along `edge` and on through nodes of degree 2, appending to `points`.
        func walk(from node: Int32, along first: Int32, into points: inout [WorldPoint]) {
            var node = node, edge = first
            while true {
                used.insert(edge)
                let base = storage.edgeBaseNode[Int(edge)]
                var line = worldLine(graph, edge: Int(edge))
                var next = storage.edgeAdjNode[Int(edge)]
                if base != node { line.reverse(); next = base }
                points += points.isEmpty ? line[...] : line.dropFirst()
                node = next
                guard let around = incident[node], around.count == 2,
                      let following = around.first(where: { $0 != edge }), !used.contains(following) else { return }
                edge = following
            }
        }
        // Start at line ends (nodes not of degree 2) first, then whatever is left is cycles.
        for edge in edges where !used.contains(edge) {
            for node in [storage.edgeBaseNode[Int(edge)], storage.edgeAdjNode[Int(edge)]] where incident[node]?.count != 2 {
                guard !used.contains(edge) else { break }
                var points: [WorldPoint] = []
                walk(from: node, along: edge, into: &points)
                result.append((Int(edge), points))
            }
        }
        for edge in edges where !used.contains(edge) {
            var points: [WorldPoint] = []
            walk(from: storage.edgeBaseNode[Int(edge)], along: edge, into: &points)
            result.append((Int(edge), points))
        }
        return result
    }
}
