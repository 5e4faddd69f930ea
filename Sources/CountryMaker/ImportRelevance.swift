import PBFWriter

/// Which OSM elements and tags `vietmap-sim import` reads — so a generated country carries only
/// those (Sources/Dataset: RoadNetworkSource for roads and turn restrictions, OSMPOIReader for
/// POIs, named areas, streets and address points).
enum ImportRelevance {
    /// `CategoryCodes.poiKeys` (Dataset): a named element with one of these is a place.
    /// CountryMakerTests checks the two lists agree.
    static let poiKeys: [String] = [
        "amenity", "shop", "tourism", "leisure", "historic", "office", "railway", "public_transport",
        "aeroway", "place", "craft", "healthcare", "man_made",
    ]

    /// Tag keys nobody reads, dropped from the copies.
    static func isNoise(_ key: String) -> Bool {
        key == "source" || key.hasPrefix("source:") || key == "created_by" || key == "note" || key.hasPrefix("note:")
            || key == "fixme" || key == "FIXME" || key.hasPrefix("tiger:")
    }

    static func hasName(_ tags: [String: String]) -> Bool {
        tags["name"]?.contains(where: { !$0.isWhitespace }) ?? false
    }

    /// OSMPOIReader.category: the first POI key with a value other than "" and "no"; areas also
    /// count as water.
    static func hasCategory(_ tags: [String: String], area: Bool) -> Bool {
        for key in poiKeys {
            if let value = tags[key], !value.isEmpty, value != "no" { return true }
        }
        return area && (tags["natural"] == "water" || tags["water"] != nil)
    }

    static func isRoad(_ tags: [String: String]) -> Bool {
        tags["highway"] != nil || tags["route"] == "ferry"
    }

    static func isAddress(_ tags: [String: String]) -> Bool {
        tags["addr:housenumber"] != nil && tags["addr:street"] != nil
    }

    /// A node the importer makes a POI or an address point of.
    static func isPlaceNode(_ tags: [String: String]) -> Bool {
        isAddress(tags) || hasName(tags) && hasCategory(tags, area: false)
    }

    /// A way the importer reads for itself (roads, address buildings, named areas).
    static func isKeptWay(_ tags: [String: String]) -> Bool {
        isRoad(tags) || isAddress(tags) || hasName(tags) && hasCategory(tags, area: true)
    }

    static func isRestriction(_ tags: [String: String]) -> Bool {
        let type = tags["type"]
        return type == "restriction" || type?.hasPrefix("restriction:") == true
    }

    /// A multipolygon the importer makes a named area of.
    static func isPlaceMultipolygon(_ tags: [String: String]) -> Bool {
        tags["type"] == "multipolygon" && hasName(tags) && hasCategory(tags, area: true)
    }

    /// Tags sorted by key, noise dropped: a fixed order for the output.
    static func kept(_ tags: [String: String]) -> PBFTags {
        tags.filter { !isNoise($0.key) }.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) }
    }
}
