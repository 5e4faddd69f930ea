import Foundation
import Routing
import SeededRandom

/// How a route is driven into GPS fixes: fixes per second, how much faster than the router's
/// times, GPS noise, and the stops, detours and gaps of `events`. `fixes(along:)` is a pure
/// function of the plan and the route: the same plan gives the same fixes on every run. Its
/// cost is linear in the fixes and the events, and a plan of more than `maxFixes` fixes is
/// refused — counted from the schedule — before any is made.
public struct DrivePlan: Sendable, Equatable {
    /// Fixes per second (> 0).
    public var rate: Double
    /// Speeds are multiplied by this (> 0): 2 drives the route in half the router's time.
    public var speedFactor: Double
    /// Standard deviation in metres of the Gaussian noise added north and east to every fix (0 = none).
    public var noiseMeters: Double
    /// Seed of the noise (`SplitMix64`).
    public var seed: UInt64
    public var events: DriveEvents

    /// The slowest a detour is driven (m/s), so a detour that starts while standing still ends.
    public static let minimumDetourSpeed = 5.0
    /// Fixes a trace may have: ≈ 180 MB of GPX, 150 MB of KML, 140 MB of NMEA; 11.5 days at 1 Hz, 5.5 hours at 50 Hz.
    public static let maxFixes = 1_000_000

    public init(rate: Double = 1, speedFactor: Double = 1, noiseMeters: Double = 0, seed: UInt64 = 1,
                events: DriveEvents = DriveEvents()) {
        self.rate = rate
        self.speedFactor = speedFactor
        self.noiseMeters = noiseMeters
        self.seed = seed
        self.events = events
    }

    /// The fixes at 0, 1/rate, 2/rate, … up to the first tick at or after arrival (where the
    /// vehicle stands at the destination), without those inside a gap.
    public func fixes(along timeline: RouteTimeline) throws(DrivePlanError) -> [DriveFix] {
        let phases = try schedule(timeline)
        let end = phases.last?.end ?? 0
        let ticks = try tickCount(end: end) - 1
        // Gaps by start: at each tick those started so far say until when the signal is lost.
        let gaps = events.gaps.sorted { $0.at < $1.at }
        var nextGap = 0, lostUntil = -Double.infinity
        var generator = SplitMix64(seed: seed)
        var fixes: [DriveFix] = []
        fixes.reserveCapacity(ticks + 1)
        var phase = 0, skipped = false
        for k in 0...ticks {
            let t = Double(k) / rate
            // Two draws for every tick, kept or not: a gap does not shift the noise of later fixes.
            let north = noiseMeters > 0 ? generator.nextGaussian() * noiseMeters : 0
            let east = noiseMeters > 0 ? generator.nextGaussian() * noiseMeters : 0
            while nextGap < gaps.count && gaps[nextGap].at <= t {
                lostUntil = max(lostUntil, gaps[nextGap].at + gaps[nextGap].duration)
                nextGap += 1
            }
            if t < lostUntil { skipped = true; continue }
            while phase < phases.count - 1 && t >= phases[phase].end { phase += 1 }
            var fix = phases.isEmpty
                ? DriveFix(time: t, point: timeline.position(at: 0).point, speed: 0, course: 0)
                : phases[phase].fix(at: t, timeline: timeline, speedFactor: speedFactor)
            fix.time = t  // the tick, also after arrival (the phase clamps its own clock)
            fix.point = Self.offset(fix.point, north: north, east: east)
            fix.resumesAfterGap = skipped && !fixes.isEmpty
            skipped = false
            fixes.append(fix)
        }
        return fixes
    }

    /// The trace's length in seconds: the route's time / `speedFactor`, plus stops and detours.
    public func duration(along timeline: RouteTimeline) throws(DrivePlanError) -> Double {
        try schedule(timeline).last?.end ?? 0
    }

    /// How many ticks the trace has — its fixes, those in gaps included — counted from the
    /// schedule without making them; throws `tooManyFixes` beyond `maxFixes`.
    public func fixCount(along timeline: RouteTimeline) throws(DrivePlanError) -> Int {
        try tickCount(end: schedule(timeline).last?.end ?? 0)
    }

    /// Ticks at 0, 1/rate, … up to the first at or after `end`.
    private func tickCount(end: Double) throws(DrivePlanError) -> Int {
        let last = max(0, (end * rate - 1e-9).rounded(.up))
        guard last.isFinite, last < Double(Self.maxFixes) else {
            throw DrivePlanError.tooManyFixes(fixes: last + 1, seconds: end, rate: rate, speedFactor: speedFactor)
        }
        return Int(last) + 1
    }

