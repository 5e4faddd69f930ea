import CountryMaker
import DefaultData
import Foundation

/// The default seed as the usage text shows it.
enum CountryMakerDefaults {
    static let seed = CountryMaker.defaultSeed
    static let extraAddresses = CountryMaker.defaultExtraAddresses
}

/// `vietmap-sim make-country --scale N --out FILE.osm.pbf [--seed S] [--from CITY.osm.pbf]`:
/// arguments checked before any work (scale, seed, a readable --from, a writable --out), one
/// progress line on stderr, the report on stdout.
enum MakeCountryCommand {
    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try CommandLineArguments(arguments, valued: ["scale", "out", "seed", "from", "extra-addresses"], boolean: ["help"])
        if options.has("help") { print(Usage.makeCountry); return 0 }
        guard options.positionals.isEmpty else {
            throw CommandLineArguments.UsageError(description: "make-country takes no positional arguments (got '\(options.positionals[0])')")
        }
        guard let scaleText = options.value("scale") else {
            throw CommandLineArguments.UsageError(description: "make-country needs --scale N (1…\(CountryMaker.maxScale))")
        }
        guard let scale = Int(scaleText), (1 ... CountryMaker.maxScale).contains(scale) else {
            throw CommandLineArguments.UsageError(description: "--scale must be an integer 1…\(CountryMaker.maxScale), not '\(scaleText)'")
        }
        var seed = CountryMaker.defaultSeed
        if let seedText = options.value("seed") {
            guard let value = UInt64(seedText) else {
                throw CommandLineArguments.UsageError(description: "--seed must be an unsigned integer, not '\(seedText)'")
            }
            seed = value
        }
        var extraAddresses = CountryMaker.defaultExtraAddresses
        if let text = options.value("extra-addresses") {
            guard let value = Int(text), (0 ... 1_000_000).contains(value) else {
                throw CommandLineArguments.UsageError(description: "--extra-addresses must be an integer 0…1000000, not '\(text)'")
            }
            extraAddresses = value
        }
        guard let out = options.value("out"), !out.isEmpty else {
            throw CommandLineArguments.UsageError(description: "make-country needs --out FILE.osm.pbf")
        }
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
