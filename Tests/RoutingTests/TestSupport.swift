import Foundation
import SeededRandom
import SimTesting
import TestExpectations
import Testing
@testable import Routing


/// Builds small networks in a local metric frame around District 1 (x east, y north, metres).
struct NetBuilder {
    static let lat0 = 10.77, lon0 = 106.70
    var nodes: [(id: Int64, lat: Double, lon: Double)] = []
    var ways: [RoadWay] = []
    var restrictions: [TurnRestriction] = []
    var nextWay: Int64 = 1000

    static func latLon(_ x: Double, _ y: Double) -> (Double, Double) {
        let lat = lat0 + y / 111_195.0
        let lon = lon0 + x / (111_195.0 * cos(lat0 * .pi / 180))
        // Stored at OSM precision so raw and graph distances agree.
        return ((lat * 1e7).rounded() / 1e7, (lon * 1e7).rounded() / 1e7)
    }

    static func point(_ x: Double, _ y: Double) -> GeoPoint {
        let (la, lo) = latLon(x, y)
        return GeoPoint(la, lo)
    }

    mutating func node(_ id: Int64, _ x: Double, _ y: Double) {
        let (la, lo) = Self.latLon(x, y)
        nodes.append((id, la, lo))
    }

    @discardableResult
    mutating func way(_ nodeIDs: [Int64], _ tags: [String: String], id: Int64? = nil) -> Int64 {
        let wid = id ?? nextWay
        nextWay = max(nextWay, wid) + 1
        ways.append(RoadWay(id: wid, nodeIDs: nodeIDs, tags: tags))
        return wid
    }

    var input: RoadNetworkInput { RoadNetworkInput(nodes: nodes, ways: ways, restrictions: restrictions) }
    func build() -> RoadGraph { RoadGraphBuilder.build(input) }
}

/// A plain binary min-heap for the reference Dijkstra.
struct MinHeap {
    var items: [(Double, Int)] = []
    var isEmpty: Bool { items.isEmpty }
    mutating func push(_ k: Double, _ v: Int) {
        items.append((k, v))
        var i = items.count - 1
        while i > 0 {
            let p = (i - 1) / 2
            if items[p].0 <= items[i].0 { break }
            items.swapAt(p, i); i = p
        }
    }
    mutating func pop() -> (Double, Int) {
        let top = items[0]
        let last = items.removeLast()
        if !items.isEmpty {
            items[0] = last
            var i = 0
            while true {
                var c = 2 * i + 1
                if c >= items.count { break }
                if c + 1 < items.count && items[c + 1].0 < items[c].0 { c += 1 }
                if items[i].0 <= items[c].0 { break }
                items.swapAt(i, c); i = c
            }
        }
        return top
    }
}

/// Reference: node-based Dijkstra over the raw OSM nodes (every way segment an edge), written independently of
/// the library's graph/search. `segment` tells whether a vehicle may go a → b along a way and at what km/h.
struct RawNetwork {
    var index: [Int64: Int] = [:]
    var lat: [Double] = []
    var lon: [Double] = []
    var adj: [[(to: Int, seconds: Double)]] = []

    init(_ input: RoadNetworkInput, speed: (RoadWay, Bool) -> Double?) {
        var coord: [Int64: (Double, Double)] = [:]
        for i in 0..<input.nodeIDs.count { coord[input.nodeIDs[i]] = (input.nodeLatitudes[i], input.nodeLongitudes[i]) }
        func idx(_ id: Int64) -> Int {
            if let i = index[id] { return i }
            let i = lat.count
            index[id] = i
            lat.append(coord[id]!.0); lon.append(coord[id]!.1); adj.append([])
            return i
        }
        for w in input.ways {
            let fwd = speed(w, true), bwd = speed(w, false)
            if fwd == nil && bwd == nil { continue }
            for k in 1..<w.nodeIDs.count {
                guard coord[w.nodeIDs[k - 1]] != nil, coord[w.nodeIDs[k]] != nil else { continue }
                let a = idx(w.nodeIDs[k - 1]), b = idx(w.nodeIDs[k])
                if a == b { continue }
                let d = Geo.distance(lat[a], lon[a], lat[b], lon[b])
                if let f = fwd { adj[a].append((b, d * 3.6 / f)) }
                if let r = bwd { adj[b].append((a, d * 3.6 / r)) }
            }
        }
    }

