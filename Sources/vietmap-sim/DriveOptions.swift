import Foundation
import DriveTrace
import Routing

/// The options of `vietmap-sim drive`, parsed and checked before any work; every problem is a
/// one-line `UsageError` (exit code 64) naming the option and what it takes.
struct DriveOptions {
    static let options: [OptionSpec] = [
        .option("from", "LAT,LNG", required: true, "start"),
        .option("to", "LAT,LNG", required: true, "destination"),
        .option("via", "LAT,LNG", repeatable: true, "a stop on the way (repeatable, up to 1000 times)"),
        .option("vehicle", "V", .choice(vehicleNames), "route v4's vehicle: \(vehicleNames.joined(separator: ", ")) (default car)"),
        .option("format", "gpx|nmea|kml", .choice(TraceFormat.allCases.map(\.rawValue)), "gpx (default; or from --out's extension .gpx/.nmea/.kml), nmea, kml"),
        .option("out", "FILE", "write there (temporary file + rename); default stdout"),
        .option("db", "PATH", "dataset built by `vietmap-sim import` (default: the embedded one)"),
        .option("rate", "HZ", .number(0.01...50, unit: "fixes per second"), "fixes per second (default 1)"),
        .option("speed-factor", "F", .number(0.01...100, unit: "times the router's speed"), "drive F times as fast as the router's speeds (default 1)"),
        .option("noise", "METRES", .number(0...1000, unit: "metres"), "Gaussian GPS noise, standard deviation north and east (default 0)"),
        .option("seed", "N", .unsigned, "seed of the noise (default 1)"),
        .option("stop", "AT:D", repeatable: true, "stand still (speed 0) for D seconds from AT (repeatable, up to 1000 times)"),
        .option("detour", "M@AT", repeatable: true, "at AT leave the route at a right angle for M metres and come back (repeatable, up to 1000 times)"),
        .option("gap", "AT:D", repeatable: true, "no fixes for D seconds from AT, the vehicle moving on (repeatable, up to 1000 times)"),
        .option("start", "TIME", "UTC time of the first fix, YYYY-MM-DDTHH:MM:SSZ (default \(defaultStart))"),
    ]
    /// `--vehicle`'s names: route v4's, with `container` (a 30 t truck).
    static let vehicleNames = ["car", "motorcycle", "truck", "container", "bike", "foot"]
    /// How many times each of `--via`, `--stop`, `--detour` and `--gap` may be given.
    static let maxRepeats = 1_000
    /// `--start` when none is given: the same bytes on every run.
    static let defaultStart = "2026-01-01T08:00:00Z"

    var points: [GeoPoint]
    /// The coordinates as given, for messages (`--from 10.7,106.6`).
    var pointLabels: [String]
    var vehicle: Vehicle
    var routeOptions = RouteOptions()
    var format: TraceFormat
    var out: String?
    var db: String?
    var plan: DrivePlan
    /// Seconds since 1970 (UTC) of the first fix.
    var start: Int64

    init(_ options: CommandLineArguments) throws(UsageError) {
        let from = options.value("from")!, to = options.value("to")!  // required
        for option in ["via", "stop", "detour", "gap"] where options.all(option).count > Self.maxRepeats {
            throw Self.usage("--\(option) is given \(options.all(option).count) times; at most \(Self.maxRepeats)")
        }
        let named = [("--from", from)] + options.all("via").map { ("--via", $0) } + [("--to", to)]
        points = []
        pointLabels = []
        for (option, text) in named {
            points.append(try Self.coordinate(text, option: option))
            pointLabels.append("\(option) \(text)")
        }
        let vehicleName = options.value("vehicle") ?? "car"
        if vehicleName == "container" {  // as route v4: a 30 t truck
            vehicle = .truck
            routeOptions.truckCapacityKg = 30_000
        } else {
            vehicle = Vehicle(name: vehicleName)!  // one of the declared choices
        }
        routeOptions.maxPoints = max(25, points.count)
        out = options.value("out")
        db = options.value("db")
        if let name = options.value("format") {
            format = TraceFormat(rawValue: name)!  // one of the declared choices
        } else if let out, let f = TraceFormat(rawValue: String(out.split(separator: ".").last ?? "").lowercased()), out.contains(".") {
            format = f
        } else {
            format = .gpx
        }
        plan = DrivePlan()
        if let seed = options.unsigned("seed") { plan.seed = seed }
        plan.rate = options.number("rate") ?? 1
        plan.speedFactor = options.number("speed-factor") ?? 1
        plan.noiseMeters = options.number("noise") ?? 0
        let stops = try options.all("stop").map { text throws(UsageError) in
            let (at, duration) = try Self.pair(text, option: "--stop", separator: ":", form: "AT_SECONDS:DURATION")
            return DriveEvents.Stop(at: at, duration: duration)
        }
        let gaps = try options.all("gap").map { text throws(UsageError) in
            let (at, duration) = try Self.pair(text, option: "--gap", separator: ":", form: "AT_SECONDS:DURATION")
            return DriveEvents.Gap(at: at, duration: duration)
        }
        let detours = try options.all("detour").map { text throws(UsageError) in
            let (meters, at) = try Self.pair(text, option: "--detour", separator: "@", form: "METRES@AT_SECONDS")
            guard meters > 0 && meters <= 10_000 else { throw Self.usage("--detour METRES must be from 0 to 10000, got '\(text.prefix(40))'") }
            return DriveEvents.Detour(at: at, meters: meters)
        }
        plan.events = DriveEvents(stops: stops, detours: detours, gaps: gaps)
        let startText = options.value("start") ?? Self.defaultStart
        guard let startTime = TraceTime(iso8601: startText) else {
            throw Self.usage("--start must be a UTC time YYYY-MM-DDTHH:MM:SSZ (e.g. \(Self.defaultStart)), got '\(startText.prefix(40))'")
        }
        start = startTime.milliseconds / 1000
    }

    static func usage(_ text: String) -> UsageError {
        UsageError(text)
    }

    /// `LAT,LNG` in degrees (−90…90, −180…180).
    static func coordinate(_ text: String, option: String) throws(UsageError) -> GeoPoint {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let lat = Double(parts[0]), let lng = Double(parts[1]),
              lat.isFinite, lng.isFinite, abs(lat) <= 90, abs(lng) <= 180 else {
            throw usage("\(option) must be LAT,LNG with -90≤LAT≤90 and -180≤LNG≤180, got '\(text.prefix(40))'")
        }
        return GeoPoint(lat, lng)
    }

    /// Two non-negative numbers of seconds (or metres) joined by `separator`.
    static func pair(_ text: String, option: String, separator: Character,
                     form: String) throws(UsageError) -> (Double, Double) {
        let parts = text.split(separator: separator, omittingEmptySubsequences: false)
        guard parts.count == 2, let a = Double(parts[0]), let b = Double(parts[1]), a.isFinite, b.isFinite,
              a >= 0, b >= 0, a <= 86_400, b <= 86_400 else {
            throw usage("\(option) must be \(form) (numbers ≥ 0), got '\(text.prefix(40))'")
        }
        return (a, b)
    }
}