    /// One stretch of the trace's clock.
    struct Phase {
        enum Kind {
            /// Following the route from `routeStart` (route seconds).
            case drive(routeStart: Double)
            /// Standing at a point.
            case stop(RouteTimeline.Position)
            /// Out `meters` at a right angle from a point and back, at `speed`.
            case detour(RouteTimeline.Position, meters: Double, speed: Double)
        }
        var start: Double
        var end: Double
        var kind: Kind

        func fix(at t: Double, timeline: RouteTimeline, speedFactor: Double) -> DriveFix {
            let t = min(max(t, start), end)
            switch kind {
            case .drive(let routeStart):
                let position = timeline.position(at: routeStart + (t - start) * speedFactor)
                let arrived = t >= end && routeStart + (end - start) * speedFactor >= timeline.duration - 1e-9
                return DriveFix(time: t, point: position.point, speed: arrived ? 0 : position.speed * speedFactor,
                                course: position.course)
            case .stop(let position):
                return DriveFix(time: t, point: position.point, speed: 0, course: position.course)
            case .detour(let position, let meters, let speed):
                let half = (end - start) / 2
                let outbound = t - start < half
                let away = half > 0 ? meters * (1 - abs((t - start) / half - 1)) : 0
                let bearing = (position.course + 90).truncatingRemainder(dividingBy: 360)
                let radians = bearing * Double.pi / 180
                let point = DrivePlan.offset(position.point, north: away * cos(radians), east: away * sin(radians))
                return DriveFix(time: t, point: point, speed: speed,
                                course: outbound ? bearing : (bearing + 180).truncatingRemainder(dividingBy: 360))
            }
        }
    }

    /// The phases in clock order: drives between the stops and detours, the last drive ending at arrival.
    func schedule(_ timeline: RouteTimeline) throws(DrivePlanError) -> [Phase] {
        enum Event { case stop(DriveEvents.Stop), detour(DriveEvents.Detour) }
        let events = (events.stops.map { (at: $0.at, event: Event.stop($0)) } + events.detours.map { (at: $0.at, event: Event.detour($0)) })
            .enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element)
        var phases: [Phase] = []
        var clock = 0.0, routeTime = 0.0
        for (at, event) in events {
            if at > clock {
                let advance = (at - clock) * speedFactor
                guard routeTime + advance <= timeline.duration + 1e-9 else {
                    throw DrivePlanError.eventAfterArrival(at: at, arrival: clock + (timeline.duration - routeTime) / speedFactor)
                }
                phases.append(Phase(start: clock, end: at, kind: .drive(routeStart: routeTime)))
                routeTime += advance
                clock = at
            }
            let position = timeline.position(at: routeTime)
            switch event {
            case .stop(let stop):
                phases.append(Phase(start: clock, end: clock + stop.duration, kind: .stop(position)))
                clock += stop.duration
            case .detour(let detour):
                // Out and back at the speed there, each half a whole number of ticks long so a
                // fix lands on the farthest point (when the detour starts on a tick).
                let fastest = max(position.speed * speedFactor, Self.minimumDetourSpeed)
                let half = max(1, (detour.meters / fastest * rate).rounded(.up)) / rate
                let speed = detour.meters / half
                let length = 2 * half
                phases.append(Phase(start: clock, end: clock + length, kind: .detour(position, meters: detour.meters, speed: speed)))
                clock += length
            }
        }
        phases.append(Phase(start: clock, end: clock + (timeline.duration - routeTime) / speedFactor,
                            kind: .drive(routeStart: routeTime)))
        return phases
    }

    /// `point` moved `north` and `east` metres (flat-earth: exact enough over a few kilometres).
    static func offset(_ point: GeoPoint, north: Double, east: Double) -> GeoPoint {
        guard north != 0 || east != 0 else { return point }
        let metresPerDegree = Geo.metresPerDegree
        return GeoPoint(point.latitude + north / metresPerDegree,
                        point.longitude + east / (metresPerDegree * cos(point.latitude * Double.pi / 180)))
    }
}

/// Why a drive cannot be planned.
public enum DrivePlanError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stop or detour starts at `at` seconds, after the vehicle arrives (at `arrival`).
    case eventAfterArrival(at: Double, arrival: Double)
    /// The trace would have `fixes` fixes (`seconds` long at `rate` per second), more than `DrivePlan.maxFixes`.
    case tooManyFixes(fixes: Double, seconds: Double, rate: Double, speedFactor: Double)

    public var description: String {
        switch self {
        case .eventAfterArrival(let at, let arrival):
            String(format: "a --stop/--detour at %gs starts after the arrival at %.1fs; give a time within the drive", at, arrival)
        case let .tooManyFixes(fixes, seconds, rate, speedFactor):
            String(format: "the trace would have %.0f fixes (%.0f s at --rate %g, --speed-factor %g, with --stop and --detour); at most %d: lower --rate, raise --speed-factor or shorten the stops",
                   fixes, seconds, rate, speedFactor, DrivePlan.maxFixes)
        }
    }
}
