import Dataset
import DriveTrace
import Foundation
import Routing
import VietMapSimulator

/// `vietmap-sim drive`: routes `--from` → `--via`… → `--to` in-process with route v4's router
/// over the default dataset (or `--db`), drives the route into timed GPS fixes (`DrivePlan`) and
/// streams them as GPX, NMEA or KML to `--out` (temporary file + rename) or stdout. Same options,
/// same bytes. Problems with the options — a drive of more than `DrivePlan.maxFixes` fixes
/// among them, counted before any is made — are usage errors (exit 64); no road near a point, no
/// route, or an unusable `--out`/`--db` are one line with exit code 1.
enum DriveCommand {
    static func run(_ parsed: CommandLineArguments) throws -> Int32 {
        let options = try DriveOptions(parsed)
        if let out = options.out { try OutputPath.check(out) }

        let path = try SimulatorServer.datasetPath(options.db, cacheDirectory: nil)
        guard let graph = try RoadGraphStore.load(databasePath: path) else {
            throw CLIError("\(path): this dataset has no roads; import one with OSM road input (`vietmap-sim import --out FILE city.osm.pbf`)")
        }
        let route: Route
        do {
            route = try Router.route(graph, points: options.points, vehicle: options.vehicle, options: options.routeOptions)
        } catch {
            throw CLIError(message(error, options))
        }
        let timeline = RouteTimeline(route: route)
        let fixes: [DriveFix]
        do {
            fixes = try options.plan.fixes(along: timeline)  // counted first: an oversized drive is refused before any fix is made
        } catch {
            throw UsageError(error.description)
        }
        let name = "vietmap-sim drive \(options.vehicle.name) " + options.pointLabels.joined(separator: " ")
        let seconds = (try? options.plan.duration(along: timeline)) ?? 0
        let summary = String(format: "%.1f m, route time %.1f s, trace %.1f s, %d fix%@ (%@)", route.distance,
                             timeline.duration, seconds, fixes.count, fixes.count == 1 ? "" : "es", options.format.rawValue)
        let trace = { (output: BufferedOutput) throws(CLIError) in
            try options.format.write(fixes, start: options.start, name: name, to: output.append)
        }
        if let out = options.out {
            try AtomicWrite.write(to: URL(fileURLWithPath: out)) { output in try trace(output) }
            FileHandle.standardError.write(Data("vietmap-sim: wrote \(out): \(summary)\n".utf8))
        } else {
            let output = BufferedOutput(FileHandle.standardOutput, name: "stdout")
            try trace(output)
            try output.flush()
            FileHandle.standardError.write(Data("vietmap-sim: \(summary)\n".utf8))
        }
        return 0
    }

    /// One line for a routing failure, naming the point as it was given.
    static func message(_ error: RoutingError, _ options: DriveOptions) -> String {
        let vehicle = options.vehicle.name
        switch error {
        case .pointNotFound(let index):
            return "no road for \(vehicle) within \(Int(options.routeOptions.maxSnapDistanceMeters)) m of \(options.pointLabels[index])"
        case .noRoute(let leg):
            return "no route for \(vehicle) from \(options.pointLabels[leg]) to \(options.pointLabels[leg + 1]) (the roads there are not connected)"
        case .tooManyPoints(let max):
            return "too many points: at most \(max)"
        case .tooFewPoints:
            return "a drive needs --from and --to"
        }
    }
}

extension DriveCommand {
    static let spec = CommandSpec(
        name: "drive",
        summary: "write a route's GPS trace (GPX/NMEA/KML) to replay on a device",
        positionals: .none,
        discussion: """
            Writes the GPS trace of a drive along the route route v4 answers (the same router, in-process)
            for replaying on a device: GPX for Xcode's simulated location and the Android emulator, NMEA
            for the emulator's `geo nmea`, KML. The fixes follow the router's own times, so the trace lasts
            the route's time (divided by --speed-factor) plus stops and detours. Same options, same bytes.
            Times AT are seconds on the trace's clock (0 = first fix). A trace has at most 1,000,000 fixes
            (counted before any is made; ≈ 180 MB of GPX) and is written out as it is made. See docs/drive.md.
            """,
        options: DriveOptions.options,
        run: { try run($0) })
}