    func shortest(from s: Int, to t: Int) -> Double? {
        var dist = [Double](repeating: .infinity, count: lat.count)
        var heap = MinHeap()
        dist[s] = 0
        heap.push(0, s)
        while !heap.isEmpty {
            let (d, v) = heap.pop()
            if d > dist[v] { continue }
            if v == t { return d }
            for (w, c) in adj[v] where d + c < dist[w] {
                dist[w] = d + c
                heap.push(d + c, w)
            }
        }
        return nil
    }
}

/// Per-vehicle speed from the library's own tag interpretation (for real data: checks search + builder).
func profileSpeed(_ vehicle: Vehicle) -> (RoadWay, Bool) -> Double? {
    return { way, forward in
        guard let p = VehicleProfiles.interpret(tags: way.tags) else { return nil }
        let bit = UInt16(1) << UInt16(2 * vehicle.rawValue + (forward ? 0 : 1))
        guard p.access & bit != 0, p.speeds[vehicle.rawValue] > 0 else { return nil }
        return Double(p.speeds[vehicle.rawValue])
    }
}

/// Minimal OSM XML reader for tests only (one element per line, as the embedded extracts are written).
enum TinyOSMXML {
    static func unescape(_ s: Substring) -> String {
        guard s.contains("&") else { return String(s) }
        var out = ""
        var i = s.startIndex
        while i < s.endIndex {
            if s[i] == "&", let semi = s[i...].firstIndex(of: ";") {
                let ent = s[s.index(after: i)..<semi]
                var rep: String?
                switch ent {
                case "amp": rep = "&"
                case "lt": rep = "<"
                case "gt": rep = ">"
                case "quot": rep = "\""
                case "apos": rep = "'"
                default:
                    if ent.hasPrefix("#x"), let v = UInt32(ent.dropFirst(2), radix: 16), let u = Unicode.Scalar(v) {
                        rep = String(Character(u))
                    } else if ent.hasPrefix("#"), let v = UInt32(ent.dropFirst()), let u = Unicode.Scalar(v) {
                        rep = String(Character(u))
                    }
                }
                if let rep { out += rep; i = s.index(after: semi); continue }
            }
            out.append(s[i])
            i = s.index(after: i)
        }
        return out
    }

