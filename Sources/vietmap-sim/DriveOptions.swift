import Foundation
import DriveTrace
import Routing

/// The options of `vietmap-sim drive`, parsed and checked before any work; every problem is a
/// one-line `UsageError` (exit code 2) naming the option and what it takes.
struct DriveOptions {
    static let valued: Set<String> = ["from", "to", "via", "vehicle", "format", "out", "db", "seed", "rate",
                                      "speed-factor", "noise", "stop", "detour", "gap", "start"]
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

    init(_ options: CommandLineArguments) throws(CommandLineArguments.UsageError) {
        guard let from = options.value("from") else { throw Self.usage("drive needs --from LAT,LNG") }
        guard let to = options.value("to") else { throw Self.usage("drive needs --to LAT,LNG") }
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
        } else if let v = Vehicle(name: vehicleName) {
            vehicle = v
        } else {
            throw Self.usage("--vehicle must be one of car, motorcycle, truck, container, bike, foot, got '\(vehicleName.prefix(40))'")
        }
        routeOptions.maxPoints = max(25, points.count)
        out = options.value("out")
        db = options.value("db")
        if let name = options.value("format") {
            guard let f = TraceFormat(rawValue: name) else {
                throw Self.usage("--format must be one of gpx, nmea, kml, got '\(name.prefix(40))'")
            }
            format = f
        } else if let out, let f = TraceFormat(rawValue: String(out.split(separator: ".").last ?? "").lowercased()), out.contains(".") {
            format = f
        } else {
            format = .gpx
        }
        plan = DrivePlan()
        if let text = options.value("seed") {
            guard let seed = UInt64(text) else { throw Self.usage("--seed must be a whole number ≥ 0, got '\(text.prefix(40))'") }
            plan.seed = seed
        }
        plan.rate = try Self.number(options, "rate", in: 0.01...50, what: "fixes per second") ?? 1
        plan.speedFactor = try Self.number(options, "speed-factor", in: 0.01...100, what: "times the router's speed") ?? 1
        plan.noiseMeters = try Self.number(options, "noise", in: 0...1000, what: "metres") ?? 0
        let stops = try options.all("stop").map { text throws(CommandLineArguments.UsageError) in
            let (at, duration) = try Self.pair(text, option: "--stop", separator: ":", form: "AT_SECONDS:DURATION")
            return DriveEvents.Stop(at: at, duration: duration)
        }
        let gaps = try options.all("gap").map { text throws(CommandLineArguments.UsageError) in
            let (at, duration) = try Self.pair(text, option: "--gap", separator: ":", form: "AT_SECONDS:DURATION")
            return DriveEvents.Gap(at: at, duration: duration)
        }
        let detours = try options.all("detour").map { text throws(CommandLineArguments.UsageError) in
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

    static func usage(_ text: String) -> CommandLineArguments.UsageError {
        CommandLineArguments.UsageError(description: text)
    }

    /// `LAT,LNG` in degrees (−90…90, −180…180).
    static func coordinate(_ text: String, option: String) throws(CommandLineArguments.UsageError) -> GeoPoint {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let lat = Double(parts[0]), let lng = Double(parts[1]),
              lat.isFinite, lng.isFinite, abs(lat) <= 90, abs(lng) <= 180 else {
            throw usage("\(option) must be LAT,LNG with -90≤LAT≤90 and -180≤LNG≤180, got '\(text.prefix(40))'")
        }
        return GeoPoint(lat, lng)
    }

    static func number(_ options: CommandLineArguments, _ name: String, in range: ClosedRange<Double>,
                       what: String) throws(CommandLineArguments.UsageError) -> Double? {
        guard let text = options.value(name) else { return nil }
        guard let value = Double(text), range.contains(value) else {
            throw usage("--\(name) must be a number of \(what) from \(format(range.lowerBound)) to \(format(range.upperBound)), got '\(text.prefix(40))'")
        }
        return value
    }

    /// Two non-negative numbers of seconds (or metres) joined by `separator`.
    static func pair(_ text: String, option: String, separator: Character,
                     form: String) throws(CommandLineArguments.UsageError) -> (Double, Double) {
        let parts = text.split(separator: separator, omittingEmptySubsequences: false)
        guard parts.count == 2, let a = Double(parts[0]), let b = Double(parts[1]), a.isFinite, b.isFinite,
              a >= 0, b >= 0, a <= 86_400, b <= 86_400 else {
            throw usage("\(option) must be \(form) (numbers ≥ 0), got '\(text.prefix(40))'")
        }
        return (a, b)
    }

    static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
