import Foundation
import Geodesy
import PBFWriter

/// House numbers added to every copy but the first, so that a country has as many addressed
/// points as its size suggests (a plain copy of HCMC holds ~7k address points for ~25k places):
/// points every few dozen metres along the city's named streets, odd numbers on one side and
/// even on the other, counted from the start of the street (over all its ways, in id order) at
/// ~4 m of frontage per house; one in five is an alley house ("45/7"). Each copy starts the walk
/// at its own seeded phase, so copies differ. The city itself (copy 0) stays as it is.
struct SyntheticAddresses {
    struct Street {
        var name: String
        var nodes: [Int32]
        /// Metres of the same-named street in earlier ways.
        var startMeters: Double
        var meters: Double
    }

    struct Point {
        var latE7: Int64
        var lonE7: Int64
        var tags: PBFTags
    }

    static let streetClasses: Set<String> = ["primary", "secondary", "tertiary", "unclassified", "residential", "living_street"]

    private(set) var streets: [Street] = []
    private(set) var totalMeters = 0.0
    /// Points per copy (one more at most).
    let target: Int

    init(city: CityExtract, target: Int) {
        self.target = max(0, target)
        var soFar: [String: Double] = [:]
        for way in city.ways {
            guard let highway = way.tags.first(where: { $0.key == "highway" })?.value, Self.streetClasses.contains(highway),
                  let name = way.tags.first(where: { $0.key == "name" })?.value, !name.isEmpty, way.nodes.count >= 2 else { continue }
            var meters = 0.0
            for k in 1 ..< way.nodes.count { meters += Self.meters(city, way.nodes[k - 1], way.nodes[k]) }
            streets.append(Street(name: name, nodes: way.nodes, startMeters: soFar[name, default: 0], meters: meters))
            soFar[name, default: 0] += meters
            totalMeters += meters
        }
    }

    static func meters(_ city: CityExtract, _ a: Int32, _ b: Int32) -> Double {
        let lat1 = Double(city.latE7[Int(a)]) / 1e7, lng1 = Double(city.lonE7[Int(a)]) / 1e7
        let lat2 = Double(city.latE7[Int(b)]) / 1e7, lng2 = Double(city.lonE7[Int(b)]) / 1e7
        return Geo.planarDistance(lat1, lng1, lat2, lng2)
    }

    /// The points of copy `copyIndex` (≥ 1), in the city's original frame.
    func points(city: CityExtract, copyIndex: Int, seed: UInt64) -> [Point] {
        guard target > 0, totalMeters > 0, copyIndex > 0 else { return [] }
        let spacing = totalMeters / Double(target)
        var next = SeededHash.unit(seed, 29, Int64(copyIndex)) * spacing
        var walked = 0.0
        var points: [Point] = []
        points.reserveCapacity(target + 1)
        for street in streets {
            var along = 0.0
            for k in 1 ..< street.nodes.count {
                let a = street.nodes[k - 1], b = street.nodes[k]
                let length = Self.meters(city, a, b)
                while next < walked + length, length > 0 {
                    let t = (next - walked) / length
                    let number = points.count
                    let side = number % 2
                    let alley = SeededHash.value(seed, 31, Int64(copyIndex), Int64(number)) % 5 == 0
                    let house = Int((street.startMeters + along + t * length) / 4)
                    var text = String(side == 0 ? 2 * house + 1 : 2 * house + 2)
                    if alley { text += "/\(1 + SeededHash.value(seed, 37, Int64(copyIndex), Int64(number)) % 24)" }
                    // 12 m from the centre line (40 m for an alley house), to the left or right.
                    let la = Double(city.latE7[Int(a)]), lo = Double(city.lonE7[Int(a)])
                    let lb = Double(city.latE7[Int(b)]), ob = Double(city.lonE7[Int(b)])
                    let cosLat = cos(la / 1e7 * .pi / 180)
                    let ex = (ob - lo) * cosLat, ey = lb - la
                    let norm = max((ex * ex + ey * ey).squareRoot(), 1e-9)
                    let offsetE7 = (alley ? 40.0 : 12.0) / Geo.metresPerDegree * 1e7 * (side == 0 ? 1 : -1)
                    let lat = la + (lb - la) * t + (ex / norm) * offsetE7
                    let lon = lo + (ob - lo) * t - (ey / norm) * offsetE7 / cosLat
                    points.append(Point(latE7: Int64(lat.rounded()), lonE7: Int64(lon.rounded()),
                                        tags: [("addr:housenumber", text), ("addr:street", street.name)]))
                    next += spacing
                }
                walked += length
                along += length
            }
        }
        return points
    }
}