    static func attr(_ line: Substring, _ name: String) -> Substring? {
        guard let r = line.range(of: " \(name)=\"") else { return nil }
        let rest = line[r.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return rest[..<end]
    }

    static func load(path: String) throws -> RoadNetworkInput {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let text = String(decoding: data, as: UTF8.self)
        var ids: [Int64] = [], lats: [Double] = [], lons: [Double] = []
        var ways: [RoadWay] = []
        var restrictions: [TurnRestriction] = []
        var curWay: RoadWay?
        var relTags: [String: String]?
        var relMembers: [(type: String, ref: Int64, role: String)] = []
        var inNode = false
        for rawLine in text.split(separator: "\n") {
            let line = rawLine.drop(while: { $0 == " " || $0 == "\t" })
            if line.hasPrefix("<node ") {
                if let id = attr(line, "id").flatMap({ Int64($0) }), let la = attr(line, "lat").flatMap({ Double($0) }),
                   let lo = attr(line, "lon").flatMap({ Double($0) }) {
                    ids.append(id); lats.append(la); lons.append(lo)
                }
                inNode = !line.hasSuffix("/>")
            } else if line.hasPrefix("</node") {
                inNode = false
            } else if line.hasPrefix("<way ") {
                curWay = RoadWay(id: attr(line, "id").flatMap { Int64($0) } ?? 0, nodeIDs: [], tags: [:])
            } else if line.hasPrefix("</way") {
                if let w = curWay, w.tags["highway"] != nil || w.tags["route"] == "ferry" { ways.append(w) }
                curWay = nil
            } else if line.hasPrefix("<nd "), curWay != nil {
                if let r = attr(line, "ref").flatMap({ Int64($0) }) { curWay!.nodeIDs.append(r) }
            } else if line.hasPrefix("<relation ") {
                relTags = [:]; relMembers = []
            } else if line.hasPrefix("<member "), relTags != nil {
                if let t = attr(line, "type"), let r = attr(line, "ref").flatMap({ Int64($0) }) {
                    relMembers.append((String(t), r, unescape(attr(line, "role") ?? "")))
                }
            } else if line.hasPrefix("</relation") {
                if let t = relTags { restrictions += TurnRestriction.from(relationTags: t, members: relMembers) }
                relTags = nil
            } else if line.hasPrefix("<tag ") {
                guard let k = attr(line, "k"), let v = attr(line, "v") else { continue }
                if curWay != nil { curWay!.tags[unescape(k)] = unescape(v) }
                else if relTags != nil { relTags![unescape(k)] = unescape(v) }
                _ = inNode
            }
        }
        return RoadNetworkInput(nodeIDs: ids, nodeLatitudes: lats, nodeLongitudes: lons, ways: ways,
                                restrictions: restrictions)
    }
}

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    guard !sorted.isEmpty else { return 0 }
    return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * p))]
}

func monotonicMicros() -> Double {
    Double(DispatchTime.now().uptimeNanoseconds) / 1e3
}

func assertConsistent(_ r: Route, filePath: String = #filePath, line: Int = #line) {
    expectFalse(r.instructions.isEmpty, filePath: filePath, line: line)
    var dm = 0, ms = 0
    for (i, ins) in r.instructions.enumerated() {
        expectTrue(ins.interval.lowerBound >= 0 && ins.interval.upperBound < r.points.count,
                      "interval \(ins.interval) outside points", filePath: filePath, line: line)
        if i + 1 < r.instructions.count {
            expectEqual(ins.interval.upperBound, r.instructions[i + 1].interval.lowerBound,
                           "intervals not contiguous at \(i)", filePath: filePath, line: line)
        }
        dm += Int((ins.distance * 10).rounded())
        ms += ins.time
        expectTrue(ins.heading >= 0 && ins.heading < 360, filePath: filePath, line: line)
    }
    expectEqual(dm, Int((r.distance * 10).rounded()), "distances do not sum", filePath: filePath, line: line)
    expectEqual(ms, r.time, "times do not sum", filePath: filePath, line: line)
    let fin = r.instructions.last!
    expectEqual(fin.sign, 4, filePath: filePath, line: line)
    expectEqual(fin.text, "Đến nơi", filePath: filePath, line: line)
    expectEqual(fin.distance, 0, filePath: filePath, line: line)
    expectEqual(fin.time, 0, filePath: filePath, line: line)
    expectEqual(fin.interval, (r.points.count - 1)...(r.points.count - 1), filePath: filePath, line: line)
    expectNotNil(fin.lastHeading, filePath: filePath, line: line)
    expectEqual(r.instructions.first!.interval.lowerBound, 0, filePath: filePath, line: line)
    expectEqual(r.points.first, r.snappedWaypoints.first, filePath: filePath, line: line)
    expectEqual(r.points.last, r.snappedWaypoints.last, filePath: filePath, line: line)
    // Geometry length matches the reported distance.
    var len = 0.0
    for k in 1..<max(1, r.points.count) { len += Geo.distance(r.points[k - 1], r.points[k]) }
    expectEqual(len, r.distance, accuracy: 0.5 + r.distance * 1e-6, filePath: filePath, line: line)
}

/// The tests' name for the shared seeded generator.
typealias SeededRNG = SplitMix64
