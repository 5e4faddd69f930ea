import Foundation
import ArrayBlob
import HTTPServer
import JSON
import Routing

/// `GET /__sim/roads?bbox=minLon,minLat,maxLon,maxLat[&limit=N]`: the road graph's edges
/// in a rectangle as a GeoJSON FeatureCollection — the dashboard's base map.
///
/// Each feature is one edge: a `LineString` of `[lon, lat]` (6 decimals) with `name` and
/// `class` (the OSM `highway` value) as properties. Bounded: the rectangle may span at most
/// `maxSpanDegrees` on each side, and at most `limit` (default 5,000, at most 20,000) edges
/// are sent — the most important classes first; `total` and `truncated` (foreign members)
/// say how many were in the rectangle. Bad input is a 400 `{"error": "…"}`.
struct RoadsEndpoint: Sendable {
    static let maxSpanDegrees = 0.5
    static let defaultLimit = 5_000
    static let maxLimit = 20_000

    /// Nil when the dataset has no road graph (the answer is then an empty collection).
    let lazyIndex: LazyRoadIndex?

    init(graph: RoadGraph?) { lazyIndex = graph.map(LazyRoadIndex.init) }

    /// The edge index (built on first use).
    var index: RoadIndex? { lazyIndex?.index }

    struct BadRequest: Error {
        let message: String
    }

    func respond(to query: QueryParameters) -> HTTPResponse {
        do {
            let (box, limit) = try Self.parse(query)
            return HTTPResponse(status: 200, headers: ["Content-Type": "application/geo+json; charset=utf-8",
                                                       "Cache-Control": "private, max-age=300"],
                                body: Data(render(box: box, limit: limit)))
        } catch {
            return HTTPResponse.simulatorError(error.message, status: 400)
        }
    }

    /// `{"center": [lat, lng]}` of the busiest grid cell, `{"center": null}` without roads.
    func start() -> HTTPResponse {
        let center: JSONValue = index?.busiestPoint.map { .array([.number($0.latitude), .number($0.longitude)]) } ?? .null
        var response = HTTPResponse.json(Data(JSONSerializer.bytes(["center": center])))
        response.headers.set("Cache-Control", "private, max-age=300")
        return response
    }

