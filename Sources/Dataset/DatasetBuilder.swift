import Foundation
import Routing
import SQLiteStore
import TextFolding

/// Builds a dataset (see ``DatasetSchema``) from input files, atomically.
///
/// Each input's kind is detected from its content (``InputKind``); a directory input stands
/// for the recognisable files inside it. The database is written to a temporary file next
/// to `output` in one transaction and renamed over `output` only when complete: on any
/// error the temporary file is removed and an existing `output` is left untouched.
///
/// For example:
/// ```swift
/// let report = try DatasetBuilder().build(inputs: DefaultData.inputFiles, output: url)
/// print(report)
/// ```
public struct DatasetBuilder: Sendable {
    /// Receives a line as each step starts (`2/15 reading hcmc_pois_osm2018.csv`, `writing …`),
    /// for a build long enough that silence looks like a hang; nil: nothing.
    public var progress: (@Sendable (String) -> Void)?
    /// Whether to contract the road graph (one `ContractionHierarchy` per vehicle, table `road_graph_ch`).
    /// Without them the dataset routes with the A* alone.
    public var contractionHierarchies = true

    public init(progress: (@Sendable (String) -> Void)? = nil) {
        self.progress = progress
    }

    /// - Parameters:
    ///   - inputs: files (or directories of files) to import, in order.
    ///   - output: the database file to create or replace.
    /// - Returns: what was imported.
    /// - Throws: ``DatasetError`` with a one-line description naming the file (and row or line).
    public func build(inputs: [URL], output: URL) throws -> DatasetBuildReport {
        try build(inputs: inputs, output: output, fingerprint: nil)
    }

