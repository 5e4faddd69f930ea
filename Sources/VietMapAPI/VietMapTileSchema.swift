import Routing
import Search

/// VietMap's vector-tile schema as the simulator writes it: the source-layer names, the integer codes
/// (`roadclass`, `structure`, admin `class`), the POI classes (which are also the sprite's icon names) and the
/// first zoom of every kind of feature (reference `map-screens.md` §3, read from VietMap's `color_tiles.json`).
///
/// Codes are MVT integers, never strings: VietMap's legacy filters compare with types (`["==","roadclass",1]`).
/// Mapping OSM onto these codes is the simulator's own choice (VietMap publishes none); it is documented on
/// each function.
public enum VietMapTileSchema {
    // MARK: Source layers

    /// Roads, one line per graph edge: `roadclass`, `structure`, `oneway`, `undercons`, `prefix`, `name`.
    public static let network = "vietmap_network"
    /// Road labels: the same lines with `name`, `prefix`, `roadclass` (and `routeno` for numbered routes).
    public static let networkName = "vietmap_network_name"
    /// POIs: `class` (also the icon), `vm_class`, `shortname`, `name`, `ref_id`.
    public static let point = "vietmap_point"
    /// Province and ward label points: `class`, `name`, `prefix`, `abbrprefix`.
    public static let adminPoint = "vietmap_admin_point"
    /// Ferry lines (`route=ferry`): `name`.
    public static let ferry = "vietmap_ferry"
    /// Ocean polygons: the simulator's extracts have no coastline, so this layer stays empty (the style keeps it so
    /// an app's filters stay valid).
    public static let water = "vietmap_water"
    /// Water areas, land use and buildings: from the shapes kept at import (`MapShapeFeatures`), as far as the OSM
    /// extract has them.
    public static let hydro = "vietmap_hydro"
    public static let footPrint = "vietmap_foot_print"
    public static let building = "vietmap_building"
    /// Rivers, canals and streams as lines, and rail lines (`MapShapeFeatures`).
    public static let hydroCenterline = "vietmap_hydro_centerline"
    public static let railway = "vietmap_railway"

    /// Every source layer the style refers to, in drawing order.
    public static let sourceLayers: [String] = [water, hydro, footPrint, building, ferry, network, networkName, point, adminPoint]
    /// The source layers `MapLayerExtraction` fills from the dataset.
    public static let populatedSourceLayers: [String] = [network, networkName, point, adminPoint, ferry, hydro, footPrint, building,
                                                          hydroCenterline, railway]

    /// The deepest zoom the vector source serves (clients overzoom past it), as VietMap's `vietmap` source.
    public static let maxZoom = 15

    // MARK: Roads

    /// VietMap's `roadclass` of an OSM road class:
    ///
    /// | roadclass | VietMap meaning | OSM `highway` |
    /// |---|---|---|
    /// | 1 | expressway ("CT") | motorway, motorway_link |
    /// | 2 | major (national) | trunk, trunk_link |
    /// | 3 | major | primary, primary_link |
    /// | 4 | secondary | secondary, secondary_link |
    /// | 5 | secondary-connecting | tertiary, tertiary_link |
    /// | 6 | connecting | unclassified, road |
    /// | 7 | local | residential, living_street |
    /// | 8 | local | service, track, pedestrian, anything else with cars |
    /// | 9 | motorbike alley | footway, path, cycleway, steps, bridleway; and any class 6–8 road named Hẻm, Ngõ, Ngách or Kiệt |
    ///
    /// Ferries are no road (`vietmap_ferry`): nil.
    public static func roadClass(_ osm: RoadClass, prefix: String? = nil) -> Int? {
        let base: Int
        switch osm {
        case .motorway, .motorwayLink: base = 1
        case .trunk, .trunkLink: base = 2
        case .primary, .primaryLink: base = 3
        case .secondary, .secondaryLink: base = 4
        case .tertiary, .tertiaryLink: base = 5
        case .unclassified, .road: base = 6
        case .residential, .livingStreet: base = 7
        case .service, .track, .pedestrian, .other: base = 8
        case .footway, .path, .cycleway, .steps, .bridleway: base = 9
        case .ferry: return nil
        }
        if base >= 6, let prefix, StreetNameParts.alleyPrefixes.contains(prefix) { return 9 }
        return base
    }