    static func parse(_ query: QueryParameters) throws(BadRequest) -> (BoundingBox, Int) {
        guard let text = query.first("bbox"), !text.isEmpty else {
            throw BadRequest(message: "bbox is required: bbox=minLon,minLat,maxLon,maxLat")
        }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        let numbers = parts.compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }.filter(\.isFinite)
        guard parts.count == 4, numbers.count == 4 else {
            throw BadRequest(message: "bbox must be four numbers minLon,minLat,maxLon,maxLat, got '\(text.prefix(100))'")
        }
        let box = BoundingBox(minLongitude: numbers[0], minLatitude: numbers[1], maxLongitude: numbers[2], maxLatitude: numbers[3])
        guard (-180...180).contains(box.minLongitude), (-180...180).contains(box.maxLongitude),
              (-90...90).contains(box.minLatitude), (-90...90).contains(box.maxLatitude) else {
            throw BadRequest(message: "bbox out of range: longitudes -180…180, latitudes -90…90")
        }
        guard box.minLongitude < box.maxLongitude, box.minLatitude < box.maxLatitude else {
            throw BadRequest(message: "bbox must have minLon < maxLon and minLat < maxLat")
        }
        guard box.maxLongitude - box.minLongitude <= maxSpanDegrees, box.maxLatitude - box.minLatitude <= maxSpanDegrees else {
            throw BadRequest(message: "bbox too large: at most \(maxSpanDegrees)° on each side (zoom in)")
        }
        var limit = defaultLimit
        if let limitText = query.first("limit") {
            guard let value = Int(limitText), (1...maxLimit).contains(value) else {
                throw BadRequest(message: "limit must be a whole number from 1 to \(maxLimit), got '\(limitText.prefix(20))'")
            }
            limit = value
        }
        return (box, limit)
    }

    private func render(box: BoundingBox, limit: Int) -> [UInt8] {
        var edges = index?.edges(in: box) ?? []
        let total = edges.count
        if edges.count > limit, let graph = index?.graph {
            let classes = graph.storage.edgeRoadClass
            edges.sort { (Self.importance(classes[$0]), $0) < (Self.importance(classes[$1]), $1) }
            edges = Array(edges.prefix(limit))
        }
        var out: [UInt8] = []
        out.reserveCapacity(64 + edges.count * 200)
        out += Array(#"{"type":"FeatureCollection","bbox":["#.utf8)
        out += Array([box.minLongitude, box.minLatitude, box.maxLongitude, box.maxLatitude]
            .map { String($0) }.joined(separator: ",").utf8)
        out += Array(#"],"total":\#(total),"truncated":\#(total > edges.count),"features":["#.utf8)
        guard let graph = index?.graph else {
            out += Array("]}".utf8)
            return out
        }
        let storage = graph.storage
        for (position, edge) in edges.enumerated() {
            if position > 0 { out.append(UInt8(ascii: ",")) }
            out += Array(#"{"type":"Feature","id":\#(edge),"properties":{"name":"#.utf8)
            JSONSerializer.write(.string(graph.name(ofEdge: edge)), into: &out)
            out += Array(#","class":""#.utf8)
            out += Self.classNames[Int(storage.edgeRoadClass[edge])]
            out += Array(#""},"geometry":{"type":"LineString","coordinates":["#.utf8)
            let base = Int(storage.edgeBaseNode[edge]), adj = Int(storage.edgeAdjNode[edge])
            Self.writePoint(storage.nodeLonE7[base], storage.nodeLatE7[base], into: &out)
            for pillar in Int(storage.edgeGeometryStart[edge])..<Int(storage.edgeGeometryStart[edge + 1]) {
                out.append(UInt8(ascii: ","))
                Self.writePoint(storage.pillarLonE7[pillar], storage.pillarLatE7[pillar], into: &out)
            }
            out.append(UInt8(ascii: ","))
            Self.writePoint(storage.nodeLonE7[adj], storage.nodeLatE7[adj], into: &out)
            out += Array("]}}".utf8)
        }
        out += Array("]}".utf8)
        return out
    }

    /// Lower is drawn first when the limit cuts: motorways … residential, then the rest.
    private static func importance(_ rawClass: UInt8) -> Int {
        rawClass == RoadClass.other.rawValue ? 100 : Int(rawClass)
    }

    /// `className` of every raw class value, as UTF-8, made once (the roads answer writes one per edge).
    private static let classNames: [[UInt8]] = (0...UInt8.max).map { Array(className($0).utf8) }

    /// The OSM `highway` value of a road class (`primaryLink` → `primary_link`).
    static func className(_ rawClass: UInt8) -> String {
        guard let roadClass = RoadClass(rawValue: rawClass) else { return "other" }
        var name = ""
        for character in String(describing: roadClass) {
            if character.isUppercase { name += "_" + character.lowercased() } else { name.append(character) }
        }
        return name
    }

    /// `[lon,lat]` with 6 decimals from 1e-7 degrees.
    private static func writePoint(_ lonE7: Int32, _ latE7: Int32, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        writeDegrees(lonE7, into: &out)
        out.append(UInt8(ascii: ","))
        writeDegrees(latE7, into: &out)
        out.append(UInt8(ascii: "]"))
    }

    private static func writeDegrees(_ e7: Int32, into out: inout [UInt8]) {
        let micro = (Int(e7) + (e7 >= 0 ? 5 : -5)) / 10  // round half away from zero to 1e-6
        if micro < 0 { out.append(UInt8(ascii: "-")) }
        let magnitude = abs(micro)
        out += Array(String(magnitude / 1_000_000).utf8)
        out.append(UInt8(ascii: "."))
        let fraction = String(magnitude % 1_000_000)
        out += Array((String(repeating: "0", count: 6 - fraction.count) + fraction).utf8)
    }
}