    func build(inputs rawInputs: [URL], output: URL, fingerprint precomputed: String?) throws -> DatasetBuildReport {
        let started = Date()
        let (inputs, skippedInDirectories) = try Self.expand(rawInputs)
        let kinds = try inputs.map { try InputKind.detect($0) }
        let fingerprint = try precomputed ?? DatasetFingerprint.compute(inputs: inputs)
        var report = DatasetBuildReport(output: output, fingerprint: fingerprint)
        if skippedInDirectories > 0 { report.notes.append("\(skippedInDirectories) unrecognised files in input directories skipped") }

        // 1. Administrative units, mapping, centroids.
        let admin = AdminRegistry()
        var records: [Int] = Array(repeating: 0, count: inputs.count)
        var step = 0
        // Each input, addressing, writing the places; then, for OSM inputs, each one's map shapes, each one's roads, the
        // road graph and its contraction; last the sections' directory and the seal.
        let osmInputs = zip(inputs, kinds).filter { $0.1 == .osmXML || $0.1 == .osmPBF }.map(\.0)
        let steps = inputs.count + 3 + (osmInputs.isEmpty ? 0 : 2 * osmInputs.count + 1 + (contractionHierarchies ? 1 : 0))
        func announce(_ what: String) {
            MemoryWatch.returnFreedMemory()
            step += 1
            progress?("\(step)/\(steps) \(what) (\(String(format: "%.1f", Date().timeIntervalSince(started))) s)")
        }
        let isAdmin: Set<InputKind> = [.units2025JSON, .unitsPre2025JSON, .mappingNewToOldJSON, .mappingOldToNewJSON, .centroidCSV]
        for (index, (url, kind)) in zip(inputs, kinds).enumerated() {
            if isAdmin.contains(kind) { announce("reading \(url.lastPathComponent)") }
            switch kind {
            case .units2025JSON:
                let before = admin.newProvinces.count + admin.newWards.count
                try admin.loadUnits2025(url)
                records[index] = admin.newProvinces.count + admin.newWards.count - before
            case .unitsPre2025JSON:
                let before = admin.oldProvinces.count + admin.oldDistricts.count + admin.oldWards.count
                try admin.loadUnitsPre2025(url)
                records[index] = admin.oldProvinces.count + admin.oldDistricts.count + admin.oldWards.count - before
            case .mappingNewToOldJSON:
                let before = admin.newToOld.count
                try admin.loadNewToOld(url)
                records[index] = admin.newToOld.count - before
            case .mappingOldToNewJSON:
                let before = admin.oldToNew.count
                try admin.loadOldToNew(url)
                records[index] = admin.oldToNew.count - before
            case .centroidCSV:
                let before = admin.wardCentroids.count + admin.provinceCentroids.count
                try admin.loadCentroids(url)
                records[index] = admin.wardCentroids.count + admin.provinceCentroids.count - before
            default:
                break
            }
        }
        report.notes += admin.reconcileMappingCodes()
        report.notes += admin.assignCoordinates()
        for (present, what) in [(admin.hasUnits2025, "2025 units JSON"), (admin.hasUnitsPre2025, "pre-2025 units JSON"),
                                (admin.hasNewToOld, "new→old mapping JSON"), (admin.hasOldToNew, "old→new mapping JSON"),
                                (admin.hasCentroids, "unit centroid CSV")] where !present {
            report.notes.append("no \(what) among the inputs: addresses and coordinates that need it are incomplete")
        }

        // 2. Places from CSV, then POIs from OSM XML that no CSV gave.
        var places = PlaceSources()
        var osmNodes: [(index: Int, url: URL, nodes: [OSMPOIReader.POINode])] = []
        var osmStreets: [OSMPOIReader.StreetWay] = []
        var osmAddresses: [OSMPOIReader.AddressPoint] = []
        var streetAliases: [String: [String]] = [:]
        for (index, (url, kind)) in zip(inputs, kinds).enumerated() {
            if !isAdmin.contains(kind) { announce("reading \(url.lastPathComponent)") }
            switch kind {
            case .poiCSV: records[index] = try places.loadPOIs(url)
            case .streetCSV: records[index] = try places.loadStreets(url)
            case .addressCSV: records[index] = try places.loadAddresses(url)
            case .osmXML, .osmPBF:
                let read = try OSMPOIReader.readPOIs(url, areas: true)
                osmNodes.append((index, url, read.pois))
                streetAliases.merge(read.streetAliases) { $0 + $1 }
                osmStreets += read.streetWays
                osmAddresses += read.addresses
            default: break
            }
        }
        for (index, url, nodes) in osmNodes {
            let result = places.addOSMNodes(nodes, admin: admin)
            records[index] = nodes.count
            report.notes.append("\(url.lastPathComponent): \(nodes.count) named POI nodes and areas, \(result.added) added, \(result.present) already from CSV, \(result.outside) outside every ward bbox")
        }
        osmNodes = []
        let osmStreetCount = places.addOSMStreets(osmStreets, admin: admin)
        let osmAddressCount = places.addOSMAddresses(osmAddresses, admin: admin)
        let (osmStreetWays, osmAddressPoints) = (osmStreets.count, osmAddresses.count)
        (osmStreets, osmAddresses) = ([], [])
        if osmStreetWays > 0 { report.notes.append("OSM highways: \(osmStreetWays) named ways, \(osmStreetCount) streets added (names no CSV has)") }
        if osmAddressPoints > 0 { report.notes.append("OSM addresses: \(osmAddressPoints) house numbers, \(osmAddressCount) added") }
        let aliased = places.addStreetAliases(streetAliases)
        if aliased > 0 { report.notes.append("\(aliased) streets got other names (alt_name, old_name, …) from OSM ways") }
        report.cleaning = places.clean()
        for (rule, count) in report.cleaning.sorted(by: { $0.key < $1.key }) {
            report.notes.append("cleaning: \(rule) \(count)")
        }
        if places.duplicateKeys > 0 { report.notes.append("\(places.duplicateKeys) duplicate place keys skipped (first occurrence kept)") }
        if places.mergedStreetSpellings > 0 { report.notes.append("\(places.mergedStreetSpellings) street rows merged with another spelling of the same street in the same ward") }
        if places.skippedUnnamed > 0 { report.notes.append("\(places.skippedUnnamed) rows without a name skipped") }
        report.inputs = zip(zip(inputs, kinds), records).map { DatasetBuildReport.Input(url: $0.0, kind: $0.1, records: $1) }

        // 3. Old-format codes for every ordinary place.
        announce("addressing \(places.pois.count + places.streets.count + places.addresses.count) places")
        let resolver = OldCodeResolver(admin: admin, references: places.pois)
        for index in places.pois.indices { resolver.resolve(&places.pois[index]) }
        for index in places.streets.indices { resolver.resolve(&places.streets[index]) }
        for index in places.addresses.indices { resolver.resolve(&places.addresses[index]) }
        for place in [places.pois, places.streets, places.addresses].joined() {
            report.oldCodeSources[place.oldSource, default: 0] += 1
            if place.oldDistrictFromData && place.oldSource != .data { report.oldDistrictFromData += 1 }
        }

        // 4. Write the places and their search index, then read the roads, build the graph and
        // contract it, writing each structure as it is made and dropping what the next step does
        // not need: the places are not held while the roads are, nor one hierarchy with the others.
        try Self.writeAtomically(to: output) { path in
            announce("writing the places and their search index")
            var writer = DatasetWriter(path: path, admin: admin, places: places, inputs: inputs, fingerprint: fingerprint)
            places = PlaceSources()  // the writer's copy is the only one: it drops it once the rows are written
            let sections = try writer.write(into: &report)
            // The map shapes (buildings, water, land use…) before the roads: written and dropped first.
            var shapeSource = MapShapeSource()
            for url in osmInputs {
                announce("reading the map shapes of \(url.lastPathComponent)")
                let count = try shapeSource.read(url)
                report.notes.append("\(url.lastPathComponent): \(count) map shapes")
            }
            if !osmInputs.isEmpty {
                let shapes = MapShapes(shapeSource.shapes)
                shapeSource = MapShapeSource()
                let bytes = shapes.serialized()
                try sections.append(name: MapShapes.sectionName, bytes)
                for i in 0..<shapes.count { if let kind = shapes.kind(i) { report.mapShapeCounts[kind, default: 0] += 1 } }
                report.mapShapeBytes = bytes.count
            }
            var roads = RoadNetworkSource()
            for url in osmInputs {
                announce("reading the roads of \(url.lastPathComponent)")
                let roadWays = try roads.read(url)
                report.notes.append("\(url.lastPathComponent): \(roadWays) road ways")
            }
            if !osmInputs.isEmpty {
                announce(roads.isEmpty ? "no roads to build a graph from" : "building the road graph")
                if roads.isEmpty && contractionHierarchies { step += 1 }  // (no contraction step)
            }
            if !roads.isEmpty {
                let graph = RoadGraphBuilder.build(roads.takeInput())
                MemoryWatch.returnFreedMemory()
                try sections.append(name: RoadGraph.sectionName, graph.serialized())
                report.roadNodes = graph.storage.nodeCount
                report.roadEdges = graph.storage.edgeCount
                if contractionHierarchies {
                    let threads = RoadGraphImport.parallelism(stateCount: graph.searchStateCount,
                                                              availableBytes: MemoryWatch.availableBytes())
                    announce("contracting the road graph (\(Vehicle.allCases.count) vehicles, \(threads) at a time)")
                    try RoadGraphImport.contract(graph, parallelism: threads) { hierarchy, seconds in
                        try sections.append(name: ContractionHierarchy.sectionName(vehicle: hierarchy.vehicle.rawValue),
                                            hierarchy.serialized())
                        report.notes.append(String(format: "contraction hierarchy %@: %d states, %d arcs (%d shortcuts), %d bytes, %.2f s",
                                                   hierarchy.vehicle.name, hierarchy.stateCount, hierarchy.arcCount,
                                                   hierarchy.shortcutCount, hierarchy.byteCount, seconds))
                    }
                }
            }
            announce("writing the dataset's section directory and checksum")
            try sections.finish()
            try DatasetIntegrity.seal(path: path)
        }
        report.bytes = (try? FileManager.default.attributesOfItem(atPath: output.path)[.size] as? NSNumber)?.int64Value ?? 0
        report.seconds = Date().timeIntervalSince(started)
        return report
    }

