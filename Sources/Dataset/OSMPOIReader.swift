import Foundation
import OSMReader
import TextFolding

/// Named places of an OpenStreetMap file (XML or PBF), read with `OSMReader`.
///
/// - A node is a POI when it has a `name` and one of ``CategoryCodes/poiKeys`` (amenity, shop,
///   tourism, …); its category is the first such key in that order, as `key=value`.
/// - A way or multipolygon relation with a `name` and such a key — or `natural=water` (lakes) —
///   is a named area (Hồ Hoàn Kiếm, a park, a square); its representative point is the mean of
///   its (outer) vertices.
/// - Named highways with `alt_name`/`old_name`/… give street aliases ("Lê Văn Sĩ" for "Lê Văn Sỹ").
enum OSMPOIReader {
    struct POINode {
        /// "node", "way" or "relation".
        var type = "node"
        let id: Int64
        let lat: Double
        let lng: Double
        let tags: [String: String]
        let category: String
    }

    /// A named highway way: its name, class and middle vertex.
    struct StreetWay {
        let name: String
        let highway: String
        let lat: Double
        let lng: Double
        let aliases: [String]
    }

    /// A node or building with `addr:housenumber` and `addr:street`.
    struct AddressPoint {
        let key: String
        let houseNumber: String
        let street: String
        let lat: Double
        let lng: Double
    }

    /// What one file gave.
    struct Result {
        var pois: [POINode] = []
        var streetWays: [StreetWay] = []
        var addresses: [AddressPoint] = []
        /// Folded street name → its other names.
        var streetAliases: [String: [String]] = [:]
    }

    /// Tags holding other names of a place, in the order they are indexed.
    static let aliasTags = ["name:vi", "name:en", "alt_name", "alt_name:vi", "alt_name:en", "old_name", "old_name:vi",
                            "official_name", "short_name", "loc_name"]

    /// The other names a place's tags give (`;`-separated values split).
    static func aliases(_ tags: [String: String]) -> [String] {
        aliasTags.flatMap { (tags[$0] ?? "").split(separator: ";").map { TextFolding.clean(String($0)) } }.filter { !$0.isEmpty }
    }

    static func readPOIs(_ url: URL, areas: Bool) throws -> Result {
        var collector = Collector(areas: areas)
        let options = areas ? OSMReadOptions(kinds: .all, untaggedNodes: true)
                            : OSMReadOptions(kinds: [.nodes], untaggedNodes: false)
        try OSMReader.readForImport(url, options: options, handler: &collector)
        return collector.result
    }

    static func category(_ tags: [String: String], area: Bool) -> String? {
        for key in CategoryCodes.poiKeys {
            if let value = tags[key], !value.isEmpty, value != "no" { return "\(key)=\(value)" }
        }
        if area, tags["natural"] == "water" || tags["water"] != nil { return "natural=water" }
        return nil
    }

    private struct Collector: OSMHandler {
        let areas: Bool
        var result = Result()
        /// Every node's coordinates and every way's nodes (for areas' centroids), as arrays sorted by id:
        /// a country has tens of millions of nodes, which a hash table per node would hold at twice the size.
        var nodes = SortedByID<(Double, Double)>()
        var wayNodes = SortedByID<[Int64]>()

        init(areas: Bool) { self.areas = areas }

        mutating func node(_ node: OSMNode) {
            if areas { nodes.append(node.id, (node.lat, node.lon)) }
            if let number = node.tags["addr:housenumber"], let street = node.tags["addr:street"] {
                result.addresses.append(AddressPoint(key: "addr:node/\(node.id)", houseNumber: TextFolding.clean(number),
                                                     street: TextFolding.clean(street), lat: node.lat, lng: node.lon))
            }
            guard let name = node.tags["name"], name.contains(where: { !$0.isWhitespace }),
                  let category = OSMPOIReader.category(node.tags, area: false) else { return }
            result.pois.append(POINode(id: node.id, lat: node.lat, lng: node.lon, tags: node.tags, category: category))
        }

        mutating func way(_ way: OSMWay) {
            guard areas else { return }
            wayNodes.append(way.id, way.nodeIDs)
            guard let name = way.tags["name"], name.contains(where: { !$0.isWhitespace }) else { return }
            if let highway = way.tags["highway"] {
                let aliases = OSMPOIReader.aliases(way.tags).filter { !$0.hasPrefix("Rue ") }
                if !aliases.isEmpty { result.streetAliases[TextFolding.fold(name), default: []] += aliases }
                if !way.nodeIDs.isEmpty, let middle = nodes[way.nodeIDs[way.nodeIDs.count / 2]] {
                    result.streetWays.append(StreetWay(name: TextFolding.clean(name), highway: highway, lat: middle.0, lng: middle.1, aliases: aliases))
                }
                return
            }
            if let number = way.tags["addr:housenumber"], let street = way.tags["addr:street"], let point = centroid(way.nodeIDs) {
                result.addresses.append(AddressPoint(key: "addr:way/\(way.id)", houseNumber: TextFolding.clean(number),
                                                     street: TextFolding.clean(street), lat: point.0, lng: point.1))
            }
            // A named building is a place when it says what it is (amenity, shop, office, …: a
            // supermarket, a ward's People's Committee), not when it is only a building.
            guard let category = OSMPOIReader.category(way.tags, area: true),
                  way.tags["building"] == nil || !category.hasPrefix("man_made=") && !category.hasPrefix("place=") && category != "natural=water",
                  let point = centroid(way.nodeIDs) else { return }
            result.pois.append(POINode(type: "way", id: way.id, lat: point.0, lng: point.1, tags: way.tags, category: category))
        }

        mutating func relation(_ relation: OSMRelation) {
            guard areas, relation.tags["type"] == "multipolygon",
                  let name = relation.tags["name"], name.contains(where: { !$0.isWhitespace }),
                  let category = OSMPOIReader.category(relation.tags, area: true) else { return }
            // Each outer way once: a relation naming one long way 32,000 times is a few KB of file,
            // and its vertices flattened 32,000 times would be 64 million ids.
            var outerWays = Set<Int64>()
            var vertices: [Int64] = []
            for member in relation.members where member.type == .way && (member.role == "outer" || member.role.isEmpty)
                && outerWays.insert(member.ref).inserted {
                vertices += wayNodes[member.ref] ?? []
            }
            guard let point = centroid(vertices) else { return }
            result.pois.append(POINode(type: "relation", id: relation.id, lat: point.0, lng: point.1, tags: relation.tags, category: category))
        }

        /// Mean of the vertices present in the file (a closed ring's repeated first node counted once).
        mutating func centroid(_ ids: [Int64]) -> (Double, Double)? {
            var seen = Set<Int64>()
            var lat = 0.0, lng = 0.0, n = 0.0
            for id in ids where seen.insert(id).inserted {
                guard let c = nodes[id] else { continue }
                lat += c.0; lng += c.1; n += 1
            }
            return n > 0 ? (lat / n, lng / n) : nil
        }
    }
}
