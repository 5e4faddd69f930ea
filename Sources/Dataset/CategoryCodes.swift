import Foundation

/// The simulator's POI category codes and the mapping from raw OSM `key=value` tags.
///
/// VietMap's real category taxonomy is not public (its docs only show codes such as `"6001"`
/// and filters such as `cats=1002-1`). This is the simulator's **own, documented and stable**
/// code set in the same style: four-digit numeric strings, grouped by the first digit.
/// Codes are never renumbered; new categories get new codes. ``markdownTable()`` renders the
/// table for the README.
///
/// Lookup order for a tag `k=v`: the exact `k=v` rule, then the `k=*` rule, then
/// ``fallbackCode`` (`9999`, "Other").
public enum CategoryCodes {
    /// One category of the simulator's taxonomy.
    public struct Category: Sendable {
        public let code: String
        public let name: String
        /// Base importance (0…1) of POIs in this category, before tag-specific overrides.
        public let importance: Double
    }

    /// One mapping rule: OSM `key=value` (or `key=*`) → category code, with an optional
    /// importance that overrides the category's base importance.
    public struct Rule: Sendable {
        public let osm: String
        public let code: String
        public let importance: Double?
    }

    /// Code for anything not covered by a rule.
    public static let fallbackCode = "9999"

    /// The code set.
    public static let categories: [Category] = [
        Category(code: "1001", name: "Restaurant", importance: 0.45),
        Category(code: "1002", name: "Fast food", importance: 0.4),
        Category(code: "1003", name: "Café & tea", importance: 0.4),
        Category(code: "1004", name: "Bar, pub & nightlife", importance: 0.4),
        Category(code: "2001", name: "Hotel", importance: 0.55),
        Category(code: "2002", name: "Guest house, hostel & other lodging", importance: 0.45),
        Category(code: "3001", name: "Bank & money exchange", importance: 0.5),
        Category(code: "3002", name: "ATM", importance: 0.4),
        Category(code: "4001", name: "Hospital", importance: 0.75),
        Category(code: "4002", name: "Clinic, doctor & dentist", importance: 0.5),
        Category(code: "4003", name: "Pharmacy", importance: 0.4),
        Category(code: "4004", name: "Veterinary", importance: 0.35),
        Category(code: "5001", name: "School & kindergarten", importance: 0.5),
        Category(code: "5002", name: "University & college", importance: 0.65),
        Category(code: "5003", name: "Library", importance: 0.55),
        Category(code: "6001", name: "Place of worship", importance: 0.75),
        Category(code: "6002", name: "Museum & gallery", importance: 0.8),
        Category(code: "6003", name: "Tourist attraction", importance: 0.7),
        Category(code: "6004", name: "Historic site & monument", importance: 0.8),
        Category(code: "7001", name: "Park & garden", importance: 0.55),
        Category(code: "7002", name: "Sports & fitness", importance: 0.45),
        Category(code: "7003", name: "Culture & entertainment", importance: 0.55),
        Category(code: "8001", name: "Market", importance: 0.75),
        Category(code: "8002", name: "Supermarket, mall & department store", importance: 0.55),
        Category(code: "8003", name: "Convenience store", importance: 0.4),
        Category(code: "8004", name: "Shop", importance: 0.35),
        Category(code: "9001", name: "Fuel station", importance: 0.45),
        Category(code: "9002", name: "Parking", importance: 0.35),
        Category(code: "9003", name: "Vehicle sales, rental & repair", importance: 0.35),
        Category(code: "9101", name: "Railway & metro station", importance: 0.85),
        Category(code: "9102", name: "Bus station", importance: 0.7),
        Category(code: "9103", name: "Transit stop", importance: 0.35),
        Category(code: "9104", name: "Airport", importance: 0.9),
        Category(code: "9105", name: "Ferry terminal", importance: 0.6),
        Category(code: "9201", name: "Office & company", importance: 0.4),
        Category(code: "9202", name: "Government & public service", importance: 0.6),
        Category(code: "9203", name: "Embassy & consulate", importance: 0.6),
        Category(code: "9301", name: "Named locality (city, suburb, neighbourhood)", importance: 0.55),
        Category(code: "9401", name: "Building", importance: 0.35),
        Category(code: "9999", name: "Other", importance: 0.35),
    ]

