/// What answering a request will cost, estimated from its endpoint and parameters alone — before
/// any work, in time linear in the request — so that a server can keep heavy requests from
/// delaying light ones (the simulator runs heavy ones on threads of their own: `CostAwareServing`).
///
/// Heavy (each threshold is a static property; docs/limits.md "Cost-aware serving" has the table):
/// - a route (v4, v3, 1.1) or Directions v5 with more than `lightWaypoints` waypoints;
/// - a matrix of more than `lightMatrixCells` cells (sources × destinations);
/// - a TSP of more than `lightTourPoints` points;
/// - a route, Directions, matrix or TSP whose options the contraction hierarchies cannot answer
///   (`avoid`/`exclude` toll or ferry, a truck `capacity`, `vehicle=container`): those search with
///   A* or one Dijkstra per source, whose cost grows with the road graph (a 5-point matrix avoiding
///   tolls: ≈ 110 ms on the whole-city dataset);
/// - a search, autocomplete or migrate-address `text` of more than `lightTextWords` words or
///   `lightTextCharacters` characters.
///
/// - a raster tile (drawn by Cairo from the road data, 512 px at `@2x`).
///
/// Medium — more than a lookup but bounded, and cached by the layer that answers it; served on the
/// light threads: a glyph range (up to 256 SDF glyphs), a vector tile (one tile's features).
///
/// Everything else — place, reverse, short searches, routes of a few waypoints over the
/// hierarchies, small matrices and tours, styles, TileJSON and sprites — is light. An estimate errs towards heavy: a heavy request
/// served alone is answered as fast as before, only under load does it wait for its turn.
public enum RequestCost: Sendable, Equatable {
    case light
    /// Bounded work above a lookup, with the reason (`"a glyph range"`); not heavy.
    case medium(String)
    /// Heavy, with the reason (`"matrix of 100 × 25 cells"`).
    case heavy(String)

    /// The most waypoints of a light route or Directions request.
    public static let lightWaypoints = 5
    /// The most cells (sources × destinations) of a light matrix.
    public static let lightMatrixCells = 100
    /// The most points of a light TSP.
    public static let lightTourPoints = 10
    /// The most words (separated by spaces or commas) of a light search text.
    public static let lightTextWords = 16
    /// The most characters (Unicode scalars) of a light search text.
    public static let lightTextCharacters = 128

    public var isHeavy: Bool {
        if case .heavy = self { return true }
        return false
    }

    /// The cost of a request to `endpoint` with `path` (as `HTTPRequest.path` holds it: Directions
    /// v5 reads its waypoints there) and the query `parameters` in order.
    public static func estimate(endpoint: APIEndpoint, path: String, parameters: [(name: String, value: String)]) -> RequestCost {
        let query = Lookup(parameters)
        switch endpoint.family {
        case .place, .reverse:
            return .light
        case .map:
            switch endpoint {
            case .rasterTile: return .heavy("a raster tile")
            case .glyphs: return .medium("a glyph range")
            case .vectorTile: return .medium("a vector tile")
            default: return .light
            }
        case .autocomplete, .search, .migrateAddress:
            guard let text = query.first(.text) else { return .light }
            let characters = text.unicodeScalars.count
            if characters > lightTextCharacters { return .heavy("a text of \(characters) characters") }
            let words = wordCount(text)
            return words > lightTextWords ? .heavy("a text of \(words) words") : .light
        case .route:
            let points = query.count(.point)
            if points > lightWaypoints { return .heavy("a route of \(points) points") }
            return query.bypassesHierarchy(avoid: .avoid).map { .heavy("a route avoiding \($0)") } ?? .light
        case .directions:
            let waypoints = DirectionsPath(path: path).map { $0.coordinates.utf8.count { $0 == UInt8(ascii: ";") } + 1 } ?? 0
            if waypoints > lightWaypoints { return .heavy("Directions through \(waypoints) waypoints") }
            return query.bypassesHierarchy(avoid: .exclude).map { .heavy("Directions excluding \($0)") } ?? .light
        case .matrix:
            let points = query.count(.point)
            let sources = query.indexCount(.sources, points: points)
            let destinations = query.indexCount(.destinations, points: points)
            let cells = sources.multipliedReportingOverflow(by: destinations)
            if cells.overflow || cells.partialValue > lightMatrixCells {
                return .heavy("a matrix of \(sources) × \(destinations) cells")
            }
            return query.bypassesHierarchy(avoid: .avoid).map { .heavy("a matrix avoiding \($0)") } ?? .light
        case .tsp:
            let points = query.count(.point)
            if points > lightTourPoints { return .heavy("a tour of \(points) points") }
            return query.bypassesHierarchy(avoid: .avoid).map { .heavy("a tour avoiding \($0)") } ?? .light
        }
    }

    /// The words of `text`: runs between spaces, commas and other whitespace. Counted without splitting (this runs for
    /// every keystroke); an ASCII text by its bytes, where each byte is a character.
    static func wordCount(_ text: String) -> Int {
        var words = 0
        var inWord = false
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            for byte in text.utf8 {
                // ASCII whitespace (Character.isWhitespace): tab, LF, VT, FF, CR, space.
                let separator = byte == UInt8(ascii: ",") || byte == UInt8(ascii: " ") || (byte >= 0x09 && byte <= 0x0D)
                if !separator, !inWord { words += 1 }
                inWord = !separator
            }
            return words
        }
        for character in text {
            let separator = character == " " || character == "," || character.isWhitespace
            if !separator, !inWord { words += 1 }
            inWord = !separator
        }
        return words
    }

    /// The query read as the endpoints read it: documented name or alias, empty values absent.
    private struct Lookup {
        let parameters: [(name: String, value: String)]

        init(_ parameters: [(name: String, value: String)]) {
            self.parameters = parameters
        }

        func first(_ parameter: APIParameter) -> String? {
            for name in parameter.spellings {
                for item in parameters where item.name == name && !item.value.isEmpty { return item.value }
            }
            return nil
        }

        func count(_ parameter: APIParameter) -> Int {
            parameters.reduce(0) { $0 + (parameter.spellings.contains($1.name) && !$1.value.isEmpty ? 1 : 0) }
        }

        /// How many indexes a `sources`/`destinations` value lists (`all` or absent: every point).
        func indexCount(_ parameter: APIParameter, points: Int) -> Int {
            guard let value = first(parameter), value.lowercased() != "all" else { return points }
            return value.utf8.split(whereSeparator: { $0 == UInt8(ascii: ";") || $0 == UInt8(ascii: ",") }).count
        }

        /// What keeps the searches off the contraction hierarchies (`"toll"`, `"a truck's capacity"`), nil
        /// when nothing does. `avoid` is the parameter that lists toll/ferry (`exclude` for Directions).
        func bypassesHierarchy(avoid: APIParameter) -> String? {
            if let words = first(avoid)?.lowercased() {
                let listed = words.split(whereSeparator: { ",|; ".contains($0) })
                if listed.contains("toll") { return "toll" }
                if listed.contains("ferry") { return "ferry" }
            }
            let vehicle = first(.vehicle)?.lowercased()
            if vehicle == "container" { return "a container's weight" }
            if vehicle == "truck", first(.capacity) != nil { return "a truck's capacity" }
            return nil
        }
    }
}
