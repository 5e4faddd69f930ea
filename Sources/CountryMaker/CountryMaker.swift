import Foundation
import OSMReader
import PBFWriter

/// Writes a country-sized OSM PBF: the importable part of one city's extract, copied `scale`
/// times over Vietnam's provinces (ids renumbered, coordinates translated, place names and
/// region tags varied per copy) and stitched together by long trunk roads. Deterministic: the
/// same input, scale and seed give the same bytes. Memory holds the filtered city once; the
/// copies are written one after the other. See docs/country.md.
public enum CountryMaker {
    public static let defaultSeed: UInt64 = 21
    public static let maxScale = 512
    /// HCMC gives ~24.4k places per copy, and at 64 copies ~7 copies' worth fall at sea or abroad (no
    /// ward): 15,000 more address points per copy take 64 copies past 2 M places (≈ 2.2 M).
    public static let defaultExtraAddresses = 15_000

    public struct Options: Sendable {
        public var scale: Int
        public var seed: UInt64
        /// The city's OSM file (PBF or XML).
        public var input: URL
        /// `units_2025_centroids_bbox.csv`.
        public var provincesCSV: URL
        public var output: URL
        /// House numbers added to each copy but the first (`SyntheticAddresses`); 0 = plain copies.
        public var extraAddresses: Int

        public init(scale: Int, seed: UInt64 = CountryMaker.defaultSeed, input: URL, provincesCSV: URL, output: URL,
                    extraAddresses: Int = CountryMaker.defaultExtraAddresses) {
            self.scale = scale
            self.extraAddresses = extraAddresses
            self.seed = seed
            self.input = input
            self.provincesCSV = provincesCSV
            self.output = output
        }
    }

    /// One copy of the city.
    public struct Placement: Sendable, Equatable {
        public var provinceCode: String
        public var provinceName: String
        /// Translation from the city, in degrees.
        public var dLat: Double
        public var dLng: Double
        /// Node ids of this copy are `firstNodeID ..< firstNodeID + cityNodes`; ways likewise.
        public var firstNodeID: Int64
        public var firstWayID: Int64
        /// Share of a sample of the city's places that fall outside every ward bbox here (the
        /// import drops those): 0 on land, up to 1 at sea.
        public var outsideWards: Double
    }

    public struct Report: Sendable, CustomStringConvertible {
        public var cityNodes = 0, cityWays = 0, cityRelations = 0
        public var copies: [Placement] = []
        /// The centre of the city's bounding box (copy 1's centre).
        public var cityCentre = (lat: 0.0, lng: 0.0)
        /// Address points added over all copies (`Options.extraAddresses`).
        public var addedAddresses = 0
        public var stitchRoads = 0, stitchNodes = 0
        public var stitchKm = 0.0
        public var nodes = 0, ways = 0, relations = 0
        public var bytes = 0
        public var seconds = 0.0

        public var description: String {
            String(format: "%d cop%@ of %d nodes, %d ways, %d relations + %d added address points + %d stitch roads (%.0f km, %d nodes): %d nodes, %d ways, %d relations, %d bytes in %.1f s",
                   copies.count, copies.count == 1 ? "y" : "ies", cityNodes, cityWays, cityRelations, addedAddresses, stitchRoads, stitchKm,
                   stitchNodes, nodes, ways, relations, bytes, seconds)
        }
    }