    /// The OSM → code rules.
    public static let rules: [Rule] = [
        // 1xxx food & drink
        Rule(osm: "amenity=restaurant", code: "1001", importance: nil),
        Rule(osm: "amenity=food_court", code: "1001", importance: nil),
        Rule(osm: "amenity=bbq", code: "1001", importance: nil),
        Rule(osm: "amenity=fast_food", code: "1002", importance: nil),
        Rule(osm: "amenity=cafe", code: "1003", importance: nil),
        Rule(osm: "amenity=ice_cream", code: "1003", importance: nil),
        Rule(osm: "amenity=internet_cafe", code: "1003", importance: 0.35),
        Rule(osm: "shop=coffee", code: "1003", importance: nil),
        Rule(osm: "shop=tea", code: "1003", importance: nil),
        Rule(osm: "amenity=bar", code: "1004", importance: nil),
        Rule(osm: "amenity=pub", code: "1004", importance: nil),
        Rule(osm: "amenity=biergarten", code: "1004", importance: nil),
        Rule(osm: "amenity=nightclub", code: "1004", importance: nil),
        Rule(osm: "amenity=music_venue", code: "1004", importance: nil),
        Rule(osm: "leisure=karaoke", code: "1004", importance: nil),
        // 2xxx lodging
        Rule(osm: "tourism=hotel", code: "2001", importance: nil),
        Rule(osm: "building=hotel", code: "2001", importance: nil),
        Rule(osm: "tourism=guest_house", code: "2002", importance: nil),
        Rule(osm: "tourism=hostel", code: "2002", importance: nil),
        Rule(osm: "tourism=motel", code: "2002", importance: nil),
        Rule(osm: "tourism=apartment", code: "2002", importance: nil),
        Rule(osm: "tourism=chalet", code: "2002", importance: nil),
        Rule(osm: "tourism=alpine_hut", code: "2002", importance: nil),
        Rule(osm: "tourism=wilderness_hut", code: "2002", importance: nil),
        Rule(osm: "tourism=camp_site", code: "2002", importance: nil),
        Rule(osm: "tourism=caravan_site", code: "2002", importance: nil),
        // 3xxx money
        Rule(osm: "amenity=bank", code: "3001", importance: nil),
        Rule(osm: "amenity=bureau_de_change", code: "3001", importance: 0.4),
        Rule(osm: "amenity=money_transfer", code: "3001", importance: 0.4),
        Rule(osm: "office=financial", code: "3001", importance: 0.4),
        Rule(osm: "amenity=atm", code: "3002", importance: nil),
        // 4xxx health
        Rule(osm: "amenity=hospital", code: "4001", importance: nil),
        Rule(osm: "building=hospital", code: "4001", importance: nil),
        Rule(osm: "amenity=clinic", code: "4002", importance: nil),
        Rule(osm: "amenity=doctors", code: "4002", importance: 0.45),
        Rule(osm: "amenity=dentist", code: "4002", importance: 0.45),
        Rule(osm: "amenity=nursing_home", code: "4002", importance: 0.45),
        Rule(osm: "healthcare=*", code: "4002", importance: 0.45),
        Rule(osm: "amenity=pharmacy", code: "4003", importance: nil),
        Rule(osm: "shop=chemist", code: "4003", importance: nil),
        Rule(osm: "amenity=veterinary", code: "4004", importance: nil),
        // 5xxx education
        Rule(osm: "amenity=school", code: "5001", importance: nil),
        Rule(osm: "building=school", code: "5001", importance: nil),
        Rule(osm: "amenity=kindergarten", code: "5001", importance: 0.45),
        Rule(osm: "building=kindergarten", code: "5001", importance: 0.45),
        Rule(osm: "amenity=childcare", code: "5001", importance: 0.4),
        Rule(osm: "amenity=driving_school", code: "5001", importance: 0.4),
        Rule(osm: "amenity=university", code: "5002", importance: nil),
        Rule(osm: "building=university", code: "5002", importance: nil),
        Rule(osm: "amenity=college", code: "5002", importance: 0.6),
        Rule(osm: "building=college", code: "5002", importance: 0.6),
        Rule(osm: "office=educational_institution", code: "5002", importance: 0.5),
        Rule(osm: "amenity=library", code: "5003", importance: nil),
        // 6xxx worship, culture, sights
        Rule(osm: "amenity=place_of_worship", code: "6001", importance: nil),
        Rule(osm: "building=church", code: "6001", importance: nil),
        Rule(osm: "building=cathedral", code: "6001", importance: nil),
        Rule(osm: "building=temple", code: "6001", importance: nil),
        Rule(osm: "building=pagoda", code: "6001", importance: nil),
        Rule(osm: "tourism=museum", code: "6002", importance: nil),
        Rule(osm: "tourism=gallery", code: "6002", importance: 0.6),
        Rule(osm: "tourism=attraction", code: "6003", importance: 0.8),
        Rule(osm: "tourism=theme_park", code: "6003", importance: 0.75),
        Rule(osm: "tourism=zoo", code: "6003", importance: 0.8),
        Rule(osm: "tourism=viewpoint", code: "6003", importance: 0.6),
        Rule(osm: "tourism=artwork", code: "6003", importance: 0.5),
        Rule(osm: "tourism=information", code: "6003", importance: 0.4),
        Rule(osm: "tourism=*", code: "6003", importance: 0.5),
        Rule(osm: "historic=*", code: "6004", importance: nil),
        Rule(osm: "historic=memorial", code: "6004", importance: 0.7),
        // 7xxx leisure
        Rule(osm: "leisure=park", code: "7001", importance: 0.6),
        Rule(osm: "natural=water", code: "7001", importance: 0.7),
        Rule(osm: "leisure=garden", code: "7001", importance: nil),
        Rule(osm: "leisure=playground", code: "7001", importance: 0.4),
        Rule(osm: "leisure=recreation_ground", code: "7001", importance: nil),
        Rule(osm: "leisure=nature_reserve", code: "7001", importance: 0.6),
        Rule(osm: "leisure=water_park", code: "7001", importance: 0.6),
        Rule(osm: "leisure=stadium", code: "7002", importance: 0.7),
        Rule(osm: "leisure=sports_centre", code: "7002", importance: 0.5),
        Rule(osm: "leisure=golf_course", code: "7002", importance: 0.55),
        Rule(osm: "leisure=*", code: "7002", importance: nil),
        Rule(osm: "amenity=swimming_pool", code: "7002", importance: nil),
        Rule(osm: "amenity=dojo", code: "7002", importance: nil),
        Rule(osm: "amenity=theatre", code: "7003", importance: 0.7),
        Rule(osm: "amenity=cinema", code: "7003", importance: 0.6),
        Rule(osm: "amenity=arts_centre", code: "7003", importance: nil),
        Rule(osm: "amenity=casino", code: "7003", importance: 0.5),
        Rule(osm: "amenity=community_centre", code: "7003", importance: 0.45),
        Rule(osm: "amenity=conference_centre", code: "7003", importance: nil),
        Rule(osm: "amenity=conference_center", code: "7003", importance: nil),
        Rule(osm: "amenity=studio", code: "7003", importance: 0.45),
        // 8xxx shopping
        Rule(osm: "amenity=marketplace", code: "8001", importance: nil),
        Rule(osm: "shop=mall", code: "8002", importance: 0.7),
        Rule(osm: "shop=department_store", code: "8002", importance: nil),
        Rule(osm: "shop=supermarket", code: "8002", importance: nil),
        Rule(osm: "shop=convenience", code: "8003", importance: nil),
        Rule(osm: "shop=kiosk", code: "8003", importance: nil),
        Rule(osm: "shop=variety_store", code: "8003", importance: nil),
        Rule(osm: "shop=*", code: "8004", importance: nil),
        // 90xx road services
        Rule(osm: "amenity=fuel", code: "9001", importance: nil),
        Rule(osm: "amenity=parking", code: "9002", importance: nil),
        Rule(osm: "amenity=parking_entrance", code: "9002", importance: nil),
        Rule(osm: "amenity=bicycle_parking", code: "9002", importance: nil),
        Rule(osm: "amenity=car_wash", code: "9003", importance: nil),
        Rule(osm: "amenity=car_rental", code: "9003", importance: nil),
        Rule(osm: "amenity=car_dealer", code: "9003", importance: nil),
        Rule(osm: "shop=car", code: "9003", importance: nil),
        Rule(osm: "shop=car_repair", code: "9003", importance: nil),
        Rule(osm: "shop=car_parts", code: "9003", importance: nil),
        Rule(osm: "shop=motorcycle", code: "9003", importance: nil),
        Rule(osm: "shop=tyres", code: "9003", importance: nil),
        // 91xx transport
        Rule(osm: "railway=station", code: "9101", importance: nil),
        Rule(osm: "railway=halt", code: "9101", importance: 0.7),
        Rule(osm: "public_transport=station", code: "9101", importance: 0.75),
        Rule(osm: "railway=subway_entrance", code: "9101", importance: 0.5),
        Rule(osm: "amenity=bus_station", code: "9102", importance: nil),
        Rule(osm: "public_transport=*", code: "9103", importance: nil),
        Rule(osm: "highway=bus_stop", code: "9103", importance: nil),
        Rule(osm: "railway=tram_stop", code: "9103", importance: nil),
        Rule(osm: "amenity=taxi", code: "9103", importance: nil),
        Rule(osm: "aeroway=aerodrome", code: "9104", importance: nil),
        Rule(osm: "aeroway=terminal", code: "9104", importance: 0.85),
        Rule(osm: "aeroway=*", code: "9104", importance: 0.35),
        Rule(osm: "amenity=ferry_terminal", code: "9105", importance: nil),
        // 92xx offices and public services
        Rule(osm: "office=*", code: "9201", importance: nil),
        Rule(osm: "craft=*", code: "9201", importance: 0.35),
        Rule(osm: "building=office", code: "9201", importance: nil),
        Rule(osm: "building=commercial", code: "9201", importance: nil),
        Rule(osm: "amenity=office", code: "9201", importance: nil),
        Rule(osm: "office=government", code: "9202", importance: nil),
        Rule(osm: "office=administrative", code: "9202", importance: nil),
        Rule(osm: "amenity=townhall", code: "9202", importance: 0.65),
        Rule(osm: "amenity=courthouse", code: "9202", importance: nil),
        Rule(osm: "amenity=police", code: "9202", importance: 0.55),
        Rule(osm: "amenity=fire_station", code: "9202", importance: 0.5),
        Rule(osm: "amenity=post_office", code: "9202", importance: 0.55),
        Rule(osm: "amenity=public_building", code: "9202", importance: 0.5),
        Rule(osm: "amenity=prison", code: "9202", importance: 0.45),
        Rule(osm: "building=public", code: "9202", importance: 0.45),
        Rule(osm: "amenity=embassy", code: "9203", importance: nil),
        Rule(osm: "office=diplomatic", code: "9203", importance: nil),
        // 93xx named places
        Rule(osm: "place=city", code: "9301", importance: 0.9),
        Rule(osm: "place=town", code: "9301", importance: 0.8),
        Rule(osm: "place=suburb", code: "9301", importance: 0.8),
        Rule(osm: "place=quarter", code: "9301", importance: 0.6),
        Rule(osm: "place=island", code: "9301", importance: 0.6),
        Rule(osm: "place=neighbourhood", code: "9301", importance: nil),
        Rule(osm: "place=village", code: "9301", importance: nil),
        Rule(osm: "place=*", code: "9301", importance: 0.45),
        // 94xx buildings and structures
        Rule(osm: "building=*", code: "9401", importance: nil),
        Rule(osm: "man_made=*", code: "9401", importance: nil),
    ]