    /// The first zoom a road of `roadclass` is drawn at (§3): 1–3 z6, 4 z7, 5 z8, 6 z11, 7–8 z13, 9 z14; tunnels
    /// (structure 2) of class 6 from z10, of 7–9 from z12.
    public static func roadMinZoom(roadClass: Int, structure: Int = 0) -> Int {
        switch roadClass {
        case ...3: return 6
        case 4: return 7
        case 5: return 8
        case 6: return structure == 2 ? 10 : 11
        case 7, 8: return structure == 2 ? 12 : 13
        default: return structure == 2 ? 12 : 14
        }
    }

    /// The first zoom a road's label line is in the tiles: shields of classes 1–3 from z7, names of 4–5 from z10,
    /// of 6 from z13, of 7–9 from z14 (§3).
    public static func roadNameMinZoom(roadClass: Int) -> Int {
        switch roadClass {
        case ...3: return 7
        case 4, 5: return 10
        case 6: return 13
        default: return 14
        }
    }

    /// `structure`: 0 surface, 1 bridge, 2 tunnel (3, "never drawn as road", is not produced).
    public enum Structure: Int, Sendable {
        case surface = 0, bridge = 1, tunnel = 2
    }

    /// The structure of a road edge. The road graph has no bridge/tunnel bits yet: until it has (branch
    /// `map-data` adds `EdgeFlag` bits), a road named Cầu… is a bridge and one named Hầm… a tunnel.
    /// OSM's `bridge=*` / `tunnel=*` (`EdgeFlag.bridge`, `EdgeFlag.tunnel`, kept at import) decide; a way without
    /// those tags whose name says Cầu… or Hầm… (older extracts tag few bridges) is one too.
    public static func structure(flags: UInt8, prefix: String?) -> Structure {
        if flags & EdgeFlag.tunnel != 0 { return .tunnel }
        if flags & EdgeFlag.bridge != 0 { return .bridge }
        switch prefix {
        case "Cầu", "Cầu vượt": return .bridge
        case "Hầm": return .tunnel
        default: return .surface
        }
    }

    // MARK: POIs

    /// A POI's `class` (also its icon name) from the simulator's category codes (`CategoryCodes`) and, for places
    /// of worship, its name (Chùa → pagoda, Nhà thờ → church, else temple). VietMap's own names where its style
    /// names them (airport, harbor, rail, bus, parking, gasstation, hotel, memorial, museum, committee, hospital,
    /// bank, pagoda, church, company, other); the simulator's for the rest.
    public static func pointClass(categories: [String], name: String) -> String {
        guard let code = categories.first else { return "other" }
        switch code {
        case "1001": return "restaurant"
        case "1002": return "fastfood"
        case "1003": return "cafe"
        case "1004": return "bar"
        case "2001": return "hotel"
        case "2002": return "guesthouse"
        case "3001": return "bank"
        case "3002": return "atm"
        case "4001": return "hospital"
        case "4002": return "clinic"
        case "4003": return "pharmacy"
        case "4004": return "veterinary"
        case "5001": return "school"
        case "5002": return "university"
        case "5003": return "library"
        case "6001":
            let lower = name.lowercased()
            if lower.hasPrefix("chùa") || lower.contains("pagoda") || lower.hasPrefix("tịnh xá") || lower.hasPrefix("thiền viện") { return "pagoda" }
            if lower.hasPrefix("nhà thờ") || lower.contains("church") || lower.contains("cathedral") || lower.hasPrefix("giáo xứ") { return "church" }
            return "temple"
        case "6002": return "museum"
        case "6003": return "attraction"
        case "6004": return "memorial"
        case "7001": return "park"
        case "7002": return "sport"
        case "7003": return "theatre"
        case "8001": return "market"
        case "8002": return "supermarket"
        case "8003": return "convenience"
        case "8004": return "shop"
        case "9001": return "gasstation"
        case "9002": return "parking"
        case "9003": return "carservice"
        case "9101": return "rail"
        case "9102", "9103": return "bus"
        case "9104": return "airport"
        case "9105": return "harbor"
        case "9201": return "company"
        case "9202": return "committee"
        case "9203": return "embassy"
        case "9401": return "building"
        default: return "other"
        }
    }

