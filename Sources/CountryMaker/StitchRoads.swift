import Foundation
import Geodesy
import PBFWriter

/// The long roads joining the copies: a minimum spanning tree over the copies' centres plus a
/// few seeded extra links to near neighbours, each a `highway=trunk` way from a junction of one
/// copy to a junction of the other with a vertex every ≤ 1.5 km along a gentle curve.
///
/// A link's ends are junctions on trunk/primary/secondary two-way roads of the city's largest
/// connected car network, the one nearest the other copy — on the edge facing it.
struct StitchRoads {
    struct Link: Equatable {
        var from: Int
        var to: Int
    }

    struct Road {
        var from: Int
        var to: Int
        /// Node index in the city of the start (in copy `from`) and end (in copy `to`).
        var startNode: Int32
        var endNode: Int32
        /// Intermediate vertices, in 1e-7 degree.
        var vertices: [(latE7: Int64, lonE7: Int64)]
        var tags: PBFTags
        var lengthKm: Double
    }

    private(set) var roads: [Road] = []
    var vertexCount: Int { roads.reduce(0) { $0 + $1.vertices.count } }

    init(city: CityExtract, layout: CountryLayout, seed: UInt64) {
        let copies = layout.copies
        guard copies.count > 1 else { return }
        let candidates = Self.junctions(city)
        guard !candidates.isEmpty else { return }
        let centerLat = Double(city.bounds.minLatE7 + city.bounds.maxLatE7) / 2e7
        let centerLng = Double(city.bounds.minLonE7 + city.bounds.maxLonE7) / 2e7
        func center(_ copy: Int) -> (Double, Double) {
            (centerLat + Double(copies[copy].dLatE7) / 1e7, centerLng + Double(copies[copy].dLonE7) / 1e7)
        }
        func distance(_ a: Int, _ b: Int) -> Double {
            let p = center(a), q = center(b)
            return Geo.planarDistance(p.0, p.1, q.0, q.1) / 1000
        }

        // Prim's MST (O(n²), ties to the lower index).
        let n = copies.count
        var inTree = [Bool](repeating: false, count: n)
        var best = [Double](repeating: .infinity, count: n)
        var parent = [Int](repeating: -1, count: n)
        var links: [Link] = []
        best[0] = 0
        for _ in 0 ..< n {
            var next = -1
            for i in 0 ..< n where !inTree[i] && (next < 0 || best[i] < best[next]) { next = i }
            inTree[next] = true
            if parent[next] >= 0 { links.append(Link(from: min(parent[next], next), to: max(parent[next], next))) }
            for i in 0 ..< n where !inTree[i] {
                let d = distance(next, i)
                if d < best[i] { best[i] = d; parent[i] = next }
            }
        }
        // Extra links: each copy to one of its two nearest neighbours, one time in three.
        let cellKm = Geo.planarDistance(0, 0, Double(layout.cellHeightE7) / 1e7, Double(layout.cellWidthE7) / 1e7) / 1000
        var linked = Set(links.map { [$0.from, $0.to] })
        for i in 0 ..< n {
            let near = (0 ..< n).filter { $0 != i }.sorted { (distance(i, $0), $0) < (distance(i, $1), $1) }.prefix(2)
            for j in near where SeededHash.value(seed, 11, Int64(min(i, j)), Int64(max(i, j))) % 3 == 0 {
                let key = [min(i, j), max(i, j)]
                guard distance(i, j) <= 2.5 * cellKm, linked.insert(key).inserted else { continue }
                links.append(Link(from: key[0], to: key[1]))
            }
        }
        links.sort { ($0.from, $0.to) < ($1.from, $1.to) }

        for (number, link) in links.enumerated() {
            let a = copies[link.from], b = copies[link.to]
            // The other copy's centre, in this copy's original frame.
            func nearestCandidate(towardLatE7 lat: Int64, lonE7 lon: Int64) -> Int32 {
                var bestNode = candidates[0]
                var bestD = Double.infinity
                for node in candidates {
                    let dy = Double(city.latE7[Int(node)] - lat), dx = Double(city.lonE7[Int(node)] - lon)
                    let d = dx * dx + dy * dy
                    if d < bestD { bestD = d; bestNode = node }
                }
                return bestNode
            }
            let centerLatE7 = (city.bounds.minLatE7 + city.bounds.maxLatE7) / 2
            let centerLonE7 = (city.bounds.minLonE7 + city.bounds.maxLonE7) / 2
            let start = nearestCandidate(towardLatE7: centerLatE7 + b.dLatE7 - a.dLatE7, lonE7: centerLonE7 + b.dLonE7 - a.dLonE7)
            let end = nearestCandidate(towardLatE7: centerLatE7 + a.dLatE7 - b.dLatE7, lonE7: centerLonE7 + a.dLonE7 - b.dLonE7)
            let p = (Double(city.latE7[Int(start)] + a.dLatE7) / 1e7, Double(city.lonE7[Int(start)] + a.dLonE7) / 1e7)
            let q = (Double(city.latE7[Int(end)] + b.dLatE7) / 1e7, Double(city.lonE7[Int(end)] + b.dLonE7) / 1e7)
            let length = Geo.planarDistance(p.0, p.1, q.0, q.1) / 1000
            let segments = max(1, Int((length / 1.5).rounded(.up)))
            // A bow of up to 4 km to one side, and ±120 m of jitter per vertex.
            let side: Double = SeededHash.value(seed, 13, Int64(number)) % 2 == 0 ? 1 : -1
            let bow = side * min(0.04 * length, 4.0)
            let kmPerLat = Geo.metresPerDegree / 1000, kmPerLng = Geo.metresPerDegree / 1000 * cos((p.0 + q.0) / 2 * .pi / 180)
            let ex = (q.1 - p.1) * kmPerLng, ey = (q.0 - p.0) * kmPerLat
            let norm = max((ex * ex + ey * ey).squareRoot(), 1e-9)
            let (nx, ny) = (-ey / norm, ex / norm)  // left normal, km
            var vertices: [(latE7: Int64, lonE7: Int64)] = []
            for k in 1 ..< segments {
                let t = Double(k) / Double(segments)
                let jitter = (SeededHash.unit(seed, 17, Int64(number), Int64(k)) - 0.5) * 0.24
                let offset = bow * sin(.pi * t) + jitter
                let baseLat: Double = p.0 + (q.0 - p.0) * t
                let baseLng: Double = p.1 + (q.1 - p.1) * t
                let lat: Double = baseLat + ny * offset / kmPerLat
                let lng: Double = baseLng + nx * offset / kmPerLng
                vertices.append((CityExtract.e7(lat), CityExtract.e7(lng)))
            }
            let (name, ref) = Self.name(from: p, to: q, seed: seed, number: number)
            roads.append(Road(from: link.from, to: link.to, startNode: start, endNode: end, vertices: vertices,
                              tags: [("highway", "trunk"), ("lanes", "2"), ("maxspeed", "80"), ("name", name),
                                     ("oneway", "no"), ("ref", ref)],
                              lengthKm: length))
        }
    }

