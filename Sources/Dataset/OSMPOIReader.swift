import Foundation
import OSMReader

/// Named POI nodes of an OpenStreetMap file (XML or PBF), read with `OSMReader`.
///
/// A node is a POI when it has a `name` and one of ``CategoryCodes/poiKeys`` (amenity, shop,
/// tourism, …); its category is the first such key in that order, as `key=value`.
enum OSMPOIReader {
    struct POINode {
        let id: Int64
        let lat: Double
        let lng: Double
        let tags: [String: String]
        let category: String
    }

    static func readPOIs(_ url: URL) throws -> [POINode] {
        var collector = Collector()
        do {
            try OSMReader.read(url, options: OSMReadOptions(kinds: [.nodes], untaggedNodes: false), handler: &collector)
        } catch {
            throw DatasetError.osm(error, url: url)
        }
        return collector.pois
    }

    private struct Collector: OSMHandler {
        var pois: [POINode] = []

        mutating func node(_ node: OSMNode) {
            guard let name = node.tags["name"], name.contains(where: { !$0.isWhitespace }) else { return }
            for key in CategoryCodes.poiKeys {
                if let value = node.tags[key], !value.isEmpty, value != "no" {
                    pois.append(POINode(id: node.id, lat: node.lat, lng: node.lon, tags: node.tags, category: "\(key)=\(value)"))
                    return
                }
            }
        }
    }
}