    /// Every `class` `pointClass` can give, sorted: the POI icons of the sprite.
    public static let pointClasses: [String] = [
        "airport", "atm", "bank", "bar", "building", "bus", "cafe", "carservice", "church", "clinic", "committee",
        "company", "convenience", "embassy", "fastfood", "gasstation", "guesthouse", "harbor", "hospital", "hotel",
        "library", "market", "memorial", "museum", "other", "pagoda", "park", "parking", "pharmacy", "rail",
        "restaurant", "school", "shop", "sport", "supermarket", "temple", "theatre", "university", "veterinary",
        "attraction",
    ].sorted()

    /// `vm_class`: 1 for the landmarks VietMap shows from z11 (an importance of 0.8 or more: airports, railway
    /// stations, major sights), else 2.
    public static func pointRank(importance: Double) -> Int { importance >= 0.8 ? 1 : 2 }

    /// VietMap's POI tiers (§3): airport/harbor/rail with `vm_class` 1 z11; parking, gasstation z13; hotel,
    /// memorial, museum, committee z14; hospital, bank, pagoda, church z15; bus, company, other z18; the rest z16.
    public static func pointMinZoom(class pointClass: String, rank: Int) -> Int {
        switch pointClass {
        case "airport" where rank == 1, "harbor" where rank == 1, "rail" where rank == 1: return 11
        case "parking", "gasstation": return 13
        case "hotel", "memorial", "museum", "committee": return 14
        case "hospital", "bank", "pagoda", "church": return 15
        case "bus", "company", "other": return 18
        default: return 16
        }
    }

    /// The tier lists of `pointMinZoom`, for the style's POI layers (same order, first zoom first).
    static let pointTiers: [(minZoom: Int, classes: [String])] = [
        (13, ["parking", "gasstation"]),
        (14, ["hotel", "memorial", "museum", "committee"]),
        (15, ["hospital", "bank", "pagoda", "church"]),
    ]
    /// Classes only the "all" POI layer (z18) shows.
    static let lateClasses = ["bus", "company", "other"]

    // MARK: Admin units

    /// VietMap's admin point `class`: 1 major (centrally governed) city, 2 province, 3 town, 4 commune/ward.
    /// The simulator writes the 2025 scheme: provinces prefixed Thành Phố are 1, other provinces 2, wards,
    /// communes and special zones 4 (the 2025 scheme has no districts, so no 3).
    public static func adminClass(level: AdminLevel, prefix: String) -> Int {
        switch level {
        case .province: return prefix.lowercased() == "thành phố" ? 1 : 2
        case .district: return 3
        case .ward: return 4
        }
    }

    /// First zoom of an admin point (§3): Hà Nội z4, other class 1 z5, class 2 z6, class 3 z7, class 4 z13.
    public static func adminMinZoom(class adminClass: Int, name: String) -> Int {
        switch adminClass {
        case 1: return name == "Hà Nội" ? 4 : 5
        case 2: return 6
        case 3: return 7
        default: return 13
        }
    }

    /// `abbrprefix` of an admin prefix: "P." Phường, "X." Xã, "TT." Thị Trấn, "TP." Thành Phố, "T." Tỉnh,
    /// "Q." Quận, "H." Huyện, "TX." Thị Xã, "ĐK." Đặc Khu; unknown prefixes are kept whole.
    public static func abbreviatedAdminPrefix(_ prefix: String) -> String {
        switch prefix.lowercased() {
        case "phường": return "P."
        case "xã": return "X."
        case "thị trấn": return "TT."
        case "thành phố": return "TP."
        case "tỉnh": return "T."
        case "quận": return "Q."
        case "huyện": return "H."
        case "thị xã": return "TX."
        case "đặc khu": return "ĐK."
        default: return prefix
        }
    }

    // MARK: Icons and fonts

    /// The non-POI icons the style asks for: the capital's star, the province dot, the town dot and the two
    /// route shields.
    public static let fixedIcons = ["capital", "dot_9", "freeway", "highway", "province_dark-04"]

    /// Every icon name the style can ask for (`icon-image` literals and every `{class}` value): the sprite atlas
    /// holds exactly these.
    public static let iconNames: [String] = (fixedIcons + pointClasses).sorted()

    /// VietMap's three font stacks, one font each.
    public static let regularFont = "Roboto Regular"
    public static let mediumFont = "Roboto Medium"
    public static let italicFont = "Roboto Condensed Italic"
    public static let fontStacks = [regularFont, mediumFont, italicFont]
}