    /// Writes `options.output` (through a temporary file renamed into place) and reports on it.
    /// `progress` receives short status lines ("nodes: copy 3/8, 12 MiB").
    public static func make(_ options: Options, progress: (String) -> Void = { _ in }) throws(CountryMakerError) -> Report {
        let started = DispatchTime.now().uptimeNanoseconds
        guard (1 ... maxScale).contains(options.scale) else {
            throw CountryMakerError("--scale must be 1…\(maxScale), not \(options.scale)")
        }
        guard (0 ... 1_000_000).contains(options.extraAddresses) else {
            throw CountryMakerError("--extra-addresses must be 0…1000000, not \(options.extraAddresses)")
        }
        let provinces = try Provinces(csv: options.provincesCSV)
        progress("reading \(options.input.lastPathComponent)")
        let city: CityExtract
        do {
            city = try CityExtract(reading: options.input)
        } catch {
            throw CountryMakerError("cannot read \(options.input.path): \(error)")
        }
        guard !city.nodeIDs.isEmpty, !city.ways.isEmpty else {
            throw CountryMakerError("\(options.input.path) has no roads or places to copy")
        }
        let layout = CountryLayout(city: city.bounds, places: city.placeSample(400), scale: options.scale, provinces: provinces,
                                   seed: options.seed)
        let stitch = StitchRoads(city: city, layout: layout, seed: options.seed)
        let addresses = SyntheticAddresses(city: city, target: options.extraAddresses)

        // Ids: copy c's node i is c·nodeStride + i + 1 (strides are powers of ten: readable ids);
        // the stitch roads' own nodes and ways follow the last copy.
        let nodeStride = stride(city.nodeIDs.count + addresses.target + 1), wayStride = stride(city.ways.count), relationStride = stride(city.relations.count)
        let copies = layout.copies
        var report = Report(cityNodes: city.nodeIDs.count, cityWays: city.ways.count, cityRelations: city.relations.count)
        report.cityCentre = (Double(city.bounds.minLatE7 + city.bounds.maxLatE7) / 2e7, Double(city.bounds.minLonE7 + city.bounds.maxLonE7) / 2e7)
        report.copies = copies.enumerated().map { index, copy in
            Placement(provinceCode: provinces.provinces[copy.province].code, provinceName: provinces.provinces[copy.province].name,
                      dLat: Double(copy.dLatE7) / 1e7, dLng: Double(copy.dLonE7) / 1e7,
                      firstNodeID: Int64(index) * nodeStride + 1, firstWayID: Int64(index) * wayStride + 1,
                      outsideWards: layout.outsideShare[index])
        }

        // The header's bbox: every copy's (added house numbers lie up to 40 m off their street,
        // hence a margin), and the stitch roads' vertices.
        var box = PBFBoundingBox(minLatE7: .max, minLonE7: .max, maxLatE7: .min, maxLonE7: .min)
        let margin: Int64 = addresses.target > 0 ? 5000 : 0
        for copy in copies {
            box.minLatE7 = min(box.minLatE7, city.bounds.minLatE7 + copy.dLatE7 - margin)
            box.maxLatE7 = max(box.maxLatE7, city.bounds.maxLatE7 + copy.dLatE7 + margin)
            box.minLonE7 = min(box.minLonE7, city.bounds.minLonE7 + copy.dLonE7 - margin)
            box.maxLonE7 = max(box.maxLonE7, city.bounds.maxLonE7 + copy.dLonE7 + margin)
        }
        for road in stitch.roads {
            for v in road.vertices {
                box.minLatE7 = min(box.minLatE7, v.latE7); box.maxLatE7 = max(box.maxLatE7, v.latE7)
                box.minLonE7 = min(box.minLonE7, v.lonE7); box.maxLonE7 = max(box.maxLonE7, v.lonE7)
            }
        }

        let destination = options.output
        let temporary = destination.deletingLastPathComponent()
            .appendingPathComponent(".\(destination.lastPathComponent).\(getpid()).tmp")
        do throws(CountryMakerError) {
            let writer: PBFWriter
            do {
                writer = try PBFWriter(path: temporary.path, bounds: box, writingProgram: "vietmap-sim make-country",
                                       source: "© OpenStreetMap contributors (ODbL 1.0), copied by vietmap-sim make-country")
            } catch {
                throw CountryMakerError("cannot write \(destination.path): \(error.reason)")
            }
            do throws(PBFWriteError) {
                let namings = copies.indices.map { CopyNaming(seed: options.seed, copyIndex: $0, copy: copies[$0], provinces: provinces) }
                func step(_ what: String, _ c: Int) {
                    progress("\(what): copy \(c + 1)/\(copies.count), \(writer.bytesWritten / 1_048_576) MiB")
                }
                // Nodes.
                for (c, copy) in copies.enumerated() {
                    step("nodes", c)
                    let base = Int64(c) * nodeStride + 1
                    let naming = namings[c]
                    for i in city.nodeIDs.indices {
                        let tagIndex = city.nodeTagIndex[i]
                        var tags: PBFTags = []
                        if tagIndex >= 0 {
                            let tagged = city.taggedNodes[Int(tagIndex)]
                            tags = naming.tags(tagged.tags, placeName: tagged.placeName, regionTags: tagged.hasRegionTags,
                                               kind: 0, id: city.nodeIDs[i])
                        }
                        try writer.node(id: base + Int64(i), latE7: city.latE7[i] + copy.dLatE7, lonE7: city.lonE7[i] + copy.dLonE7,
                                        tags: tags)
                    }
                    let added = addresses.points(city: city, copyIndex: c, seed: options.seed)
                    for (k, point) in added.enumerated() {
                        try writer.node(id: base + Int64(city.nodeIDs.count + k), latE7: point.latE7 + copy.dLatE7,
                                        lonE7: point.lonE7 + copy.dLonE7, tags: point.tags)
                    }
                    report.addedAddresses += added.count
                }
                let stitchNodeBase = Int64(copies.count) * nodeStride + 1
                var next = stitchNodeBase
                for road in stitch.roads {
                    for v in road.vertices {
                        try writer.node(id: next, latE7: v.latE7, lonE7: v.lonE7)
                        next += 1
                    }
                }
                // Ways.
                for c in copies.indices {
                    step("ways", c)
                    let nodeBase = Int64(c) * nodeStride + 1, wayBase = Int64(c) * wayStride + 1
                    let naming = namings[c]
                    for (w, way) in city.ways.enumerated() {
                        try writer.way(id: wayBase + Int64(w), refs: way.nodes.map { nodeBase + Int64($0) },
                                       tags: naming.tags(way.tags, placeName: way.placeName, regionTags: way.hasRegionTags,
                                                         kind: 1, id: way.id))
                    }
                }
                next = stitchNodeBase
                var stitchWay = Int64(copies.count) * wayStride + 1
                for road in stitch.roads {
                    var refs = [Int64(road.from) * nodeStride + 1 + Int64(road.startNode)]
                    for _ in road.vertices { refs.append(next); next += 1 }
                    refs.append(Int64(road.to) * nodeStride + 1 + Int64(road.endNode))
                    try writer.way(id: stitchWay, refs: refs, tags: road.tags)
                    stitchWay += 1
                }
                // Relations.
                for c in copies.indices where !city.relations.isEmpty {
                    step("relations", c)
                    let nodeBase = Int64(c) * nodeStride + 1, wayBase = Int64(c) * wayStride + 1
                    let relationBase = Int64(c) * relationStride + 1
                    let naming = namings[c]
                    for (r, relation) in city.relations.enumerated() {
                        let members = relation.members.map { member in
                            PBFMember(kind: member.kind, ref: (member.kind == .node ? nodeBase : wayBase) + Int64(member.index),
                                      role: member.role)
                        }
                        try writer.relation(id: relationBase + Int64(r), members: members,
                                            tags: naming.tags(relation.tags, placeName: relation.placeName,
                                                              regionTags: relation.hasRegionTags, kind: 2, id: relation.id))
                    }
                }
                try writer.close()
                report.nodes = writer.nodes
                report.ways = writer.ways
                report.relations = writer.relations
                report.bytes = writer.bytesWritten
            } catch {
                throw CountryMakerError("cannot write \(destination.path): \(error.reason)")
            }
            guard rename(temporary.path, destination.path) == 0 else {
                throw CountryMakerError("cannot write \(destination.path): \(String(cString: strerror(errno)))")
            }
        } catch {
            unlink(temporary.path)
            throw error
        }
        report.stitchRoads = stitch.roads.count
        report.stitchNodes = stitch.vertexCount
        report.stitchKm = stitch.roads.reduce(0) { $0 + $1.lengthKm }
        report.seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        return report
    }

    /// The smallest power of ten above `count` (at least 10).
    static func stride(_ count: Int) -> Int64 {
        var s: Int64 = 10
        while s <= Int64(count) { s *= 10 }
        return s
    }
}