    /// Files of `inputs`, with directories replaced by their recognisable files (sorted).
    static func expand(_ inputs: [URL]) throws -> ([URL], skipped: Int) {
        var files: [URL] = []
        var skipped = 0
        for url in inputs {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { throw DatasetError.missing(url) }
            if !isDirectory.boolValue {
                if let problem = InputFile.problem(atPath: url.path) { throw DatasetError(.unrecognisedInput, file: url.path, problem) }
                files.append(url)
                continue
            }
            let enumerator = FileManager.default.enumerator(at: url, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
            var found: [URL] = []
            while let item = enumerator?.nextObject() as? URL {
                guard InputFile.problem(atPath: item.path) == nil else { continue }
                if (try? InputKind.detect(item)) != nil { found.append(item) } else { skipped += 1 }
            }
            files += found.sorted { $0.path < $1.path }
        }
        return (files, skipped)
    }

    /// Runs `body` on a temporary path in `output`'s directory (``DatasetTemporaryFiles``), then
    /// renames it over `output`. On any error the temporary file is removed and `output` is
    /// untouched; while `body` runs, `DatasetTemporaryFiles.removeInProgress()` (a signal
    /// handler) can remove it.
    static func writeAtomically(to output: URL, _ body: (String) throws -> Void) throws {
        let directory = output.deletingLastPathComponent()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw DatasetError(.output, file: output.path, "output directory does not exist")
        }
        let temp = URL(fileURLWithPath: DatasetTemporaryFiles.path(for: output))
        DatasetTemporaryFiles.register(temp.path)
        var done = false
        defer { DatasetTemporaryFiles.finish(temp.path, keep: done) }
        try body(temp.path)
        // Flush to disk before the rename makes the file visible under its final name.
        if let handle = FileHandle(forUpdatingAtPath: temp.path) {
            try? handle.synchronize()
            try? handle.close()
        }
        guard rename(temp.path, output.path) == 0 else {
            let reason = String(cString: strerror(errno))
            throw DatasetError(.output, file: output.path, "cannot move the finished dataset into place: \(reason)")
        }
        done = true
    }
}
