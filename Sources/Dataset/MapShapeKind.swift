/// What a map shape (``MapShapes``) is: the OSM features a map draws besides roads and places.
/// Raw values are stored in datasets: append new cases, never renumber.
///
/// Areas come from closed ways and `type=multipolygon` relations, lines from open (or closed)
/// ways; ``classify(_:)`` reads the tags, the first matching rule wins:
///
/// | tags | kind |
/// |------|------|
/// | `building=*` (not `no`) | building |
/// | `natural=water`, `water=*`, `waterway=riverbank\|dock`, `landuse=reservoir\|basin` | water |
/// | `waterway=river\|canal\|stream\|drain\|ditch` (lines) | river, canal, stream (drain and ditch: stream) |
/// | `railway=rail\|light_rail\|subway\|narrow_gauge\|tram` (lines) | rail |
/// | `aeroway=aerodrome`, `aeroway=runway\|taxiway` | airport, runway (a line or an area) |
/// | `amenity=school\|university\|college\|kindergarten`, `amenity=hospital\|clinic`, `amenity=parking` | school, hospital, parking |
/// | `leisure=park\|garden\|playground\|recreation_ground`, `leisure=pitch\|stadium\|sports_centre\|track` | park, pitch |
/// | `landuse=grass\|meadow\|village_green`, `natural=grassland\|scrub` | grass |
/// | `landuse=forest`, `natural=wood` | wood |
/// | `landuse=cemetery`, `amenity=grave_yard` | cemetery |
/// | `landuse=residential`, `commercial`, `retail`, `industrial`, `military`, `construction`, `farmland\|orchard\|allotments\|farmyard`, `recreation_ground` (park), `railway` | residential, commercial, retail, industrial, military, construction, farmland, park, railway yard |
public enum MapShapeKind: UInt8, CaseIterable, Sendable, CustomStringConvertible {
    case building = 1
    case water
    case park
    case grass
    case wood
    case cemetery
    case residential
    case commercial
    case retail
    case industrial
    case military
    case construction
    case farmland
    case railwayYard
    case school
    case hospital
    case parking
    case pitch
    case airport
    case runway
    case river
    case canal
    case stream
    case rail

    /// Whether shapes of this kind are lines (a river's centre line, a railway), drawn as strokes;
    /// the others are areas (rings), except ``runway``, which may be either (see ``MapShape/isArea``).
    public var isLine: Bool {
        switch self {
        case .river, .canal, .stream, .rail: return true
        default: return false
        }
    }

    public var description: String {
        switch self {
        case .building: return "building"
        case .water: return "water"
        case .park: return "park"
        case .grass: return "grass"
        case .wood: return "wood"
        case .cemetery: return "cemetery"
        case .residential: return "residential"
        case .commercial: return "commercial"
        case .retail: return "retail"
        case .industrial: return "industrial"
        case .military: return "military"
        case .construction: return "construction"
        case .farmland: return "farmland"
        case .railwayYard: return "railway_yard"
        case .school: return "school"
        case .hospital: return "hospital"
        case .parking: return "parking"
        case .pitch: return "pitch"
        case .airport: return "airport"
        case .runway: return "runway"
        case .river: return "river"
        case .canal: return "canal"
        case .stream: return "stream"
        case .rail: return "rail"
        }
    }

    /// The kind an OSM element's tags give, or nil for an element no map draws as a shape.
    /// Whether the element may be one (an area kind needs a closed way or a multipolygon) is the caller's.
    public static func classify(_ tags: [String: String]) -> MapShapeKind? {
        if let b = tags["building"], b != "no" { return .building }
        let natural = tags["natural"], landuse = tags["landuse"], waterway = tags["waterway"]
        let leisure = tags["leisure"], amenity = tags["amenity"], aeroway = tags["aeroway"]
        if natural == "water" || tags["water"] != nil || waterway == "riverbank" || waterway == "dock"
            || landuse == "reservoir" || landuse == "basin" { return .water }
        switch waterway {
        case "river": return .river
        case "canal": return .canal
        case "stream", "drain", "ditch": return .stream
        default: break
        }
        switch tags["railway"] {
        case "rail", "light_rail", "subway", "narrow_gauge", "tram": return .rail
        default: break
        }
        switch aeroway {
        case "aerodrome": return .airport
        case "runway", "taxiway": return .runway
        default: break
        }
        switch amenity {
        case "school", "university", "college", "kindergarten": return .school
        case "hospital", "clinic": return .hospital
        case "parking": return .parking
        case "grave_yard": return .cemetery
        default: break
        }
        switch leisure {
        case "park", "garden", "playground", "recreation_ground": return .park
        case "pitch", "stadium", "sports_centre", "track": return .pitch
        default: break
        }
        switch natural {
        case "wood": return .wood
        case "grassland", "scrub": return .grass
        default: break
        }
        switch landuse {
        case "grass", "meadow", "village_green": return .grass
        case "forest": return .wood
        case "cemetery": return .cemetery
        case "residential": return .residential
        case "commercial": return .commercial
        case "retail": return .retail
        case "industrial": return .industrial
        case "military": return .military
        case "construction", "brownfield", "greenfield": return .construction
        case "farmland", "orchard", "allotments", "farmyard", "plant_nursery": return .farmland
        case "recreation_ground": return .park
        case "railway": return .railwayYard
        default: return nil
        }
    }
}
