import CountryMaker
import DefaultData
import Foundation

/// `vietmap-sim make-country --scale N --out FILE.osm.pbf [--seed S] [--from CITY.osm.pbf]`:
/// arguments checked before any work (scale, seed, a readable --from, a writable --out), one
/// progress line on stderr, the report on stdout.
enum MakeCountryCommand {
    static func run(_ options: CommandLineArguments) throws -> Int32 {
        let scale = options.integer("scale")!, out = options.value("out")!  // required
        let seed = options.unsigned("seed") ?? CountryMaker.defaultSeed
        let extraAddresses = options.integer("extra-addresses") ?? CountryMaker.defaultExtraAddresses
        try OutputPath.check(out)
        let input = options.value("from").map { URL(fileURLWithPath: $0) } ?? DefaultData.hcmcPBF
        guard FileManager.default.isReadableFile(atPath: input.path) else {
            throw CLIError("cannot read --from \(input.path): \(FileManager.default.fileExists(atPath: input.path) ? "permission denied" : "no such file")")
        }
        let csv = DefaultData.directory.appendingPathComponent("admin/units_2025_centroids_bbox.csv")
        let interactive = isatty(2) != 0
        var lastLength = 0
        let report: CountryMaker.Report
        do {
            report = try CountryMaker.make(
                .init(scale: scale, seed: seed, input: input, provincesCSV: csv, output: URL(fileURLWithPath: out),
                      extraAddresses: extraAddresses)
            ) { line in
                let text = "make-country: \(line)"
                if interactive {
                    FileHandle.standardError.write(Data(("\r" + text.padding(toLength: max(lastLength, text.count), withPad: " ", startingAt: 0)).utf8))
                    lastLength = text.count
                }
            }
        } catch {
            if interactive, lastLength > 0 { FileHandle.standardError.write(Data("\n".utf8)) }
            throw CLIError(error.description)
        }
        if interactive { FileHandle.standardError.write(Data("\n".utf8)) }
        for (index, copy) in report.copies.enumerated() {
            let centre = (lat: report.cityCentre.lat + copy.dLat, lng: report.cityCentre.lng + copy.dLng)
            print(String(format: "copy %d: %@ at %.4f,%.4f (%+.4f°, %+.4f°), node ids from %lld, way ids from %lld; %.0f%% of places outside every ward",
                         index + 1, copy.provinceName, centre.lat, centre.lng, copy.dLat, copy.dLng, copy.firstNodeID, copy.firstWayID,
                         copy.outsideWards * 100))
        }
        print(String(format: "stitch roads: %d (%.0f km, %d vertices of their own)", report.stitchRoads, report.stitchKm, report.stitchNodes))
        print(String(format: "wrote %@: %d copies, %d nodes, %d ways, %d relations (%d added address points), %d bytes in %.1f s",
                     out, report.copies.count, report.nodes, report.ways, report.relations, report.addedAddresses, report.bytes, report.seconds))
        return 0
    }
}

extension MakeCountryCommand {
    static let spec = CommandSpec(
        name: "make-country",
        summary: "a country-sized OSM extract copied from a city (for import)",
        positionals: .none,
        discussion: """
            Writes a country-sized OSM PBF for `vietmap-sim import`: the part of a city's extract the
            import uses (roads and their nodes, turn restrictions, POIs, named areas, address points),
            copied N times over Vietnam's 34 provinces (2025 scheme; several copies side by side per
            province when N > 34, never overlapping), ids renumbered, coordinates translated, place
            names and addr:city-like tags varied per copy, the copies joined by `highway=trunk` roads
            (a spanning tree plus a few extra links) between junctions of their main road networks.
            Every copy but the first gets K more house numbers along its streets (--extra-addresses).
            The same input, N and seed give a byte-identical file. The file is written to a temporary
            file and renamed into place when complete. Progress goes to stderr. See docs/country.md.
            """,
        options: [
            .option("scale", "N", .integer(1...CountryMaker.maxScale), required: true,
                    "number of copies, 1…\(CountryMaker.maxScale) (1 = the city alone, in place)"),
            .option("out", "FILE.osm.pbf", .nonEmpty, required: true, "where to write the .osm.pbf"),
            .option("seed", "S", .unsigned, "seed of the name variations, province order and extra links (default \(CountryMaker.defaultSeed))"),
            .option("from", "CITY.osm.pbf", "the city to copy, OSM PBF or XML (default: the embedded whole-HCMC 2018 extract, 59k road junctions)"),
            .option("extra-addresses", "K", .integer(0...1_000_000),
                    "house numbers added along the streets of every copy but the first (default \(CountryMaker.defaultExtraAddresses); 0 = plain copies)"),
        ],
        footer: "Data: derived from OpenStreetMap data, © OpenStreetMap contributors, ODbL 1.0 — like the input.",
        run: { try run($0) })
}