    private static let categoryByCode: [String: Category] = {
        var map: [String: Category] = [:]
        for category in categories { map[category.code] = category }
        return map
    }()

    private static let ruleByTag: [String: Rule] = {
        var map: [String: Rule] = [:]
        for rule in rules where map[rule.osm] == nil { map[rule.osm] = rule }
        return map
    }()

    /// The rule for a raw OSM `key=value` tag, if any (exact rule first, then `key=*`).
    public static func rule(forOSM tag: String) -> Rule? {
        let trimmed = tag.trimmingCharacters(in: .whitespaces)
        if let exact = ruleByTag[trimmed] { return exact }
        guard let equals = trimmed.firstIndex(of: "=") else { return nil }
        return ruleByTag[trimmed[..<equals] + "=*"]
    }

    /// The category code for a raw OSM `key=value` tag (``fallbackCode`` if unmapped).
    public static func code(forOSM tag: String) -> String {
        rule(forOSM: tag)?.code ?? fallbackCode
    }

    /// Base importance (0…1) of a POI with this raw OSM tag.
    public static func importance(forOSM tag: String) -> Double {
        if let rule = rule(forOSM: tag) {
            return rule.importance ?? categoryByCode[rule.code]?.importance ?? 0.35
        }
        return categoryByCode[fallbackCode]?.importance ?? 0.35
    }

    /// The category with this code.
    public static func category(code: String) -> Category? { categoryByCode[code] }

    /// OSM keys whose named nodes are imported as POIs from OSM XML.
    public static let poiKeys: [String] = [
        "amenity", "shop", "tourism", "leisure", "historic", "office", "railway", "public_transport",
        "aeroway", "place", "craft", "healthcare", "man_made",
    ]

    /// The table as Markdown (code | name | base importance | OSM tags), for the README.
    public static func markdownTable() -> String {
        var lines = ["| code | category | base importance | OSM tags (importance override) |", "|---|---|---|---|"]
        for category in categories {
            let tags = rules.filter { $0.code == category.code }.map { rule -> String in
                if let importance = rule.importance { return "`\(rule.osm)` (\(importance))" }
                return "`\(rule.osm)`"
            }
            let tagText = category.code == fallbackCode ? "anything else" : tags.joined(separator: ", ")
            lines.append("| `\(category.code)` | \(category.name) | \(category.importance) | \(tagText) |")
        }
        return lines.joined(separator: "\n")
    }
}
