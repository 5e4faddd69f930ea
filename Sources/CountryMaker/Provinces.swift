import Foundation
import Geodesy

/// Vietnam's 2025 provinces from `units_2025_centroids_bbox.csv` (code, level, name, province,
/// province_code, centroid_lat, centroid_lng, bbox_min_lng, bbox_min_lat, bbox_max_lng,
/// bbox_max_lat), with each province's anchor — the median of its wards' centroids, which
/// stays on the mainland where islands pull the polygon centroid into the sea (Khánh Hoà,
/// Đà Nẵng) — and every ward centroid, the layout's measure of land.
struct Provinces {
    struct Province {
        var code: String
        /// "Thành phố Đà Nẵng", "Tỉnh Gia Lai".
        var name: String
        /// "Đà Nẵng", "Gia Lai".
        var shortName: String
        var anchorLat: Double
        var anchorLng: Double
    }

    /// Sorted by code.
    var provinces: [Province] = []
    var wardCentroids: [(lat: Double, lng: Double)] = []
    /// Ward bounding boxes in buckets of 0.1°: what `isInWard` looks up.
    private var wardBoxes: [(minLat: Double, minLng: Double, maxLat: Double, maxLng: Double)] = []
    private var buckets: [Int64: [Int32]] = [:]
    /// The union of the provinces' bounding boxes (islands included).
    var minLat = 90.0, minLng = 180.0, maxLat = -90.0, maxLng = -180.0

    init(csv url: URL) throws(CountryMakerError) {
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw CountryMakerError("cannot read \(url.path): \(error.localizedDescription)")
        }
        var lines = text.split(whereSeparator: \.isNewline).map(String.init)
        guard !lines.isEmpty else { throw CountryMakerError("\(url.path) is empty") }
        let header = lines.removeFirst().split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        func column(_ name: String) throws(CountryMakerError) -> Int {
            guard let index = header.firstIndex(of: name) else { throw CountryMakerError("\(url.path) has no column \(name)") }
            return index
        }
        let code = try column("code"), level = try column("level"), name = try column("name")
        let provinceCode = try column("province_code"), lat = try column("centroid_lat"), lng = try column("centroid_lng")
        let box = [try column("bbox_min_lng"), try column("bbox_min_lat"), try column("bbox_max_lng"), try column("bbox_max_lat")]
        var named: [String: String] = [:]
        var wardsOf: [String: [(Double, Double)]] = [:]
        for (number, line) in lines.enumerated() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == header.count, let la = Double(fields[lat]), let ln = Double(fields[lng]) else {
                throw CountryMakerError("\(url.path) line \(number + 2): expected \(header.count) fields with a numeric centroid")
            }
            switch fields[level] {
            case "province":
                named[fields[code]] = fields[name]
                let b = box.compactMap { Double(fields[$0]) }
                if b.count == 4 {
                    minLng = min(minLng, b[0]); minLat = min(minLat, b[1]); maxLng = max(maxLng, b[2]); maxLat = max(maxLat, b[3])
                }
            case "ward":
                wardCentroids.append((la, ln))
                let b = box.compactMap { Double(fields[$0]) }
                if b.count == 4 {
                    let index = Int32(wardBoxes.count)
                    wardBoxes.append((b[1], b[0], b[3], b[2]))
                    for row in Self.bucket(b[1]) ... Self.bucket(b[3]) {
                        for column in Self.bucket(b[0]) ... Self.bucket(b[2]) { buckets[Self.key(row, column), default: []].append(index) }
                    }
                }
                wardsOf[fields[provinceCode], default: []].append((la, ln))
            default:
                continue
            }
        }
        for code in named.keys.sorted() {
            guard let wards = wardsOf[code], !wards.isEmpty, let fullName = named[code] else { continue }
            let lats = wards.map(\.0).sorted(), lngs = wards.map(\.1).sorted()
            provinces.append(Province(code: code, name: fullName, shortName: Self.shortName(fullName),
                                      anchorLat: lats[lats.count / 2], anchorLng: lngs[lngs.count / 2]))
        }
        guard !provinces.isEmpty else { throw CountryMakerError("\(url.path) has no province with wards") }
    }

    private static func bucket(_ degrees: Double) -> Int64 { Int64((degrees * 10).rounded(.down)) }
    private static func key(_ row: Int64, _ column: Int64) -> Int64 { row * 100_000 + column }

    /// Whether a point lies in some ward's bounding box — where the import finds a ward for a
    /// place (outside every ward bbox, a place is dropped).
    func isInWard(lat: Double, lng: Double) -> Bool {
        guard let candidates = buckets[Self.key(Self.bucket(lat), Self.bucket(lng))] else { return false }
        return candidates.contains { i in
            let b = wardBoxes[Int(i)]
            return lat >= b.minLat && lat <= b.maxLat && lng >= b.minLng && lng <= b.maxLng
        }
    }

    static func shortName(_ name: String) -> String {
        for prefix in ["Thành phố ", "Tỉnh "] where name.hasPrefix(prefix) { return String(name.dropFirst(prefix.count)) }
        return name
    }

    /// The order copies are assigned in: the city's own province, then the other centrally
    /// governed cities (Hà Nội, Đà Nẵng, Hải Phòng, Cần Thơ, Huế), then the other provinces in an
    /// order the seed shuffles.
    func assignmentOrder(home: Int, seed: UInt64) -> [Int] {
        let cities = ["01", "48", "31", "92", "46", "79"]
        var order = [home]
        for code in cities {
            if let index = provinces.firstIndex(where: { $0.code == code }), index != home { order.append(index) }
        }
        let rest = provinces.indices.filter { !order.contains($0) }
            .sorted { (SeededHash.value(seed, 7, Int64($0)), $0) < (SeededHash.value(seed, 7, Int64($1)), $1) }
        return order + rest
    }

    /// The province whose anchor is nearest to a point.
    func nearest(lat: Double, lng: Double) -> Int {
        provinces.indices.min { a, b in
            Geo.planarDistance(lat, lng, provinces[a].anchorLat, provinces[a].anchorLng)
                < Geo.planarDistance(lat, lng, provinces[b].anchorLat, provinces[b].anchorLng)
        }!
    }
}