    /// National roads a link is named after: north–south links east of 106° E are Quốc lộ 1A,
    /// west of it the Hồ Chí Minh road; others take a real national road's name by seed.
    static let crossRoutes: [(String, String)] = [
        ("Quốc lộ 5", "QL5"), ("Quốc lộ 6", "QL6"), ("Quốc lộ 9", "QL9"), ("Quốc lộ 10", "QL10"), ("Quốc lộ 13", "QL13"),
        ("Quốc lộ 14", "QL14"), ("Quốc lộ 18", "QL18"), ("Quốc lộ 19", "QL19"), ("Quốc lộ 20", "QL20"),
        ("Quốc lộ 22", "QL22"), ("Quốc lộ 24", "QL24"), ("Quốc lộ 27", "QL27"), ("Quốc lộ 51", "QL51"),
        ("Quốc lộ 61", "QL61"), ("Quốc lộ 80", "QL80"), ("Quốc lộ 91", "QL91"),
    ]

    static func name(from p: (Double, Double), to q: (Double, Double), seed: UInt64, number: Int) -> (String, String) {
        let dy = abs(q.0 - p.0), dx = abs(q.1 - p.1) * cos((p.0 + q.0) / 2 * .pi / 180)
        if dy >= 1.5 * dx {
            return (p.1 + q.1) / 2 >= 106.0 ? ("Quốc lộ 1A", "QL1A") : ("Đường Hồ Chí Minh", "HCM")
        }
        return crossRoutes[Int(SeededHash.value(seed, 19, Int64(number)) % UInt64(crossRoutes.count))]
    }

    /// Junction nodes (on two or more car ways) of two-way trunk/primary/secondary roads in the
    /// largest connected car network, by index.
    static func junctions(_ city: CityExtract) -> [Int32] {
        let car: Set<String> = ["motorway", "motorway_link", "trunk", "trunk_link", "primary", "primary_link", "secondary",
                                "secondary_link", "tertiary", "tertiary_link", "unclassified", "residential",
                                "living_street", "service", "road"]
        let major: Set<String> = ["trunk", "primary", "secondary"]
        var parent = Array(0 ..< Int32(city.nodeIDs.count))
        func find(_ x: Int32) -> Int32 {
            var x = x
            while parent[Int(x)] != x { parent[Int(x)] = parent[Int(parent[Int(x)])]; x = parent[Int(x)] }
            return x
        }
        var uses = [UInt8](repeating: 0, count: city.nodeIDs.count)
        var onMajor = [Bool](repeating: false, count: city.nodeIDs.count)
        for way in city.ways {
            let highway = way.tags.first { $0.key == "highway" }?.value ?? ""
            guard car.contains(highway) else { continue }
            let tag = { (key: String) in way.tags.first { $0.key == key }?.value }
            if tag("access") == "no" || tag("access") == "private" || tag("motor_vehicle") == "no" { continue }
            for node in way.nodes where uses[Int(node)] < 255 { uses[Int(node)] += 1 }
            if let first = way.nodes.first {
                for node in way.nodes.dropFirst() {
                    let (x, y) = (find(first), find(node))
                    if x != y { parent[Int(x)] = y }
                }
            }
            let oneway = tag("oneway") ?? "no"
            if major.contains(highway), oneway == "no" || oneway == "false" || oneway == "0", tag("junction") != "roundabout" {
                for node in way.nodes { onMajor[Int(node)] = true }
            }
        }
        var size: [Int32: Int] = [:]
        for i in city.nodeIDs.indices where uses[i] > 0 { size[find(Int32(i)), default: 0] += 1 }
        guard let main = size.max(by: { ($0.value, -$0.key) < ($1.value, -$1.key) })?.key else { return [] }
        return city.nodeIDs.indices.filter { onMajor[$0] && uses[$0] >= 2 && find(Int32($0)) == main }.map { Int32($0) }
    }
}
