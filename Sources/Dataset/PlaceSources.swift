import Foundation
import TextFolding

/// Reads the place CSVs into `ImportedPlace`s, keyed by stable source keys; a key seen twice
/// (the same OSM object in two inputs) keeps its first occurrence.
struct PlaceSources {
    var pois: [ImportedPlace] = []
    var streets: [ImportedPlace] = []
    var addresses: [ImportedPlace] = []
    private var keyIndex: [String: (DatasetSchema.PlaceKind, Int)] = [:]
    var duplicateKeys = 0
    var mergedStreetSpellings = 0
    var skippedUnnamed = 0

    func contains(key: String) -> Bool { keyIndex[key] != nil }

    private mutating func append(_ record: ImportedPlace) {
        if keyIndex[record.key] != nil { duplicateKeys += 1; return }
        switch record.kind {
        case .poi: keyIndex[record.key] = (.poi, pois.count); pois.append(record)
        case .street: keyIndex[record.key] = (.street, streets.count); streets.append(record)
        case .address: keyIndex[record.key] = (.address, addresses.count); addresses.append(record)
        case .admin: break
        }
    }

    private static let latRange: ClosedRange<Double> = -90...90
    private static let lngRange: ClosedRange<Double> = -180...180

    private static func osmKey(_ row: CSVTable.Row) throws -> String {
        let type = row["osm_type"].trimmingCharacters(in: .whitespaces)
        let id = row["osm_id"].trimmingCharacters(in: .whitespaces)
        guard ["node", "way", "relation"].contains(type) else { throw row.error("osm_type must be node, way or relation, found '\(type.prefix(20))'") }
        guard !id.isEmpty, id.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "-") }) else {
            throw row.error("osm_id is not numeric: '\(id.prefix(40))'")
        }
        return "\(type)/\(id)"
    }

    /// Returns the number of rows read.
    mutating func loadPOIs(_ url: URL) throws -> Int {
        let table = try CSVTable(url: url, required: InputKind.csvColumns.first { $0.0 == .poiCSV }!.1)
        var rows = 0
        while let row = try table.next() {
            rows += 1
            let key = "poi:" + (try Self.osmKey(row))
            let lat = try row.double("lat", in: Self.latRange), lng = try row.double("lng", in: Self.lngRange)
            let newWard = try row.code("ward2025_code"), newProvince = try row.code("province2025_code")
            let oldWard = try row.optionalCode("old_ward_code") ?? 0
            let oldDistrict = try row.optionalCode("old_district_code") ?? 0
            let name = row.text("name")
            guard !name.isEmpty else { skippedUnnamed += 1; continue }
            let nameEn = row.text("name_en"), nameVi = row.text("name_vi")
            let category = row["category"].trimmingCharacters(in: .whitespaces)
            let hasEnglish = !nameEn.isEmpty && TextFolding.fold(nameEn) != TextFolding.fold(name)
            var record = ImportedPlace(
                key: key, kind: .poi, name: name, lat: lat, lng: lng,
                importance: POIImportance.importance(category: category, hasWebsite: !row["website"].isEmpty,
                                                     hasEnglishName: hasEnglish, hasWikipedia: !row["wikipedia"].isEmpty),
                newWard: newWard, newProvince: newProvince)
            record.hsNum = row.text("addr_housenumber")
            record.street = row.text("addr_street")
            record.categories = category.isEmpty ? CategoryCodes.fallbackCode : CategoryCodes.code(forOSM: category)
            record.kindWords = CategoryWords.words(forOSM: category)
            record.oldWard = oldWard
            record.oldDistrict = oldDistrict
            record.aliases = [nameEn, nameVi].filter { !$0.isEmpty }
            append(record)
        }
        return rows
    }

    mutating func loadStreets(_ url: URL) throws -> Int {
        let table = try CSVTable(url: url, required: InputKind.csvColumns.first { $0.0 == .streetCSV }!.1)
        var rows = 0
        var folded: [String: Int] = [:]  // key → index in `streets` for this and earlier files
        for (index, street) in streets.enumerated() { folded[street.key] = index }
        while let row = try table.next() {
            rows += 1
            let lat = try row.double("rep_lat", in: Self.latRange), lng = try row.double("rep_lng", in: Self.lngRange)
            let newWard = try row.code("ward2025_code"), newProvince = try row.code("province2025_code")
            let wayCount = try row.int("way_count", default: 1)
            let name = row.text("name")
            let foldedName = TextFolding.fold(name)
            guard !foldedName.isEmpty else { skippedUnnamed += 1; continue }
            let highway = row["highway"].trimmingCharacters(in: .whitespaces)
            var record = ImportedPlace(
                key: "street:\(newWard):\(foldedName)", kind: .street, name: name, lat: lat, lng: lng,
                importance: StreetImportance.importance(highway: highway, wayCount: wayCount),
                newWard: newWard, newProvince: newProvince)
            record.street = name
            record.aliases = [row.text("name_en"), row.text("old_name"), name.withoutStreetPrefix ?? ""].filter { !$0.isEmpty }
            if let existing = folded[record.key] {
                // Same street in the same ward spelled differently ("Hẻm 5"/"Hem 5", "Hòa"/"Hoà"):
                // one place; keep the spelling with more diacritics, then the more important one.
                mergedStreetSpellings += 1
                let old = streets[existing]
                if Self.accentScore(name) > Self.accentScore(old.name)
                    || (Self.accentScore(name) == Self.accentScore(old.name) && record.importance > old.importance) {
                    record.aliases += old.aliases
                    streets[existing] = record
                } else {
                    streets[existing].aliases += record.aliases
                }
                continue
            }
            folded[record.key] = streets.count
            append(record)
        }
        return rows
    }

    /// Adds streets from named OSM highway ways whose name no CSV street has (an import of an OSM
    /// file alone gets its streets; with the CSVs, which were made from the same data, nothing is
    /// counted twice): one place per (folded name × 2025 ward), at the middle vertex of its first
    /// way. Returns the number of places added.
    mutating func addOSMStreets(_ ways: [OSMPOIReader.StreetWay], admin: AdminRegistry) -> Int {
        let known = Set(streets.map { TextFolding.fold($0.name) })
        var groups: [String: (record: ImportedPlace, ways: Int, highways: [String])] = [:]
        var order: [String] = []
        for way in ways {
            let folded = TextFolding.fold(way.name)
            guard !folded.isEmpty, !known.contains(folded), let ward = admin.newWard(containing: way.lat, way.lng) else { continue }
            let key = "street:\(ward.ward):\(folded)"
            if groups[key] != nil {
                groups[key]!.ways += 1
                groups[key]!.highways.append(way.highway)
                groups[key]!.record.aliases += way.aliases
                continue
            }
            var record = ImportedPlace(key: key, kind: .street, name: way.name, lat: way.lat, lng: way.lng, importance: 0,
                                     newWard: ward.ward, newProvince: ward.province)
            record.street = way.name
            record.aliases = way.aliases + [way.name.withoutStreetPrefix ?? ""].filter { !$0.isEmpty }
            groups[key] = (record, 1, [way.highway])
            order.append(key)
        }
        let rank = ["motorway", "trunk", "primary", "secondary", "tertiary", "residential", "unclassified", "living_street", "pedestrian"]
        for key in order {
            var (record, count, highways) = groups[key]!
            let best = highways.min { (rank.firstIndex(of: $0) ?? 99) < (rank.firstIndex(of: $1) ?? 99) } ?? ""
            record.importance = StreetImportance.importance(highway: best, wayCount: count)
            append(record)
        }
        return order.count
    }

    /// Adds address points (house number + street) from OSM nodes and buildings no CSV gave.
    mutating func addOSMAddresses(_ points: [OSMPOIReader.AddressPoint], admin: AdminRegistry) -> Int {
        var added = 0
        for point in points where keyIndex[point.key] == nil && !point.houseNumber.isEmpty && !point.street.isEmpty {
            guard let ward = admin.newWard(containing: point.lat, point.lng) else { continue }
            var record = ImportedPlace(key: point.key, kind: .address, name: "\(point.houseNumber) \(point.street)", lat: point.lat,
                                     lng: point.lng, importance: 0.3, newWard: ward.ward, newProvince: ward.province)
            record.hsNum = point.houseNumber
            record.street = point.street
            append(record)
            added += 1
        }
        return added
    }

    /// Adds other names of streets read from OSM ways (folded street name → names).
    mutating func addStreetAliases(_ aliases: [String: [String]]) -> Int {
        var count = 0
        for index in streets.indices {
            guard let extra = aliases[TextFolding.fold(streets[index].name)] else { continue }
            streets[index].aliases += extra
            count += 1
        }
        return count
    }

    /// Applies ``PlaceCleaning`` to the POIs; returns the counts per rule.
    mutating func clean() -> [String: Int] {
        var cleaning = PlaceCleaning()
        var kept: [ImportedPlace] = []
        for var place in pois where cleaning.clean(&place) { kept.append(place) }
        pois = cleaning.droppingStacks(kept)
        keyIndex = keyIndex.filter { $0.value.0 != .poi }
        for (index, place) in pois.enumerated() { keyIndex[place.key] = (.poi, index) }
        return cleaning.counts
    }

    private static func accentScore(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + ($1.isASCII ? 0 : 1) }
    }

    mutating func loadAddresses(_ url: URL) throws -> Int {
        let table = try CSVTable(url: url, required: InputKind.csvColumns.first { $0.0 == .addressCSV }!.1)
        var rows = 0
        while let row = try table.next() {
            rows += 1
            let key = "addr:" + (try Self.osmKey(row))
            let lat = try row.double("lat", in: Self.latRange), lng = try row.double("lng", in: Self.lngRange)
            let newWard = try row.code("ward2025_code"), newProvince = try row.code("province2025_code")
            let hsNum = row.text("housenumber"), street = row.text("street")
            let name = [hsNum, street].filter { !$0.isEmpty }.joined(separator: " ")
            guard !name.isEmpty else { skippedUnnamed += 1; continue }
            var record = ImportedPlace(key: key, kind: .address, name: name, lat: lat, lng: lng, importance: 0.3,
                                     newWard: newWard, newProvince: newProvince)
            record.hsNum = hsNum
            record.street = street
            append(record)
        }
        return rows
    }

    /// Adds POIs from OSM XML nodes whose key no CSV gave; the ward is the nearest ward
    /// centroid whose bbox contains the point. Returns (added, already present, outside every ward).
    mutating func addOSMNodes(_ nodes: [OSMPOIReader.POINode], admin: AdminRegistry) -> (added: Int, present: Int, outside: Int) {
        var added = 0, present = 0, outside = 0
        for node in nodes {
            let key = "poi:\(node.type)/\(node.id)"
            if let (kind, index) = keyIndex[key] {
                // Already from a CSV: the OSM file adds the names the CSV lacks (alt_name, old_name, …).
                if kind == .poi {
                    pois[index].aliases += OSMPOIReader.aliases(node.tags)
                    Self.addImplied(node.tags, besides: node.category, to: &pois[index])
                }
                present += 1
                continue
            }
            guard let ward = admin.newWard(containing: node.lat, node.lng) else { outside += 1; continue }
            let name = TextFolding.clean(node.tags["name"] ?? "")
            guard !name.isEmpty else { continue }
            let nameEn = TextFolding.clean(node.tags["name:en"] ?? "")
            let website = node.tags["website"] ?? node.tags["contact:website"] ?? ""
            let hasEnglish = !nameEn.isEmpty && TextFolding.fold(nameEn) != TextFolding.fold(name)
            var record = ImportedPlace(
                key: key, kind: .poi, name: name, lat: node.lat, lng: node.lng,
                importance: POIImportance.importance(category: node.category, hasWebsite: !website.isEmpty,
                                                     hasEnglishName: hasEnglish, hasWikipedia: node.tags["wikipedia"] != nil),
                newWard: ward.ward, newProvince: ward.province)
            record.hsNum = TextFolding.clean(node.tags["addr:housenumber"] ?? "")
            record.street = TextFolding.clean(node.tags["addr:street"] ?? "")
            record.categories = CategoryCodes.code(forOSM: node.category)
            record.aliases = OSMPOIReader.aliases(node.tags)
            record.kindWords = CategoryWords.words(forOSM: node.category)
            Self.addImplied(node.tags, besides: node.category, to: &record)
            append(record)
            added += 1
        }
        return (added, present, outside)
    }
}

extension PlaceSources {
    /// What a place's other tags say it also is ("cuisine=coffee_shop": a café, "atm=yes": an
    /// ATM): their category codes after its own, and their kind words.
    static func addImplied(_ tags: [String: String], besides category: String, to record: inout ImportedPlace) {
        for implied in CategoryWords.impliedCategories(tags) where implied != category {
            let code = CategoryCodes.code(forOSM: implied)
            if !record.categories.split(separator: ",").contains(Substring(code)) {
                record.categories = record.categories.isEmpty ? code : record.categories + "," + code
            }
            let words = CategoryWords.words(forOSM: implied)
            if !words.isEmpty && !record.kindWords.contains(words) {
                record.kindWords = record.kindWords.isEmpty ? words : record.kindWords + " " + words
            }
        }
    }
}
